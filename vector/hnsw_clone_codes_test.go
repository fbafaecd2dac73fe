package vector

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHNSWCloneSharesCodes: a clone shares the original's Int8 codes
// instead of copying them, and neither graph's changes reach the other's
// codes: not an AddBatch into the clone, not a refit of every code in the
// original, not an emptied original filled again.
func TestHNSWCloneSharesCodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	vecs := make([][]float32, 2600)
	for i := range vecs {
		vecs[i] = gaussVector(rng, 16)
	}
	ids := func(lo, hi int) []uint64 {
		var out []uint64
		for i := lo; i < hi; i++ {
			out = append(out, uint64(i))
		}
		return out
	}
	h := NewHNSW(16, HNSWOptions{Quantize: true})
	if err := h.AddBatch(ids(0, 1200), vecs[:1200], 1); err != nil {
		t.Fatal(err)
	}
	if h.codec == nil || len(h.codes) == 0 {
		t.Fatal("no codes after 1,200 nodes")
	}
	want := slices.Clone(h.codes)

	c := h.Clone()
	if &c.codes[0] != &h.codes[0] {
		t.Fatal("the clone copied the codes")
	}
	if err := c.AddBatch(ids(1200, 1300), vecs[1200:1300], 2); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.codes, want) {
		t.Fatal("an AddBatch into the clone changed the original's codes")
	}
	if !slices.Equal(c.codes[:len(want)], want) {
		t.Fatal("the clone's codes of the shared nodes changed when it grew")
	}

	c2 := h.Clone()
	c2Want := slices.Clone(c2.codes)
	// Every code of the original encoded again, as a refit of its codec
	// does, into its array (the same capacity suffices).
	h.mu.Lock()
	h.fitPrefix(len(h.ids))
	h.mu.Unlock()
	if !slices.Equal(c2.codes, c2Want) {
		t.Fatal("a refit of the original's codes changed the clone's")
	}

	o := NewHNSW(16, HNSWOptions{Quantize: true, TombstoneShare: -1})
	if err := o.AddBatch(ids(0, 1200), vecs[:1200], 1); err != nil {
		t.Fatal(err)
	}
	c3 := o.Clone()
	c3Want := slices.Clone(c3.codes)
	for i := range 1200 {
		o.Delete(uint64(i)) // the last delete empties the graph (reset)
	}
	if err := o.AddBatch(ids(0, 1100), vecs[1500:2600], 1); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c3.codes, c3Want) {
		t.Fatal("refilling an emptied original changed the clone's codes")
	}
	for _, g := range []*HNSW{c, c2, c3} {
		if r := g.Search(vecs[5], 1); len(r) != 1 || r[0].ID != 5 {
			t.Fatalf("a clone no longer finds node 5: %v", r)
		}
	}
}
