package vector

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"
)

// Tests of Flat's int8 path: Search and SearchFilter pre-scan int8 codes
// and re-score candidates in float32, and must return exactly what the
// float32 scan returns (bruteForce of helpers_test.go: Dot for every
// vector, sorted by score then id), on every int8 kernel and on data
// built to defeat the error bound.

// forceInt8Path makes Flat take the int8 path at every size, with the
// pure-Go int8 kernel too, and returns the function that restores the
// defaults.
func forceInt8Path() func() {
	minRows, generic := flat8MinRows, flat8Generic
	flat8MinRows, flat8Generic = 0, true
	return func() { flat8MinRows, flat8Generic = minRows, generic }
}

// withInt8Level runs f with the kernels of lv (see int8Levels).
func withInt8Level(lv int8Level, f func()) {
	defer setLevel(lv.level)()
	vnni := hasVNNI
	hasVNNI = lv.vnni
	defer func() { hasVNNI = vnni }()
	f()
}

// checkFlat8 compares f's Search and SearchFilter with bruteForce over
// vecs for every query, at several k and filters.
func checkFlat8(t *testing.T, f *Flat, vecs map[uint64][]float32, queries [][]float32, rng *rand.Rand) {
	t.Helper()
	n := len(vecs)
	var ids []uint64
	for id := range vecs {
		ids = append(ids, id)
	}
	one := ids[rng.IntN(len(ids))]
	filters := []struct {
		name  string
		allow func(uint64) bool
	}{
		{"half", func(id uint64) bool { return id%2 == 0 }},
		{"rare", func(id uint64) bool { return id%97 == 1 }},
		{"one", func(id uint64) bool { return id == one }},
		{"none", func(uint64) bool { return false }},
		{"all-but-one", func(id uint64) bool { return id != one }},
	}
	for qi, q := range queries {
		for _, k := range []int{1, 3, 10, n, n + 5} {
			if got, want := f.Search(q, k), bruteForce(vecs, q, k); !equalResults(got, want) {
				t.Fatalf("query %d k=%d:\n got %v\nwant %v", qi, k, head(got), head(want))
			}
			for _, fl := range filters {
				sub := map[uint64][]float32{}
				for id, v := range vecs {
					if fl.allow(id) {
						sub[id] = v
					}
				}
				got, want := f.SearchFilter(q, k, fl.allow), bruteForce(sub, q, k)
				if len(got) == 0 && len(want) == 0 {
					continue
				}
				if !equalResults(got, want) {
					t.Fatalf("query %d k=%d filter %s:\n got %v\nwant %v", qi, k, fl.name, head(got), head(want))
				}
			}
		}
	}
}

func head(r []Result) []Result { return r[:min(len(r), 6)] }

// TestFlatInt8PathReplaceDelete: the int8 copy follows replacements and
// deletions (the last row moving into the hole), down to an empty index
// and back.
func TestFlatInt8PathReplaceDelete(t *testing.T) {
	defer forceInt8Path()()
	rng := rand.New(rand.NewPCG(33, 34))
	const dim = 24
	f := NewFlat(dim)
	ref := map[uint64][]float32{}
	qs := func() [][]float32 { return [][]float32{gaussVector(rng, dim), tieVector(rng, dim)} }
	for i := range 800 {
		v := gaussVector(rng, dim)
		if i%7 == 0 {
			v = tieVector(rng, dim)
		}
		ref[uint64(i)] = v
		f.Add(uint64(i), v)
	}
	for round := range 3 {
		for id := range ref {
			switch (id + uint64(round)) % 4 {
			case 0:
				v := gaussVector(rng, dim)
				for j := range v {
					v[j] *= float32(round*40 + 1) // replacements move the bounds
				}
				ref[id] = v
				f.Add(id, v)
			case 1:
				delete(ref, id)
				f.Delete(id)
			}
		}
		checkFlat8(t, f, ref, qs(), rng)
	}
	for id := range ref {
		f.Delete(id)
	}
	if got := f.Search(gaussVector(rng, dim), 3); got != nil {
		t.Fatalf("empty index returned %v", got)
	}
	ref = map[uint64][]float32{9: gaussVector(rng, dim), 4: gaussVector(rng, dim)}
	for id, v := range ref {
		f.Add(id, v)
	}
	checkFlat8(t, f, ref, qs(), rng)
}

// TestFlatInt8PathOverflow: vectors whose inner products overflow
// float32 are outside the error bound's assumptions; the search falls
// back to the float32 scan and still returns its results.
func TestFlatInt8PathOverflow(t *testing.T) {
	defer forceInt8Path()()
	rng := rand.New(rand.NewPCG(35, 36))
	const dim = 16
	f := NewFlat(dim)
	ref := map[uint64][]float32{}
	for i := range 100 {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(rng.Float64()+0.5) * 1e19 // positive: +Inf, never NaN
		}
		if i%3 == 0 {
			v = gaussVector(rng, dim)
		}
		ref[uint64(i)] = v
		f.Add(uint64(i), v)
	}
	q := make([]float32, dim)
	for j := range q {
		q[j] = 1e19
	}
	checkFlat8(t, f, ref, [][]float32{q, gaussVector(rng, dim)}, rng)
}

// TestFlatInt8PathDecode: a decoded Flat rebuilds its int8 copy.
func TestFlatInt8PathDecode(t *testing.T) {
	defer forceInt8Path()()
	rng := rand.New(rand.NewPCG(37, 38))
	const dim = 30
	f := NewFlat(dim)
	ref := map[uint64][]float32{}
	for i := range 500 {
		v := gaussVector(rng, dim)
		ref[uint64(i*2)] = v
		f.Add(uint64(i*2), v)
	}
	var buf bytes.Buffer
	if err := f.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	g, err := DecodeFlat(&buf)
	if err != nil {
		t.Fatal(err)
	}
	checkFlat8(t, g, ref, [][]float32{gaussVector(rng, dim), ref[4]}, rng)
}

// TestFlatInt8PathDefaults: with the defaults, Search takes the int8
// path from flat8MinRows rows when an assembly int8 kernel exists, and
// its results are the float32 scan's either way.
func TestFlatInt8PathDefaults(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 40))
	const dim = 64
	f := NewFlat(dim)
	ref := map[uint64][]float32{}
	for i := range flat8MinRows + 10 {
		v := gaussVector(rng, dim)
		ref[uint64(i)] = v
		f.Add(uint64(i), v)
		if i == flat8MinRows-2 && f.use8() {
			t.Fatal("int8 path below flat8MinRows")
		}
	}
	if f.use8() != int8Kernel() {
		t.Fatalf("use8 %v with an assembly int8 kernel %v", f.use8(), int8Kernel())
	}
	checkFlat8(t, f, ref, [][]float32{gaussVector(rng, dim)}, rng)
}

// Run with -race: searches on the int8 path, filtered ones too, while
// vectors are added, replaced and deleted.
func TestFlatInt8PathConcurrent(t *testing.T) {
	defer forceInt8Path()()
	const dim = 16
	f := NewFlat(dim)
	rng := rand.New(rand.NewPCG(41, 42))
	for i := range 300 {
		f.Add(uint64(i), gaussVector(rng, dim))
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 3))
			for i := range 200 {
				var res []Result
				switch i % 4 {
				case 0:
					f.Add(uint64(r.IntN(400)), gaussVector(r, dim))
				case 1:
					f.Delete(uint64(r.IntN(400)))
				case 2:
					res = f.SearchFilter(gaussVector(r, dim), 7, func(id uint64) bool { return id%3 != 0 })
				default:
					res = f.Search(gaussVector(r, dim), 10)
				}
				for j := 1; j < len(res); j++ {
					if before(res[j], res[j-1]) {
						t.Errorf("results out of order: %v", res)
					}
				}
			}
		})
	}
	wg.Wait()
}
