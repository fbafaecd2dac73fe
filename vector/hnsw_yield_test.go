package vector

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/fonte-rag/fonte/synth"
)

// TestAddBatchYieldsInsideALink: a batch's builder offers its processor
// to searches within a node's link, every buildYieldDist distances or so,
// not only between nodes: one node's link at a thousand nodes and
// EfConstruction 200 computes some thousands of distances, and a search
// waiting for the builder's processor waited all of them (session 33).
// Searches never offer it.
func TestAddBatchYieldsInsideALink(t *testing.T) {
	var calls atomic.Int64 // two workers call it at once
	old := toSearches
	toSearches = func() bool { calls.Add(1); return false }
	defer func() { toSearches = old }()

	data := synth.Clustered(rand.New(rand.NewPCG(71, 72)), 1001, 32, 12, 1)
	for _, workers := range []int{1, 2} {
		h := NewHNSW(32, HNSWOptions{M: 16, EfConstruction: 200, Rand: rand.New(rand.NewPCG(73, 0))})
		ids := make([]uint64, data.Rows)
		for i := range ids {
			ids[i] = uint64(i)
		}
		vecs := data.Slices()
		if err := h.AddBatch(ids[:1000], vecs[:1000], workers); err != nil {
			t.Fatal(err)
		}
		calls.Store(0)
		for i := range 20 {
			h.Search(data.Row(i), 10)
		}
		if calls.Load() != 0 {
			t.Fatalf("%d workers: 20 searches offered the processor %d times, want 0", workers, calls.Load())
		}
		// One node: its link is all the batch does between the
		// batch's own yields.
		if err := h.AddBatch(ids[1000:], vecs[1000:], workers); err != nil {
			t.Fatal(err)
		}
		if calls.Load() < 2 {
			t.Fatalf("%d workers: one node's link offered the processor %d times, want at least 2 (every %d distances)", workers, calls.Load(), buildYieldDist)
		}
	}
}
