package answer

import (
	"testing"

	"github.com/fonte-rag/fonte"
)

// When the sentences that name one alternative each lack a word of the
// question that a sentence naming the other holds, the context does not
// settle the choice for the question's case: neither is quoted, and a
// sentence that weighs both alternatives is, though it shares fewer
// words with the question.
func TestChoiceOfAnotherCaseIsNotQuoted(t *testing.T) {
	for _, c := range [][4]string{
		{"We're building a new web service. Should it use Postgres or Redis?",
			"When building a new service, use the latest Redis release that your platform supports.",
			"Web services keep their data in Postgres.",
			"Redis can hold a cache, but Postgres is the store we prefer."},
		{"Stiamo creando un nuovo servizio web. Deve usare Postgres o Redis?",
			"Quando si crea un nuovo servizio, usate l'ultima versione di Redis supportata dalla piattaforma.",
			"I servizi web tengono i dati in Postgres.",
			"Redis può fare da cache, ma preferiamo Postgres come archivio."},
	} {
		chunks := []fonte.Chunk{{ID: "a", Text: c[1]}, {ID: "b", Text: c[2]}, {ID: "c", Text: c[3]}}
		if got, n, _ := ExtractSpan(c[0], chunks); n != 3 {
			t.Errorf("%q: quoted [%d] %q, want the third chunk, which weighs both", c[0], n, got)
		}
		if got, n, _ := ExtractSpan(c[0], chunks[:2]); n != 0 {
			t.Errorf("%q: quoted [%d] %q from two sentences of different cases, want nothing", c[0], n, got)
		}
	}
}

func TestAlternatives(t *testing.T) {
	for q, want := range map[string][2]string{
		"Should Dependabot check for updates daily or weekly?":   {"daily", "weekly"},
		"Who merges a pull request, the author or the reviewer?": {"author", "reviewer"},
		"È meglio un mirror locale o un proxy?":                  {"locale", "proxy"},
		"How long does the review take?":                         {},
	} {
		alts := alternatives(q)
		if want[0] == "" {
			if alts != nil {
				t.Errorf("alternatives(%q) = %v, want none", q, alts)
			}
			continue
		}
		if alts == nil || !hasAny(alts[0], ContentKeys(want[0])) || !hasAny(alts[1], ContentKeys(want[1])) {
			t.Errorf("alternatives(%q) = %v, want %q", q, alts, want)
		}
	}
}
