package judge

import "testing"

// TestWhenAnsweredByAPart pins that to a "when" question whose reference
// gives no time, date or period, only a count, an answer that states
// the reference's time clause whole is partial, in both languages; where
// the reference's figure is a time, the clause without it is not read
// as a part.
func TestWhenAnsweredByAPart(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"the time clause", "When should we rotate the signing keys?", "After each security incident, following the 5 steps of the runbook.",
			"After each security incident.", Partial},
		{"la parte del quando", "Quando vanno ruotate le chiavi di firma?", "Dopo ogni incidente di sicurezza, seguendo i 5 passi della procedura.",
			"Dopo ogni incidente di sicurezza.", Partial},
		{"a time figure missed", "When should we rotate the signing keys?", "Every 90 days, after the security review.",
			"After the security review.", Wrong},
	})
}
