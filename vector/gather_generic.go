//go:build !amd64 || purego

package vector

// prefetchRow is a no-op without the assembly prefetch.
func prefetchRow(row []float32, bytes int) {}

// dotRowsOf sets out[i] to the inner product of q with rows[nodes[i]], for
// i < len(out).
func dotRowsOf(q []float32, rows [][]float32, nodes []uint32, out []float32) {
	dotRowsOfGeneric(q, rows, nodes, out)
}
