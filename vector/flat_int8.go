package vector

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// FlatInt8Options configures a FlatInt8.
type FlatInt8Options struct {
	// KeepFloat keeps every vector's float32 values beside its int8
	// codes. Search then scans the codes, re-scores in float32 every
	// vector that a proven error bound cannot rule out, and returns
	// exactly what Flat returns for the same vectors: the same ids, the
	// same scores and the same order. The scan reads a quarter of the
	// bytes Flat reads; the index holds 1.25 times Flat's memory.
	//
	// Without KeepFloat the index holds the codes only, about a quarter
	// of Flat's memory, and results are ranked and scored by the int8
	// approximation of the inner product.
	KeepFloat bool
}

// FlatInt8 is a linear-scan inner-product index over vectors scalar
// quantised to int8: each vector x is stored as codes c in [-127, 127]
// and one scale s = max|x_i|/127, so x ≈ s·c. A query is quantised the
// same way, the inner products of the codes are computed exactly in
// integers (AVX-512 VNNI or AVX2 where available), and the score is the
// product of the two scales and the integer inner product.
//
// Ties are broken by ascending id, as in Flat. A FlatInt8 is safe for
// concurrent use.
type FlatInt8 struct {
	mu     sync.RWMutex
	dim    int
	stride int  // bytes per row of codes: dim rounded up to 64
	keep   bool // float32 vectors kept, searches exact

	codes []int8    // len(ids) rows of stride codes, zero padded
	scale []float32 // per row: x ≈ scale·codes
	csum  []int32   // per row: the sum of the codes, for the VNNI kernel
	data  []float32 // the float32 vectors when keep, else nil
	ids   []uint64
	row   map[uint64]int

	// Upper bounds, over every vector ever added, of |x - s·c| (the
	// quantisation error) and of |s·c|; they bound the error of an int8
	// score for the exact search. Deleting a vector leaves them valid.
	maxErr, maxNorm float64

	scratch sync.Pool // *flat8Scratch
}

// maxFlatInt8Dim keeps every integer inner product of codes within int32:
// 127·127·2¹⁷ < 2³¹.
const maxFlatInt8Dim = 1 << 17

// NewFlatInt8 returns an empty int8 index for vectors of length dim. It
// panics if dim < 1 or dim > 131072 (where an inner product of codes could
// overflow 32 bits).
func NewFlatInt8(dim int, opts FlatInt8Options) *FlatInt8 {
	if dim < 1 || dim > maxFlatInt8Dim {
		panic(fmt.Sprintf("vector: NewFlatInt8 dimension %d, want 1 to %d", dim, maxFlatInt8Dim))
	}
	return &FlatInt8{
		dim:    dim,
		stride: (dim + 63) &^ 63,
		keep:   opts.KeepFloat,
		row:    make(map[uint64]int),
	}
}

// Dim returns the length of the vectors the index holds.
func (f *FlatInt8) Dim() int { return f.dim }

// Exact reports whether searches return exact results (KeepFloat).
func (f *FlatInt8) Exact() bool { return f.keep }

// Len returns the number of vectors in the index.
func (f *FlatInt8) Len() int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return len(f.ids)
}

// Add stores v, quantised (and copied when the float32 values are kept),
// under id; an id already present has its vector replaced. Add returns a
// *DimensionError if len(v) is not the index's dimension and ErrNotFinite
// if v holds NaN or infinities.
func (f *FlatInt8) Add(id uint64, v []float32) error {
	if err := checkVector(v, f.dim); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.row[id]
	if !ok {
		r = len(f.ids)
		f.row[id] = r
		f.ids = append(f.ids, id)
		f.codes = append(f.codes, make([]int8, f.stride)...)
		f.scale = append(f.scale, 0)
		f.csum = append(f.csum, 0)
		if f.keep {
			f.data = append(f.data, v...)
		}
	} else if f.keep {
		copy(f.data[r*f.dim:(r+1)*f.dim], v)
	}
	q := flat8Quantize(v, f.codes[r*f.stride:(r+1)*f.stride])
	f.scale[r], f.csum[r] = q.scale, q.sum
	f.maxErr = max(f.maxErr, q.err)
	f.maxNorm = max(f.maxNorm, q.norm)
	return nil
}

// Delete removes id and reports whether it was present. The last row
// moves into the hole.
func (f *FlatInt8) Delete(id uint64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.row[id]
	if !ok {
		return false
	}
	last := len(f.ids) - 1
	if r != last {
		copy(f.codes[r*f.stride:(r+1)*f.stride], f.codes[last*f.stride:])
		f.scale[r], f.csum[r] = f.scale[last], f.csum[last]
		if f.keep {
			copy(f.data[r*f.dim:(r+1)*f.dim], f.data[last*f.dim:])
		}
		f.ids[r] = f.ids[last]
		f.row[f.ids[r]] = r
	}
	f.ids = f.ids[:last]
	f.codes = f.codes[:last*f.stride]
	f.scale = f.scale[:last]
	f.csum = f.csum[:last]
	if f.keep {
		f.data = f.data[:last*f.dim]
	}
	delete(f.row, id)
	return true
}

// flat8Quant describes one quantised vector.
type flat8Quant struct {
	scale float32
	sum   int32   // the sum of the codes
	err   float64 // an upper bound of |x - scale·codes|
	norm  float64 // an upper bound of |scale·codes|
}

// flat8Quantize writes the int8 codes of v into codes (len >= len(v); the
// rest is zeroed) and returns its scale and error bounds. The scale maps
// the largest magnitude to 127; codes are rounded to nearest.
func flat8Quantize(v []float32, codes []int8) flat8Quant {
	clear(codes)
	var m float64
	for _, x := range v {
		m = max(m, math.Abs(float64(x)))
	}
	if m == 0 {
		return flat8Quant{}
	}
	scale := float32(m / 127)
	if scale == 0 {
		// So small that the scale underflows: all codes are zero and the
		// whole vector is quantisation error.
		var ee float64
		for _, x := range v {
			ee += float64(x) * float64(x)
		}
		return flat8Quant{err: math.Sqrt(ee)*(1+1e-6) + 1e-300}
	}
	s := float64(scale)
	var q flat8Quant
	q.scale = scale
	var ee, nn float64
	for i, x := range v {
		c := min(max(math.Round(float64(x)/s), -127), 127)
		codes[i] = int8(c)
		q.sum += int32(c)
		y := s * c // exact: a float32 times a small integer
		e := float64(x) - y
		ee += e * e
		nn += y * y
	}
	// The float64 sums are accurate to far better than a part in 10⁶;
	// the factor makes the bounds safe upper bounds.
	q.err = math.Sqrt(ee) * (1 + 1e-6)
	q.norm = math.Sqrt(nn) * (1 + 1e-6)
	return q
}

// flat8Query is a query prepared for the int8 kernels.
type flat8Query struct {
	codes []int8  // stride codes, zero padded
	u     []uint8 // codes + 128, for VNNI's unsigned operand
	scale float32
	quant flat8Quant
	norm  float64 // an upper bound of |q|
}

// flat8Scratch is the per-search working memory, pooled.
type flat8Scratch struct {
	q      flat8Query
	scores [scoreBlock]float32
	cands  []flat8Cand
}

// flat8Cand is a row that the int8 scan could not rule out.
type flat8Cand struct {
	row   int32
	score float32
}

func (f *FlatInt8) getScratch() *flat8Scratch {
	s, _ := f.scratch.Get().(*flat8Scratch)
	if s == nil || len(s.q.codes) != f.stride {
		s = &flat8Scratch{q: flat8Query{codes: make([]int8, f.stride), u: make([]uint8, f.stride)}}
	}
	return s
}

// prepare quantises the query q into s.q.
func (s *flat8Scratch) prepare(q []float32) {
	s.q.quant = flat8Quantize(q, s.q.codes)
	s.q.scale = s.q.quant.scale
	for i, c := range s.q.codes {
		s.q.u[i] = uint8(int(c) + 128)
	}
	var nn float64
	for _, x := range q {
		nn += float64(x) * float64(x)
	}
	s.q.norm = math.Sqrt(nn) * (1 + 1e-6)
}

// dotInt8FlatRowsGeneric is the pure-Go int8 kernel: out[r] is the integer
// inner product of q's codes with row r, as float32, times scale[r], times
// q.scale. The explicit conversions keep the rounding the same as the
// assembly kernels'.
func dotInt8FlatRowsGeneric(q *flat8Query, codes []int8, stride int, scale []float32, out []float32) {
	qc := q.codes[:stride]
	for r := range out {
		row := codes[r*stride : (r+1)*stride]
		var acc int32
		for i, c := range row {
			acc += int32(qc[i]) * int32(c)
		}
		out[r] = float32(float32(acc)*scale[r]) * q.scale
	}
}

func (f *FlatInt8) checkQuery(q []float32) {
	if len(q) != f.dim {
		panic(&DimensionError{Want: f.dim, Got: len(q)})
	}
}

// Search returns the k stored vectors with the highest score for q, best
// first, ties broken by ascending id, and fewer than k when the index
// holds fewer; nil when k < 1. With KeepFloat the scores and the order are
// exactly Flat's; without it they are the int8 approximations. Search
// panics if len(q) is not the index's dimension.
func (f *FlatInt8) Search(q []float32, k int) []Result {
	f.checkQuery(q)
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.search(q, k)
}

// SearchBatch runs Search for every query over GOMAXPROCS goroutines and
// returns the results in query order; the whole batch sees one state of
// the index.
func (f *FlatInt8) SearchBatch(qs [][]float32, k int) [][]Result {
	for _, q := range qs {
		f.checkQuery(q)
	}
	out := make([][]Result, len(qs))
	f.mu.RLock()
	defer f.mu.RUnlock()
	workers := min(runtime.GOMAXPROCS(0), len(qs))
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(qs) {
				return
			}
			out[i] = f.search(qs[i], k)
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return out
}

// search is Search without locking.
func (f *FlatInt8) search(q []float32, k int) []Result {
	if k < 1 || len(f.ids) == 0 {
		return nil
	}
	k = min(k, len(f.ids))
	s := f.getScratch()
	defer f.scratch.Put(s)
	s.prepare(q)
	t := newTopK(k, make([]Result, 0, k))
	if !f.keep {
		f.scan(s, func(lo int, scores []float32) {
			offer(&t, scores, f.ids[lo:lo+len(scores)])
		})
		return t.sorted()
	}
	return f.searchExact(s, q, t)
}

// scan scores every row with the int8 kernel, a block at a time, and hands
// each block's scores to visit.
func (f *FlatInt8) scan(s *flat8Scratch, visit func(lo int, scores []float32)) {
	n := len(f.ids)
	for lo := 0; lo < n; lo += scoreBlock {
		hi := min(lo+scoreBlock, n)
		out := s.scores[:hi-lo]
		dotInt8FlatRows(&s.q, f.codes[lo*f.stride:hi*f.stride], f.stride,
			f.scale[lo:hi], f.csum[lo:hi], out)
		visit(lo, out)
	}
}

// errorBound returns a number E with |S - A| <= E for every row, where A
// is the int8 score the kernel computes and S the float32 score that Dot
// computes for the same query and vector.
//
// Write the query q = q' + e_q and a vector x = x' + e_x, q' and x' being
// their dequantised codes. The exact inner product is
// q·x = q'·x' + q·e_x + e_q·x', so |q·x - q'·x'| <= |q||e_x| + |e_q||x'|.
// Dot's float32 sum is within γ|q||x| of q·x, where γ = mu/(1-mu),
// u = 2⁻²⁴ and m = n/4+32 bounds the roundings in a chain of both the
// 16-lane FMA kernels and the 8-accumulator Go kernel; and the kernel's A
// is q'·x' up to three float32 roundings.
func (f *FlatInt8) errorBound(q *flat8Query) float64 {
	const u = 1.0 / (1 << 24)
	m := float64(f.dim/4 + 32) // roundings in a chain, at most
	gamma := m * u / (1 - m*u)
	nq, eq := q.norm, q.quant.err
	e := nq*f.maxErr + eq*f.maxNorm +
		gamma*nq*(f.maxNorm+f.maxErr) +
		4*u*(nq+eq)*f.maxNorm
	return e*(1+1e-6) + 1e-30
}

// searchExact finds the exact top k: the int8 scan keeps a top k by int8
// score A and collects every row whose A is within 2E of the k-th best
// (E from errorBound); no other row can reach the float32 top k, since its
// S <= A + E < A_k - E <= S of each of the k best by A. The candidates are
// re-scored with the float32 kernel.
func (f *FlatInt8) searchExact(s *flat8Scratch, q []float32, t topK) []Result {
	margin := 2 * f.errorBound(&s.q)
	thr := float32(math.Inf(-1))
	cands := s.cands[:0]
	f.scan(s, func(lo int, scores []float32) {
		ids := f.ids[lo : lo+len(scores)]
		for i := 0; i < len(scores); i++ {
			i += firstGE(scores[i:], thr)
			if i == len(scores) {
				return
			}
			cands = append(cands, flat8Cand{row: int32(lo + i), score: scores[i]})
			t.push(Result{ID: ids[i], Score: scores[i]})
			if t.full() {
				thr = lowerThreshold(t.h[0].Score, margin)
			}
		}
	})
	thr = lowerThreshold(t.h[0].Score, margin)
	exact := newTopK(t.k, t.h[:0])
	for _, c := range cands {
		if c.score < thr {
			continue
		}
		r := int(c.row)
		exact.push(Result{ID: f.ids[r], Score: dot(q, f.data[r*f.dim:(r+1)*f.dim])})
	}
	s.cands = cands[:0]
	// exact reuses the result buffer of t, whose threshold is taken.
	return exact.sorted()
}

// lowerThreshold returns a float32 no greater than score - margin.
func lowerThreshold(score float32, margin float64) float32 {
	want := float64(score) - margin
	thr := float32(want)
	if float64(thr) > want {
		thr = math.Nextafter32(thr, float32(math.Inf(-1)))
	}
	return thr
}
