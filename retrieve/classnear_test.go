package retrieve

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte"
)

// topicCorpus is n chunks in dim dimensions around 20 topic centres
// (spread 0.5 against unit noise, as synth's corpus), chunk i of topic
// i mod 20; the chunks of topics 0 to 9 carry the legal label, so a
// reader without it may read topics 10 to 19 alone, whole. topicQuery
// draws a query of a topic the same way.
func topicCorpus(n, dim int) (Corpus, func(topic, i int) []float32) {
	rng := rand.New(rand.NewPCG(5, 5))
	centres := make([][]float64, 20)
	for t := range centres {
		centres[t] = make([]float64, dim)
		for j := range centres[t] {
			centres[t][j] = 0.5 * rng.NormFloat64()
		}
	}
	draw := func(topic int, r *rand.Rand) []float32 {
		v := make([]float32, dim)
		var ss float64
		for j := range v {
			x := centres[topic][j] + r.NormFloat64()
			v[j] = float32(x)
			ss += x * x
		}
		for j := range v {
			v[j] /= float32(math.Sqrt(ss))
		}
		return v
	}
	c := Corpus{Dim: dim, Tags: make([][]string, n)}
	for i := range n {
		name := fmt.Sprintf("doc%05d", i)
		c.Chunks = append(c.Chunks, fonte.Chunk{ID: name + "#0", DocID: name, Text: "word"})
		c.Vectors = append(c.Vectors, draw(i%20, rand.New(rand.NewPCG(uint64(i), 7)))...)
		if i%20 < 10 {
			c.Tags[i] = []string{fonte.AccessTag("legal")}
		}
	}
	return c, func(topic, i int) []float32 { return draw(topic, rand.New(rand.NewPCG(uint64(i), 8))) }
}

// TestFarQueryScansClasses: a query of a topic the reader may not read
// is far from every class it may read, and its hits are the exact
// leg's (a short candidate list's walk misses them); a query of a
// readable topic is near and served by the class graph.
func TestFarQueryScansClasses(t *testing.T) {
	c, query := topicCorpus(6000, 384)
	ix, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c), ClassGraphMin: 1000, ClassEfSearch: 20})
	if err != nil {
		t.Fatal(err)
	}
	exact, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseExact})
	if err != nil {
		t.Fatal(err)
	}
	f := Filter{Restricted: true}
	_, rv := ix.accessView(f)
	leg, ok := ix.denseFor(rv).(classGraphLeg)
	if !ok || len(leg.graphs) != 1 || len(leg.small) != 0 || leg.near <= 0 {
		t.Fatalf("dense leg %T (%+v), want one class graph with its near score", ix.denseFor(rv), leg)
	}
	const queries = 40
	nearQueries := 0
	for i := range queries {
		q := query(i%10, i) // a legal topic: far
		got, want := ix.VectorTopK(q, 10, f), exact.VectorTopK(q, 10, f)
		if !slices.Equal(got, want) {
			t.Fatalf("far query %d: hits %v, want the exact leg's %v", i, got, want)
		}
		q = query(10+i%10, i) // a readable topic: near
		if !far(leg.graphs[0].search(q, 10, nil), 10, leg.near) {
			nearQueries++
		}
	}
	if nearQueries < queries*9/10 {
		t.Fatalf("%d of %d queries of readable topics near their class, want at least 90%%", nearQueries, queries)
	}
}

// TestFarRanks: far compares the nearRank-th hit, or the last of a
// shorter list asked for, a list shorter than asked is far, and asking
// for no hit is not.
func TestFarRanks(t *testing.T) {
	hits := make([]scored, 12)
	for i := range hits {
		hits[i] = scored{i, 1 - float64(i)/10}
	}
	for _, tc := range []struct {
		n, k int
		near float64
		want bool
	}{
		{12, 12, 0.05, false}, // the 10th scores 0.1
		{12, 12, 0.15, true},
		{12, 3, 0.75, false}, // the 3rd scores 0.8
		{12, 3, 0.85, true},
		{5, 10, 0, true}, // fewer hits than asked
		{0, 0, 1, false}, // no hit asked for
	} {
		if got := far(hits[:tc.n], tc.k, tc.near); got != tc.want {
			t.Errorf("far(%d hits, k %d, near %.2f) = %v, want %v", tc.n, tc.k, tc.near, got, tc.want)
		}
	}
}
