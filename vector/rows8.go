package vector

import (
	"fmt"
	"math"
	"sync"
)

// This file holds the int8 copy of a set of float32 rows, Int8Block,
// shared by Flat, FlatInt8 and FlatView, its quantiser and the error
// bound of its scores; exact8.go holds the exact search built on it.

// maxFlatInt8Dim keeps every integer inner product of codes within int32:
// 127·127·2¹⁷ < 2³¹.
const maxFlatInt8Dim = 1 << 17

// MaxInt8Dim is the largest dimension an Int8Block can hold: beyond it an
// integer inner product of codes could overflow 32 bits. Flat keeps no
// int8 copy above it.
const MaxInt8Dim = maxFlatInt8Dim

// Int8Block is the int8 copy of n rows of float32 values, the form Flat's
// single-query search scans: each row x is stored as codes c in
// [-127, 127], zero padded to Stride bytes, and one scale
// s = max|x_i|/127, so x ≈ s·c (see FlatInt8). A search scans the codes,
// a quarter of the float32 bytes, and re-scores in float32 every row
// that the error bound (from MaxErr and MaxNorm) cannot rule out.
//
// QuantizeBlock builds one from rows; a store can write its slices to a
// file and map them back, checking them with Check, and give them to
// NewFlatView beside the rows they were made from.
type Int8Block struct {
	Stride int       // bytes of codes a row: the dimension rounded up to 64
	Codes  []int8    // n rows of Stride codes
	Scale  []float32 // n: row r is about Scale[r]·Codes[r·Stride:]
	Sum    []int32   // n: the sum of each row's codes, for the VNNI kernel

	// Upper bounds, over every row ever stored, of |x - s·c| (the
	// quantisation error) and of |s·c|; they bound the error of an int8
	// score for the exact search. Removing a row leaves them valid.
	MaxErr, MaxNorm float64
}

// Int8Stride returns the bytes of codes an Int8Block keeps a row for
// dimension dim: dim rounded up to 64, so that every row starts on a
// 64-byte boundary of a 64-byte-aligned block and the kernels read whole
// registers with no tail.
func Int8Stride(dim int) int { return (dim + 63) &^ 63 }

func newInt8Rows(dim int) Int8Block { return Int8Block{Stride: Int8Stride(dim)} }

// QuantizeBlock returns the int8 copy of data, len(data)/dim rows of dim
// values, row-major. It is deterministic, and bit for bit what Flat keeps
// for the same rows, so a FlatView over the rows and this block returns
// exactly what a Flat holding them returns. It panics if dim is outside
// 1..MaxInt8Dim or len(data) is not a multiple of dim.
func QuantizeBlock(dim int, data []float32) Int8Block {
	if dim < 1 || dim > maxFlatInt8Dim {
		panic(fmt.Sprintf("vector: QuantizeBlock dimension %d, want 1 to %d", dim, maxFlatInt8Dim))
	}
	if len(data)%dim != 0 {
		panic(fmt.Sprintf("vector: QuantizeBlock got %d values, not a whole number of rows of %d", len(data), dim))
	}
	n := len(data) / dim
	b := newInt8Rows(dim)
	// Allocated whole: set appends row by row, which would copy the codes
	// again at every growth.
	b.Codes = make([]int8, 0, n*b.Stride)
	b.Scale = make([]float32, 0, n)
	b.Sum = make([]int32, 0, n)
	for r := range n {
		b.set(r, data[r*dim:(r+1)*dim])
	}
	return b
}

// Check reports whether b has the sizes of an int8 copy of n rows of
// dimension dim: a block read back from a file may be cut short or belong
// to other rows. It checks sizes and bounds only, not the codes, so that
// it reads nothing of a mapped block; a damaged code is for the file's
// checksum to find.
func (b Int8Block) Check(dim, n int) error {
	if err := b.check(dim, n); err != nil {
		return fmt.Errorf("vector: int8 block: %w", err)
	}
	return nil
}

// check is Check without the error's prefix, for callers that name the
// block their own way.
func (b Int8Block) check(dim, n int) error {
	switch {
	case dim < 1 || dim > maxFlatInt8Dim:
		return fmt.Errorf("dimension %d has no int8 copy: want 1 to %d", dim, maxFlatInt8Dim)
	case b.Stride != Int8Stride(dim):
		return fmt.Errorf("a stride of %d bytes, dimension %d needs %d: the block was made for another dimension", b.Stride, dim, Int8Stride(dim))
	case len(b.Codes) != n*b.Stride:
		return fmt.Errorf("%d bytes of codes, %d rows of %d bytes need %d: the block is cut short or was made for other rows", len(b.Codes), n, b.Stride, n*b.Stride)
	case len(b.Scale) != n || len(b.Sum) != n:
		return fmt.Errorf("%d scales and %d sums for %d rows: the block is cut short or was made for other rows", len(b.Scale), len(b.Sum), n)
	case !(b.MaxErr >= 0 && b.MaxNorm >= 0) || math.IsInf(b.MaxErr, 0) || math.IsInf(b.MaxNorm, 0):
		// NaN fails both comparisons; either would void the error bound
		// and with it the exact results.
		return fmt.Errorf("error bounds %g and %g, want finite values >= 0", b.MaxErr, b.MaxNorm)
	}
	return nil
}

// bound returns the bounds of b's rows.
func (c *Int8Block) bound() int8Bound { return int8Bound{c.MaxErr, c.MaxNorm} }

// int8Bound holds upper bounds, over a set of rows, of the quantisation
// error |x - s·c| and of |s·c|, from which the error of every int8 score
// is bounded.
type int8Bound struct{ maxErr, maxNorm float64 }

// merge returns the bounds of the union of the rows of b and o.
func (b int8Bound) merge(o int8Bound) int8Bound {
	return int8Bound{max(b.maxErr, o.maxErr), max(b.maxNorm, o.maxNorm)}
}

// set quantises v into row r, which is either a stored row or the next
// one (r == the number of rows), which set appends.
func (c *Int8Block) set(r int, v []float32) {
	if r == len(c.Scale) {
		c.Codes = append(c.Codes, make([]int8, c.Stride)...)
		c.Scale = append(c.Scale, 0)
		c.Sum = append(c.Sum, 0)
	}
	q := flat8Quantize(v, c.Codes[r*c.Stride:(r+1)*c.Stride])
	c.Scale[r], c.Sum[r] = q.scale, q.sum
	c.MaxErr = max(c.MaxErr, q.err)
	c.MaxNorm = max(c.MaxNorm, q.norm)
}

// move copies row src over row dst.
func (c *Int8Block) move(dst, src int) {
	copy(c.Codes[dst*c.Stride:(dst+1)*c.Stride], c.Codes[src*c.Stride:(src+1)*c.Stride])
	c.Scale[dst], c.Sum[dst] = c.Scale[src], c.Sum[src]
}

// truncate keeps the first n rows. With none left the error bounds start
// again from zero.
func (c *Int8Block) truncate(n int) {
	c.Codes = c.Codes[:n*c.Stride]
	c.Scale = c.Scale[:n]
	c.Sum = c.Sum[:n]
	if n == 0 {
		c.MaxErr, c.MaxNorm = 0, 0
	}
}

// score sets out[i] to the int8 score of row lo+i with the prepared query.
func (c *Int8Block) score(q *flat8Query, lo int, out []float32) {
	hi := lo + len(out)
	dotInt8FlatRows(q, c.Codes[lo*c.Stride:hi*c.Stride], c.Stride, c.Scale[lo:hi], c.Sum[lo:hi], out)
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
func (c int8Bound) errorBound(q *flat8Query, dim int) float64 {
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
func (c int8Bound) overflowSafe(q *flat8Query) bool {
	return q.norm*(c.maxNorm+c.maxErr) < 1e36
}
