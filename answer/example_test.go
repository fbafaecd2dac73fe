package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// illustrative reads the words before a span; TestNoLeadWhenInDoubt
// checks that such a span never leads.
func TestIllustrative(t *testing.T) {
	for before, want := range map[string]bool{
		"a period from first to latest (e.g. ":    true,
		"a period from first to latest (e.g., ":   true,
		"for example, a limit of ":                true,
		"un periodo (ad esempio ":                 true,
		"per es. ":                                true,
		"a period from first to latest, at most ": false,
		"for example, set the limit; it is then ": false,
		"the example project takes ":              false,
	} {
		if got := illustrative(before); got != want {
			t.Errorf("illustrative(%q) = %v, want %v", before, got, want)
		}
	}
}

// A sentence whose only figure of the asked kind is an example cannot
// lead, so it must not win the quote over the sentence that states the
// rule: the rule is read first.
func TestExampleSpanWinsNoQuote(t *testing.T) {
	c := fonte.Chunk{ID: "c1", Text: "The date on a poster is the date it was first printed. " +
		"When a poster is reprinted often, the date can be written as a range of years (e.g. 2019-2021)."}
	text, n, _ := ExtractSpan("Which year goes on a poster?", []fonte.Chunk{c})
	if n != 1 || !strings.HasPrefix(text, "The date on a poster is the date it was first printed.") {
		t.Errorf("ExtractSpan = %q (chunk %d), want the rule quoted first", text, n)
	}
}
