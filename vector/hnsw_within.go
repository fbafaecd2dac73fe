package vector

// This file holds the walk restricted to a set of nodes: a filtered
// search that scores only the set's nodes on layer 0, crossing the others
// by their links, for a fixed amount of work.

// NodeSet is a set of an HNSW graph's node numbers, one bit a node.
type NodeSet []uint64

// NewNodeSet returns an empty set for nodes below n.
func NewNodeSet(n int) NodeSet { return make(NodeSet, (n+63)/64) }

// Add puts node n in the set; n must be below the size it was made for.
func (s NodeSet) Add(n uint32) { s[n/64] |= 1 << (n % 64) }

// Has reports whether node n is in the set.
func (s NodeSet) Has(n uint32) bool {
	i := int(n / 64)
	return i < len(s) && s[i]&(1<<(n%64)) != 0
}

// WalkStats counts the work of one SearchWithin: the link lists read and
// the vectors (or codes) scored on layer 0. Both depend only on the
// arguments' steps and on the graph's M, never on which nodes the set
// holds or where they lie.
type WalkStats struct {
	Lists, Scored int
}

// SearchWithin returns about the k vectors of the live nodes in set with
// the highest inner product with q, best first, ties by ascending id, and
// whether it found k. It descends the upper layers as Search does, then
// walks layer 0 for exactly steps expansions with a candidate list of ef
// nodes of the set: expanding a node reads its links and the links of
// each of its neighbours, and scores the unvisited set nodes among them
// (neighbours first, then neighbours' neighbours) up to 2·M. A node
// outside the set is never scored on layer 0 nor returned; it only
// carries the walk to the set nodes beyond it, so the walk keeps its
// reach when the set leaves gaps in the graph (the two-hop expansion of
// ACORN, Patel et al., SIGMOD 2024).
//
// The work is fixed: the walk never stops early, an expansion with fewer
// set nodes to score scores others in their place and discards them, and
// one with no candidate left expands an arbitrary node the same way, so
// that the time of a search says nothing of how the set's nodes lie
// around q. Steps should grow as the set's share of the graph falls:
// fewer of the nodes read are in the set, and the set's nodes are further
// apart in the graph. The scores returned are exact (re-ranked on
// float32 as Search's); only the set of results is approximate. With
// stats, the work done is added to it. SearchWithin panics if len(q) is
// not the index's dimension.
func (h *HNSW) SearchWithin(q []float32, k, ef, steps int, set NodeSet, stats *WalkStats) ([]NodeResult, bool) {
	h.checkQuery(q)
	h.mu.RLock()
	defer h.mu.RUnlock()
	if k < 1 || h.live == 0 {
		return nil, false
	}
	ef = max(ef, k)
	sc := h.getScratch()
	defer h.scratch.Put(sc)
	qr, ep := h.descend(sc, q)
	sc.newGen(len(h.ids))
	sc.visit(ep.n)
	cand, res := append(sc.cand[:0], ep), sc.res[:0]
	if set.Has(ep.n) && !h.isDead(ep.n) {
		res = append(res, ep)
	}
	w := walk{h: h, sc: sc, set: set, stats: stats}
	for range steps {
		real := len(cand) > 0
		var c scored
		if real {
			c, cand = popMax(cand)
		} else {
			c.n = w.arbitrary()
		}
		batch, n := w.expand(c.n)
		scores := h.scoreBatch(sc, qr, batch)
		if !real {
			continue
		}
		for i, nb := range batch[:n] {
			s := scores[i]
			if len(res) >= ef && s <= res[0].s {
				continue
			}
			cand = pushMax(cand, scored{s, nb})
			switch {
			case h.isDead(nb):
			case len(res) < ef:
				res = pushMin(res, scored{s, nb})
			default:
				replaceMin(res, scored{s, nb})
			}
		}
	}
	sc.cand, sc.res = cand, res
	kk := min(k, h.live)
	t := h.rerank(sc, qr, kk)
	return t.sorted(), len(t.h) == kk
}

// walk is one SearchWithin's layer-0 state besides its heaps.
type walk struct {
	h     *HNSW
	sc    *hnswScratch
	set   NodeSet
	stats *WalkStats
	x     uint32 // the arbitrary nodes' generator
	sink  uint32 // what the padding reads fold into, so they stay
}

// arbitrary returns a node drawn by a fixed sequence, for work that only
// pads: a node anywhere, so that reading it costs what a real read does.
func (w *walk) arbitrary() uint32 {
	w.x = w.x*1664525 + 1013904223 // Numerical Recipes' LCG
	return w.x % uint32(len(w.h.ids))
}

// expand reads node c's links and its neighbours' (padded to 1+2M lists
// with arbitrary nodes' when c has fewer neighbours), and returns 2·M
// nodes to score: the unvisited set nodes found first, marked visited,
// the first n of the batch, then arbitrary nodes.
func (w *walk) expand(c uint32) (batch []uint32, n int) {
	h, sc := w.h, w.sc
	width := h.m0
	batch = sc.batch[:0]
	direct := h.links(c, 0)
	prefetchNodes(h.nodes[h.linkOff:], h.stride, direct, 1+h.m0)
	for _, nb := range direct {
		if len(batch) < width && w.set.Has(nb) && sc.visit(nb) {
			batch = append(batch, nb)
		}
	}
	for _, nb := range direct {
		for _, nb2 := range h.links(nb, 0) {
			if len(batch) < width && w.set.Has(nb2) && sc.visit(nb2) {
				batch = append(batch, nb2)
			}
		}
	}
	for range h.m0 - len(direct) {
		// Padding reads: the list is read, its nodes are not taken.
		for _, nb2 := range h.links(w.arbitrary(), 0) {
			w.sink ^= nb2
		}
	}
	n = len(batch)
	for len(batch) < width {
		batch = append(batch, w.arbitrary())
	}
	sc.batch = batch
	if w.stats != nil {
		w.stats.Lists += 1 + h.m0
		w.stats.Scored += len(batch)
	}
	return batch, n
}
