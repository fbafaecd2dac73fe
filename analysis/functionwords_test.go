package analysis

import (
	"slices"
	"testing"
)

// FunctionWords finds the grammar words the stop lists keep, by their
// class and their place, and leaves the same words alone where they are
// the subject ("lo Stato", "dire al cliente").
func TestFunctionWords(t *testing.T) {
	for _, c := range []struct {
		q         string
		want, not []string
	}{
		{q: "Does capitalisation matter in tag names?", want: []string{"does"}},
		{q: "Can I roll over the holiday I didn't use?", want: []string{"didn"}},
		{q: "Why doesn’t the build start?", want: []string{"doesn"}},
		{q: "Con quale atto è stato costituito il gruppo?", want: []string{"stato"}},
		{q: "Il software non è ancora stato rilasciato?", want: []string{"stato"}},
		{q: "Le domande sono state respinte?", want: []string{"state"}},
		{q: "Qual è lo stato del progetto?", not: []string{"stato"}},
		{q: "Quali imposte paga lo Stato?", not: []string{"stato"}},
		{q: "Cosa vuol dire repertorio?", want: []string{"vuol", "dire"}},
		{q: "Cosa devo dire al cliente?", not: []string{"dire"}},
		{q: "Che MTA conviene installare su un portatile?", want: []string{"conviene"}},
		{q: "Non riesco ad accedere da remoto", want: []string{"riesco"}},
		{q: "How many days of leave do I get?", not: []string{"days", "leave"}},
		// Light verbs ask what does something (lightVerbs); the nouns
		// that share a form with a verb are no light verbs.
		{q: "Quale parte di PROV dà una notazione leggibile dalle persone?", want: []string{"dà"}},
		{q: "Chi fa da aggregatore territoriale?", want: []string{"fa"}},
		{q: "Cosa fanno i referenti tematici?", want: []string{"fanno"}},
		{q: "Which tool gives the coverage report?", want: []string{"gives"}},
		{q: "Chi risponde del danno erariale?", not: []string{"danno"}},
	} {
		got := FunctionWords(c.q)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("FunctionWords(%q) = %q, want %q among them", c.q, got, w)
			}
		}
		for _, w := range c.not {
			if slices.Contains(got, w) {
				t.Errorf("FunctionWords(%q) = %q, want no %q", c.q, got, w)
			}
		}
	}
}
