package vector

// This file holds the inner-product kernels' portable entry points and the
// pure-Go reference kernel. dot_amd64.go selects assembly kernels (AVX-512
// or AVX2 with FMA) at run time; dot_generic.go, built on every other
// architecture and with the purego tag, routes everything to dotGeneric.
//
// Exactness. Every score that an index compares comes from one kernel
// family per process, and within a family the score of a (query, vector)
// pair is bit-for-bit the same whichever entry point computes it: Dot, the
// one-query-many-rows kernel of Search, the many-queries-many-rows tile
// of SearchBatch, or the gather kernel of HNSW's search (dotNodes, rows
// picked by node number). The assembly kernels get there by one fixed
// order of arithmetic: element i is accumulated into lane i mod 16 of a
// 16-lane accumulator with a fused multiply-add, the tail is padded with
// zeros, and the lanes are summed by a fixed tree (lane l + lane l+8,
// then +4, +2, +1). The AVX2 and AVX-512 kernels follow that order
// exactly, so they agree with each other bit for bit.
//
// The fused multiply-add rounds once where dotGeneric's multiply then add
// rounds twice, and the elements are grouped into lanes differently, so
// an assembly score can differ from the pure-Go one in its last bits: by
// at most 2(n/4+32)·2⁻²⁴ of the sum of |a_i·b_i| (the bound the tests
// check), in practice a few units in the last place. Rankings are
// therefore the same wherever two scores are not within that distance of
// each other, and ties by id are exact within one process either way.

// Kernel levels, best last.
const (
	levelGeneric = iota // pure Go
	levelAVX2           // AVX2 + FMA, 256-bit vectors
	levelAVX512         // AVX-512 F/BW/DQ/VL, 512-bit vectors
)

// Dot returns the inner product of a and b. It panics if their lengths
// differ: a silent truncation would turn a dimension bug into wrong scores.
func Dot(a, b []float32) float32 {
	if len(a) != len(b) {
		panic("vector: Dot of slices with different lengths")
	}
	return dot(a, b)
}

// dotGeneric is the portable kernel. Eight independent accumulators keep
// eight multiply-adds in flight instead of one serial chain; with them pure
// Go runs at several times the speed of the naive loop. The reslicing lets
// the compiler drop the bounds checks inside the loop. The explicit
// float32 conversions forbid the compiler from fusing a multiply and an
// add, so the result is the same on every architecture.
func dotGeneric(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	i := 0
	for ; len(a)-i >= 8; i += 8 {
		x := a[i : i+8 : i+8]
		y := b[i : i+8 : i+8]
		s0 += float32(x[0] * y[0])
		s1 += float32(x[1] * y[1])
		s2 += float32(x[2] * y[2])
		s3 += float32(x[3] * y[3])
		s4 += float32(x[4] * y[4])
		s5 += float32(x[5] * y[5])
		s6 += float32(x[6] * y[6])
		s7 += float32(x[7] * y[7])
	}
	for ; i < len(a); i++ {
		s0 += float32(a[i] * b[i])
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

// dotRowsGeneric sets out[r] to the inner product of q with row r of data
// (rows of len(q) values) for every r < len(out).
func dotRowsGeneric(q, data []float32, out []float32) {
	dim := len(q)
	for r := range out {
		out[r] = dotGeneric(q, data[r*dim:(r+1)*dim])
	}
}

// quadQueries is the number of queries a batch tile scores at once; the
// queries of a tile are packed together (see packQuad).
const quadQueries = 4

// packQuad lays out up to four queries of dimension dim for dotQuad: chunk
// c of query j (16 values, zero-padded past dim) is stored at
// dst[(c*4+j)*16:], so one pointer walks all four queries. Missing queries
// (len(qs) < 4) are zeros. dst must hold quadLen(dim) values.
func packQuad(dst []float32, qs [][]float32, dim int) {
	clear(dst)
	for j, q := range qs {
		for i, x := range q[:dim] {
			c, l := i/16, i%16
			dst[(c*quadQueries+j)*16+l] = x
		}
	}
}

// quadLen is the length of a packed quad of queries of dimension dim.
func quadLen(dim int) int { return (dim + 15) / 16 * 16 * quadQueries }

// dotQuadGeneric is dotQuad in Go: out[j*ldo+r] is the inner product of
// query j of the packed quad with row r of data, for j < 4 and r < nr,
// with dotGeneric's arithmetic. Batches do not use it (they call dotRows
// per query without an assembly tile); it keeps dotQuad total.
func dotQuadGeneric(quad, data []float32, dim, nr int, out []float32, ldo int) {
	q := make([]float32, dim)
	for j := range quadQueries {
		for i := range q {
			q[i] = quad[(i/16*quadQueries+j)*16+i%16]
		}
		dotRowsGeneric(q, data[:nr*dim], out[j*ldo:j*ldo+nr])
	}
}

// dotNodesGeneric is dotNodes in Go, with Dot's kernel for each node.
func dotNodesGeneric(q, vecs []float32, stride int, nodes []uint32, out []float32) {
	dim := len(q)
	for i, x := range nodes[:len(out)] {
		o := int(x) * stride
		out[i] = dot(q, vecs[o:o+dim:o+dim])
	}
}
