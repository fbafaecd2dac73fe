package lexical

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
)

// blockTerms lists the terms whose block maxima m holds, by text.
func blockTerms(m *BM25) map[string][]float32 {
	out := map[string][]float32{}
	m.blocks.Range(func(k, v any) bool {
		out[m.ix.Term(int(k.(uint32)))] = v.([]float32)
		return true
	})
	return out
}

// refMaxima is term t's block maxima by their definition: each posting's
// weight as queries weigh it one by one (queryTerm.at), rounded up to a
// float32, the largest per block.
func refMaxima(m *BM25, t uint32) []float32 {
	q := m.queryTerm(t)
	out := make([]float32, (m.N()+63)/64)
	for j, d := range q.docs {
		w := q.at(j)
		x := float32(w)
		if float64(x) < w {
			x = math.Nextafter32(x, float32(math.Inf(1)))
		}
		out[d/64] = max(out[d/64], x)
	}
	return out
}

// sameMaxima fails unless got and want are equal bit for bit.
func sameMaxima(t *testing.T, what string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d blocks, want %d", what, len(got), len(want))
	}
	for b := range got {
		if math.Float32bits(got[b]) != math.Float32bits(want[b]) {
			t.Fatalf("%s: block %d's maximum %v, want %v", what, b, got[b], want[b])
		}
	}
}

// TestCarryBlockMaxima: a model merged from one whose queries computed
// block maxima (in place or in memory) has, after CarryBlockMaxima and
// before any query, the maxima of those of the terms that are still
// common, equal bit for bit to what its own first query computes and to
// their definition (posting by posting; the old model's too, in place
// or in memory); its
// queries then compute none and rank as the exhaustive top k does.
func TestCarryBlockMaxima(t *testing.T) {
	an := analysis.Sklearn()
	oldMin := pruneMinPostings
	pruneMinPostings = 0
	defer func() { pruneMinPostings = oldMin }()
	for seed := range uint64(3) {
		rng := rand.New(rand.NewPCG(seed, 34))
		texts, words := zipfCorpus(2000, seed)
		docs := analyseAll(texts, an)
		mem := NewBM25Index(NewIndexTokens(len(docs), func(d int) []string { return docs[d] }, an), DefaultBM25Options())
		old := mem
		if seed != 0 {
			old, _ = openInPlace(t, mem)
		}
		queries := make([][]string, 30)
		for i := range queries {
			queries[i] = commonQuery(rng, words)
			old.TopKShare(queries[i], 10, nil)
		}
		had := blockTerms(old)
		if len(had) < 10 {
			t.Fatalf("seed %d: the old model's queries computed the maxima of %d terms", seed, len(had))
		}
		for term, got := range had { // made from stored weights (seed 0) or computed ones
			id, _ := old.ix.TermID(term)
			sameMaxima(t, "made on the old model", got, refMaxima(old, uint32(id)))
		}

		edited := editCorpus(rng, docs)
		form := mergeForm(t, old, edited, 1<<40, 64)
		m, err := OpenBM25InPlace(alignedCopy(form, 0), an)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := OpenBM25InPlace(alignedCopy(form, 0), an)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for term := range had {
			if id, ok := m.ix.TermID(term); ok && m.keepsBlocks(m.ix.DocFreq(id)) {
				want++
			}
		}
		if got := m.CarryBlockMaxima(old); got != want || want == 0 {
			t.Fatalf("seed %d: carried %d terms' maxima, want %d (of the old model's %d)", seed, got, want, len(had))
		}
		carried := blockTerms(m)
		if len(carried) != want {
			t.Fatalf("seed %d: the new model holds %d terms' maxima, want %d", seed, len(carried), want)
		}
		for term, got := range carried {
			if _, ok := had[term]; !ok {
				t.Fatalf("seed %d: term %q's maxima computed, the old model had none", seed, term)
			}
			id, _ := fresh.ix.TermID(term)
			q := fresh.queryTerm(uint32(id))
			sameMaxima(t, "carried", got, refMaxima(fresh, uint32(id)))
			sameMaxima(t, "made by a query", fresh.blockMaxima(&q), refMaxima(fresh, uint32(id)))
		}
		if m.CarryBlockMaxima(old) != 0 {
			t.Fatalf("seed %d: a second carry computed maxima again", seed)
		}
		runs := 0
		blockHook = func(int, int) { runs++ }
		for _, q := range queries {
			div := m.MaxScoreTokens(q)
			if msg := sameResults(m.TopKShare(q, 10, nil), exhaustiveTopK(fresh, q, 10, nil, div)); msg != "" {
				t.Fatalf("seed %d: query %q: %s", seed, q, msg)
			}
		}
		blockHook = nil
		if runs < len(queries)/2 {
			t.Fatalf("seed %d: %d of %d queries took block-max", seed, runs, len(queries))
		}
		if n := len(blockTerms(m)); n != want {
			t.Fatalf("seed %d: the old model's queries computed %d more terms' maxima on the new one", seed, n-want)
		}
	}
}
