package judge

import "testing"

// TestFractionInWords pins that a fraction said in words states the
// percentage it makes, in both languages ("half" for 50%, "tre quarti"
// for 75%), and that a fraction of an hour ("half an hour", "un quarto
// d'ora") is no share and does not state one.
func TestFractionInWords(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"half", "What share of the fee is refunded?", "50%.", "Half of it.", Right},
		{"la metà", "Che quota della tassa viene rimborsata?", "Il 50%.", "La metà.", Right},
		{"three quarters", "What share of the seats are reserved?", "75%.", "Three quarters.", Right},
		{"tre quarti", "Che quota dei posti è riservata?", "Il 75%.", "Tre quarti dei posti.", Right},
	})
	for _, c := range []struct{ name, question, reference, answer string }{
		{"half an hour", "What share of the fee is refunded?", "50%.", "Within half an hour."},
		{"un quarto d'ora", "Che quota dei posti è riservata?", "Il 25%.", "Entro un quarto d'ora."},
	} {
		if got := Judge(c.question, c.reference, c.answer, false); got.Verdict == Right {
			t.Errorf("%s is no share: Judge(%q, %q) = %s (%s)", c.name, c.reference, c.answer, got.Verdict, got.Why)
		}
	}
}
