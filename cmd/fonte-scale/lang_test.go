package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/retrieve"
)

// TestQueriesSearchTheCorpusLanguage checks that the queries are searched
// in the documents' language, whose analysis keeps a query's pseudo-words
// as the index holds them; the Italian analysis, which detection chose
// for most of them, stems most queries into words no chunk holds.
func TestQueriesSearchTheCorpusLanguage(t *testing.T) {
	for _, d := range documents(corpus(1), 50) {
		if d.Language != queryLang {
			t.Fatalf("document %s in %q, queries searched in %q", d.ID, d.Language, queryLang)
		}
	}
	an := retrieve.DefaultAnalyzers().ByLang
	// unchanged reports whether every token is one of the query's words
	// as written (stop words may go; nothing is stemmed).
	unchanged := func(tokens, words []string) bool {
		for _, tok := range tokens {
			if !slices.Contains(words, tok) {
				return false
			}
		}
		return true
	}
	stemmed := 0
	for _, q := range queryTexts(1, 100) {
		words := strings.Fields(q)
		if got := an[queryLang].Analyze(q); len(got) == 0 || !unchanged(got, words) {
			t.Fatalf("query %q analysed as %q in %s: not the words the chunks hold", q, got, queryLang)
		}
		if !unchanged(an["it"].Analyze(q), words) {
			stemmed++
		}
	}
	if stemmed < 50 {
		t.Fatalf("only %d of 100 queries change under the Italian analysis", stemmed)
	}
}
