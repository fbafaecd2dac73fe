package vector

import (
	"maps"
	"math/rand/v2"

	"github.com/fonte-rag/fonte/internal/piecewise"
)

// Clone returns an independent copy of the index, to be changed while the
// original keeps serving searches: updating a live graph in place (delete
// the keys a corpus lost, add the new ones) would hold its write lock, and
// so every search, for the whole batch. An External clone refers to the
// same rows. Later Adds draw levels from a generator seeded with the node
// count, as a decoded index does. Every slice is copied but the Int8
// codes on the heap, which the clone shares (cloneCodes): a clone of a
// graph opened in place refers to nothing in the form (its tombstones'
// vectors and codec are copied too, and its damaged nodes' lists emptied
// as own does), so the form may be released while the clone lives.
func (h *HNSW) Clone() *HNSW {
	h.mu.RLock()
	defer h.mu.RUnlock()
	byID := h.idMap()
	c := &HNSW{
		dim: h.dim, m: h.m, m0: h.m0, efC: h.efC, efS: h.efS, mult: h.mult,
		keepPruned: h.keepPruned, share: h.share, quantize: h.quantize, external: h.external,
		rng:    rand.New(rand.NewPCG(uint64(len(h.ids)), 0x636c6f6e)),
		stride: h.stride, linkOff: h.linkOff,
		rows: piecewise.Clone(h.rows), ids: piecewise.Clone(h.ids), level: piecewise.Clone(h.level),
		upperOff: piecewise.Clone(h.upperOff), upper: piecewise.Clone(h.upper), dead: piecewise.Clone(h.dead),
		byID: maps.Clone(byID), live: h.live, deleted: h.deleted, entry: h.entry, top: h.top,
		codec: h.codec, codeW: h.codeW, fitAt: h.fitAt,
	}
	var shared bool
	c.codes, shared = h.cloneCodes()
	c.codesShared.Store(shared)
	c.setNodes(piecewise.Clone(h.nodes))
	h.ownRows(c)
	h.cutDamaged(c)
	if err := h.Damage(); err != nil {
		c.noteDamage(err)
	}
	return c
}

// cloneCodes returns the codes for a clone of h and whether they are
// shared. Codes on the heap are
// shared, their capacity cut to their length, and h marks them shared: a
// graph never changes a node's code in place, an Add appends (so the
// clone's first Add copies them, once, to its own larger array; h's
// appends go past the clone's length) and what rewrites them all in
// place, in either graph, first drops the shared array
// (dropSharedCodes). At a million chunks that is 366 MB
// the view build no longer copies before the update copies them again
// (BENCHMARKS.md, "The write's memory at a million chunks"). Codes still
// in a mapped form are copied: the clone must outlive the form.
func (h *HNSW) cloneCodes() ([]uint64, bool) {
	if len(h.codes) == 0 || (h.ip != nil && !h.ip.codesLoaded) {
		return piecewise.Clone(h.codes), false
	}
	h.codesShared.Store(true)
	return h.codes[:len(h.codes):len(h.codes)], true
}

// dropSharedCodes gives h an empty codes array of its own, with room for
// n words, if its codes are shared with the graph it was cloned from:
// for a caller about to write them from the start.
func (h *HNSW) dropSharedCodes(n int) {
	if h.codesShared.Load() {
		h.codes = make([]uint64, 0, n)
		h.codesShared.Store(false)
	}
}
