package judge

import "testing"

// TestOpeningConditionSaysNoPolarity pins that a negation inside a
// condition that opens the sentence ("If it was never used, …", "Se
// non è mai stato attivato, …") is the case the answer sets, not its no:
// the main clause after the comma answers, so granting it there on a
// condition contradicts a plain no, and a denial there still says no.
func TestOpeningConditionSaysNoPolarity(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"grant after an if with never", "Can I reuse my old access badge?", "No. Ask reception for a new one.",
			"If the badge was never activated, then as long as security agrees it may be fine to reuse the old badge.", Misleading},
		{"grant after a se with non", "Posso riutilizzare il vecchio badge?", "No. Va chiesto un badge nuovo alla reception.",
			"Se il badge non è mai stato attivato, allora si può riutilizzare il vecchio badge purché la sicurezza sia d'accordo.", Misleading},
		{"denial after an if", "Can I reuse my old access badge?", "No.",
			"If the badge has been activated, you cannot reuse the old badge.", Right},
		{"denial after a se", "Posso riutilizzare il vecchio badge?", "No.",
			"Se il badge è già stato attivato, non si può riutilizzare il vecchio badge.", Right},
	})
}
