package vector

import (
	"slices"
)

// This file holds deletion and compaction: tombstones, and the repair
// and renumbering that remove them.

// Delete removes id and reports whether it was present. The node stays in
// the graph as a tombstone until the next compaction.
func (h *HNSW) Delete(id uint64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	n, ok := h.idMap()[id]
	if !ok {
		return false
	}
	h.own()
	h.remove(n)
	h.maybeCompact()
	return true
}

// remove turns node n into a tombstone; the caller holds the write lock.
func (h *HNSW) remove(n uint32) {
	delete(h.byID, h.ids[n])
	if h.external {
		// The tombstone still routes searches, and the caller may
		// release its row now.
		h.rows[n] = slices.Clone(h.rows[n])
	}
	h.dead[n/64] |= 1 << (n % 64)
	h.live--
	h.deleted++
}

func (h *HNSW) maybeCompact() {
	if h.live == 0 && h.deleted > 0 {
		h.reset() // nothing left to route to
		return
	}
	if h.share >= 0 && float64(h.deleted) > h.share*float64(len(h.ids)) {
		h.compact()
	}
}

// reset empties the graph, keeping the options and storage.
func (h *HNSW) reset() {
	h.setNodes(h.nodes[:0])
	h.ids, h.level = h.ids[:0], h.level[:0]
	h.upperOff, h.upper = h.upperOff[:0], h.upper[:0]
	h.dropSharedCodes(0)
	h.dead, h.codes = h.dead[:0], h.codes[:0]
	clear(h.rows) // drop the references to the caller's rows
	h.rows = h.rows[:0]
	clear(h.byID)
	h.live, h.deleted, h.entry, h.top = 0, 0, 0, -1
	h.codec, h.fitAt = nil, 0
}

// Compact repairs the graph around deleted nodes and removes them: each
// live node that links to a deleted one chooses its links again, with the
// neighbour heuristic, among its live links and the live links of the
// deleted nodes it linked to (so paths through a deleted node survive as
// direct links), and the nodes are renumbered without the tombstones.
// Delete calls it when tombstones exceed TombstoneShare. It costs about as
// many distance computations as inserting a node for each node repaired.
func (h *HNSW) Compact() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.own()
	if h.live == 0 {
		h.reset()
		return
	}
	h.compact()
}

func (h *HNSW) compact() {
	if h.deleted == 0 {
		return
	}
	sc := h.getScratch()
	defer h.scratch.Put(sc)
	for u := range uint32(len(h.ids)) {
		if h.isDead(u) {
			continue
		}
		for l := 0; l <= int(h.level[u]); l++ {
			h.repair(sc, u, l)
		}
	}
	if h.isDead(h.entry) {
		// The highest live node, the first of them on ties.
		best := -1
		for n := range uint32(len(h.ids)) {
			if !h.isDead(n) && (best < 0 || h.level[n] > h.level[best]) {
				best = int(n)
			}
		}
		h.entry, h.top = uint32(best), int(h.level[best])
	}

	// Renumber the live nodes in order.
	newNum := make([]uint32, len(h.ids))
	next := uint32(0)
	for n := range uint32(len(h.ids)) {
		if !h.isDead(n) {
			newNum[n] = next
			next++
		}
	}
	live := h.live
	nh := &HNSW{
		nodes:    make([]uint32, 0, live*h.stride),
		ids:      make([]uint64, 0, live),
		level:    make([]uint8, 0, live),
		upperOff: make([]uint32, 0, live),
	}
	cl := h.codeW
	if h.codec != nil {
		nh.codes = make([]uint64, 0, live*cl)
	}
	if h.external {
		nh.rows = make([][]float32, 0, live)
	}
	mapBlock := func(dst, src []uint32) []uint32 {
		dst = append(dst, src[0])
		for _, x := range src[1 : 1+src[0]] {
			dst = append(dst, newNum[x])
		}
		return appendZeros(dst, len(src)-1-int(src[0]))
	}
	for n := range uint32(len(h.ids)) {
		if h.isDead(n) {
			continue
		}
		// The vector (none in an External block), then the layer-0
		// block with new numbers, then the padding.
		b := h.nodes[int(n)*h.stride : int(n+1)*h.stride]
		nh.nodes = append(nh.nodes, b[:h.linkOff]...)
		nh.nodes = mapBlock(nh.nodes, b[h.linkOff:h.linkOff+1+h.m0])
		nh.nodes = appendZeros(nh.nodes, h.stride-h.linkOff-1-h.m0)
		if h.external {
			nh.rows = append(nh.rows, h.rows[n])
		}
		nh.ids = append(nh.ids, h.ids[n])
		nh.level = append(nh.level, h.level[n])
		nh.upperOff = append(nh.upperOff, 0)
		if lv := int(h.level[n]); lv > 0 {
			nh.upperOff[len(nh.upperOff)-1] = uint32(len(nh.upper))
			for l := 1; l <= lv; l++ {
				nh.upper = mapBlock(nh.upper, h.block(n, l))
			}
		}
		if h.codec != nil {
			nh.codes = append(nh.codes, h.codes[int(n)*cl:int(n+1)*cl]...)
		}
		h.byID[h.ids[n]] = newNum[n]
	}
	h.setNodes(nh.nodes)
	h.ids, h.level = nh.ids, nh.level
	h.upperOff, h.upper, h.codes = nh.upperOff, nh.upper, nh.codes
	h.codesShared.Store(false)
	h.rows = nh.rows
	h.dead = make([]uint64, (live+63)/64)
	h.entry = newNum[h.entry]
	h.deleted = 0
	if h.codec != nil && h.fitAt > 2*live {
		h.fit() // the codec was fitted on far more vectors than remain
	}
}

// repair replaces the links of live node u on layer l that point to
// deleted nodes; see Compact.
func (h *HNSW) repair(sc *hnswScratch, u uint32, l int) {
	list := h.links(u, l)
	if !slices.ContainsFunc(list, h.isDead) {
		return
	}
	sc.newGen(len(h.ids))
	sc.visit(u)
	vu := h.vec(u)
	cands := sc.prune[:0]
	add := func(x uint32) {
		if !h.isDead(x) && sc.visit(x) {
			cands = append(cands, scored{Dot(vu, h.vec(x)), x})
		}
	}
	for _, x := range list {
		add(x)
	}
	for _, x := range list {
		if h.isDead(x) {
			for _, y := range h.links(x, l) {
				add(y)
			}
		}
	}
	slices.SortFunc(cands, byScore)
	capacity := h.m
	if l == 0 {
		capacity = h.m0
	}
	sc.keep = h.heuristic(sc, cands, capacity, sc.keep)
	h.setLinks(u, l, sc.keep)
	sc.prune = cands
}
