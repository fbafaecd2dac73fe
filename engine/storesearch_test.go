package engine

import (
	"context"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/retrieve"
)

// TestStoreSearchMatchesIndex: the search path the database stores use
// (each leg's top list from fonte.Store, fusion and relevance in
// retrieve.StoreSearch), run against the embedded store's legs, returns
// exactly what the embedded store's own in-memory search does: the same
// chunks in the same order with the same scores and relevance, in every
// mode, with and without filters, with and without proximity, on the
// example handbook's questions.
// This is what lets a database store answer like the embedded one when
// its legs return the same lists.
func TestStoreSearchMatchesIndex(t *testing.T) {
	ctx := context.Background()
	e, qs := handbook(t)
	v, err := e.view(ctx)
	if err != nil {
		t.Fatal(err)
	}
	langs := map[string]bool{}
	for _, d := range v.snap.Docs() {
		langs[d.Language] = true
	}
	generic := &retrieve.StoreSearch{Store: e.store, An: e.an, Langs: slices.Sorted(maps.Keys(langs)), Dim: e.settings.Embedder.Dimension()}
	filters := []fonte.Filter{{}, {Prefixes: []string{"finance/"}}, {Prefixes: []string{"people/", "security/"}}}
	compared := 0
	for _, q := range qs {
		qv, err := e.settings.Embedder.Embed(ctx, []string{q.Question})
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []retrieve.Mode{retrieve.BM25, retrieve.Dense, retrieve.Hybrid} {
			for i := range 2 * len(filters) {
				f, prox := filters[i/2], i%2 == 1
				req := retrieve.Request{Query: q.Question, Vector: normalised(qv[0]), K: 10, Mode: mode, Filter: f,
					LexicalWeight: 1, DenseWeight: 0.5, Proximity: prox}
				want, err := v.local.Search(req)
				if err != nil {
					t.Fatal(err)
				}
				got, err := generic.Search(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Fatalf("%q %s %v: %d hits, the index returns %d", q.Question, mode, f, len(got), len(want))
				}
				for i := range want {
					g, w := got[i], want[i]
					if g.Chunk.ID != w.Chunk.ID || !near(g.Score, w.Score) || !near(g.Relevance, w.Relevance) {
						t.Fatalf("%q %s %v proximity %v hit %d: %s score %v relevance %v, the index has %s %v %v",
							q.Question, mode, f, prox, i, g.Chunk.ID, g.Score, g.Relevance, w.Chunk.ID, w.Score, w.Relevance)
					}
					for j := range w.Legs {
						if g.Legs[j].Rank != w.Legs[j].Rank || !near(g.Legs[j].Score, w.Legs[j].Score) {
							t.Fatalf("%q %s hit %d leg %s: %+v, the index has %+v", q.Question, mode, i, w.Legs[j].Name, g.Legs[j], w.Legs[j])
						}
					}
				}
				compared += len(want)
			}
		}
	}
	if compared < 1000 {
		t.Fatalf("only %d hits compared", compared)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
