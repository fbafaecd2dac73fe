package vector

import (
	"math"
	"sync"
)

// This file holds the int8 copy of a set of float32 rows and the exact
// search built on it, shared by FlatInt8 and by Flat's single-query path.

// maxFlatInt8Dim keeps every integer inner product of codes within int32:
// 127·127·2¹⁷ < 2³¹.
const maxFlatInt8Dim = 1 << 17

// int8Rows is an int8 copy of float32 rows: each row x is stored as codes
// c in [-127, 127], zero padded to stride bytes, and one scale
// s = max|x_i|/127, so x ≈ s·c (see FlatInt8).
type int8Rows struct {
	stride int       // bytes per row of codes: the dimension rounded up to 64
	codes  []int8    // rows of stride codes
	scale  []float32 // per row: x ≈ scale·codes
	csum   []int32   // per row: the sum of the codes, for the VNNI kernel

	// Upper bounds, over every row ever stored, of |x - s·c| (the
	// quantisation error) and of |s·c|; they bound the error of an int8
	// score for the exact search. Removing a row leaves them valid.
	maxErr, maxNorm float64
}

func newInt8Rows(dim int) int8Rows { return int8Rows{stride: (dim + 63) &^ 63} }

// set quantises v into row r, which is either a stored row or the next
// one (r == the number of rows), which set appends.
func (c *int8Rows) set(r int, v []float32) {
	if r == len(c.scale) {
		c.codes = append(c.codes, make([]int8, c.stride)...)
		c.scale = append(c.scale, 0)
		c.csum = append(c.csum, 0)
	}
	q := flat8Quantize(v, c.codes[r*c.stride:(r+1)*c.stride])
	c.scale[r], c.csum[r] = q.scale, q.sum
	c.maxErr = max(c.maxErr, q.err)
	c.maxNorm = max(c.maxNorm, q.norm)
}

// move copies row src over row dst.
func (c *int8Rows) move(dst, src int) {
	copy(c.codes[dst*c.stride:(dst+1)*c.stride], c.codes[src*c.stride:(src+1)*c.stride])
	c.scale[dst], c.csum[dst] = c.scale[src], c.csum[src]
}

// truncate keeps the first n rows. With none left the error bounds start
// again from zero.
func (c *int8Rows) truncate(n int) {
	c.codes = c.codes[:n*c.stride]
	c.scale = c.scale[:n]
	c.csum = c.csum[:n]
	if n == 0 {
		c.maxErr, c.maxNorm = 0, 0
	}
}

// score sets out[i] to the int8 score of row lo+i with the prepared query.
func (c *int8Rows) score(q *flat8Query, lo int, out []float32) {
	hi := lo + len(out)
	dotInt8FlatRows(q, c.codes[lo*c.stride:hi*c.stride], c.stride, c.scale[lo:hi], c.csum[lo:hi], out)
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
// the largest magnitude to 127; codes are rounded to nearest, ties to
// even. It runs once per query, so it avoids divisions and math.Round
// (a function call on amd64, where RoundToEven is one instruction): on
// small indexes it is most of a search's time.
func flat8Quantize(v []float32, codes []int8) flat8Quant {
	clear(codes)
	var m float32
	for _, x := range v {
		if x > m {
			m = x
		} else if -x > m {
			m = -x
		}
	}
	if m == 0 {
		return flat8Quant{}
	}
	scale := float32(float64(m) / 127)
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
	inv := 1 / s
	var q flat8Quant
	q.scale = scale
	var ee0, ee1, nn0, nn1 float64
	codes = codes[:len(v)]
	for i, x := range v {
		c := math.RoundToEven(float64(x) * inv)
		if c > 127 {
			c = 127
		} else if c < -127 {
			c = -127
		}
		codes[i] = int8(c)
		q.sum += int32(c)
		y := s * c // exact: a float32 times a small integer
		e := float64(x) - y
		if i&1 == 0 {
			ee0 += e * e
			nn0 += y * y
		} else {
			ee1 += e * e
			nn1 += y * y
		}
	}
	// The float64 sums are accurate to far better than a part in 10⁶;
	// the factor makes the bounds safe upper bounds.
	q.err = math.Sqrt(ee0+ee1) * (1 + 1e-6)
	q.norm = math.Sqrt(nn0+nn1) * (1 + 1e-6)
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
	row   int
	score float32
}

// getFlat8Scratch takes a scratch for rows of stride codes from pool.
func getFlat8Scratch(pool *sync.Pool, stride int) *flat8Scratch {
	s, _ := pool.Get().(*flat8Scratch)
	if s == nil || len(s.q.codes) != stride {
		s = &flat8Scratch{q: flat8Query{codes: make([]int8, stride), u: make([]uint8, stride)}}
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
		// Four independent sums keep several multiplies in flight; the
		// rows' padding to 64 bytes leaves no tail.
		var a0, a1, a2, a3 int32
		for i := 0; i+8 <= len(row); i += 8 {
			x := row[i : i+8 : i+8]
			y := qc[i : i+8 : i+8]
			a0 += int32(x[0])*int32(y[0]) + int32(x[4])*int32(y[4])
			a1 += int32(x[1])*int32(y[1]) + int32(x[5])*int32(y[5])
			a2 += int32(x[2])*int32(y[2]) + int32(x[6])*int32(y[6])
			a3 += int32(x[3])*int32(y[3]) + int32(x[7])*int32(y[7])
		}
		acc := (a0 + a1) + (a2 + a3)
		out[r] = float32(float32(acc)*scale[r]) * q.scale
	}
}

// errorBound returns a number E with |S - A| <= E for every row, where A
// is the int8 score the kernel computes and S the float32 score that Dot
// computes for the same query and vector (of dimension dim).
//
// Write the query q = q' + e_q and a vector x = x' + e_x, q' and x' being
// their dequantised codes. The exact inner product is
// q·x = q'·x' + q·e_x + e_q·x', so |q·x - q'·x'| <= |q||e_x| + |e_q||x'|.
// Dot's float32 sum is within γ|q||x| of q·x, where γ = mu/(1-mu),
// u = 2⁻²⁴ and m = n/4+32 bounds the roundings in a chain of both the
// 16-lane FMA kernels and the 8-accumulator Go kernel; and the kernel's A
// is q'·x' up to three float32 roundings. Roundings in the subnormal range
// add absolute errors below 2⁻¹⁴⁹ each, which the final 1e-30 covers.
func (c *int8Rows) errorBound(q *flat8Query, dim int) float64 {
	const u = 1.0 / (1 << 24)
	m := float64(dim/4 + 32) // roundings in a chain, at most
	gamma := m * u / (1 - m*u)
	nq, eq := q.norm, q.quant.err
	e := nq*c.maxErr + eq*c.maxNorm +
		gamma*nq*(c.maxNorm+c.maxErr) +
		4*u*(nq+eq)*c.maxNorm
	return e*(1+1e-6) + 1e-30
}

// overflowSafe reports whether no float32 inner product of q with a row,
// nor any partial sum of one, can come near float32's range, which the
// error bound assumes. Beyond it, as for vectors of norm around 10¹⁸, the
// exact search falls back to the float32 scan.
func (c *int8Rows) overflowSafe(q *flat8Query) bool {
	return q.norm*(c.maxNorm+c.maxErr) < 1e36
}

// exactSearch8 returns the exact top k of the rows (data and ids, with
// their int8 copy c) that allow accepts, nil accepting all: the same ids,
// Dot's float32 scores, best first and ties by ascending id, as a float32
// scan. s holds the query prepared by s.prepare(q), and 1 <= k <= the
// number of rows. allow is called once for every row.
//
// The int8 scan keeps a top k by int8 score A and collects every row whose
// A is within 2E of the k-th best (E from errorBound); no other row can
// reach the float32 top k, since its S <= A + E < A_k - E <= the S of
// each of the k best by A, strictly. The candidates are re-scored with
// the float32 kernel, whose scores are bit for bit those of the scan.
func exactSearch8(c *int8Rows, s *flat8Scratch, q, data []float32, ids []uint64, dim, k int, allow func(uint64) bool) []Result {
	margin := 2 * c.errorBound(&s.q, dim)
	t := newTopK(k, make([]Result, 0, k))
	thr := float32(math.Inf(-1))
	cands := s.cands[:0]
	// offer collects the rows lo.. whose int8 scores are sc.
	offer := func(lo int, sc []float32) {
		for i := 0; i < len(sc); i++ {
			i += firstGE(sc[i:], thr)
			if i == len(sc) {
				return
			}
			cands = append(cands, flat8Cand{row: lo + i, score: sc[i]})
			t.push(Result{ID: ids[lo+i], Score: sc[i]})
			if t.full() {
				thr = lowerThreshold(t.h[0].Score, margin)
			}
		}
	}
	n := len(ids)
	for lo := 0; lo < n; lo += scoreBlock {
		hi := min(lo+scoreBlock, n)
		if allow == nil {
			sc := s.scores[:hi-lo]
			c.score(&s.q, lo, sc)
			offer(lo, sc)
			continue
		}
		// Runs of allowed rows are scored a run at a time, so a selective
		// filter saves the kernel's reads as well as the re-scoring.
		for r := lo; r < hi; {
			for r < hi && !allow(ids[r]) {
				r++
			}
			a := r
			for r < hi && allow(ids[r]) {
				r++
			}
			if a < r {
				sc := s.scores[:r-a]
				c.score(&s.q, a, sc)
				offer(a, sc)
			}
		}
	}
	s.cands = cands[:0]
	if len(t.h) == 0 {
		return t.h // nothing allowed
	}
	if t.full() {
		thr = lowerThreshold(t.h[0].Score, margin)
	}
	// exact reuses the result buffer of t, whose threshold is taken.
	exact := newTopK(len(t.h), t.h[:0])
	for _, cd := range cands {
		if cd.score < thr {
			continue
		}
		r := cd.row
		exact.push(Result{ID: ids[r], Score: dot(q, data[r*dim:(r+1)*dim])})
	}
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
