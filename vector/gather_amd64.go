//go:build amd64 && !purego

package vector

import (
	"fmt"
	"unsafe"
)

//go:noescape
func dotNodesAVX512(q *float32, base unsafe.Pointer, stride uintptr, dim int, nodes *uint32, n int, out *float32)

//go:noescape
func dotNodesAVX2(q *float32, base unsafe.Pointer, stride uintptr, dim int, nodes *uint32, n int, out *float32)

//go:noescape
func prefetchNodesT0(base unsafe.Pointer, stride uintptr, nodes *uint32, n int, bytes int)

// dotNodes sets out[i] to the inner product of q with the vector of node
// nodes[i], the len(q) values at vecs[nodes[i]·stride:], for every
// i < len(out): the scoring step of a graph search. The scores are bit
// for bit Dot's. It panics if a node's vector is not inside vecs, which
// the assembly kernels would not check.
func dotNodes(q, vecs []float32, stride int, nodes []uint32, out []float32) {
	n := len(out)
	if n == 0 {
		return
	}
	nodes = nodes[:n]
	checkNodes(vecs, stride, len(q), nodes)
	base := unsafe.Pointer(unsafe.SliceData(vecs))
	switch kernelLevel {
	case levelAVX512:
		dotNodesAVX512(unsafe.SliceData(q), base, uintptr(stride)*4, len(q), unsafe.SliceData(nodes), n, unsafe.SliceData(out))
	case levelAVX2:
		dotNodesAVX2(unsafe.SliceData(q), base, uintptr(stride)*4, len(q), unsafe.SliceData(nodes), n, unsafe.SliceData(out))
	default:
		dotNodesGeneric(q, vecs, stride, nodes, out)
	}
}

// prefetchNode asks for the n uint32 words at s[node·stride:] to be
// brought into L1: a hint, nothing is read.
func prefetchNode(s []uint32, stride int, node uint32, n int) {
	if len(s) > 0 {
		prefetchNodesT0(unsafe.Pointer(unsafe.SliceData(s)), uintptr(stride)*4, &node, 1, 4*n)
	}
}

//go:noescape
func dotNodesU8VNNI(q *int8, base unsafe.Pointer, stride uintptr, nbytes int, nodes *uint32, n int, out *int32)

//go:noescape
func dotNodesU8AVX2(q *int8, base unsafe.Pointer, stride uintptr, nbytes int, nodes *uint32, n int, out *int32)

// dotNodesInt8 sets out[i] to Σ c_j·(r_j - 64) for the code of node
// nodes[i], the stride words at codes[nodes[i]·stride:] (a multiple of
// 8, zero padded past the code), and the prepared query p: the integer
// from which p.scoreD computes the score. Every kernel gives the same
// integer. It panics if a node's code is not inside codes.
func dotNodesInt8(p *Int8Query, codes []uint64, stride int, nodes []uint32, out []int32) {
	n := len(out)
	if n == 0 {
		return
	}
	nodes = nodes[:n]
	for _, x := range nodes {
		if (int(x)+1)*stride > len(codes) {
			panic(fmt.Sprintf("vector: node %d past the %d codes", x, len(codes)/stride))
		}
	}
	if len(p.s8) != 8*stride {
		panic("vector: Int8 query and code stride disagree")
	}
	base := unsafe.Pointer(unsafe.SliceData(codes))
	switch {
	case kernelLevel == levelAVX512 && hasVNNI:
		dotNodesU8VNNI(unsafe.SliceData(p.s8), base, uintptr(stride)*8, len(p.s8), unsafe.SliceData(nodes), n, unsafe.SliceData(out))
	case kernelLevel >= levelAVX2:
		dotNodesU8AVX2(unsafe.SliceData(p.s8), base, uintptr(stride)*8, len(p.s8), unsafe.SliceData(nodes), n, unsafe.SliceData(out))
	default:
		dotNodesInt8Generic(p, codes, stride, nodes, out)
	}
}

// checkNodes panics unless every node holds a whole vector of dim values
// inside vecs. The graph guarantees it (links are validated when an index
// is decoded); the check keeps a bug from turning into reads outside
// vecs in the assembly kernels, for a compare per node beside a whole
// inner product.
func checkNodes(vecs []float32, stride, dim int, nodes []uint32) {
	for _, x := range nodes {
		if int(x)*stride+dim > len(vecs) {
			panic(fmt.Sprintf("vector: node %d past the %d vectors", x, len(vecs)/stride))
		}
	}
}

// prefetchRow asks for the cache lines of the first bytes bytes of row to
// be brought into L1: a hint, nothing is read.
func prefetchRow(row []float32, bytes int) {
	var first uint32 // node 0 at base row, stride 0
	if len(row) > 0 {
		prefetchNodesT0(unsafe.Pointer(unsafe.SliceData(row)), 0, &first, 1, min(bytes, 4*len(row)))
	}
}

//go:noescape
func dotRowsOfAVX512(q *float32, base unsafe.Pointer, stride uintptr, dim int, nodes *uint32, n int, out *float32)

//go:noescape
func dotRowsOfAVX2(q *float32, base unsafe.Pointer, stride uintptr, dim int, nodes *uint32, n int, out *float32)

// dotRowsOf sets out[i] to the inner product of q with rows[nodes[i]], for
// i < len(out): an External index's batch scoring, by dotNodes' kernels
// reaching each row through its slice header instead of at a multiple of
// a stride. The scores are bit for bit Dot's. It panics if a node has no
// row or a row is shorter than q, which the kernels would not check.
func dotRowsOf(q []float32, rows [][]float32, nodes []uint32, out []float32) {
	n := len(out)
	if n == 0 {
		return
	}
	nodes = nodes[:n]
	for _, x := range nodes {
		if int(x) >= len(rows) || len(rows[x]) < len(q) {
			panic(fmt.Sprintf("vector: node %d has no row of %d values (%d rows)", x, len(q), len(rows)))
		}
	}
	base := unsafe.Pointer(unsafe.SliceData(rows))
	header := unsafe.Sizeof(rows[0])
	switch kernelLevel {
	case levelAVX512:
		dotRowsOfAVX512(unsafe.SliceData(q), base, header, len(q), unsafe.SliceData(nodes), n, unsafe.SliceData(out))
	case levelAVX2:
		dotRowsOfAVX2(unsafe.SliceData(q), base, header, len(q), unsafe.SliceData(nodes), n, unsafe.SliceData(out))
	default:
		dotRowsOfGeneric(q, rows, nodes, out)
	}
}
