package vector

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Tests of FlatView.Gather and SearchGathered: a search over gathered
// int8 copies must return exactly what a Flat returns filtered to the
// same rows, however the rows are grouped and whichever groups it reads.

// gatherGroups splits the rows 0..n-1 into groups: each row in group
// class(row), the groups numbered 0..groups-1.
func gatherGroups(t *testing.T, v *FlatView, groups int, class func(row int) int) []*Gathered {
	t.Helper()
	rows := make([][]int, groups)
	for r := range v.Len() {
		c := class(r)
		rows[c] = append(rows[c], r)
	}
	gs := make([]*Gathered, groups)
	for c, ids := range rows {
		g, err := v.Gather(ids)
		if err != nil {
			t.Fatal(err)
		}
		if g.Len() != len(ids) {
			t.Fatalf("group %d: Len %d, want %d", c, g.Len(), len(ids))
		}
		gs[c] = g
	}
	return gs
}

// checkGatheredEqualsFlat compares SearchGathered over every choice of
// groups in picks with Flat.SearchFilter over the groups' rows, for every
// query, several k and filters.
func checkGatheredEqualsFlat(t *testing.T, v *FlatView, f *Flat, gs []*Gathered, class func(row int) int, picks [][]int, queries [][]float32) {
	t.Helper()
	n := f.Len()
	for _, pick := range picks {
		var sel []*Gathered
		for _, c := range pick {
			sel = append(sel, gs[c])
		}
		for qi, q := range queries {
			for _, k := range []int{1, 3, 10, n + 7} {
				for _, fl := range viewFilters(n) {
					in := func(id uint64) bool {
						return slices.Contains(pick, class(int(id))) && (fl.allow == nil || fl.allow(id))
					}
					if got, want := v.SearchGathered(q, k, sel, fl.allow), f.SearchFilter(q, k, in); !equalResults(got, want) {
						t.Fatalf("groups %v query %d k=%d filter %s:\n got %v\nwant %v", pick, qi, k, fl.name, head(got), head(want))
					}
				}
			}
		}
	}
}

// gatherings are the ways the tests group rows: scattered one row in
// three, in runs of 50, at random, in runs of 100 (the rows of one scale
// of TestSearchGatheredInt8Path's "scales" in a group), and all in one
// group, each with the
// choices of groups searched.
func gatherings(seed uint64) []struct {
	name   string
	groups int
	class  func(int) int
	picks  [][]int
} {
	rng := rand.New(rand.NewPCG(seed, 1))
	random := make([]int, 1<<12)
	for i := range random {
		random[i] = rng.IntN(4)
	}
	return []struct {
		name   string
		groups int
		class  func(int) int
		picks  [][]int
	}{
		{"every-third", 3, func(r int) int { return r % 3 }, [][]int{{0}, {1, 2}, {2, 0}, {0, 1, 2}, {}}},
		{"runs", 2, func(r int) int { return r / 50 % 2 }, [][]int{{0}, {1}, {1, 0}}},
		{"random", 4, func(r int) int { return random[r%len(random)] }, [][]int{{3}, {0, 2}, {1, 2, 3}}},
		{"hundreds", 3, func(r int) int { return r / 100 % 3 }, [][]int{{1, 0}, {1, 2}, {0, 1, 2}}},
		{"one", 1, func(int) int { return 0 }, [][]int{{0}}},
	}
}

// TestSearchGatheredMatchesFlat: with the defaults (the int8 path from
// flat8MinRows rows where an assembly kernel exists, else the float32
// scan of the gathered rows).
func TestSearchGatheredMatchesFlat(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	for _, tc := range viewCases(rng) {
		f := flatOf(t, tc.dim, tc.rows, FlatOptions{})
		v := viewOf(t, tc, func(int) bool { return false })
		for _, gc := range gatherings(63) {
			t.Run(tc.name+"/"+gc.name, func(t *testing.T) {
				gs := gatherGroups(t, v, gc.groups, gc.class)
				checkGatheredEqualsFlat(t, v, f, gs, gc.class, gc.picks, tc.queries)
			})
		}
	}
}

// TestSearchGatheredInt8Path: the int8 path at every size and on every
// int8 kernel, over groups of very different scales, so that an error
// bound taken from one group only would show.
func TestSearchGatheredInt8Path(t *testing.T) {
	defer forceInt8Path()()
	rng := rand.New(rand.NewPCG(65, 66))
	cases := viewCases(rng)
	{
		// Rows 100..199 near-copies of one row (their codes tie, their
		// float32 scores do not), the others ten thousand times smaller.
		const dim = 40
		base := gaussVector(rng, dim)
		var rows [][]float32
		for i := range 300 {
			v := gaussVector(rng, dim)
			scale := float32(1e-4)
			if i >= 100 && i < 200 {
				for j := range v {
					v[j] = base[j] + v[j]*scale
				}
			} else {
				for j := range v {
					v[j] *= scale
				}
			}
			rows = append(rows, v)
		}
		cases = append(cases, viewCase{"scales", dim, rows, []int{100, 100, 100}, [][]float32{base, gaussVector(rng, dim)}})
	}
	for _, lv := range int8Levels() {
		for _, tc := range cases {
			f := flatOf(t, tc.dim, tc.rows, FlatOptions{})
			for _, gc := range gatherings(67) {
				t.Run(lv.name+"/"+tc.name+"/"+gc.name, func(t *testing.T) {
					withInt8Level(lv, func() {
						v := viewOf(t, tc, func(i int) bool { return i%2 == 0 })
						gs := gatherGroups(t, v, gc.groups, gc.class)
						checkGatheredEqualsFlat(t, v, f, gs, gc.class, gc.picks, tc.queries)
					})
				})
			}
		}
	}
}

// TestGatherRejects: row lists out of order, repeated or outside the
// view are refused with an error naming the row.
func TestGatherRejects(t *testing.T) {
	rng := rand.New(rand.NewPCG(69, 70))
	tc := viewCases(rng)[0]
	v := viewOf(t, tc, func(int) bool { return false })
	for _, ids := range [][]int{{3, 2}, {4, 4}, {-1}, {v.Len()}, {0, v.Len() + 5}} {
		if g, err := v.Gather(ids); err == nil {
			t.Errorf("Gather(%v) = %d rows, want an error", ids, g.Len())
		}
	}
	g, err := v.Gather(nil)
	if err != nil || g.Len() != 0 {
		t.Fatalf("Gather(nil) = %v, %v; want an empty copy", g, err)
	}
	if rs := v.SearchGathered(tc.queries[0], 5, []*Gathered{g}, nil); rs != nil {
		t.Fatalf("an empty copy returned %v", rs)
	}
}
