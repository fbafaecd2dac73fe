package vector

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte/synth"
)

// sameGraph reports whether two indexes hold the same graph, vectors,
// ids, codec and codes.
func sameGraph(a, b *HNSW) bool {
	var ea, eb bytes.Buffer
	a.Encode(&ea)
	b.Encode(&eb)
	return bytes.Equal(ea.Bytes(), eb.Bytes()) && slices.Equal(a.codes, b.codes)
}

// TestHNSWAddBatchOneWorkerIsAdd: with one worker, AddBatch builds exactly
// the graph of the same Adds, in one batch or several, with the Int8
// codec fitted where the Adds fit it (at 1,000 vectors, then at each
// doubling).
func TestHNSWAddBatchOneWorkerIsAdd(t *testing.T) {
	data := synth.Clustered(rand.New(rand.NewPCG(61, 62)), 2600, 24, 15, 1)
	opts := func() HNSWOptions {
		return HNSWOptions{M: 6, EfConstruction: 40, Quantize: true, Rand: rand.New(rand.NewPCG(63, 0))}
	}
	seq := NewHNSW(24, opts())
	for i := range data.Rows {
		if err := seq.Add(uint64(i*3), data.Row(i)); err != nil {
			t.Fatal(err)
		}
	}
	ids := make([]uint64, data.Rows)
	for i := range ids {
		ids[i] = uint64(i * 3)
	}
	vecs := data.Slices()
	for _, cuts := range [][]int{{data.Rows}, {1, 999, 1000, 1500, data.Rows}, {2100, data.Rows}} {
		b := NewHNSW(24, opts())
		lo := 0
		for _, hi := range cuts {
			if err := b.AddBatch(ids[lo:hi], vecs[lo:hi], 1); err != nil {
				t.Fatal(err)
			}
			lo = hi
		}
		if b.fitAt != seq.fitAt || !sameGraph(b, seq) {
			t.Fatalf("batches %v: the graph differs from the Adds' (codec fitted at %d, Adds at %d)", cuts, b.fitAt, seq.fitAt)
		}
	}
}

// TestHNSWAddBatchConcurrent builds with several workers: the graph must
// keep every invariant and search as well as a sequential build. Run with
// -race for the locking.
func TestHNSWAddBatchConcurrent(t *testing.T) {
	n, dim := 6000, 32
	if raceEnabled {
		n = 1500
	}
	rng := rand.New(rand.NewPCG(64, 65))
	mix := synth.NewMixture(rng, 40, dim, 1)
	data, queries := mix.Sample(rng, n), mix.Sample(rng, 100)
	ids := make([]uint64, n)
	f := NewFlat(dim)
	for i := range ids {
		ids[i] = uint64(n - i) // not the node order
		f.Add(ids[i], data.Row(i))
	}
	truth := f.SearchBatch(queries.Slices(), 10)
	recallOf := func(h *HNSW) float64 {
		found := 0
		for i, q := range queries.Slices() {
			got := h.Search(q, 10)
			checkResults(t, h, func(id uint64) []float32 { return data.Row(n - int(id)) }, q, got, func(uint64) bool { return true })
			found += overlap(got, truth[i])
		}
		return float64(found) / float64(10*queries.Rows)
	}
	opts := HNSWOptions{M: 8, EfConstruction: 64}
	seq := NewHNSW(dim, opts)
	if err := seq.AddBatch(ids, data.Slices(), 1); err != nil {
		t.Fatal(err)
	}
	want := recallOf(seq)
	for _, workers := range []int{2, 4} {
		h := NewHNSW(dim, opts)
		// Two batches: the second links into a graph built concurrently.
		if err := h.AddBatch(ids[:n/3], data.Slices()[:n/3], workers); err != nil {
			t.Fatal(err)
		}
		if err := h.AddBatch(ids[n/3:], data.Slices()[n/3:], workers); err != nil {
			t.Fatal(err)
		}
		if h.Len() != n {
			t.Fatalf("%d workers: Len %d, want %d", workers, h.Len(), n)
		}
		checkGraph(t, h)
		got := recallOf(h)
		t.Logf("%d workers: recall@10 %.4f, one worker %.4f", workers, got, want)
		if got < want-0.03 {
			t.Fatalf("%d workers: recall@10 %.4f, one worker %.4f", workers, got, want)
		}
	}
}

// TestHNSWAddBatchReplaces: ids repeated in a batch keep their last
// vector, ids already present are replaced, unchanged vectors stay, and a
// rejected vector leaves the index untouched.
func TestHNSWAddBatchReplaces(t *testing.T) {
	rng := rand.New(rand.NewPCG(66, 67))
	const dim = 12
	h := NewHNSW(dim, HNSWOptions{M: 4, EfConstruction: 20, TombstoneShare: -1})
	want := map[uint64][]float32{}
	var ids []uint64
	var vecs [][]float32
	for i := range 300 {
		v := gaussVector(rng, dim)
		ids, vecs = append(ids, uint64(i)), append(vecs, v)
		want[uint64(i)] = v
	}
	if err := h.AddBatch(ids, vecs, 2); err != nil {
		t.Fatal(err)
	}
	nodes := len(h.ids)
	ids, vecs = nil, nil
	for i := range 50 {
		v := gaussVector(rng, dim)
		id := uint64(i * 2) // replaces
		if i%10 == 0 {
			v = want[id] // unchanged: no new node
		}
		ids, vecs = append(ids, id), append(vecs, v)
		want[id] = v
	}
	dup := gaussVector(rng, dim)
	ids, vecs = append(ids, 1000, 1000), append(vecs, gaussVector(rng, dim), dup)
	want[1000] = dup
	if err := h.AddBatch(ids, vecs, 3); err != nil {
		t.Fatal(err)
	}
	if h.Len() != len(want) || len(h.ids) != nodes+45+1 {
		t.Fatalf("Len %d (%d nodes), want %d (%d nodes)", h.Len(), len(h.ids), len(want), nodes+46)
	}
	checkGraph(t, h)
	for id, v := range want {
		got := h.SearchEf(v, 1, 200)
		if len(got) == 0 || got[0].ID != id && got[0].Score != Dot(v, v) {
			t.Fatalf("id %d: search for its vector found %v", id, got)
		}
	}

	before := h.Len()
	bad := gaussVector(rng, dim)
	bad[3] = float32(math.NaN())
	if err := h.AddBatch([]uint64{5000, 5001}, [][]float32{gaussVector(rng, dim), bad}, 2); !errors.Is(err, ErrNotFinite) {
		t.Fatalf("NaN vector: %v", err)
	}
	var de *DimensionError
	if err := h.AddBatch([]uint64{5002}, [][]float32{make([]float32, 3)}, 1); !errors.As(err, &de) {
		t.Fatalf("short vector: %v", err)
	}
	if err := h.AddBatch([]uint64{1, 2}, [][]float32{bad}, 1); err == nil {
		t.Fatal("ids and vectors of different lengths accepted")
	}
	if h.Len() != before {
		t.Fatalf("a rejected batch changed the index: Len %d, was %d", h.Len(), before)
	}
	if err := h.AddBatch(nil, nil, 0); err != nil {
		t.Fatalf("empty batch: %v", err)
	}
}
