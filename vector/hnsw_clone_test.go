package vector

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHNSWClone: a clone answers as the original did, and changing one
// (delete, add, compact) leaves the other's answers as they were, in
// both the owning and the External mode.
func TestHNSWClone(t *testing.T) {
	for _, external := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(7, 7))
		vecs := make([][]float32, 600)
		for i := range vecs {
			vecs[i] = gaussVector(rng, 24)
		}
		h := NewHNSW(24, HNSWOptions{External: external, Quantize: true})
		for i, v := range vecs[:500] {
			if err := h.Add(uint64(i), v); err != nil {
				t.Fatal(err)
			}
		}
		h.Delete(3)
		queries := vecs[500:520]
		answers := func(g *HNSW) [][]Result {
			var out [][]Result
			for _, q := range queries {
				out = append(out, g.Search(q, 10))
			}
			return out
		}
		before := answers(h)
		c := h.Clone()
		if !slices.EqualFunc(answers(c), before, slices.Equal) {
			t.Fatalf("external=%v: the clone answers differently", external)
		}
		for i := range 100 {
			c.Delete(uint64(i))
		}
		for i, v := range vecs[500:] {
			if err := c.Add(uint64(1000+i), v); err != nil {
				t.Fatal(err)
			}
		}
		c.Compact()
		if !slices.EqualFunc(answers(h), before, slices.Equal) {
			t.Fatalf("external=%v: changing the clone changed the original", external)
		}
		if h.Len() != 499 || c.Len() != 500 {
			t.Fatalf("external=%v: lengths %d and %d", external, h.Len(), c.Len())
		}
		for _, r := range c.Search(vecs[550], 1) {
			if r.ID != 1050 {
				t.Fatalf("external=%v: the clone does not find a vector added to it: %v", external, r)
			}
		}
		h.Delete(200)
		if r := c.Search(vecs[200], 1); len(r) != 1 || r[0].ID != 200 {
			t.Fatalf("external=%v: a delete in the original reached the clone: %v", external, r)
		}
	}
}

// TestHNSWInsertPastTombstones: a node inserted where every node its
// search reaches on an upper layer is a tombstone (the old entry point
// and its layer deleted) still gets its links, and the graph stays
// searchable after compaction makes it the entry point. Found through
// Clone, whose generator draws other levels: with levels that put a new
// node alone above the tombstones, it was inserted with no link at all.
func TestHNSWInsertPastTombstones(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	vecs := make([][]float32, 600)
	for i := range vecs {
		vecs[i] = gaussVector(rng, 24)
	}
	for seed := range uint64(8) {
		h := NewHNSW(24, HNSWOptions{TombstoneShare: -1})
		for i, v := range vecs[:500] {
			if err := h.Add(uint64(i), v); err != nil {
				t.Fatal(err)
			}
		}
		h.rng = rand.New(rand.NewPCG(500+seed, 0x636c6f6e))
		for i := range 100 {
			h.Delete(uint64(i))
		}
		for i, v := range vecs[500:] {
			if err := h.Add(uint64(1000+i), v); err != nil {
				t.Fatal(err)
			}
		}
		for _, compact := range []bool{false, true} {
			if compact {
				h.Compact()
			}
			misses := 0
			for i := 100; i < 600; i++ {
				id := uint64(i)
				if i >= 500 {
					id = uint64(1000 + i - 500)
				}
				if r := h.Search(vecs[i], 1); len(r) == 0 || r[0].ID != id {
					misses++
				}
			}
			if misses > 5 {
				t.Errorf("levels seed %d, compacted %v: %d of 500 live vectors do not find themselves", seed, compact, misses)
			}
		}
	}
}
