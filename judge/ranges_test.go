package judge

import "testing"

// TestRangeEnds pins README's rule 4: one end of a reference's range
// stated as the figure is misleading, a bound is partial, both ends are
// right, and two figures joined by "and" are no range.
func TestRangeEnds(t *testing.T) {
	for _, c := range []struct {
		question, reference, answer string
		want                        Verdict
	}{
		{"How long does delivery take?", "2 to 4 working days.", "4 working days.", Misleading},
		{"How long does delivery take?", "2 to 4 working days.", "Up to 4 working days.", Partial},
		{"How long does delivery take?", "2 to 4 working days.", "Between two and four working days.", Right},
		{"Quanto dura la consegna?", "Da 2 a 4 giorni lavorativi.", "2 giorni lavorativi.", Misleading},
		{"Quanto dura la consegna?", "Da 2 a 4 giorni lavorativi.", "Fino a 4 giorni lavorativi.", Partial},
		{"Which modules are required?", "Modules 3 and 5.", "Module 3.", Partial},
	} {
		if got := Judge(c.question, c.reference, c.answer, false); got.Verdict != c.want {
			t.Errorf("Judge(%q, %q, %q) = %s (%s), want %s", c.question, c.reference, c.answer, got.Verdict, got.Why, c.want)
		}
	}
}
