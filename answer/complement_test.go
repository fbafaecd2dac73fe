package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// TestComplementIsNoCondition: a figure in what a verb of saying or
// meaning states ("this means that you will need at least six …") is
// the rule's figure, and may lead, in English and Italian; a figure in a
// relative clause or after "if" is still a threshold.
func TestComplementIsNoCondition(t *testing.T) {
	for _, c := range []struct {
		before string
		want   bool
	}{
		{"This means that you will need at least", false},
		{"Questo significa che servono almeno", false},
		{"The policy requires that each office has at least", false},
		{"Any trip that lasts over", true},
		{"This means that any trip that lasts over", true},
		{"If the order is more than", true},
	} {
		if got := threshold(c.before); got != c.want {
			t.Errorf("threshold(%q) = %v, want %v", c.before, got, c.want)
		}
	}
	for _, c := range []struct{ question, text, want string }{
		{"How many volunteers does the first-aid rota need to run fairly?",
			"To keep it fair, a few rules apply:\n\n- nobody covers more than one shift in three. This means that the first-aid rota will need at least six volunteers to run fairly.\n- at least two volunteers are on duty at any one time.",
			"six volunteers — "},
		{"Quanti volontari servono al turno di primo soccorso per funzionare in modo equo?",
			"Per essere equo, il turno segue alcune regole:\n\n- nessuno copre più di un turno su tre. Questo significa che al turno di primo soccorso servono almeno otto volontari per funzionare in modo equo.\n- almeno due volontari sono di servizio in ogni momento.",
			"otto volontari — "},
	} {
		startsWith(t, c.question, c.text, c.want)
	}
}

// startsWith checks that the offline answerer, given text as one chunk,
// quotes it and its answer to question starts with want.
func startsWith(t *testing.T, question, text, want string) {
	t.Helper()
	got, n, _ := ExtractSpan(question, []fonte.Chunk{{ID: "c", Text: text}})
	if n != 1 || !strings.HasPrefix(got, want) {
		t.Errorf("%q: got %q, want it to start %q", question, got, want)
	}
}
