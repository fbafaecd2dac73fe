//go:build !race

package vector

import (
	"math/rand/v2"
	"testing"
)

// The allocation tests are built without -race only: a search's scratch
// comes from a sync.Pool, which drops items at random under -race, so the
// count would not be the code's. CI runs package vector without -race too
// (scripts/test, the README's test command), which runs them.

func TestFlatSearchAllocatesOnlyTheResult(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	f := NewFlat(64)
	for i := range 1000 {
		f.Add(uint64(i), gaussVector(rng, 64))
	}
	q := gaussVector(rng, 64)
	if n := testing.AllocsPerRun(20, func() { f.Search(q, 10) }); n != 1 {
		t.Fatalf("Search allocated %v times, want 1 (the result)", n)
	}
}

func TestFlatViewSearchAllocatesOnlyTheResult(t *testing.T) {
	defer forceInt8Path()()
	rng := rand.New(rand.NewPCG(65, 66))
	tc := viewCase{dim: 64}
	for range 1000 {
		tc.rows = append(tc.rows, gaussVector(rng, 64))
	}
	for range 50 {
		tc.sizes = append(tc.sizes, 1, 19) // 100 parts
	}
	q := gaussVector(rng, 64)
	for _, m := range int8Modes {
		v := viewOf(t, tc, m.with8)
		if n := testing.AllocsPerRun(20, func() { v.Search(q, 10) }); n != 1 {
			t.Errorf("%s: Search allocated %v times, want 1 (the result)", m.name, n)
		}
		allow := func(id uint64) bool { return id%3 != 0 }
		if n := testing.AllocsPerRun(20, func() { v.SearchFilter(q, 10, allow) }); n != 1 {
			t.Errorf("%s: SearchFilter allocated %v times, want 1 (the result)", m.name, n)
		}
	}
}
