package judge

import "testing"

// TestNotWithoutIsOnlyIf pins that "only if" answering "no, not
// without" repeats the reference's condition instead of granting what
// it denies, in both languages, and that "only if" does not restrict the
// reference's names to those the condition names.
func TestNotWithoutIsOnlyIf(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"only if for not without", "Can we move the service to another cloud?", "No, not without a written risk assessment.",
			"Only if you have a written risk assessment.", Right},
		{"solo se per non senza", "Possiamo spostare il servizio su un altro cloud?", "No, non senza una valutazione dei rischi scritta.",
			"Solo se c'è una valutazione dei rischi scritta.", Right},
		{"a plain yes", "Can we move the service to another cloud?", "No, not without a written risk assessment.",
			"Yes, whenever you like.", Misleading},
	})
}
