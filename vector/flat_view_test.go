package vector

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Tests of FlatView, FlatOptions.NoInt8 and Int8Block: a view over parts
// must return exactly what a Flat holding the same rows returns, whatever
// the split into parts and whichever parts carry an int8 copy.

// viewCase is a data set split into parts.
type viewCase struct {
	name    string
	dim     int
	rows    [][]float32
	sizes   []int // rows a part, in order; they add up to len(rows)
	queries [][]float32
}

// viewCases builds data sets at several dimensions (384, and 100, not a
// multiple of 64), split unevenly, with 1-row and empty parts and exact
// ties: duplicate rows in other parts, and rows of {-1, 0, 1}.
func viewCases(rng *rand.Rand) []viewCase {
	var cases []viewCase
	for _, dim := range []int{5, 64, 100, 384} {
		n := 700 // over flat8MinRows, so the defaults take the int8 path
		rows := make([][]float32, n)
		for i := range rows {
			rows[i] = gaussVector(rng, dim)
			if i%9 == 0 {
				rows[i] = tieVector(rng, dim)
			}
		}
		// Exact duplicates in other parts: equal scores whose order is
		// the id's.
		for range 40 {
			rows[rng.IntN(n)] = rows[rng.IntN(n)]
		}
		sizes := []int{1, 1, 37, 0, 256, 1, 300, 1}
		sizes = append(sizes, n-sum(sizes))
		queries := [][]float32{gaussVector(rng, dim), rows[3], tieVector(rng, dim), make([]float32, dim)}
		cases = append(cases, viewCase{fmt.Sprintf("dim=%d", dim), dim, rows, sizes, queries})
	}
	// A view of one row, and one whose parts are all single rows.
	one := gaussVector(rng, 64)
	cases = append(cases, viewCase{"one-row", 64, [][]float32{one}, []int{1}, [][]float32{one, gaussVector(rng, 64)}})
	var rows [][]float32
	var sizes []int
	for i := range 40 {
		rows = append(rows, gaussVector(rng, 24))
		if i%4 == 0 {
			rows[i] = rows[0]
		}
		sizes = append(sizes, 1)
	}
	cases = append(cases, viewCase{"single-row-parts", 24, rows, sizes, [][]float32{rows[0], gaussVector(rng, 24)}})
	return cases
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// flatOf returns a Flat holding rows under the ids 0..n-1, added in order.
func flatOf(t testing.TB, dim int, rows [][]float32, o FlatOptions) *Flat {
	f := NewFlatWith(dim, o)
	for i, v := range rows {
		if err := f.Add(uint64(i), v); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// viewOf returns a FlatView over the rows split by sizes, each part in
// its own slice, with an int8 block for the parts with8 selects.
func viewOf(t testing.TB, tc viewCase, with8 func(part int) bool) *FlatView {
	var parts []FlatPart
	r := 0
	for i, n := range tc.sizes {
		var data []float32
		for _, v := range tc.rows[r : r+n] {
			data = append(data, v...)
		}
		r += n
		p := FlatPart{Data: data}
		if with8(i) {
			b := QuantizeBlock(tc.dim, data)
			p.Int8 = &b
		}
		parts = append(parts, p)
	}
	v, err := NewFlatView(tc.dim, parts)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// int8Modes are the choices of parts with an int8 block.
var int8Modes = []struct {
	name  string
	with8 func(int) bool
}{
	{"int8", func(int) bool { return true }},
	{"float32", func(int) bool { return false }},
	{"mixed", func(i int) bool { return i%2 == 1 }},
}

// viewFilters are the filters every comparison runs, nil among them.
func viewFilters(n int) []struct {
	name  string
	allow func(uint64) bool
} {
	last := uint64(n - 1)
	return []struct {
		name  string
		allow func(uint64) bool
	}{
		{"nil", nil},
		{"half", func(id uint64) bool { return id%2 == 0 }},
		{"rare", func(id uint64) bool { return id%97 == 1 }},
		{"last", func(id uint64) bool { return id == last }},
		{"none", func(uint64) bool { return false }},
	}
}

// viewRanges are the row ranges SearchRanges is checked with over n rows:
// the whole, none, runs of five rows every twelve (across the parts'
// bounds), every other row, the last row alone, all but the first and
// last.
func viewRanges(n int) [][]RowRange {
	var runs []RowRange
	for lo := 2; lo < n; lo += 12 {
		runs = append(runs, RowRange{lo, min(lo+5, n)})
	}
	var alternate []RowRange
	for lo := 0; lo < n; lo += 2 {
		alternate = append(alternate, RowRange{lo, lo + 1})
	}
	return [][]RowRange{{{0, n}}, {}, nil, runs, alternate, {{n - 1, n}}, {{1, max(1, n-1)}}}
}

// checkViewEqualsFlat compares v's searches with f's for every query, at
// several k (past the number of rows too) and filters.
func checkViewEqualsFlat(t *testing.T, v *FlatView, f *Flat, queries [][]float32) {
	t.Helper()
	n := f.Len()
	if v.Len() != n || v.Dim() != f.Dim() {
		t.Fatalf("view has %d rows of %d, Flat %d of %d", v.Len(), v.Dim(), n, f.Dim())
	}
	for qi, q := range queries {
		for _, k := range []int{1, 3, 10, n, n + 7} {
			if got, want := v.Search(q, k), f.Search(q, k); !equalResults(got, want) {
				t.Fatalf("query %d k=%d:\n got %v\nwant %v", qi, k, head(got), head(want))
			}
			for _, fl := range viewFilters(n) {
				if got, want := v.SearchFilter(q, k, fl.allow), f.SearchFilter(q, k, fl.allow); !equalResults(got, want) {
					t.Fatalf("query %d k=%d filter %s:\n got %v\nwant %v", qi, k, fl.name, head(got), head(want))
				}
				for ri, rg := range viewRanges(n) {
					in := func(id uint64) bool {
						return slices.ContainsFunc(rg, func(r RowRange) bool { return int(id) >= r.Lo && int(id) < r.Hi }) && (fl.allow == nil || fl.allow(id))
					}
					if got, want := v.SearchRanges(q, k, rg, fl.allow), f.SearchFilter(q, k, in); !equalResults(got, want) {
						t.Fatalf("query %d k=%d filter %s ranges %d %v:\n got %v\nwant %v", qi, k, fl.name, ri, rg, head(got), head(want))
					}
				}
			}
		}
	}
}

// TestFlatViewMatchesFlat: with the defaults (the int8 path from
// flat8MinRows rows where an assembly kernel exists).
func TestFlatViewMatchesFlat(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	for _, tc := range viewCases(rng) {
		f := flatOf(t, tc.dim, tc.rows, FlatOptions{})
		for _, m := range int8Modes {
			t.Run(tc.name+"/"+m.name, func(t *testing.T) {
				checkViewEqualsFlat(t, viewOf(t, tc, m.with8), f, tc.queries)
			})
		}
	}
}

// TestFlatViewInt8PathMatchesFlat: the int8 path at every size and on
// every int8 kernel, against a Flat on the int8 path too and against the
// float32 scan (bruteForce), so that a bound taken from one part only
// would show.
func TestFlatViewInt8PathMatchesFlat(t *testing.T) {
	defer forceInt8Path()()
	rng := rand.New(rand.NewPCG(53, 54))
	cases := viewCases(rng)
	// Parts of very different scales: near-copies of one row, whose
	// codes tie and whose float32 scores do not, between parts of rows
	// ten thousand times smaller. The bound must be the largest of the
	// parts', not the first part's or the last one's, or the int8 ties
	// hide the true top k.
	{
		const dim = 40
		base := gaussVector(rng, dim)
		var rows [][]float32
		for i := range 300 {
			v := gaussVector(rng, dim)
			if i >= 100 && i < 200 {
				for j := range v {
					v[j] = base[j] + v[j]*1e-4
				}
			} else {
				for j := range v {
					v[j] *= 1e-4
				}
			}
			rows = append(rows, v)
		}
		cases = append(cases, viewCase{"scales", dim, rows, []int{100, 100, 100}, [][]float32{base, gaussVector(rng, dim)}})
	}
	for _, lv := range int8Levels() {
		for _, tc := range cases {
			f := flatOf(t, tc.dim, tc.rows, FlatOptions{})
			ref := map[uint64][]float32{}
			for i, v := range tc.rows {
				ref[uint64(i)] = v
			}
			for _, m := range int8Modes {
				t.Run(lv.name+"/"+tc.name+"/"+m.name, func(t *testing.T) {
					withInt8Level(lv, func() {
						v := viewOf(t, tc, m.with8)
						checkViewEqualsFlat(t, v, f, tc.queries)
						for _, q := range tc.queries {
							if got, want := v.Search(q, 10), bruteForce(ref, q, 10); !equalResults(got, want) {
								t.Fatalf("against the float32 scan:\n got %v\nwant %v", got, want)
							}
						}
					})
				})
			}
		}
	}
}

// TestFlatViewOverflow: rows whose inner products overflow float32 are
// outside the error bound's assumptions; the view falls back to the
// float32 scan, as Flat does.
func TestFlatViewOverflow(t *testing.T) {
	defer forceInt8Path()()
	rng := rand.New(rand.NewPCG(55, 56))
	const dim = 16
	tc := viewCase{name: "overflow", dim: dim, sizes: []int{30, 1, 69}}
	for i := range 100 {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(rng.Float64()+0.5) * 1e19
		}
		if i%3 == 0 {
			v = gaussVector(rng, dim)
		}
		tc.rows = append(tc.rows, v)
	}
	q := make([]float32, dim)
	for j := range q {
		q[j] = 1e19
	}
	checkViewEqualsFlat(t, viewOf(t, tc, int8Modes[0].with8), flatOf(t, dim, tc.rows, FlatOptions{}), [][]float32{q, gaussVector(rng, dim)})
}

// TestQuantizeBlockIsFlatsCopy: QuantizeBlock gives, bit for bit, the
// int8 copy a Flat builds as the rows are added, bounds included; and the
// same block twice.
func TestQuantizeBlockIsFlatsCopy(t *testing.T) {
	rng := rand.New(rand.NewPCG(57, 58))
	for _, dim := range []int{1, 63, 64, 65, 100, 384} {
		var data []float32
		f := NewFlat(dim)
		for i := range 300 {
			v := gaussVector(rng, dim)
			switch i % 7 {
			case 1:
				clear(v) // a zero row: scale 0
			case 2:
				for j := range v {
					v[j] = float32(math.Ldexp(float64(rng.IntN(9)-4), -140)) // subnormal
				}
			case 3:
				v[rng.IntN(dim)] = 300
			}
			data = append(data, v...)
			if err := f.Add(uint64(i), v); err != nil {
				t.Fatal(err)
			}
		}
		b := QuantizeBlock(dim, data)
		if !reflect.DeepEqual(b, f.rows8) {
			t.Fatalf("dim %d: QuantizeBlock differs from Flat's int8 copy (stride %d/%d, bounds %g,%g / %g,%g)",
				dim, b.Stride, f.rows8.Stride, b.MaxErr, b.MaxNorm, f.rows8.MaxErr, f.rows8.MaxNorm)
		}
		if b.Stride != Int8Stride(dim) || b.Stride%64 != 0 || b.Stride < dim {
			t.Fatalf("dim %d: stride %d", dim, b.Stride)
		}
		if err := b.Check(dim, 300); err != nil {
			t.Fatalf("dim %d: %v", dim, err)
		}
		if !reflect.DeepEqual(b, QuantizeBlock(dim, data)) {
			t.Fatalf("dim %d: QuantizeBlock is not deterministic", dim)
		}
	}
	if b := QuantizeBlock(8, nil); len(b.Codes) != 0 || b.Check(8, 0) != nil {
		t.Fatalf("empty block %+v: %v", b, b.Check(8, 0))
	}
}

func TestQuantizeBlockPanics(t *testing.T) {
	for _, c := range []struct {
		dim  int
		data []float32
		want string
	}{
		{0, nil, "dimension 0"},
		{MaxInt8Dim + 1, nil, "dimension"},
		{4, make([]float32, 7), "7 values"},
	} {
		func() {
			defer func() {
				if msg := fmt.Sprint(recover()); !strings.Contains(msg, c.want) {
					t.Errorf("QuantizeBlock(%d, %d values) panicked with %q, want %q", c.dim, len(c.data), msg, c.want)
				}
			}()
			QuantizeBlock(c.dim, c.data)
		}()
	}
}

// TestInt8BlockCheck: Check rejects a block of any wrong size, or with
// bounds that would void the exact search, and says what is wrong.
func TestInt8BlockCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(59, 60))
	const dim, n = 100, 5
	var data []float32
	for range n {
		data = append(data, gaussVector(rng, dim)...)
	}
	good := QuantizeBlock(dim, data)
	if err := good.Check(dim, n); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		dim, n int
		edit   func(b *Int8Block)
		want   string
	}{
		{"other dimension", 200, n, nil, "stride of 128 bytes, dimension 200 needs 256"},
		{"fewer rows", dim, n - 1, nil, "640 bytes of codes, 4 rows"},
		{"more rows", dim, n + 1, nil, "640 bytes of codes, 6 rows"},
		{"codes cut", dim, n, func(b *Int8Block) { b.Codes = b.Codes[:len(b.Codes)-1] }, "639 bytes of codes"},
		{"stride", dim, n, func(b *Int8Block) { b.Stride = 100 }, "stride of 100 bytes"},
		{"scales", dim, n, func(b *Int8Block) { b.Scale = b.Scale[:n-1] }, "4 scales and 5 sums for 5 rows"},
		{"sums", dim, n, func(b *Int8Block) { b.Sum = append(b.Sum, 0) }, "5 scales and 6 sums"},
		{"NaN bound", dim, n, func(b *Int8Block) { b.MaxErr = math.NaN() }, "error bounds NaN"},
		{"negative bound", dim, n, func(b *Int8Block) { b.MaxNorm = -1 }, "error bounds"},
		{"infinite bound", dim, n, func(b *Int8Block) { b.MaxNorm = math.Inf(1) }, "error bounds"},
		{"no dimension", 0, n, nil, "dimension 0"},
		{"too large", MaxInt8Dim + 1, n, nil, "no int8 copy"},
	} {
		b := good
		if c.edit != nil {
			c.edit(&b)
		}
		err := b.Check(c.dim, c.n)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "vector: int8 block: ") {
			t.Errorf("%s: Check = %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// TestNewFlatViewRejects: sizes that disagree are refused with the
// number of the bad part.
func TestNewFlatViewRejects(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	const dim = 8
	rows := func(n int) []float32 {
		var d []float32
		for range n {
			d = append(d, gaussVector(rng, dim)...)
		}
		return d
	}
	a, b := rows(3), rows(4)
	ba := QuantizeBlock(dim, a)
	other := QuantizeBlock(dim, rows(2))
	wide := QuantizeBlock(dim*9, rows(9))
	for _, c := range []struct {
		name  string
		dim   int
		parts []FlatPart
		want  string
	}{
		{"dimension", 0, nil, "dimension 0"},
		{"ragged", dim, []FlatPart{{Data: a}, {Data: b[:len(b)-1]}}, "part 1 of 2 holds 31 values"},
		{"block of other rows", dim, []FlatPart{{Data: a, Int8: &ba}, {Data: b}, {Data: b, Int8: &other}}, "part 2 of 3 (4 rows), its int8 block: 128 bytes of codes, 4 rows"},
		{"block of other dimension", dim, []FlatPart{{Data: b[:dim*1], Int8: &wide}}, "part 0 of 1 (1 rows), its int8 block: a stride of 128 bytes"},
	} {
		v, err := NewFlatView(c.dim, c.parts)
		if err == nil || v != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: NewFlatView = %v, %v, want an error with %q", c.name, v, err, c.want)
		}
	}
	// No parts, or only empty ones: an empty view.
	for _, parts := range [][]FlatPart{nil, {{}, {Data: []float32{}}}} {
		v, err := NewFlatView(dim, parts)
		if err != nil || v.Len() != 0 || v.Search(make([]float32, dim), 3) != nil {
			t.Fatalf("empty view: %v, %v", v, err)
		}
	}
}

// TestFlatViewQueryDimension: a query of another length panics with a
// *DimensionError, as Flat's does.
func TestFlatViewQueryDimension(t *testing.T) {
	v, err := NewFlatView(4, []FlatPart{{Data: make([]float32, 8)}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if e, ok := recover().(*DimensionError); !ok || e.Want != 4 || e.Got != 3 {
			t.Fatalf("recovered %v, want a *DimensionError 4/3", e)
		}
	}()
	v.Search(make([]float32, 3), 1)
}

// TestFlatNoInt8: a Flat made with NoInt8 keeps no int8 copy, never
// takes the int8 path, and returns the default Flat's results, through
// replacements and deletions too.
func TestFlatNoInt8(t *testing.T) {
	rng := rand.New(rand.NewPCG(63, 64))
	for _, forced := range []bool{false, true} {
		func() {
			if forced {
				defer forceInt8Path()()
			}
			const dim = 100
			def, no8 := NewFlat(dim), NewFlatWith(dim, FlatOptions{NoInt8: true})
			for i := range 900 {
				v := gaussVector(rng, dim)
				if i%11 == 0 {
					v = tieVector(rng, dim)
				}
				def.Add(uint64(i*3), v)
				no8.Add(uint64(i*3), v)
			}
			for i := range 100 {
				v := gaussVector(rng, dim)
				def.Add(uint64(i*6), v)
				no8.Add(uint64(i*6), v)
				def.Delete(uint64(i*9 + 3))
				no8.Delete(uint64(i*9 + 3))
			}
			if no8.use8() || len(no8.rows8.Codes) != 0 || len(no8.rows8.Scale) != 0 {
				t.Fatalf("NoInt8 Flat keeps %d bytes of codes, int8 path %v", len(no8.rows8.Codes), no8.use8())
			}
			if forced && !def.use8() {
				t.Fatal("the default Flat does not take the int8 path")
			}
			for _, q := range [][]float32{gaussVector(rng, dim), tieVector(rng, dim)} {
				for _, k := range []int{1, 10, 1000} {
					if got, want := no8.Search(q, k), def.Search(q, k); !equalResults(got, want) {
						t.Fatalf("forced %v k=%d:\n got %v\nwant %v", forced, k, head(got), head(want))
					}
					allow := func(id uint64) bool { return id%4 == 0 }
					if got, want := no8.SearchFilter(q, k, allow), def.SearchFilter(q, k, allow); !equalResults(got, want) {
						t.Fatalf("forced %v k=%d filtered:\n got %v\nwant %v", forced, k, head(got), head(want))
					}
				}
			}
		}()
	}
}

// Run with -race: concurrent searches, filtered and not, on one view,
// each checked against the Flat's answer.
func TestFlatViewConcurrent(t *testing.T) {
	defer forceInt8Path()()
	rng := rand.New(rand.NewPCG(67, 68))
	const dim = 32
	tc := viewCase{dim: dim, sizes: []int{1, 200, 3, 96}}
	for range 300 {
		tc.rows = append(tc.rows, gaussVector(rng, dim))
	}
	v := viewOf(t, tc, int8Modes[2].with8)
	f := flatOf(t, dim, tc.rows, FlatOptions{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 5))
			for i := range 100 {
				q := gaussVector(r, dim)
				allow := func(id uint64) bool { return id%3 != uint64(i%3) }
				if i%2 == 0 {
					allow = nil
				}
				if got, want := v.SearchFilter(q, 7, allow), f.SearchFilter(q, 7, allow); !equalResults(got, want) {
					t.Errorf("worker %d search %d: got %v want %v", w, i, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}
