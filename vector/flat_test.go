package vector

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte/synth"
)

func TestFlatMatchesBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name string
		gen  func(*rand.Rand, int) []float32
	}{
		{"gaussian", gaussVector},
		{"ties", tieVector},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			const dim = 13 // not a multiple of 8: the kernel's tail runs too
			f := NewFlat(dim)
			ref := map[uint64][]float32{}
			// Ids in random order, with gaps, so "by ascending id" is not
			// "by insertion order".
			for _, i := range rng.Perm(500) {
				id := uint64(i*7 + 3)
				v := tc.gen(rng, dim)
				ref[id] = v
				if err := f.Add(id, v); err != nil {
					t.Fatal(err)
				}
			}
			// Exact duplicates under different ids: equal scores for sure.
			for id := uint64(10000); id < 10020; id++ {
				v := ref[3]
				ref[id] = v
				if err := f.Add(id, v); err != nil {
					t.Fatal(err)
				}
			}
			check := func(stage string) {
				t.Helper()
				if f.Len() != len(ref) {
					t.Fatalf("%s: Len %d, want %d", stage, f.Len(), len(ref))
				}
				for qi := range 30 {
					q := tc.gen(rng, dim)
					if qi == 0 {
						q = ref[3]
					}
					for _, k := range []int{0, 1, 5, 10, 37, len(ref), len(ref) + 5} {
						got, want := f.Search(q, k), bruteForce(ref, q, k)
						if !equalResults(got, want) {
							t.Fatalf("%s: query %d k=%d:\n got %v\nwant %v", stage, qi, k, got, want)
						}
					}
				}
			}
			check("after adds")

			// Replace some vectors, delete others.
			for id := range ref {
				switch id % 5 {
				case 0:
					v := tc.gen(rng, dim)
					ref[id] = v
					if err := f.Add(id, v); err != nil {
						t.Fatal(err)
					}
				case 1:
					delete(ref, id)
					if !f.Delete(id) {
						t.Fatalf("Delete(%d) = false for a stored id", id)
					}
				}
			}
			if f.Delete(999999) {
				t.Fatal("Delete of an absent id reported true")
			}
			check("after replace and delete")
		})
	}
}

func TestFlatEmptyAndSmall(t *testing.T) {
	f := NewFlat(4)
	if got := f.Search([]float32{1, 0, 0, 0}, 10); got != nil {
		t.Fatalf("empty index returned %v", got)
	}
	f.Add(2, []float32{0, 1, 0, 0})
	f.Add(1, []float32{0, 1, 0, 0})
	got := f.Search([]float32{0, 1, 0, 0}, 10)
	want := []Result{{ID: 1, Score: 1}, {ID: 2, Score: 1}}
	if !equalResults(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestFlatDimensionError(t *testing.T) {
	f := NewFlat(384)
	err := f.Add(1, make([]float32, 128))
	var de *DimensionError
	if !errors.As(err, &de) || de.Want != 384 || de.Got != 128 {
		t.Fatalf("Add of a 128-d vector: %v, want *DimensionError{384, 128}", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "128") || !strings.Contains(msg, "384") {
		t.Fatalf("error %q does not name both dimensions", msg)
	}
	if f.Len() != 0 {
		t.Fatal("a rejected vector was stored")
	}
	v := make([]float32, 384)
	v[7] = float32(math.NaN())
	if err := f.Add(1, v); !errors.Is(err, ErrNotFinite) {
		t.Fatalf("Add of a NaN vector: %v, want ErrNotFinite", err)
	}
	defer func() {
		r := recover()
		if e, ok := r.(*DimensionError); !ok || e.Got != 3 {
			t.Fatalf("Search with a 3-d query recovered %v, want *DimensionError", r)
		}
	}()
	f.Search([]float32{1, 2, 3}, 1)
}

func TestFlatAddCopies(t *testing.T) {
	f := NewFlat(2)
	v := []float32{1, 0}
	f.Add(1, v)
	v[0] = -5 // the caller's slice is theirs to reuse
	if got := f.Search([]float32{1, 0}, 1); got[0].Score != 1 {
		t.Fatalf("index aliased the caller's slice: %v", got)
	}
}

func TestFlatSearchBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	data := synth.Clustered(rng, 2000, 32, 10, 0.5)
	f := NewFlat(32)
	for i := range data.Rows {
		f.Add(uint64(i), data.Row(i))
	}
	// 77 queries: more than one group per worker, and a ragged last group.
	qs := synth.Clustered(rng, 77, 32, 10, 0.5).Slices()
	for _, k := range []int{0, 1, 10, 2500} {
		batch := f.SearchBatch(qs, k)
		if len(batch) != len(qs) {
			t.Fatalf("%d result lists for %d queries", len(batch), len(qs))
		}
		for i, q := range qs {
			if !equalResults(batch[i], f.Search(q, k)) {
				t.Fatalf("k=%d query %d: batch and single search differ", k, i)
			}
		}
	}
	if got := f.SearchBatch(nil, 10); len(got) != 0 {
		t.Fatalf("empty batch returned %v", got)
	}
}

// Run with -race: searches, batch searches, adds and deletes at once.
func TestFlatConcurrent(t *testing.T) {
	const dim = 16
	f := NewFlat(dim)
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range 500 {
		f.Add(uint64(i), gaussVector(rng, dim))
	}
	var wg sync.WaitGroup
	for w := range max(4, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for i := range 200 {
				switch i % 4 {
				case 0:
					id := uint64(500 + w*1000 + i)
					if err := f.Add(id, gaussVector(r, dim)); err != nil {
						t.Error(err)
					}
				case 1:
					f.Delete(uint64(r.IntN(500)))
				case 2:
					f.SearchBatch([][]float32{gaussVector(r, dim), gaussVector(r, dim)}, 5)
				default:
					res := f.Search(gaussVector(r, dim), 10)
					for j := 1; j < len(res); j++ {
						if before(res[j], res[j-1]) {
							t.Errorf("results out of order: %v", res)
						}
					}
				}
			}
		})
	}
	wg.Wait()
}

func BenchmarkFlatSearch(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		data, queries := benchData(n)
		f := NewFlat(benchDim)
		for i := range n {
			f.Add(uint64(i), data.Row(i))
		}
		b.Run(sizeName(n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				f.Search(queries.Row(i%queries.Rows), 10)
				i++
			}
		})
	}
}

func BenchmarkFlatSearchBatch(b *testing.B) {
	data, queries := benchData(100_000)
	f := NewFlat(benchDim)
	for i := range data.Rows {
		f.Add(uint64(i), data.Row(i))
	}
	qs := queries.Slices()[:64]
	b.Run("100k/64q", func(b *testing.B) {
		for b.Loop() {
			f.SearchBatch(qs, 10)
		}
	})
}

func TestFlatSearchFilter(t *testing.T) {
	f := NewFlat(2)
	for i, v := range [][]float32{{1, 0}, {0.9, 0.1}, {0, 1}, {0.8, 0.2}} {
		Normalize(v)
		if err := f.Add(uint64(i), v); err != nil {
			t.Fatal(err)
		}
	}
	q := []float32{1, 0}
	got := f.SearchFilter(q, 2, func(id uint64) bool { return id%2 == 1 })
	if len(got) != 2 || got[0].ID != 1 || got[1].ID != 3 {
		t.Fatalf("filtered search %v", got)
	}
	if all := f.SearchFilter(q, 4, nil); len(all) != 4 || all[0].ID != 0 {
		t.Fatalf("nil filter %v", all)
	}
	if none := f.SearchFilter(q, 3, func(uint64) bool { return false }); len(none) != 0 {
		t.Fatalf("rejecting filter %v", none)
	}
}
