package retrieve

import (
	"math"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/vector"
)

// unevenClasses is randomCorpus over ids in 24 dimensions, chunk id
// public when id mod 10 < 6, labelled hr when it is 6 to 8, legal when 9:
// three access classes of 60%, 30% and 10% of the chunks, interleaved.
func unevenClasses(ids []int) Corpus {
	c := randomCorpus(ids, 24)
	c.Tags = make([][]string, len(ids))
	for i, id := range ids {
		switch r := id % 10; {
		case r == 9:
			c.Tags[i] = []string{fonte.AccessTag("legal")}
		case r >= 6:
			c.Tags[i] = []string{fonte.AccessTag("hr")}
		}
	}
	return c
}

// classKeys returns the keys of c's chunks that filter f lets a reader
// read, sorted.
func classKeys(c Corpus, keys []uint64, readable func(tags []string) bool) []uint64 {
	var out []uint64
	for i := range c.Chunks {
		if readable(c.Tags[i]) {
			out = append(out, keys[i])
		}
	}
	slices.Sort(out)
	return out
}

// liveKeys returns g's live keys, sorted.
func liveKeys(g *vector.HNSW, positions []uint32) []uint64 {
	var out []uint64
	for n, id := range g.AppendNodeIDs(nil) {
		if positions[n] != math.MaxUint32 {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// TestClassGraphsHoldTheirClassOnly: each class graph of an index holds
// exactly its class's chunks, no chunk of another class, and maps each
// node to a chunk of its class; a class below the minimum has none.
func TestClassGraphsHoldTheirClassOnly(t *testing.T) {
	c := unevenClasses(idsUpTo(4000))
	keys := keysOf(c)
	ix, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keys, ClassGraphMin: 1000})
	if err != nil {
		t.Fatal(err)
	}
	gs, err := ix.ClassGraphs()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range gs {
		label := ""
		if len(g.Labels) > 0 {
			label = g.Labels[0]
		}
		names = append(names, label)
		want := classKeys(c, keys, func(tags []string) bool { return slices.Equal(tags, g.Labels) })
		if got := liveKeys(g.Graph, g.Positions); !slices.Equal(got, want) {
			t.Fatalf("class %v: its graph holds %d keys, its class %d (or other keys)", g.Labels, len(got), len(want))
		}
		for n, p := range g.Positions {
			if p != math.MaxUint32 && (keys[p] != g.Graph.AppendNodeIDs(nil)[n] || !slices.Equal(c.Tags[p], g.Labels)) {
				t.Fatalf("class %v: node %d maps to chunk %d of another class or key", g.Labels, n, p)
			}
		}
		if !g.Changed {
			t.Fatalf("class %v: built by this index, but not marked changed", g.Labels)
		}
	}
	slices.Sort(names)
	if want := []string{"", fonte.AccessTag("hr")}; !slices.Equal(names, want) {
		t.Fatalf("class graphs for %q, want %q (legal's 400 chunks are below the minimum)", names, want)
	}
}

// TestRestrictedReaderSearchesClassGraphs: a restricted reader's dense leg
// is the graphs of the classes it may read that have one, and a scan of
// the others' copies, never another class's graph; its hits are all
// readable and nearly all of the exact leg's.
func TestRestrictedReaderSearchesClassGraphs(t *testing.T) {
	c := unevenClasses(idsUpTo(4000))
	keys := keysOf(c)
	ix, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keys, ClassGraphMin: 1000})
	if err != nil {
		t.Fatal(err)
	}
	exact, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseExact})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		held          []string
		graphs, small int // graph rows, scanned rows
	}{
		{nil, 2400, 0},
		{[]string{"legal"}, 2400, 400},
		{[]string{"hr"}, 3600, 0},
	} {
		f := Filter{Restricted: true, Labels: tc.held}
		_, rv := ix.accessView(f)
		leg, ok := ix.denseFor(rv).(classGraphLeg)
		if !ok {
			t.Fatalf("reader %v: dense leg %T, want the class graphs", tc.held, ix.denseFor(rv))
		}
		graphRows, smallRows := 0, 0
		for _, g := range leg.graphs {
			graphRows += g.g.Len()
			for _, id := range g.g.AppendNodeIDs(nil) {
				i := slices.Index(keys, id)
				if !f.Readable(c.Tags[i]) {
					t.Fatalf("reader %v: a graph it searches holds chunk %d, which it may not read", tc.held, i)
				}
			}
		}
		for _, g := range leg.small {
			smallRows += g.Len()
		}
		if graphRows != tc.graphs || smallRows != tc.small {
			t.Fatalf("reader %v: %d rows in graphs and %d scanned, want %d and %d", tc.held, graphRows, smallRows, tc.graphs, tc.small)
		}
		found := 0
		const queries = 50
		for i := range queries {
			q := unevenClasses([]int{50_000 + i}).Vectors
			got, want := ix.VectorTopK(q, 10, f), exact.VectorTopK(q, 10, f)
			if len(got) != 10 || len(want) != 10 {
				t.Fatalf("reader %v: %d hits, exact %d", tc.held, len(got), len(want))
			}
			for _, h := range got {
				if !f.Readable(c.Tags[h.Pos]) {
					t.Fatalf("reader %v: hit %d, which it may not read", tc.held, h.Pos)
				}
				if slices.ContainsFunc(want, func(w Scored) bool { return w.Pos == h.Pos }) {
					found++
				}
			}
		}
		if recall := float64(found) / (10 * queries); recall < 0.95 {
			t.Fatalf("reader %v: recall@10 %.3f against the exact leg, want at least 0.95", tc.held, recall)
		}
	}
}

// TestWholeReaderKeepsSharedGraph: a restricted reader who may read
// every class searches the shared graph, not the class graphs.
func TestWholeReaderKeepsSharedGraph(t *testing.T) {
	c := unevenClasses(idsUpTo(2000))
	ix, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c), ClassGraphMin: 500})
	if err != nil {
		t.Fatal(err)
	}
	_, rv := ix.accessView(Filter{Restricted: true, Labels: []string{"hr", "legal"}})
	if _, ok := ix.denseFor(rv).(hnswLeg); !ok {
		t.Fatalf("a reader of every class searches %T, want the shared graph", ix.denseFor(rv))
	}
}

// TestClassGraphsHandedOver: a corpus's class graphs are brought up to
// date from an earlier corpus's: a class the change did not touch keeps
// its graph unchanged, a touched one gains and loses its chunks' keys,
// and the earlier index's graphs stay as they were.
func TestClassGraphsHandedOver(t *testing.T) {
	c1 := unevenClasses(idsUpTo(4000))
	o := Options{Dense: DenseHNSW, Keys: keysOf(c1), ClassGraphMin: 1000}
	ix1, err := NewWith(c1, DefaultAnalyzers(), o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix1.ClassGraphs(); err != nil {
		t.Fatal(err)
	}
	before := map[string]int{}
	for _, g := range ix1.BuiltClassGraphs() {
		before[labelsKey(g.Labels)] = g.Graph.Len()
	}
	// hr loses its chunks 6, 16, ... below 1000 and gains 100 new ones.
	var ids []int
	for _, id := range idsUpTo(4000) {
		if !(id < 1000 && id%10 == 6) {
			ids = append(ids, id)
		}
	}
	for i := range 100 {
		ids = append(ids, 10_006+10*i)
	}
	c2 := unevenClasses(ids)
	keys2 := keysOf(c2)
	g1, k1 := ix1.Graph()
	ix2, err := NewWith(c2, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keys2, Graph: g1.Clone(), PreviousKeys: k1,
		ClassGraphs: ix1.BuiltClassGraphs(), ClassGraphMin: 1000})
	if err != nil {
		t.Fatal(err)
	}
	gs, err := ix2.ClassGraphs()
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 2 {
		t.Fatalf("%d class graphs after the change, want 2", len(gs))
	}
	for _, g := range gs {
		hr := slices.Equal(g.Labels, []string{fonte.AccessTag("hr")})
		if g.Changed != hr {
			t.Fatalf("class %v: changed %v, want %v (only hr was touched)", g.Labels, g.Changed, hr)
		}
		want := classKeys(c2, keys2, func(tags []string) bool { return slices.Equal(tags, g.Labels) })
		if got := liveKeys(g.Graph, g.Positions); !slices.Equal(got, want) {
			t.Fatalf("class %v: %d live keys after the change, want its class's %d", g.Labels, len(got), len(want))
		}
	}
	for _, g := range ix1.BuiltClassGraphs() {
		if g.Graph.Len() != before[labelsKey(g.Labels)] {
			t.Fatalf("class %v: the earlier index's graph changed", g.Labels)
		}
	}
}

// TestClassGraphPlacedFromStore: a graph stored for exactly this corpus
// (Positions set) is searched as it is, not rebuilt; one whose positions
// lead to another class's chunk is rebuilt instead.
func TestClassGraphPlacedFromStore(t *testing.T) {
	c := unevenClasses(idsUpTo(4000))
	o := Options{Dense: DenseHNSW, Keys: keysOf(c), ClassGraphMin: 1000}
	ix1, err := NewWith(c, DefaultAnalyzers(), o)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := ix1.ClassGraphs()
	if err != nil {
		t.Fatal(err)
	}
	o.ClassGraphs = stored
	ix2, err := NewWith(c, DefaultAnalyzers(), o)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := ix2.ClassGraphs()
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range gs {
		if g.Changed || g.Graph != stored[i].Graph {
			t.Fatalf("class %v: a graph stored for this corpus was rebuilt", g.Labels)
		}
	}
	// Positions that lead the public graph to an hr chunk.
	bad := slices.Clone(stored)
	bad[0].Positions = slices.Clone(bad[0].Positions)
	bad[0].Positions[0] = 6
	o.ClassGraphs = bad
	ix3, err := NewWith(c, DefaultAnalyzers(), o)
	if err != nil {
		t.Fatal(err)
	}
	gs, err = ix3.ClassGraphs()
	if err != nil {
		t.Fatal(err)
	}
	if !gs[0].Changed || gs[0].Graph == stored[0].Graph {
		t.Fatal("a stored graph leading to another class's chunk was searched")
	}
}

// TestClassGraphHiddenMovesNothing: with class graphs (the public class's
// above the minimum), a reader who may not read the hr chunks gets the
// same dense and hybrid hits over C ∪ H as over C, H being more hr chunks
// interleaved with C's.
func TestClassGraphHiddenMovesNothing(t *testing.T) {
	build := func(ids []int) *Index {
		c := unevenClasses(ids)
		ix, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c), ClassGraphMin: 1000})
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	var withH []int
	for id := range 6000 {
		if id < 4000 || id%10 == 6 {
			withH = append(withH, id)
		}
	}
	slices.Sort(withH)
	c, ch := build(idsUpTo(4000)), build(withH)
	reader := Filter{Restricted: true, Labels: []string{"legal"}}
	for i := range 30 {
		q := unevenClasses([]int{50_000 + i}).Vectors
		sameHits(t, ch, c, Request{Query: "word", Lang: "en", Vector: q, K: 10, Filter: reader}, i)
	}
	_, rv := ch.accessView(reader)
	if leg, ok := ch.denseFor(rv).(classGraphLeg); !ok || len(leg.graphs) != 1 {
		t.Fatalf("the reader's dense leg is %T, want the public class's graph", ch.denseFor(rv))
	}
}
