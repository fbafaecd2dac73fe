package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

func TestModalMatch(t *testing.T) {
	for _, c := range []struct {
		question, s string
		want        bool
	}{
		{"Can I bring a guest?", "You may bring one guest.", true},
		{"Can I bring a guest?", "Guests are not allowed.", true},
		{"Can I bring a guest?", "Each guest must sign in.", false},
		{"Must a guest sign in?", "Each guest must sign in.", true},
		{"Must a guest sign in?", "You may bring one guest.", false},
		{"Posso portare un ospite?", "Si può portare un ospite.", true},
		{"Posso portare un ospite?", "Ogni ospite deve registrarsi.", false},
		{"Where do guests sign in?", "Each guest must sign in.", false},
	} {
		if got := askedModality(c.question).matches(c.s); got != c.want {
			t.Errorf("askedModality(%q).matches(%q) = %v, want %v", c.question, c.s, got, c.want)
		}
	}
}

// Two sentences share as many words of a "can" question: the one that
// grants the permission is quoted, not the shorter one that obliges.
func TestPermissionAnswersCan(t *testing.T) {
	for _, c := range []struct{ question, text, first string }{
		{"Can I bring a guest to the summer party?",
			"Each guest must sign in at the summer party desk.\n\nYou may bring along one guest of your choice to the party.",
			"You may bring along one guest"},
		{"Posso portare un ospite alla festa d'estate?",
			"Ogni ospite deve registrarsi alla festa d'estate.\n\nSi può portare con sé un ospite a scelta alla festa.",
			"Si può portare con sé un ospite"},
	} {
		text, n, _ := ExtractSpan(c.question, []fonte.Chunk{{ID: "c1", Text: c.text}})
		if n != 1 || !strings.Contains(text, c.first) || strings.Index(text, c.first) > 8 {
			t.Errorf("ExtractSpan(%q) = %q, want it to open with %q", c.question, text, c.first)
		}
	}
}
