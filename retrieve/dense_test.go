package retrieve

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/vector"
)

// randomCorpus returns n chunks with random unit vectors and one word
// each, so the dense leg alone decides the order.
func randomCorpus(ids []int, dim int) Corpus {
	c := Corpus{Dim: dim}
	for _, id := range ids {
		name := fmt.Sprintf("doc%04d", id)
		c.Chunks = append(c.Chunks, fonte.Chunk{ID: name + "#0", DocID: name, Text: "word"})
		r := rand.New(rand.NewPCG(uint64(id), 7)) // a chunk's vector depends on its id only
		v := make([]float32, dim)
		var ss float64
		for j := range v {
			v[j] = float32(r.NormFloat64())
			ss += float64(v[j] * v[j])
		}
		for j := range v {
			v[j] /= float32(math.Sqrt(ss))
		}
		c.Vectors = append(c.Vectors, v...)
	}
	return c
}

func keysOf(c Corpus) []uint64 {
	keys := make([]uint64, len(c.Chunks))
	for i, ch := range c.Chunks {
		keys[i] = ChunkKey(ch.ID, "hash-"+ch.ID)
	}
	return keys
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// checkDense runs dense searches against ix and verifies every hit: its
// score is the inner product with its own chunk's vector (so keys map to
// the right positions), filters hold, and the HNSW leg finds nearly all of
// the exact top 10.
func checkDense(t *testing.T, ix *Index, c Corpus, rng *rand.Rand) {
	t.Helper()
	found, want := 0, 0
	for range 50 {
		q := c.Vectors[rng.IntN(len(c.Chunks))*c.Dim:][:c.Dim]
		hits, err := ix.Search(Request{Query: "word", Vector: q, K: 10, Mode: Dense})
		if err != nil {
			t.Fatal(err)
		}
		pos := map[string]int{}
		for i, ch := range c.Chunks {
			pos[ch.ID] = i
		}
		exact := make([]float64, len(c.Chunks))
		for i := range c.Chunks {
			exact[i] = dot(q, c.Vectors[i*c.Dim:(i+1)*c.Dim])
		}
		order := make([]int, len(exact))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int {
			if exact[a] > exact[b] {
				return -1
			}
			if exact[a] < exact[b] {
				return 1
			}
			return a - b
		})
		got := map[int]bool{}
		for _, h := range hits {
			p, ok := pos[h.Chunk.ID]
			if !ok {
				t.Fatalf("hit %s is not in the corpus", h.Chunk.ID)
			}
			if math.Abs(h.Score-exact[p]) > 1e-5 {
				t.Fatalf("hit %s scored %v, its vector gives %v", h.Chunk.ID, h.Score, exact[p])
			}
			got[p] = true
		}
		for _, p := range order[:10] {
			want++
			if got[p] {
				found++
			}
		}
		// Filtered: only even documents.
		even := Filter{Prefixes: []string{"doc0000", "doc0002", "doc0004", "doc0006", "doc0008", "doc0010"}}
		fh, err := ix.Search(Request{Query: "word", Vector: q, K: 3, Mode: Dense, Filter: even})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range fh {
			if !slices.ContainsFunc(even.Prefixes, func(p string) bool { return h.Chunk.DocID == p }) {
				t.Fatalf("filtered search returned %s", h.Chunk.DocID)
			}
		}
	}
	if r := float64(found) / float64(want); r < 0.9 {
		t.Fatalf("HNSW leg recall@10 %.3f, want ≥ 0.9", r)
	}
}

func TestHNSWLegMatchesCorpus(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ids := make([]int, 600)
	for i := range ids {
		ids[i] = i
	}
	c := randomCorpus(ids, 32)
	ix, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c)})
	if err != nil {
		t.Fatal(err)
	}
	if g, keys := ix.Graph(); g == nil || g.Len() != len(ids) || len(keys) != len(ids) {
		t.Fatalf("HNSW leg: graph %v", g)
	}
	if b := ix.Built(); !b.BM25 || !b.Graph {
		t.Fatalf("built %+v, want both", b)
	}
	checkDense(t, ix, c, rng)

	// The next version of the corpus drops every third chunk and gains 100
	// new ones; positions shift. The old graph is updated in place.
	var next []int
	for _, id := range ids {
		if id%3 != 0 {
			next = append(next, id)
		}
	}
	for id := 600; id < 700; id++ {
		next = append(next, id)
	}
	slices.Sort(next)
	c2 := randomCorpus(next, 32)
	g, oldKeys := ix.Graph()
	ix2, err := NewWith(c2, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c2), Graph: g, PreviousKeys: oldKeys, BM25: ix.BM25()})
	if err != nil {
		t.Fatal(err)
	}
	if g2, _ := ix2.Graph(); g2 != g || g2.Len() != len(next) {
		t.Fatalf("updated graph holds %d vectors, want the same graph with %d", g2.Len(), len(next))
	}
	if b := ix2.Built(); !b.BM25 || !b.Graph {
		// The BM25 handed over indexes 600 chunks, not 567: rebuilt.
		t.Fatalf("built %+v", b)
	}
	checkDense(t, ix2, c2, rng)

	// Handing over a graph that does not fit (keys it holds are missing
	// from PreviousKeys) builds a new one rather than answering wrongly.
	ixA, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c)})
	if err != nil {
		t.Fatal(err)
	}
	gA, _ := ixA.Graph()
	ix3, err := NewWith(c2, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c2), Graph: gA, PreviousKeys: nil})
	if err != nil {
		t.Fatal(err)
	}
	if g3, _ := ix3.Graph(); g3 == gA || g3.Len() != len(next) {
		t.Fatal("reused a graph whose stale keys were unknown")
	}
	checkDense(t, ix3, c2, rng)
}

func TestDenseAutoChoosesByCorpusSize(t *testing.T) {
	c := randomCorpus([]int{1, 2, 3}, 8)
	ix, err := NewWith(c, DefaultAnalyzers(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g, _ := ix.Graph(); g != nil {
		t.Fatal("auto built a graph for 3 chunks")
	}
	if _, err := ParseDenseKind("ivf"); err == nil {
		t.Fatal("ParseDenseKind accepted ivf")
	}
	ix, err = NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: []uint64{1, 2}})
	if err == nil {
		t.Fatalf("2 keys for 3 chunks accepted: %v", ix)
	}
	ix, err = NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: []uint64{5, 5, 6}})
	if err == nil {
		t.Fatalf("duplicate keys accepted: %v", ix)
	}
}

// TestExactLegOverParts: a corpus whose vectors come as parts (a store's
// segments, some with their int8 copy, some without) is searched exactly
// as the same vectors copied into a vector.Flat: the same hits and
// scores, with and without a filter.
func TestExactLegOverParts(t *testing.T) {
	ids := make([]int, 300)
	for i := range ids {
		ids[i] = i
	}
	c := randomCorpus(ids, 48)
	want, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseExact})
	if err != nil {
		t.Fatal(err)
	}
	parted := c
	parted.Vectors = nil
	parted.Rows = c.rows()
	cuts := []int{0, 1, 90, 91, 200, 300}
	for i := 1; i < len(cuts); i++ {
		data := c.Vectors[cuts[i-1]*c.Dim : cuts[i]*c.Dim]
		p := vector.FlatPart{Data: data}
		if i%2 == 0 {
			blk := vector.QuantizeBlock(c.Dim, data)
			p.Int8 = &blk
		}
		parted.Parts = append(parted.Parts, p)
	}
	got, err := NewWith(parted, DefaultAnalyzers(), Options{Dense: DenseExact})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got.dense.(flatLeg).f.(*vector.FlatView); !ok {
		t.Fatalf("the exact leg over parts is a %T", got.dense.(flatLeg).f)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f := range []Filter{{}, {Prefixes: []string{"doc00"}}} {
		for range 30 {
			q := c.Vectors[rng.IntN(len(ids))*c.Dim:][:c.Dim]
			a, err := want.Search(Request{Vector: q, K: 10, Mode: Dense, Filter: f})
			if err != nil {
				t.Fatal(err)
			}
			b, err := got.Search(Request{Vector: q, K: 10, Mode: Dense, Filter: f})
			if err != nil {
				t.Fatal(err)
			}
			if len(a) == 0 || len(a) != len(b) {
				t.Fatalf("%d hits over parts, %d over a Flat", len(b), len(a))
			}
			for i := range a {
				if a[i].Chunk.ID != b[i].Chunk.ID || a[i].Score != b[i].Score {
					t.Fatalf("hit %d: %s %v over parts, %s %v over a Flat", i, b[i].Chunk.ID, b[i].Score, a[i].Chunk.ID, a[i].Score)
				}
			}
		}
	}
	bad := parted
	bad.Parts = bad.Parts[1:]
	if _, err := NewWith(bad, DefaultAnalyzers(), Options{Dense: DenseExact}); err == nil {
		t.Fatal("parts one row short accepted")
	}
}

// TestHandedGraphSearchesTheAskedList: the candidate list is a search
// setting. A graph built with one list and handed to an index whose
// options ask for another searches the one asked for; with none asked, its
// own.
func TestHandedGraphSearchesTheAskedList(t *testing.T) {
	c := randomCorpus([]int{1, 2, 3, 4, 5, 6, 7, 8}, 8)
	built, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c), HNSW: vector.HNSWOptions{EfSearch: 400}})
	if err != nil {
		t.Fatal(err)
	}
	g, keys := built.Graph()
	for _, tc := range []struct{ asked, want int }{{200, 200}, {0, 400}} {
		ix, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c), Graph: g, PreviousKeys: keys,
			GraphRowsCurrent: true, HNSW: vector.HNSWOptions{EfSearch: tc.asked}})
		if err != nil {
			t.Fatal(err)
		}
		leg, ok := ix.dense.(hnswLeg)
		if !ok {
			t.Fatalf("dense leg %T, want the graph", ix.dense)
		}
		if got := leg.efSearch(); got != tc.want {
			t.Errorf("asked for a list of %d: searches %d, want %d", tc.asked, got, tc.want)
		}
	}
}
