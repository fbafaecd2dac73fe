package analysis

import (
	"slices"
	"testing"
)

func TestRankingFunctionWords(t *testing.T) {
	got := RankingFunctionWords("Quali uffici DOVREBBERO potere firmare, e per avere cosa?")
	if want := []string{"quali", "dovrebbero", "potere"}; !slices.Equal(got, want) {
		t.Errorf("RankingFunctionWords = %q, want %q", got, want)
	}
	// They are ranked as function words, not dropped from the content
	// (the coverage and the relevance keep them).
	for _, w := range got {
		if ContentStopWords.Has(w) {
			t.Errorf("%q is a content stop word already", w)
		}
	}
}
