package vector

import (
	"unsafe"

	"github.com/fonte-rag/fonte/internal/piecewise"
)

// This file holds the node storage: the flat blocks of vectors and
// layer-0 links, the upper-layer blocks and the tombstone bits.

func (h *HNSW) isDead(n uint32) bool { return h.dead[n/64]&(1<<(n%64)) != 0 }

func (h *HNSW) vec(n uint32) []float32 {
	if h.external {
		return h.rows[n]
	}
	i := int(n) * h.stride
	return h.vecs[i : i+h.dim : i+h.dim]
}

// setNodes makes nodes the node blocks, and vecs its float32 view.
func (h *HNSW) setNodes(nodes []uint32) {
	h.nodes = nodes
	h.vecs = unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(nodes))), cap(nodes))[:len(nodes)]
}

// dotNodes sets out[i] to the inner product of q with the vector of node
// nodes[i], for i < len(out): from the blocks with the gather kernel, or
// from an External index's rows.
func (h *HNSW) dotNodes(q []float32, nodes []uint32, out []float32) {
	if h.external {
		dotRowsOf(q, h.rows, nodes, out)
		return
	}
	dotNodes(q, h.vecs, h.stride, nodes, out)
}

// appendNodes appends k zeroed node blocks.
func (h *HNSW) appendNodes(k int) {
	h.setNodes(appendZeros(h.nodes, k*h.stride))
}

// links returns node n's links on layer l. A graph opened in place
// checks a node's lists the first time they are read, and gives none for
// a damaged node (see inPlaceState).
func (h *HNSW) links(n uint32, l int) []uint32 {
	if h.ip != nil && !h.ip.sound(h, n) {
		return nil
	}
	b := h.block(n, l)
	return b[1 : 1+b[0]]
}

// block returns node n's block on layer l: the count word, then the
// capacity.
func (h *HNSW) block(n uint32, l int) []uint32 {
	if l == 0 {
		i := int(n)*h.stride + h.linkOff
		return h.nodes[i : i+1+h.m0 : i+1+h.m0]
	}
	i := int(h.upperOff[n]) + (l-1)*(1+h.m)
	return h.upper[i : i+1+h.m : i+1+h.m]
}

func (h *HNSW) setLinks(n uint32, l int, to []uint32) {
	b := h.block(n, l)
	b[0] = uint32(copy(b[1:], to))
}

func appendZeros(s []uint32, n int) []uint32 {
	s = piecewise.Grow(s, n)
	s = s[:len(s)+n]
	clear(s[len(s)-n:])
	return s
}
