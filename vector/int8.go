package vector

import (
	"fmt"
	"math"
)

// Int8 is a scalar quantizer: each coordinate j of a vector is stored as
// a code c_j in [0, 127] standing for Lo_j + Step_j·c_j, where Lo_j and
// Lo_j + 127·Step_j are the smallest and largest value of that coordinate
// in the data the codec was fitted on. Values outside that range are
// clamped. A code is a quarter of the float32 vector it replaces.
//
// Codes use 7 of the 8 bits so that the pure-Go kernel can multiply four
// pairs of codes with one 64-bit multiplication (see dotInt8): with 8-bit
// codes the four products would overflow their 16-bit lanes. The lost bit
// costs less than it seems, because per-dimension ranges already spend
// every level on values that occur.
//
// Queries are not quantized against the codec's ranges: the per-dimension
// scale is folded into the query (q_j·Step_j) before it is rounded to 7
// bits, so Score approximates q·x with one integer dot product. Scores are
// approximations for ranking candidates; callers that need exact scores
// re-rank the best candidates with the float32 vectors, as HNSW does.
//
// An Int8 is immutable after FitInt8 and safe for concurrent use.
type Int8 struct {
	dim  int
	lo   []float32 // per-dimension minimum
	step []float32 // per-dimension value of one code step; 0 for a constant dimension
}

// int8Max is the largest code: codes use 7 bits (see Int8).
const int8Max = 127

// FitInt8 fits a codec to data, row-major with rows of dim values. It
// returns an error if data is empty, ragged or holds non-finite values.
func FitInt8(data []float32, dim int) (*Int8, error) {
	if dim < 1 || len(data) == 0 || len(data)%dim != 0 {
		return nil, fmt.Errorf("vector: FitInt8 needs at least one row of dimension %d, got %d values", dim, len(data))
	}
	if !finite(data) {
		return nil, ErrNotFinite
	}
	return fitInt8(len(data)/dim, dim, func(i int) []float32 { return data[i*dim : (i+1)*dim] }), nil
}

// fitInt8 fits a codec to the n >= 1 finite rows row(0), ..., row(n-1),
// wherever they are stored.
func fitInt8(n, dim int, row func(i int) []float32) *Int8 {
	c := &Int8{dim: dim, lo: make([]float32, dim), step: make([]float32, dim)}
	hi := make([]float32, dim)
	copy(c.lo, row(0))
	copy(hi, row(0))
	for i := 1; i < n; i++ {
		for j, x := range row(i)[:dim] {
			c.lo[j] = min(c.lo[j], x)
			hi[j] = max(hi[j], x)
		}
	}
	for j := range c.step {
		c.step[j] = (hi[j] - c.lo[j]) / int8Max
	}
	return c
}

// Dim returns the length of the vectors the codec encodes.
func (c *Int8) Dim() int { return c.dim }

// CodeLen returns the length of one code in 64-bit words: eight codes a
// word, the code of coordinate j in byte j%8 (little-endian) of word j/8,
// so the kernel reads eight codes with one load. Padding codes are zero.
func (c *Int8) CodeLen() int { return (c.dim + 7) / 8 }

// Encode appends the code of v (CodeLen words) to dst and returns the
// extended slice. It panics if len(v) is not the codec's dimension.
func (c *Int8) Encode(dst []uint64, v []float32) []uint64 {
	if len(v) != c.dim {
		panic(&DimensionError{Want: c.dim, Got: len(v)})
	}
	for off := 0; off < c.dim; off += 8 {
		var w uint64
		for j := off; j < min(off+8, c.dim); j++ {
			var code float32
			if s := c.step[j]; s > 0 {
				code = float32(math.Round(float64((v[j] - c.lo[j]) / s)))
			}
			w |= uint64(min(max(code, 0), int8Max)) << (8 * (j - off))
		}
		dst = append(dst, w)
	}
	return dst
}

// Decode appends to dst the vector a code stands for and returns the
// extended slice.
func (c *Int8) Decode(dst []float32, code []uint64) []float32 {
	for j := range c.dim {
		dst = append(dst, c.lo[j]+c.step[j]*float32(byte(code[j/8]>>(8*(j%8)))))
	}
	return dst
}

// Int8Query is a query prepared for scoring codes of one Int8 codec.
type Int8Query struct {
	even []uint64 // query values packed against the even codes of each word, see dotInt8
	odd  []uint64 // and against the odd codes
	beta float32  // value of one query step
	c0   float32  // Σ q_j·Lo_j, the part of every score that does not depend on the code
	s8   []int8   // r_j - 64 by coordinate, zero padded to 64 bytes, for the SIMD kernels
}

// NewQuery prepares q for Score. It panics if len(q) is not the codec's
// dimension.
func (c *Int8) NewQuery(q []float32) *Int8Query {
	p := &Int8Query{}
	c.prepare(p, q)
	return p
}

// prepare fills p for q, reusing p's storage: HNSW keeps one in its pooled
// scratch so a search allocates nothing for it.
func (c *Int8) prepare(p *Int8Query, q []float32) {
	if len(q) != c.dim {
		panic(&DimensionError{Want: c.dim, Got: len(q)})
	}
	var c0 float64
	var wmax float32
	for j, x := range q {
		c0 += float64(x) * float64(c.lo[j])
		wmax = max(wmax, abs32(x*c.step[j]))
	}
	p.c0 = float32(c0)
	// Query values r_j in [-63, 63] are stored offset by 64, in [1, 127],
	// so the kernel multiplies non-negative numbers only; Score removes the
	// offset with the code's sum, which the kernel returns for free.
	p.beta = wmax / 63
	inv := float32(0)
	if wmax > 0 {
		inv = 63 / wmax
	}
	n := c.CodeLen()
	if cap(p.even) < n {
		p.even, p.odd = make([]uint64, n), make([]uint64, n)
	}
	p.even, p.odd = p.even[:n], p.odd[:n]
	r := func(j int) uint64 {
		if j >= c.dim {
			return 0 // padding: zero codes times zero
		}
		return uint64(int64(math.Round(float64(q[j]*c.step[j]*inv))) + 64)
	}
	pad := (c.dim + 63) &^ 63
	if cap(p.s8) < pad {
		p.s8 = make([]int8, pad)
	}
	p.s8 = p.s8[:pad]
	clear(p.s8[c.dim:])
	for j := range c.dim {
		p.s8[j] = int8(int64(r(j)) - 64)
	}
	for b := range n {
		j := 8 * b
		// Reversed order, so that the product with the code word sums
		// the four matching pairs into bits 48..63 (see dotInt8).
		p.even[b] = r(j+6) | r(j+4)<<16 | r(j+2)<<32 | r(j)<<48
		p.odd[b] = r(j+7) | r(j+5)<<16 | r(j+3)<<32 | r(j+1)<<48
	}
}

// Score returns the approximate inner product of the prepared query with
// the vector code stands for.
func (p *Int8Query) Score(code []uint64) float32 {
	d, s := dotInt8(p.even, p.odd, code)
	return p.score(d, s)
}

func (p *Int8Query) score(dot, sum uint64) float32 {
	return p.scoreD(int64(dot) - 64*int64(sum))
}

// scoreD is the score of a code whose Σ c_j·(r_j - 64) is d.
func (p *Int8Query) scoreD(d int64) float32 {
	return p.c0 + p.beta*float32(d)
}

// codeWords is the number of 64-bit words HNSW keeps per code: CodeLen
// rounded up to whole cache lines, which the SIMD kernels read.
func (c *Int8) codeWords() int { return (c.dim + 63) / 64 * 8 }

// dotNodesInt8Generic is dotNodesInt8 in Go: out[i] is Σ c_j·(r_j - 64)
// for the code of node nodes[i], at codes[nodes[i]·stride:].
func dotNodesInt8Generic(p *Int8Query, codes []uint64, stride int, nodes []uint32, out []int32) {
	cl := len(p.even)
	for i, x := range nodes[:len(out)] {
		o := int(x) * stride
		d, s := dotInt8(p.even, p.odd, codes[o:o+cl:o+cl])
		out[i] = int32(int64(d) - 64*int64(s))
	}
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// dotInt8 returns Σ r_j·c_j for a prepared query and a code, and Σ c_j,
// with all values in [0, 127].
//
// Go has no portable SIMD, so the kernel multiplies four pairs at once
// inside one 64-bit integer multiplication. Masking a code word (eight
// codes) with 0x00FF00FF00FF00FF leaves the even codes in four 16-bit
// lanes (c0 + c2·2^16 + c4·2^32 + c6·2^48); the query's even word holds r6,
// r4, r2, r0 in the same lanes, reversed, so lane 3 of the product is
// c0·r0 + c2·r2 + c4·r4 + c6·r6. Each product is at most 127² and four of
// them at most 64,516 < 2^16; the lower lanes hold at most three products,
// so no carry reaches lane 3, and what lies above bit 63 is dropped: the
// wanted sum is the product shifted right by 48. The odd codes go the same
// way after a shift.
//
// The code sum comes from adding the masked words lane by lane, and the
// four lanes are summed with one more multiplication by 1+2^16+2^32+2^48
// (lane 3 of the product is the sum of all four). That needs the lanes'
// total below 2^16, at most 1,016 per word, so they are folded into the
// result every 64 words.
func dotInt8(even, odd, code []uint64) (dot, sum uint64) {
	const (
		mask = 0x00FF00FF00FF00FF
		fold = 0x0001000100010001
	)
	even, odd = even[:len(code)], odd[:len(code)]
	var d0, d1, lanes uint64
	for i, x := range code {
		xe, xo := x&mask, (x>>8)&mask
		d0 += (xe * even[i]) >> 48
		d1 += (xo * odd[i]) >> 48
		lanes += xe + xo
		if i&63 == 63 {
			sum += lanes * fold >> 48
			lanes = 0
		}
	}
	sum += lanes * fold >> 48
	return d0 + d1, sum
}
