package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// Candidates sees the sentences ExtractSpan weighs and names the one it
// quotes: that sentence opens the quote.
func TestCandidatesPickWhatExtractSpanQuotes(t *testing.T) {
	chunks := []fonte.Chunk{
		{ID: "a#0", DocID: "a", Headings: []string{"Leave"}, Text: "Annual leave is booked in the HR portal. You get 25 days of annual leave a year. Unused days expire in March."},
		{ID: "b#0", DocID: "b", Text: "Ferie: le ferie non godute scadono a marzo. Il portale HR registra le ferie."},
		{ID: "c#0", DocID: "c", Text: "To book a trip you need:\n- a manager's approval\n- a cost code\n\nTrips abroad need a visa check. It takes a week."},
	}
	for _, q := range []string{"How many days of annual leave do I get?", "Where is annual leave booked?", "Quando scadono le ferie non godute?", "What do I need to book a trip?", "Do trips abroad need a visa check?"} {
		cands, picked := Candidates(q, chunks)
		_, n, span := ExtractSpan(q, chunks)
		if n == 0 {
			if picked != -1 {
				t.Errorf("%q: ExtractSpan quotes nothing, Candidates picks %d", q, picked)
			}
			continue
		}
		if picked < 0 {
			t.Fatalf("%q: ExtractSpan quotes chunk %d, Candidates picks none", q, n)
		}
		c := cands[picked]
		if c.Chunk != n-1 || c.Quote != span || c.Span[0] < span[0] || c.Span[1] > span[1] {
			t.Errorf("%q: Candidates picks chunk %d span %v quote %v, ExtractSpan quotes chunk %d span %v", q, c.Chunk+1, c.Span, c.Quote, n, span)
		}
		for _, c := range cands {
			if len(c.Features) != len(FeatureNames) {
				t.Fatalf("%q: %d features, %d names", q, len(c.Features), len(FeatureNames))
			}
			if c.Text != chunks[c.Chunk].Text[c.Span[0]:c.Span[1]] {
				t.Errorf("%q: text %q is not the span's", q, c.Text)
			}
		}
	}
}

// The features read the question's grammar and words, not phrases: a
// sentence stating the asked figure holds a typed span, one with "not"
// a negation, a list item is one.
func TestCandidateFeatures(t *testing.T) {
	chunks := []fonte.Chunk{{ID: "a#0", DocID: "a", Text: "You get 25 days of annual leave.\n\n- Annual leave is not paid out when you leave."}}
	cands, _ := Candidates("How many days of annual leave do I get?", chunks)
	if len(cands) != 2 {
		t.Fatalf("%d candidates, want 2: %+v", len(cands), cands)
	}
	f := func(c Candidate, name string) float64 {
		for i, n := range FeatureNames {
			if n == name {
				return c.Features[i]
			}
		}
		t.Fatalf("no feature %q", name)
		return 0
	}
	first, second := cands[0], cands[1]
	if !strings.HasPrefix(first.Text, "You get") {
		first, second = second, first
	}
	for _, c := range []struct {
		c    Candidate
		name string
		want float64
	}{
		{first, "typed_span", 1}, {first, "negation", 0}, {first, "list_item", 0}, {first, "first", 1},
		{second, "negation", 1}, {second, "list_item", 1}, {second, "first", 0}, {second, "position", 1},
	} {
		if got := f(c.c, c.name); got != c.want {
			t.Errorf("%q: %s = %v, want %v", c.c.Text, c.name, got, c.want)
		}
	}
	if f(first, "held_keys") <= f(second, "held_keys")-0.5 {
		t.Errorf("held_keys: %v vs %v", f(first, "held_keys"), f(second, "held_keys"))
	}
}
