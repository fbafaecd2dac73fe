package vector

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// seedInPlaceForms are small valid in-place forms: empty, several layers
// with tombstones, and with a fitted Int8 codec.
func seedInPlaceForms(t testing.TB) [][]byte {
	forms := [][]byte{NewHNSW(3, HNSWOptions{External: true}).AppendInPlace(nil)}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, o := range []HNSWOptions{{M: 2, LevelMult: 2}, {M: 3, KeepPruned: true, Quantize: true}} {
		o.External, o.TombstoneShare = true, -1
		h := NewHNSW(3, o)
		for i := range 40 {
			if err := h.Add(uint64(i*7), gaussVector(rng, 3)); err != nil {
				t.Fatal(err)
			}
		}
		for _, id := range []uint64{14, 21, 70} {
			h.Delete(id)
		}
		if o.Quantize {
			h.fitPrefix(len(h.ids)) // a codec on a small index, as on a large one
		}
		forms = append(forms, h.AppendInPlace(nil))
	}
	return forms
}

// fuzzRows returns a rowOf for a form whose header says dim: every node
// gets one of 16 overlapping windows of one buffer; a dimension too large
// to serve gets empty rows, which OpenHNSWInPlace must refuse.
func fuzzRows(form []byte) func(int) []float32 {
	dim := uint64(0)
	if len(form) >= 16 {
		dim = binary.LittleEndian.Uint64(form[8:])
	}
	if dim < 1 || dim > 64 {
		return func(int) []float32 { return nil }
	}
	buf := make([]float32, dim+16)
	for i := range buf {
		buf[i] = float32(i%5) - 2
	}
	return func(node int) []float32 {
		k := node % 16
		return buf[k : k+int(dim) : k+int(dim)]
	}
}

// FuzzOpenHNSWInPlace: no form makes OpenHNSWInPlace, VerifyHNSWInPlace,
// a search, a change or a clone of an opened graph panic, and the results
// of searches are live nodes with their true scores, at most k, in order.
func FuzzOpenHNSWInPlace(f *testing.F) {
	for _, s := range seedInPlaceForms(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		_ = VerifyHNSWInPlace(raw)
		// A misaligned copy is copied, not viewed: the same checks.
		if h, err := OpenHNSWInPlace(alignedCopy(raw, 3), fuzzRows(raw)); err == nil {
			exerciseInPlace(t, h)
		}
		form := alignedCopy(raw, 0)
		h, err := OpenHNSWInPlace(form, fuzzRows(form))
		if err != nil {
			return
		}
		exerciseInPlace(t, h)
		c := h.Clone()
		ids := h.AppendNodeIDs(nil)
		if len(ids) > 0 {
			h.Delete(ids[len(ids)/2])
		}
		q := make([]float32, h.Dim())
		q[0] = 1
		if err := h.Add(1<<62, q); err != nil {
			t.Fatal(err)
		}
		h.Compact()
		exerciseInPlace(t, h)
		exerciseInPlace(t, c)
	})
}

// exerciseInPlace runs every kind of search on h and checks its results.
func exerciseInPlace(t *testing.T, h *HNSW) {
	q := make([]float32, h.Dim())
	for i := range q {
		q[i] = float32(i%3) - 0.5
	}
	for _, c := range []struct {
		name string
		got  []NodeResult
		k    int
	}{
		{"all", h.SearchNodes(q, 3, 1, nil), 3},
		{"filtered", h.SearchNodes(q, 2, 8, func(n uint32) bool { return n%2 == 0 }), 2},
		{"wide", h.SearchNodes(q, 5, 400, nil), 5},
	} {
		if len(c.got) > c.k || len(c.got) > h.Len() {
			t.Fatalf("%s: %d results for k %d over %d nodes", c.name, len(c.got), c.k, h.Len())
		}
		for i, r := range c.got {
			if int(r.Node) >= len(h.ids) || h.isDead(r.Node) || h.ids[r.Node] != r.ID || r.Score != Dot(q, h.vec(r.Node)) {
				t.Fatalf("%s: result %v is not a live node with its score", c.name, r)
			}
			if i > 0 && behind(c.got[i-1], r) {
				t.Fatalf("%s: results out of order: %v", c.name, c.got)
			}
		}
	}
	h.Search(q, 3)
	h.SearchFilter(q, 3, func(id uint64) bool { return id%2 == 0 })
}
