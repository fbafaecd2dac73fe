package judge

import "testing"

// TestOwnWordsBeforeTheName pins that an answer whose first clause
// answers in words of its own, with no name, code or figure, and names
// the reference's thing only in a later clause puts another answer
// first, in both languages; the reference's name in the first clause,
// or a first clause of the question's and reference's own words, is no
// such answer.
func TestOwnWordsBeforeTheName(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"email before the channel", "Where should I post updates during an outage?", "In the #outages Slack channel.",
			"Send them by email to the whole department mailing list; the #outages Slack channel is for engineers' chatter.", Misleading},
		{"posta prima del canale", "Dove pubblico gli aggiornamenti durante un guasto?", "Nel canale Slack #guasti.",
			"Mandali per posta elettronica alla lista di distribuzione dell'ufficio; il canale Slack #guasti serve alle chiacchiere dei tecnici.", Misleading},
		{"the channel first", "Where should I post updates during an outage?", "In the #outages Slack channel.",
			"In the #outages Slack channel; everyone on the rota reads it.", Right},
		{"il canale prima", "Dove pubblico gli aggiornamenti durante un guasto?", "Nel canale Slack #guasti.",
			"Nel canale Slack #guasti, che leggono tutti i reperibili.", Right},
	})
}
