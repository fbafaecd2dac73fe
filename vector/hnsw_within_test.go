package vector

import (
	"math/rand/v2"
	"testing"
)

// withinSets are node sets over the 10k×384 fixture (whose node numbers
// are its ids): half and a tenth of the nodes spread evenly, and a
// clustered third, the 3,000 nearest a row that most queries are not
// near, so the walk must cross regions holding no set node.
func withinSets(fx *hnswFixture) map[string]func(uint64) bool {
	region := map[uint64]bool{}
	for _, r := range fx.flat.Search(fx.data.Row(0), 3000) {
		region[r.ID] = true
	}
	return map[string]func(uint64) bool{
		"half":      func(id uint64) bool { return id%2 == 1 },
		"tenth":     func(id uint64) bool { return id%10 == 3 },
		"clustered": func(id uint64) bool { return region[id] },
	}
}

func nodeSetOf(n int, in func(uint64) bool) NodeSet {
	s := NewNodeSet(n)
	for i := range n {
		if in(uint64(i)) {
			s.Add(uint32(i))
		}
	}
	return s
}

// TestSearchWithin: the walk returns only set nodes with exact scores,
// finds nearly all of the set's exact top 10 for sets of half, a tenth
// and a clustered third of the nodes, on float32 and on codes, and does
// the same work (link lists read, vectors scored) whatever the set.
func TestSearchWithin(t *testing.T) {
	if raceEnabled {
		return // numeric, as TestHNSWSearchFilter's large part; TestSearchWithinDeadAndSmall runs under -race
	}
	fx := sharedFixture(t, "10k×384")
	row := func(id uint64) []float32 { return fx.data.Row(int(id)) }
	const steps = 100
	work := map[WalkStats]string{}
	for _, g := range []struct {
		name string
		h    *HNSW
	}{{"float32", fx.h}, {"int8", quantizedCopy(fx.h)}} {
		for name, in := range withinSets(fx) {
			set := nodeSetOf(fx.data.Rows, in)
			truth := make([][]Result, fx.queries.Rows)
			for qi := range truth {
				truth[qi] = fx.flat.SearchFilter(fx.queries.Row(qi), 10, in)
			}
			r := recall(fx, truth, func(q []float32) []Result {
				var st WalkStats
				nodes, ok := g.h.SearchWithin(q, 10, 64, steps, set, &st)
				got := resultsOf(nodes)
				checkResults(t, g.h, row, q, got, in)
				if !ok || len(got) != 10 {
					t.Fatalf("%s %s: %d results, ok %v", g.name, name, len(got), ok)
				}
				work[st] = g.name + " " + name
				return got
			})
			t.Logf("%s, %s: recall@10 %.4f", g.name, name, r)
			if r < 0.95 {
				t.Errorf("%s, %s: recall@10 %.4f, want ≥ 0.95", g.name, name, r)
			}
		}
	}
	want := WalkStats{Lists: steps * (1 + fx.h.m0), Scored: steps * fx.h.m0}
	if len(work) != 1 || work[want] == "" {
		t.Fatalf("work per search %v, want %v for every set", work, want)
	}
}

// TestSearchWithinDeadAndSmall: deleted nodes are never returned, a set
// of fewer than k live nodes gives only its nodes and says it found
// fewer than k, and an empty set gives nothing.
func TestSearchWithinDeadAndSmall(t *testing.T) {
	h := NewHNSW(8, HNSWOptions{M: 4, EfConstruction: 20, TombstoneShare: -1})
	f := NewFlat(8)
	vecs := map[uint64][]float32{}
	for i := range 500 {
		v := gaussVector(rand.New(rand.NewPCG(uint64(i), 1)), 8)
		h.Add(uint64(i), v)
		f.Add(uint64(i), v)
		vecs[uint64(i)] = v
	}
	for id := uint64(0); id < 500; id += 3 {
		h.Delete(id)
	}
	all := NewNodeSet(500)
	few := NewNodeSet(500)
	for n := range uint32(500) {
		all.Add(n)
	}
	for _, n := range []uint32{3, 4, 7} { // 3 is deleted
		few.Add(n)
	}
	q := gaussVector(rand.New(rand.NewPCG(9999, 1)), 8)
	got, ok := h.SearchWithin(q, 10, 16, 50, all, nil)
	if !ok || len(got) != 10 {
		t.Fatalf("whole set: %d results, ok %v", len(got), ok)
	}
	for _, r := range got {
		if r.ID%3 == 0 {
			t.Fatalf("deleted id %d returned", r.ID)
		}
	}
	got, ok = h.SearchWithin(q, 10, 16, 50, few, nil)
	for _, r := range got {
		if r.ID != 4 && r.ID != 7 {
			t.Fatalf("set {3 (deleted), 4, 7}: id %d returned", r.ID)
		}
	}
	if ok {
		t.Fatalf("set {3 (deleted), 4, 7}: %v, ok", got)
	}
	if got, ok := h.SearchWithin(q, 10, 16, 50, NewNodeSet(500), nil); ok || got != nil {
		t.Fatalf("empty set: %v, ok %v", got, ok)
	}
}
