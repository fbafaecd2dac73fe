package judge

import "testing"

// TestNameInTheOtherLanguage pins that an answer in the other language
// states a name that is a common noun by its translation ("Finanza"
// for Finance, "Production" for Produzione), and is not read as
// naming another thing in its place; and that in the reference's own
// language another word sharing the name's start is another name.
func TestNameInTheOtherLanguage(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"Italian answer, English name", "Who signs off a new supplier?", "Your line manager, then Finance.",
			"Il tuo responsabile e poi l'ufficio Finanza.", Right},
		{"English answer, Italian name", "Chi approva il fornitore?", "Il responsabile, poi l'ufficio Produzione.",
			"Your manager, and then the Production office.", Right},
		{"same language, another word", "Who signs off a new course?", "Your line manager, then Training.",
			"Your line manager, and then the Trainee Desk.", Misleading},
	})
}
