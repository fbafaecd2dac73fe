package vector

// This file holds the node-level results of a search: SearchNodes, for a
// caller that keeps its own array by node number (a store mapping nodes
// to its rows), and the heap that keeps the best k of them.

// NodeResult is one hit of SearchNodes: the node the vector is in the
// graph, its id, and its inner product with the query. Node numbers are
// those of the graph when searched: an Add, AddBatch, Delete or Compact
// may renumber them (compaction does), so they are only meaningful for
// the graph as it was searched, or as written by AppendInPlace.
type NodeResult struct {
	Node  uint32
	ID    uint64
	Score float32
}

// SearchNodes is SearchEf with the results as nodes, restricted to the
// live nodes accept accepts (nil accepts every live node): the same
// candidates, order and scores as SearchEf(q, k, ef) when accept is nil,
// and as SearchFilter(q, k, allow) when ef is the index's EfSearch and
// accept(n) is allow of node n's id. A filter on nodes lets a caller look
// up its own data by node in an array instead of by id in a map. accept
// is called with the index's read lock held, and must not call the
// index's write methods. SearchNodes panics if len(q) is not the index's
// dimension.
func (h *HNSW) SearchNodes(q []float32, k, ef int, accept func(node uint32) bool) []NodeResult {
	h.checkQuery(q)
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.search(q, k, ef, accept)
}

// resultsOf returns the ids and scores of nodes, nil for none.
func resultsOf(nodes []NodeResult) []Result {
	if nodes == nil {
		return nil
	}
	out := make([]Result, len(nodes))
	for i, r := range nodes {
		out[i] = Result{ID: r.ID, Score: r.Score}
	}
	return out
}

// nodeTopK is topK for NodeResults, in the same order (higher score, then
// lower id, first): the root of its heap is the worst result kept.
type nodeTopK struct {
	h []NodeResult
	k int
}

func newNodeTopK(k int) nodeTopK { return nodeTopK{h: make([]NodeResult, 0, k), k: k} }

func (t *nodeTopK) full() bool { return len(t.h) == t.k }

// behind reports whether a ranks after b.
func behind(a, b NodeResult) bool {
	return a.Score < b.Score || (a.Score == b.Score && a.ID > b.ID)
}

// push offers a candidate.
func (t *nodeTopK) push(r NodeResult) {
	if len(t.h) < t.k {
		t.h = append(t.h, r)
		for i := len(t.h) - 1; i > 0; {
			p := (i - 1) / 2
			if !behind(t.h[i], t.h[p]) {
				break
			}
			t.h[i], t.h[p] = t.h[p], t.h[i]
			i = p
		}
		return
	}
	if !behind(t.h[0], r) {
		return
	}
	t.h[0] = r
	t.sift(len(t.h))
}

// sift moves the root down the first n elements to its place.
func (t *nodeTopK) sift(n int) {
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && behind(t.h[c+1], t.h[c]) {
			c++
		}
		if !behind(t.h[c], t.h[i]) {
			return
		}
		t.h[i], t.h[c] = t.h[c], t.h[i]
		i = c
	}
}

// sorted returns the kept results best first, nil for none; the heap is
// unusable afterwards.
func (t *nodeTopK) sorted() []NodeResult {
	if len(t.h) == 0 {
		return nil
	}
	for n := len(t.h) - 1; n > 0; n-- {
		t.h[0], t.h[n] = t.h[n], t.h[0]
		t.sift(n)
	}
	return t.h
}

// AppendNodeIDs appends the id of every node of the graph to dst, in node
// order, tombstones (deleted nodes, whose ids may since have been given
// to new nodes) included: node n's id is at dst[len(dst)+n] of the
// returned slice. A caller writing the graph with AppendInPlace uses it to
// lay out the rows that rowOf will give OpenHNSWInPlace by node.
func (h *HNSW) AppendNodeIDs(dst []uint64) []uint64 {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return append(dst, h.ids...)
}
