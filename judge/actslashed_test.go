package judge

import "testing"

// An act the reference writes "number/year" is stated by an answer that
// names it by its number and date, either way round; another number of
// the same year still contradicts it.
func TestActNamedByNumberAndDate(t *testing.T) {
	q, ref := "Con quale circolare sono state fissate le regole del registro?", "Circolare AgID 4/2019."
	for _, c := range []struct {
		answer string
		want   Verdict
	}{
		{"Circolare AGID 9 aprile 2019, n. 4, sul registro dei fornitori. [1]", Right},
		{"Con la circolare AgID n. 4 del 2019. [1]", Right},
		{"Con la circolare n. 4 del 2019. [1]", Partial}, // the issuer is a name the reference gives
		{"Circolare AgID 4/2019. [1]", Right},
		{"Circolare AGID 9 aprile 2019, n. 5. [1]", Misleading},
	} {
		if r := Judge(q, ref, c.answer, false); r.Verdict != c.want {
			t.Errorf("%q: %v (%s), want %v", c.answer, r.Verdict, r.Why, c.want)
		}
	}
}
