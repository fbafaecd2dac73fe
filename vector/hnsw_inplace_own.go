package vector

import (
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/fonte-rag/fonte/internal/piecewise"
)

// This file holds what keeps a graph opened in place safe: the checks of
// its link lists, made on first use, the id map built on first need, and
// the heap copies every change makes before it writes.

// inPlaceState is the state of a graph whose slices are views of an
// in-place form (see OpenHNSWInPlace).
type inPlaceState struct {
	// checked holds two bits a node, 32 nodes a word: the node's link
	// lists were checked, and were found damaged. Lists are checked on
	// first use so that opening reads none of them.
	checked []atomic.Uint64
	// codesLoaded says the codes are a heap copy (LoadCodes).
	codesLoaded bool
}

// sound reports whether node n's link lists may be followed, checking
// them the first time. A damaged node is searched as if it had no links
// (it can still be a result), and its damage is recorded for Damage.
func (p *inPlaceState) sound(h *HNSW, n uint32) bool {
	w, shift := &p.checked[n/32], (n%32)*2
	st := w.Load() >> shift & 3
	if st == 0 {
		st = 1
		if err := h.checkNode(n); err != nil {
			st = 3
			h.noteDamage(fmt.Errorf("%w: in-place HNSW: %w", ErrFormat, err))
		}
		w.Or(st << shift)
	}
	return st&2 == 0
}

// checkNode reports what is wrong with node n's link lists: a count over
// the list's capacity, or a link to a node that does not exist, to n
// itself, or to a node not on that layer. Such a link would send a search
// out of range. The node's level and upper-layer blocks must be sound.
func (h *HNSW) checkNode(n uint32) error {
	for l := 0; l <= int(h.level[n]); l++ {
		b := h.block(n, l)
		if int(b[0]) > len(b)-1 {
			return fmt.Errorf("node %d layer %d: %d links, at most %d fit", n, l, b[0], len(b)-1)
		}
		for _, x := range b[1 : 1+b[0]] {
			if int(x) >= len(h.ids) || x == n || int(h.level[x]) < l {
				return fmt.Errorf("node %d layer %d links to %d", n, l, x)
			}
		}
	}
	return nil
}

// noteDamage records err unless damage was found before.
func (h *HNSW) noteDamage(err error) { h.damage.CompareAndSwap(nil, &err) }

// Damage returns the first damage found in a graph opened in place (see
// OpenHNSWInPlace), nil if none so far or for a graph never opened in
// place. A node's lists are checked when a search, or the first change,
// first reaches it, so nil does not vouch for the nodes not reached yet;
// VerifyHNSWInPlace checks every byte of the form. The error wraps
// ErrFormat.
func (h *HNSW) Damage() error {
	if err := h.damage.Load(); err != nil {
		return *err
	}
	return nil
}

// idMap returns the map of live ids to nodes, building it the first time
// for a graph opened in place. Two live nodes with one id (a damaged
// form) are recorded as damage; the later node wins. The caller holds the
// read or the write lock.
func (h *HNSW) idMap() map[uint64]uint32 {
	h.byIDOnce.Do(func() {
		if h.byID != nil {
			return
		}
		m := make(map[uint64]uint32, h.live)
		for n, id := range h.ids {
			if h.isDead(uint32(n)) {
				continue
			}
			if _, dup := m[id]; dup {
				h.noteDamage(fmt.Errorf("%w: in-place HNSW: id %d is held by two live nodes", ErrFormat, id))
			}
			m[id] = uint32(n)
		}
		h.byID = m
	})
	return h.byID
}

// own prepares the graph for a change: it builds the id map and, for a
// graph opened in place, copies every view of the form to the heap (the
// form is read-only memory: writing it would crash the process, or change
// the caller's bytes) and empties the lists of damaged nodes, so that
// insertion and compaction, which write into lists, meet only sound ones.
// Afterwards the graph refers to nothing in the form. The caller holds
// the write lock.
func (h *HNSW) own() {
	h.idMap()
	if h.ip == nil {
		return
	}
	h.ids, h.level, h.dead = piecewise.Clone(h.ids), piecewise.Clone(h.level), piecewise.Clone(h.dead)
	h.upperOff, h.upper, h.codes = piecewise.Clone(h.upperOff), piecewise.Clone(h.upper), piecewise.Clone(h.codes)
	h.setNodes(piecewise.Clone(h.nodes))
	h.ownRows(h)
	h.cutDamaged(h)
	h.ip = nil
}

// ownRows gives dst, a copy of h, its own copies of what h's rows and
// codec hold of the form: the tombstones' vectors and the codec's
// parameters. The live rows are the caller's.
func (h *HNSW) ownRows(dst *HNSW) {
	if h.ip == nil {
		return
	}
	for n := range uint32(len(h.ids)) {
		if h.isDead(n) {
			dst.rows[n] = slices.Clone(h.rows[n])
		}
	}
	if h.codec != nil {
		dst.codec = &Int8{dim: h.dim, lo: slices.Clone(h.codec.lo), step: slices.Clone(h.codec.step)}
	}
}

// cutDamaged empties, in dst (h or its copy), every list of the nodes of
// h found damaged, checking those not checked yet, as searches treat
// them.
func (h *HNSW) cutDamaged(dst *HNSW) {
	if h.ip == nil {
		return
	}
	for n := range uint32(len(h.ids)) {
		if !h.ip.sound(h, n) {
			for l := 0; l <= int(h.level[n]); l++ {
				dst.block(n, l)[0] = 0
			}
		}
	}
}
