package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// A duration said without a figure of its own ("a few days", "one and a
// half hours", "un'ora e mezza") answers how long; it does not answer how
// many days.
func TestVagueDurations(t *testing.T) {
	for _, c := range []struct{ question, text, lead string }{
		{"How long does the induction course take?", "The induction course takes a few days and ends with a short test.", "a few days"},
		{"How long should the kick-off meeting last?", "The kick-off meeting should last one and a half hours at most.", "one and a half hours"},
		{"Quanto dura il corso di formazione?", "Il corso di formazione dura un'ora e mezza, in aula.", "un'ora e mezza"},
	} {
		got, n, _ := ExtractSpan(c.question, []fonte.Chunk{{ID: "c", Text: c.text}})
		if n != 1 || !strings.HasPrefix(got, c.lead+" — ") {
			t.Errorf("%q: got %q, want the lead %q", c.question, got, c.lead)
		}
		if !holdsAskedKind(c.question, []fonte.Hit{{Chunk: fonte.Chunk{Text: c.text}}}, nil) {
			t.Errorf("%q: the passage states a duration", c.question)
		}
	}
	// "Quanti giorni" asks for a figure, which "alcuni giorni" is not.
	hits := []fonte.Hit{{Chunk: fonte.Chunk{Text: "Il rimborso delle spese richiede alcuni giorni lavorativi."}}}
	if holdsAskedKind("Quanti giorni servono per il rimborso delle spese?", hits, nil) {
		t.Error("alcuni giorni taken for a number of days")
	}
	got, _, _ := ExtractSpan("Quanti giorni servono per il rimborso delle spese?", Chunks(hits))
	if strings.Contains(got, " — ") {
		t.Errorf("a vague amount led a how-many answer: %q", got)
	}
}

// A number word counts like a figure when the question's noun follows it
// ("only one key"), and not alone ("one of the desks").
func TestCountWords(t *testing.T) {
	for _, c := range []struct{ question, text, lead string }{
		{"How many keys does each desk get?", "Each desk gets only one key, kept at reception.", "one key"},
		{"Quante copie del contratto servono?", "Servono due copie del contratto, firmate.", "due copie"},
	} {
		got, n, _ := ExtractSpan(c.question, []fonte.Chunk{{ID: "c", Text: c.text}})
		if n != 1 || !strings.HasPrefix(got, c.lead+" — ") {
			t.Errorf("%q: got %q, want the lead %q", c.question, got, c.lead)
		}
	}
	hits := []fonte.Hit{{Chunk: fonte.Chunk{Text: "Each desk is one of the fixed desks on the floor and has a drawer."}}}
	if holdsAskedKind("How many keys does each desk get?", hits, nil) {
		t.Error("a lone number word taken for a count of keys")
	}
}
