package judge

import "testing"

// TestNamedListOpensSentence pins that a capitalised word opening a
// reference is a name when a list of names follows it ("Thunderbird and
// Outlook", "Thunderbird, Outlook e Evolution"), in both languages: an
// answer naming only another item is partial, not a contradiction, and
// one naming neither is another answer.
func TestNamedListOpensSentence(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"the first item alone", "Which mail clients are supported?", "Thunderbird and Outlook.", "Thunderbird.", Partial},
		{"il primo da solo", "Quali client di posta sono supportati?", "Thunderbird, Outlook e Evolution.", "Thunderbird.", Partial},
		{"every item", "Quali client di posta sono supportati?", "Thunderbird, Outlook e Evolution.", "Evolution, Outlook e Thunderbird.", Right},
		{"another client", "Which mail clients are supported?", "Thunderbird and Outlook.", "Mailspring.", Misleading},
	})
}
