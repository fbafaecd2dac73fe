package retrieve

import (
	"testing"

	"github.com/fonte-rag/fonte/internal/cores"
)

// TestSearchGivesBackItsCores: every search counts its legs as busy cores
// (internal/cores) only while they run, so that no search leaves a core
// counted busy and the lexical leg's helpers stopped for good.
func TestSearchGivesBackItsCores(t *testing.T) {
	c, emb := corpus(t)
	ix, err := New(c, DefaultAnalyzers())
	if err != nil {
		t.Fatal(err)
	}
	before := cores.Busy()
	for _, mode := range []Mode{Hybrid, BM25, Dense} {
		for _, traced := range []bool{false, true} {
			req := Request{Query: "archive keys expense", K: 3, Mode: mode}
			if traced {
				req.Trace = &LegTrace{}
			}
			search(t, ix, emb, req)
			if got := cores.Busy(); got != before {
				t.Fatalf("%s traced %v: %d goroutines counted busy after the search, %d before", mode, traced, got, before)
			}
		}
	}
	ix.VectorTopK(c.Vectors[:c.Dim], 3, Filter{})
	ix.LexicalTopK([]string{"archive"}, 3, Filter{})
	if got := cores.Busy(); got != before {
		t.Fatalf("%d goroutines counted busy after the legs alone, %d before", got, before)
	}
}
