package postgres

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// bruteForce is the exact dense answer: every chunk f accepts, by cosine
// similarity, ties by document ID then position.
func bruteForce(recs []fonte.Record, q []float32, k int, f fonte.Filter) []scoredRef {
	var out []scoredRef
	for _, r := range recs {
		if !f.Accepts(r.Doc.ID, r.Doc.Tags) {
			continue
		}
		for i, c := range r.Chunks {
			out = append(out, scoredRef{chunkRef{r.Doc.ID, c.Position}, cosine(q, r.Vectors[i])})
		}
	}
	slices.SortFunc(out, func(a, b scoredRef) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.doc, b.doc), cmp.Compare(a.pos, b.pos))
	})
	return out[:min(k, len(out))]
}

func randomVector(r *rand.Rand, dim int) []float32 {
	q := make([]float32, dim)
	for i := range q {
		q[i] = float32(r.NormFloat64())
	}
	return q
}

// checkExact runs the store's dense query and checks its hits against
// bruteForce's: the same chunks in the same order, the same scores.
func checkExact(t *testing.T, s *Store, recs []fonte.Record, q []float32, k int, f fonte.Filter, what string) []fonte.ScoredChunk {
	t.Helper()
	got, err := s.VectorTopK(context.Background(), fonte.VectorQuery{Vector: q, K: k, Filter: f})
	if err != nil {
		t.Fatal(err)
	}
	want := bruteForce(recs, q, k, f)
	if len(got) != len(want) {
		t.Fatalf("%s: %d hits, want %d", what, len(got), len(want))
	}
	for i, g := range got {
		if w := want[i]; (chunkRef{g.Chunk.DocID, g.Chunk.Position}) != w.chunkRef || math.Abs(g.Score-w.score) > 1e-6 {
			t.Errorf("%s rank %d: %s#%d %.7f, want %v %.7f", what, i+1, g.Chunk.DocID, g.Chunk.Position, g.Score, w.chunkRef, w.score)
		}
	}
	return got
}

func TestVectorExactBelowHNSWSize(t *testing.T) {
	ctx := context.Background()
	const dim = 8
	settings := testSettings
	settings.Dim = dim
	s := open(t, newCollection(t), fonte.StoreOptions{Settings: settings})
	recs := corpus(21, 60, dim)
	// Two chunks with the same vector tie: the lower ID comes first.
	recs[5].Vectors[0] = slices.Clone(recs[3].Vectors[0])
	put(t, s, recs...)
	if d := status(t, s).Dense; !strings.HasPrefix(d, "exact (HNSW from 10000 chunks") {
		t.Fatalf("Dense = %q", d)
	}
	r := rand.New(rand.NewPCG(4, 4))
	filters := []fonte.Filter{{}, {Prefixes: []string{"eng/docs/", "hr/"}}, {Tags: []string{"policy"}}, {Prefixes: []string{"it/"}, Tags: []string{"public"}}}
	qs := [][]float32{recs[3].Vectors[0]}
	for range 15 {
		qs = append(qs, randomVector(r, dim))
	}
	for qi, q := range qs {
		for fi, f := range filters {
			for _, g := range checkExact(t, s, recs, q, 7, f, fmt.Sprintf("query %d filter %d", qi, fi)) {
				if !f.Accepts(g.Chunk.DocID, nil) && len(f.Tags) == 0 {
					t.Errorf("filter %d let %s through", fi, g.Chunk.DocID)
				}
			}
		}
	}
	if _, err := s.VectorTopK(ctx, fonte.VectorQuery{Vector: []float32{1, 2}, K: 3}); err == nil || !strings.Contains(err.Error(), "dimensions") {
		t.Errorf("a query of another dimension: %v", err)
	}
	if _, err := s.VectorTopK(ctx, fonte.VectorQuery{Vector: []float32{1, float32(math.NaN()), 0, 0, 0, 0, 0, 0}, K: 3}); err == nil {
		t.Error("a NaN query was accepted")
	}
}

func TestVectorHNSW(t *testing.T) {
	ctx := context.Background()
	const dim = 32
	settings := testSettings
	settings.Dim = dim
	u := newCollection(t, "exact_below", "800", "hnsw_m", "12", "hnsw_ef_construction", "64")
	s := open(t, u, fonte.StoreOptions{Settings: settings})
	recs := corpus(31, 2000, dim)
	for i := range recs {
		if i%4 == 0 { // hidden from a reader without the hr label
			recs[i].Doc.Tags = append(recs[i].Doc.Tags, fonte.AccessTag("hr"))
		}
	}
	// Random vectors: no cluster structure to make the search easy.
	put(t, s, recs[:300]...)
	if d := status(t, s).Dense; !strings.HasPrefix(d, "exact") {
		t.Fatalf("below exact_below: Dense = %q", d)
	}
	put(t, s, recs[300:]...)
	st := status(t, s)
	if st.Chunks < 800 {
		t.Fatalf("the corpus has %d chunks; the test needs 800", st.Chunks)
	}
	if st.Dense != "HNSW (m=12, ef_construction=64)" {
		t.Fatalf("Dense = %q", st.Dense)
	}
	// The planner answers the store's query from the HNSW index, filtered
	// or not.
	for _, f := range []fonte.Filter{{}, {Prefixes: []string{"it/"}}} {
		if plan := explainVector(t, s, fonte.VectorQuery{Vector: recs[0].Vectors[0], K: 10, Filter: f}); !strings.Contains(plan, hnswIndex) {
			t.Errorf("the plan does not use the HNSW index:\n%s", plan)
		}
	}

	// A restricted reader's query scans exactly: the graph, shaped by
	// chunks it may not read, is not walked, and its hits are the exact
	// ones.
	restricted := []fonte.Filter{{Restricted: true}, {Restricted: true, Labels: []string{"hr"}}, {Restricted: true, Prefixes: []string{"it/"}}}
	for _, f := range restricted {
		q := fonte.VectorQuery{Vector: recs[0].Vectors[0], K: 10, Filter: f}
		if plan := explainVector(t, s, q); strings.Contains(plan, hnswIndex) {
			t.Errorf("a restricted reader's plan uses the HNSW index:\n%s", plan)
		}
	}
	r := rand.New(rand.NewPCG(8, 8))
	for qi := range 20 {
		q := randomVector(r, dim)
		for _, f := range restricted {
			checkExact(t, s, recs, q, 10, f, fmt.Sprintf("query %d %+v", qi, f))
		}
	}

	found, total := 0, 0
	for qi := range 30 {
		q := randomVector(r, dim)
		for _, f := range []fonte.Filter{{}, {Prefixes: []string{"it/"}}, {Tags: []string{"policy"}, Prefixes: []string{"eng/"}}} {
			got, err := s.VectorTopK(ctx, fonte.VectorQuery{Vector: q, K: 10, Filter: f})
			if err != nil {
				t.Fatal(err)
			}
			want := bruteForce(recs, q, 10, f)
			// Filtered queries still return K: the iterative scan goes on
			// until enough chunks pass the filter.
			if len(got) != len(want) {
				t.Errorf("query %d %+v: %d hits, want %d", qi, f, len(got), len(want))
			}
			in := map[chunkRef]bool{}
			for _, w := range want {
				in[w.chunkRef] = true
			}
			for i, g := range got {
				if in[chunkRef{g.Chunk.DocID, g.Chunk.Position}] {
					found++
				}
				if i > 0 && got[i-1].Score < g.Score {
					t.Errorf("query %d: rank %d out of order", qi, i+1)
				}
				if !f.Accepts(g.Chunk.DocID, tagsOf(recs, g.Chunk.DocID)) {
					t.Errorf("query %d: %s does not pass %+v", qi, g.Chunk.DocID, f)
				}
			}
			total += len(want)
		}
	}
	recall := float64(found) / float64(total)
	t.Logf("HNSW recall@10 over %d queries: %.3f", 90, recall)
	if recall < 0.9 {
		t.Errorf("recall@10 = %.3f, want at least 0.9", recall)
	}
}

func tagsOf(recs []fonte.Record, id string) []string {
	for _, r := range recs {
		if r.Doc.ID == id {
			return r.Doc.Tags
		}
	}
	return nil
}

// explainVector returns the plan of the store's dense query, run as the
// store runs it.
func explainVector(t *testing.T, s *Store, q fonte.VectorQuery) string {
	t.Helper()
	ctx := context.Background()
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if err := s.setSearch(ctx, tx, q); err != nil {
		t.Fatal(err)
	}
	sql, args := s.vectorSQL(q)
	rows, err := tx.Query(ctx, "EXPLAIN "+sql, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	return strings.Join(plan, "\n")
}
