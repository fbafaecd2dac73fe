package vector

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte/synth"
)

// externalPair is the same graph built twice from the same Adds, once
// owning its vectors and once External over the caller's rows.
type externalPair struct {
	own, ext *HNSW
	rows     map[uint64][]float32 // the rows ext refers to, by id
	queries  synth.Matrix
}

func newExternalPair(t *testing.T, n, dim int, quantize bool) *externalPair {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), 73))
	data := synth.Clustered(rng, n, dim, 20, 1)
	opts := func(ext bool) HNSWOptions {
		return HNSWOptions{M: 6, EfConstruction: 50, Quantize: quantize, TombstoneShare: -1,
			External: ext, Rand: rand.New(rand.NewPCG(7, 8))}
	}
	p := &externalPair{own: NewHNSW(dim, opts(false)), ext: NewHNSW(dim, opts(true)),
		rows: map[uint64][]float32{}, queries: synth.Clustered(rng, 100, dim, 20, 1)}
	for i := range n {
		p.add(t, uint64(i), data.Row(i))
	}
	return p
}

// add adds v under id to both, the External index getting a copy the
// test may later overwrite.
func (p *externalPair) add(t *testing.T, id uint64, v []float32) {
	t.Helper()
	row := slices.Clone(v)
	if err := p.own.Add(id, v); err != nil {
		t.Fatal(err)
	}
	if err := p.ext.Add(id, row); err != nil {
		t.Fatal(err)
	}
	p.rows[id] = row
}

// release overwrites the row the test handed over for id, as a store
// that reuses the memory of a deleted or replaced row would.
func (p *externalPair) release(id uint64) {
	for i := range p.rows[id] {
		p.rows[id][i] = float32(math.NaN())
	}
	delete(p.rows, id)
}

// sameAnswers asserts that every kind of search answers alike on both.
func sameAnswers(t *testing.T, stage string, a, b *HNSW, queries synth.Matrix) {
	t.Helper()
	for qi := range queries.Rows {
		q := queries.Row(qi)
		for _, c := range []struct {
			name     string
			got, exp []Result
		}{
			{"Search", b.Search(q, 10), a.Search(q, 10)},
			{"SearchEf 150", b.SearchEf(q, 10, 150), a.SearchEf(q, 10, 150)},
			{"SearchFilter exact", b.SearchFilter(q, 10, func(id uint64) bool { return id%97 == 0 }),
				a.SearchFilter(q, 10, func(id uint64) bool { return id%97 == 0 })},
			{"SearchFilter graph", b.SearchFilter(q, 10, func(id uint64) bool { return id%2 == 0 }),
				a.SearchFilter(q, 10, func(id uint64) bool { return id%2 == 0 })},
			{"Search all", b.Search(q, a.Len()+5), a.Search(q, a.Len()+5)},
		} {
			if len(c.exp) == 0 || !equalResults(c.got, c.exp) {
				t.Fatalf("%s: query %d, %s: got %v, want %v", stage, qi, c.name, c.got, c.exp)
			}
		}
	}
}

// TestHNSWExternalMatchesOwning: an External index keeps the caller's
// rows, not copies, holds only links in its node blocks, and builds,
// searches, deletes, replaces, compacts, quantizes and batch-adds exactly
// as an owning one does, even after the caller overwrote the rows of the
// ids it deleted or replaced.
func TestHNSWExternalMatchesOwning(t *testing.T) {
	for _, quantize := range []bool{false, true} {
		p := newExternalPair(t, 2400, 24, quantize)
		own, ext := p.own, p.ext
		if ext.stride != 16 || own.stride != (24+1+12+15)&^15 {
			t.Fatalf("node blocks of %d and %d words, want 16 (links alone) and %d", ext.stride, own.stride, (24+1+12+15)&^15)
		}
		for id, row := range p.rows {
			if n := ext.byID[id]; &ext.rows[n][0] != &row[0] {
				t.Fatalf("id %d: the index holds a copy, not the caller's row", id)
			}
		}
		if quantize != (ext.codec != nil) || !sameGraph(own, ext) {
			t.Fatalf("quantize %v: the External graph (codec %v) differs from the owning one", quantize, ext.codec != nil)
		}
		sameAnswers(t, "built", own, ext, p.queries)

		for id := uint64(0); id < 2400; id += 5 {
			own.Delete(id)
			ext.Delete(id)
			p.release(id)
		}
		sameAnswers(t, "after Delete", own, ext, p.queries)
		rng := rand.New(rand.NewPCG(9, 9))
		for id := uint64(1); id < 400; id += 5 {
			old := p.rows[id]
			if id%2 == 0 {
				p.add(t, id, gaussVector(rng, 24)) // a new vector
			} else {
				p.add(t, id, old) // the same vector from a new place
			}
			for i := range old {
				old[i] = float32(math.Inf(1))
			}
		}
		sameAnswers(t, "after replacing", own, ext, p.queries)
		own.Compact()
		ext.Compact()
		if ext.deleted != 0 || len(ext.rows) != len(ext.ids) || !sameGraph(own, ext) {
			t.Fatalf("after Compact: %d tombstones, %d rows for %d nodes, or graphs differ", ext.deleted, len(ext.rows), len(ext.ids))
		}
		checkGraph(t, ext)
		sameAnswers(t, "after Compact", own, ext, p.queries)

		ids := make([]uint64, 600)
		vecs := make([][]float32, 600)
		for i := range ids {
			ids[i], vecs[i] = uint64(5000+i), gaussVector(rng, 24)
		}
		if err := own.AddBatch(ids, vecs, 1); err != nil {
			t.Fatal(err)
		}
		if err := ext.AddBatch(ids, vecs, 1); err != nil {
			t.Fatal(err)
		}
		if n := ext.byID[5000]; &ext.rows[n][0] != &vecs[0][0] || !sameGraph(own, ext) {
			t.Fatal("after AddBatch: a copied row, or graphs differ")
		}
		sameAnswers(t, "after AddBatch", own, ext, p.queries)
	}
}

// TestHNSWExternalConcurrentBuild: an External index built by several
// workers, searched while it is changed, is race free and finds what an
// exact search finds.
func TestHNSWExternalConcurrentBuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	data := synth.Clustered(rng, 3000, 32, 30, 1)
	h := NewHNSW(32, HNSWOptions{M: 8, EfConstruction: 80, External: true})
	ids := make([]uint64, data.Rows)
	vecs := map[uint64][]float32{}
	for i := range ids {
		ids[i] = uint64(i)
		vecs[uint64(i)] = data.Row(i)
	}
	if err := h.AddBatch(ids, data.Slices(), 2); err != nil {
		t.Fatal(err)
	}
	checkGraph(t, h)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 300 {
			h.Delete(uint64(i))
		}
		h.Compact()
	}()
	q := gaussVector(rng, 32)
	for range 50 {
		h.Search(q, 10)
	}
	<-done
	for i := range 300 {
		delete(vecs, uint64(i))
	}
	found, want := 0, 0
	for range 100 {
		q := data.Row(rng.IntN(data.Rows))
		got := h.Search(q, 10)
		checkResults(t, h, func(id uint64) []float32 { return vecs[id] }, q, got, func(id uint64) bool { return id >= 300 })
		found += overlap(got, bruteForce(vecs, q, 10))
		want += 10
	}
	if r := float64(found) / float64(want); r < 0.95 {
		t.Fatalf("recall@10 %.3f after a concurrent External build, want ≥ 0.95", r)
	}
}
