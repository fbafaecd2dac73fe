package judge

import "testing"

// TestBareUnknownAbstains pins that a bare "Unknown." or "Not
// specified." abstains in both languages, as "I don't know" does
// (README rule 10), and that the same words in a clause that answers
// ("The cause is unknown, so the fee is 40 euro") do not.
func TestBareUnknownAbstains(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"unknown", "How long is the trial period?", "4 months.", "Unknown.", Abstained},
		{"not specified, and where", "How long is the trial period?", "4 months.", "Not specified in the handbook.", Abstained},
		{"non è specificato", "Quanto dura il periodo di prova?", "4 mesi.", "Non è specificato.", Abstained},
		{"non indicato, e dove", "Quanto dura il periodo di prova?", "4 mesi.", "Non indicato nella guida.", Abstained},
		{"unknown inside an answer", "How much is the late fee?", "40 euro.", "The reason is unknown, but the fee is 40 euro.", Right},
	})
}
