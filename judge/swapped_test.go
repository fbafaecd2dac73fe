package judge

import "testing"

// TestSwappedNameWords pins that a name of the reference with one word
// swapped for a word of the answer's own is another name, and that the
// name itself, a short form of it or its words rearranged by the
// reference's own words are not.
func TestSwappedNameWords(t *testing.T) {
	for _, c := range []struct {
		name                        string
		question, reference, answer string
		want                        Verdict
	}{
		{"a word swapped", "Which service sends the reminder texts?", "GOV.UK Notify.", "GOV.UK Pay.", Misleading},
		{"a word swapped, in Italian", "Chi rimborsa le visite specialistiche?", "Il Servizio Sanitario Regionale.", "Il Servizio Tecnico Regionale.", Misleading},
		{"the name itself", "Chi rimborsa le visite specialistiche?", "Il Servizio Sanitario Regionale.", "Il Servizio Sanitario Regionale, tramite il CUP.", Right},
		{"a word of the reference's", "Which service sends the reminder texts?", "GOV.UK Notify.", "Notify, the GOV.UK service.", Right},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Judge(c.question, c.reference, c.answer, false); got.Verdict != c.want {
				t.Errorf("Judge(%q, %q) = %s, want %s\n%+v", c.reference, c.answer, got.Verdict, c.want, got)
			}
		})
	}
}
