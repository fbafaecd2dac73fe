//go:build !amd64 || purego

package vector

// Without assembly every kernel is the pure-Go one.
var (
	kernelLevel = levelGeneric
	bestLevel   = levelGeneric
	hasVNNI     = false
)

// dot is Dot without the length check; len(b) >= len(a).
func dot(a, b []float32) float32 { return dotGeneric(a, b) }

// dotRows sets out[r] to the inner product of q with row r of data, rows
// of len(q) values, for every r < len(out).
func dotRows(q, data, out []float32) { dotRowsGeneric(q, data, out) }

// hasQuad reports false: there is no tiled batch kernel in pure Go, and a
// batch scores each query with dotRows.
func hasQuad() bool { return false }

// dotQuad scores the four packed queries of quad against nr rows of
// data: out[j*ldo+r] for j < 4 and r < nr.
func dotQuad(quad []float32, data []float32, dim, nr int, out []float32, ldo int) {
	dotQuadGeneric(quad, data, dim, nr, out, ldo)
}

// firstGE returns the index of the first score >= thr, or len(s).
func firstGE(s []float32, thr float32) int {
	for i, x := range s {
		if x >= thr {
			return i
		}
	}
	return len(s)
}

// dotInt8FlatRows scores the prepared query q against the len(out) rows of
// codes; see dotInt8FlatRowsGeneric.
func dotInt8FlatRows(q *flat8Query, codes []int8, stride int, scale []float32, csum []int32, out []float32) {
	dotInt8FlatRowsGeneric(q, codes, stride, scale, out)
}

// prefetch does nothing without assembly.
func prefetch(s []float32) {}

// int8Kernel reports false: the int8 kernel is the pure-Go one.
func int8Kernel() bool { return false }

// dotNodes sets out[i] to the inner product of q with the vector of node
// nodes[i], the len(q) values at vecs[nodes[i]·stride:], for every
// i < len(out).
func dotNodes(q, vecs []float32, stride int, nodes []uint32, out []float32) {
	dotNodesGeneric(q, vecs, stride, nodes, out)
}

// prefetchNode does nothing without assembly.
func prefetchNode(s []uint32, stride int, node uint32, n int) {}

// dotNodesInt8 sets out[i] to Σ c_j·(r_j - 64) for the code of node
// nodes[i] and the prepared query p; see dotNodesInt8Generic.
func dotNodesInt8(p *Int8Query, codes []uint64, stride int, nodes []uint32, out []int32) {
	dotNodesInt8Generic(p, codes, stride, nodes, out)
}
