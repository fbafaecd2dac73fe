package judge

import "testing"

// TestYesNoBeforeAnException checks a reference that opens with a yes
// or no and sets an exception after a comma: the yes or no is its key
// fact, the exception is context, and a clause after the exception's
// comma is the reference's again ("con la firma del dirigente").
func TestYesNoBeforeAnException(t *testing.T) {
	for _, c := range []struct {
		name, question, reference, answer string
		want                              Verdict
	}{
		{"bare yes to a yes with an exception and a requirement", "Il verbale va pubblicato sul portale?",
			"Sì, salvo che il regolamento disponga altrimenti, con la firma del dirigente.", "Sì.", Partial},
		{"the yes with its requirement", "Il verbale va pubblicato sul portale?",
			"Sì, salvo che il regolamento disponga altrimenti, con la firma del dirigente.",
			"Sì, se il regolamento non dice diversamente, e serve la firma del dirigente.", Right},
		{"no to a yes with an exception", "Il verbale va pubblicato sul portale?",
			"Sì, salvo che il regolamento disponga altrimenti, con la firma del dirigente.", "No, non va pubblicato.", Misleading},
		{"english yes with its requirement", "Must the minutes go on the portal?",
			"Yes, except where the rules say otherwise, with the director's signature.",
			"Yes, unless the rules say otherwise; the director must sign them first, signature and all.", Right},
		{"english bare yes", "Must the minutes go on the portal?",
			"Yes, except where the rules say otherwise, with the director's signature.", "Yes.", Partial},
	} {
		if got := Judge(c.question, c.reference, c.answer, false); got.Verdict != c.want {
			t.Errorf("%s: %q: got %s (%s), want %s", c.name, c.answer, got.Verdict, got.Why, c.want)
		}
	}
}
