package retrieve

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// withSignPass turns the 1-bit pass on for readers of minChunks chunks or
// more, with cands candidates, until the returned function is called.
func withSignPass(cands, minChunks int) func() {
	oldCands, oldMin := SignCandidates, SignMinChunks
	SignCandidates, SignMinChunks = cands, minChunks
	return func() { SignCandidates, SignMinChunks = oldCands, oldMin }
}

// TestSignPassHiddenMovesNothing: with the 1-bit pass on, a reader who
// may not read the hr chunks gets the same dense and hybrid hits, scores
// and order over C ∪ H as over C, H being more hr chunks (whose rows
// would move any mean, bound or candidate taken over the whole corpus),
// and takes the 1-bit pass in both.
func TestSignPassHiddenMovesNothing(t *testing.T) {
	defer withSignPass(40, 1000)()
	const public, hiddenInC, hiddenInH = 2400, 200, 800
	graph := Options{Dense: DenseHNSW}
	build := func(n int) *Index {
		c := denseAccessCorpus(idsUpTo(n), public)
		o := graph
		o.Keys = keysOf(c)
		ix, err := NewWith(c, DefaultAnalyzers(), o)
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	c, ch := build(public+hiddenInC), build(public+hiddenInC+hiddenInH)
	reader := Filter{Restricted: true}
	for _, ix := range []*Index{c, ch} {
		_, rv := ix.accessView(reader)
		if _, ok := ix.denseFor(rv).(signLeg); !ok {
			t.Fatalf("the reader's dense leg is %T, want the 1-bit pass", ix.denseFor(rv))
		}
	}
	rng := rand.New(rand.NewPCG(22, 1))
	for i := range 40 {
		q := denseAccessCorpus([]int{100_000 + i}, 0).Vectors
		sameHits(t, ch, c, Request{Query: denseAccessWords[rng.IntN(len(denseAccessWords))], Lang: "en", Vector: q, K: 10, Filter: reader}, i)
	}
}

// sameHits fails t unless req's dense and hybrid searches (its Mode
// ignored) return ten hits over ch, the corpus with hidden chunks, the
// same as over c without them; i numbers the query.
func sameHits(t *testing.T, ch, c *Index, req Request, i int) {
	t.Helper()
	for _, mode := range []Mode{Dense, Hybrid} {
		req.Mode = mode
		got, err := ch.Search(req)
		if err != nil {
			t.Fatal(err)
		}
		want, err := c.Search(req)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 10 || !reflect.DeepEqual(got, want) {
			t.Fatalf("query %d, %s: over C ∪ H\n%v\nover C\n%v", i, mode, got, want)
		}
	}
}

// TestSignPassChoice: a reader of fewer than SignMinChunks chunks scans
// its classes' int8 copies exactly; one of more takes the 1-bit pass,
// whose hits are the exact leg's when the candidates cover every row it
// may read, and whose scores are the exact leg's for the rows it returns
// with fewer.
func TestSignPassChoice(t *testing.T) {
	const n = 3000
	c := labelled(idsUpTo(n))
	ix, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c)})
	if err != nil {
		t.Fatal(err)
	}
	exact, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseExact})
	if err != nil {
		t.Fatal(err)
	}
	small, large := Filter{Restricted: true}, Filter{Restricted: true, Labels: []string{"finance", "legal"}}
	defer withSignPass(n, n/len(classLabels)+1)()
	legOf := func(f Filter) dense {
		_, rv := ix.accessView(f)
		return ix.denseFor(rv)
	}
	if _, ok := legOf(small).(classLeg); !ok {
		t.Fatalf("a reader of %d chunks takes %T, want the exact scan", n/len(classLabels), legOf(small))
	}
	if _, ok := legOf(large).(signLeg); !ok {
		t.Fatalf("a reader of %d chunks takes %T, want the 1-bit pass", 3*n/len(classLabels), legOf(large))
	}
	for i := range 20 {
		q := labelled([]int{50_000 + i}).Vectors
		if got, want := ix.VectorTopK(q, 10, large), exact.VectorTopK(q, 10, large); len(got) != 10 || !reflect.DeepEqual(got, want) {
			t.Fatalf("query %d: 1-bit pass with every row a candidate %v, exact %v", i, got, want)
		}
	}
	SignCandidates = 50
	for i := range 20 {
		q := labelled([]int{60_000 + i}).Vectors
		want := map[int]float64{}
		for _, h := range exact.VectorTopK(q, 200, large) {
			want[h.Pos] = h.Score
		}
		for _, h := range ix.VectorTopK(q, 10, large) {
			if s, ok := want[h.Pos]; ok && s != h.Score {
				t.Fatalf("query %d: chunk %d scored %v, exact %v", i, h.Pos, h.Score, s)
			}
		}
	}
}
