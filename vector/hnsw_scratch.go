package vector

import (
	"cmp"

	"github.com/fonte-rag/fonte/internal/yield"
)

// This file holds a search's working memory: the pooled scratch with
// its visited marks, and the heaps of scored nodes.

// scored is a node with its score against the current query or node.
type scored struct {
	s float32
	n uint32
}

// hnswScratch is the per-search working memory, pooled so a search
// allocates only its result: the visited set is an array of generation
// marks (a node is visited when its mark equals the current generation),
// so starting a search is an increment instead of clearing a set.
type hnswScratch struct {
	marks  []uint16
	gen    uint16
	cand   []scored // max-heap: best candidate on top
	res    []scored // min-heap: worst result on top
	w      []scored // one layer's results, sorted, during insertion
	sel    []uint32 // neighbours chosen for the inserted node
	prune  []scored // a list being pruned
	keep   []uint32 // the pruned list kept
	reject []scored // candidates the heuristic rejected
	q8     Int8Query
	batch  []uint32  // unvisited neighbours of the node being expanded
	scores []float32 // their scores
	d32    []int32   // their int8 inner products (Quantize)

	// During a concurrent build (AddBatch), the locks that guard the
	// link lists, and a copy of the list being read.
	lk   *buildLocks
	lbuf []uint32

	// During AddBatch, yieldDist > 0: the builder offers its processor
	// to searches (yield.ToSearches) once it has computed about that
	// many distances since it last did (dists counts them). A node's
	// link is about a millisecond of work quiet and 5-10 ms under load,
	// and a search that waited for the builder's processor waited that
	// long (session 33's traces); searches leave it 0.
	yieldDist int
	dists     int
}

// buildYieldDist is the builder's yieldDist: a few hundred distances,
// some 50-100 µs at a million nodes of 384 dimensions.
const buildYieldDist = 512

// maybeYield offers the processor to searches if the builder has
// computed yieldDist distances since it last did (see yieldDist).
func (sc *hnswScratch) maybeYield() {
	if sc.yieldDist == 0 || sc.dists < sc.yieldDist {
		return
	}
	sc.dists = 0
	toSearches()
}

// toSearches is yield.ToSearches; a test counts the calls through it.
var toSearches = yield.ToSearches

// links returns node n's links on layer l: the list itself, or during a
// concurrent build a copy taken under the node's lock, since other
// builders may be changing it.
func (sc *hnswScratch) links(h *HNSW, n uint32, l int) []uint32 {
	if sc.lk == nil {
		return h.links(n, l)
	}
	mu := sc.lk.of(n)
	mu.Lock()
	sc.lbuf = append(sc.lbuf[:0], h.links(n, l)...)
	mu.Unlock()
	return sc.lbuf
}

func (h *HNSW) getScratch() *hnswScratch {
	if sc, ok := h.scratch.Get().(*hnswScratch); ok {
		return sc
	}
	return &hnswScratch{}
}

// newGen starts a new visited set over n nodes.
func (sc *hnswScratch) newGen(n int) {
	if len(sc.marks) < n {
		// Grow with slack: an index being built grows one node at a time.
		sc.marks = make([]uint16, n+n/4+64)
		sc.gen = 0
	}
	sc.gen++
	if sc.gen == 0 {
		clear(sc.marks)
		sc.gen = 1
	}
}

// visit marks n and reports whether it was unvisited.
func (sc *hnswScratch) visit(n uint32) bool {
	if sc.marks[n] == sc.gen {
		return false
	}
	sc.marks[n] = sc.gen
	return true
}

// Heaps of scored, written out rather than through container/heap: the
// interface calls would cost more than the comparisons.

func pushMax(h []scored, x scored) []scored {
	h = append(h, x)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h[p].s >= h[i].s {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	return h
}

func popMax(h []scored) (scored, []scored) {
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1].s > h[c].s {
			c++
		}
		if h[i].s >= h[c].s {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	return top, h
}

func pushMin(h []scored, x scored) []scored {
	h = append(h, x)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h[p].s <= h[i].s {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	return h
}

// replaceMin replaces the worst element with x and restores the heap.
func replaceMin(h []scored, x scored) {
	h[0] = x
	n, i := len(h), 0
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && h[c+1].s < h[c].s {
			c++
		}
		if h[i].s <= h[c].s {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// byScore sorts best first, ties by node number so sorting is
// deterministic.
func byScore(a, b scored) int {
	if a.s != b.s {
		return cmp.Compare(b.s, a.s)
	}
	return cmp.Compare(a.n, b.n)
}
