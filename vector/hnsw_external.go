package vector

// This file holds the vectors of an External index: the caller's rows,
// one slice a node, and their batch scoring.

// keepRow makes v, equal to node n's vector, the row an External index
// refers to for n, so a caller that re-adds an unchanged vector from a
// new place may release the old one.
func (h *HNSW) keepRow(n uint32, v []float32) {
	if h.external {
		h.rows[n] = v
	}
}

// rowAhead is how many rows ahead of the one being scored dotRowsOf
// requests whole: enough for their misses to overlap with the scoring,
// few enough that they stay in L1.
const rowAhead = 4

// dotRowsOfGeneric is dotRowsOf without an assembly kernel: as the
// kernels do, it requests the first lines of every row before it scores
// any, and each row whole a few rows ahead of its scoring, so that the
// cache misses overlap instead of being paid one row at a time. Each
// score is Dot's.
func dotRowsOfGeneric(q []float32, rows [][]float32, nodes []uint32, out []float32) {
	nodes = nodes[:len(out)]
	head := min(4*len(q), 256)
	for _, x := range nodes {
		prefetchRow(rows[x], head)
	}
	for i, x := range nodes {
		if j := i + rowAhead; j < len(nodes) {
			prefetchRow(rows[nodes[j]], 4*len(q))
		}
		out[i] = Dot(q, rows[x])
	}
}
