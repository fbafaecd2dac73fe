package judge

import "testing"

// TestYesThenGrantsWhatIsDenied pins that a yes followed by a contrast
// that grants what the reference's reason denies is misleading, in both
// languages, and that a contrast granting something else is not.
func TestYesThenGrantsWhatIsDenied(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"sì, ma si può", "La chiave dell'armadietto è personale?", "Sì, non può essere prestata ai colleghi.",
			"Sì, ma si può prestare ai colleghi del proprio turno.", Misleading},
		{"yes, but you may", "Is the locker key personal?", "Yes, it may not be shared with colleagues.",
			"Yes, but you may share it with colleagues on your shift.", Misleading},
		{"a contrast on something else", "Is the locker key personal?", "Yes, it may not be shared with colleagues.",
			"Yes, it may not be shared with colleagues, but you can ask for a spare at reception.", Right},
	})
}
