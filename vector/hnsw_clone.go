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
// count, as a decoded index does. Every slice is copied: a clone of a
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
		codec: h.codec, codes: piecewise.Clone(h.codes), codeW: h.codeW, fitAt: h.fitAt,
	}
	c.setNodes(piecewise.Clone(h.nodes))
	h.ownRows(c)
	h.cutDamaged(c)
	if err := h.Damage(); err != nil {
		c.noteDamage(err)
	}
	return c
}
