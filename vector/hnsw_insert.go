package vector

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/fonte-rag/fonte/internal/piecewise"
	"github.com/fonte-rag/fonte/internal/yield"
)

// This file holds insertion: Add and AddBatch, the level draw, the
// neighbour heuristic and the linking of a node, alone or beside other
// builders.

// Add inserts a copy of v under id, or v itself in an External index. An
// id already present is replaced: its old node is deleted and a new one
// inserted, unless the vector is unchanged (an External index then keeps
// the new slice in place of the old). Add returns a *DimensionError if len(v) is not the index's
// dimension and ErrNotFinite if v holds NaN or infinities, and an error
// when the index already holds 2^32-1 nodes.
func (h *HNSW) Add(id uint64, v []float32) error {
	if err := checkVector(v, h.dim); err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.own()
	if uint64(len(h.ids)) >= maxHNSWNodes {
		// Node numbers are uint32; Compact frees the tombstones' numbers.
		return fmt.Errorf("vector: HNSW holds %d nodes, its limit", len(h.ids))
	}
	if n, ok := h.byID[id]; ok {
		if slices.Equal(h.vec(n), v) {
			h.keepRow(n, v)
			return nil
		}
		h.remove(n)
	}
	h.insert(id, v)
	h.maybeCompact()
	return nil
}

// AddBatch adds vecs[i] under ids[i] for every i (an External index keeps
// the slices vecs[i]), as that sequence of Add calls would, building the
// graph with up to workers goroutines (workers < 1 means GOMAXPROCS). It
// is the way to build a large index: with W workers it takes about 1/W of
// the time of the Adds.
//
// With one worker the graph is exactly the one the Adds build, for the
// same seed: the levels are drawn in order and the nodes linked in order.
// With more, nodes are linked concurrently, as hnswlib's parallel build
// does: each node's link lists are guarded by a lock while they are read
// or changed, so the graph depends on the scheduling (its quality does
// not, measurably). An id given more than once keeps its last vector; an
// id already in the index is replaced, as by Add, and tombstones are
// compacted once at the end.
//
// AddBatch checks every vector first and changes nothing if one is
// rejected: it returns a *DimensionError, ErrNotFinite, or an error when
// ids and vecs differ in length or the index would exceed 2^32-1 nodes.
// It holds the write lock throughout, so searches wait for it.
func (h *HNSW) AddBatch(ids []uint64, vecs [][]float32, workers int) error {
	if len(ids) != len(vecs) {
		return fmt.Errorf("vector: AddBatch of %d ids and %d vectors", len(ids), len(vecs))
	}
	// A write's graph gets every kept vector again (a million at a
	// million chunks: see retrieve's buildHNSW), so each pass over the
	// batch is seconds of work, given up to searches in small steps.
	y := yield.NewEvery(batchPerYield)
	for _, v := range vecs {
		if err := checkVector(v, h.dim); err != nil {
			return err
		}
		y.Step(1)
	}
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	last := make(map[uint64]int, len(ids))
	for i, id := range ids {
		last[id] = i
		y.Step(1)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.own()
	if uint64(len(h.ids))+uint64(len(last)) > maxHNSWNodes {
		return fmt.Errorf("vector: HNSW holds %d nodes and AddBatch adds %d, over its limit", len(h.ids), len(last))
	}
	first := len(h.ids)
	k := len(last)
	h.setNodes(piecewise.Grow(h.nodes, k*h.stride))
	h.ids = piecewise.Grow(h.ids, k)
	h.level = piecewise.Grow(h.level, k)
	h.upperOff = piecewise.Grow(h.upperOff, k)
	if h.external {
		h.rows = piecewise.Grow(h.rows, k)
	}
	for i, id := range ids {
		y.Step(1)
		if last[id] != i {
			continue // a later vector replaces this one
		}
		if n, ok := h.byID[id]; ok {
			if slices.Equal(h.vec(n), vecs[i]) {
				h.keepRow(n, vecs[i])
				continue
			}
			h.remove(n)
		}
		h.newNode(id, vecs[i], h.randomLevel())
	}
	end := len(h.ids)
	if h.codec != nil {
		old := h.codes
		h.codes = piecewise.Grow(h.codes, (end-first)*h.codeW)
		if cap(h.codes) != cap(old) { // moved to a new array of its own
			h.codesShared.Store(false)
		}
		for n := first; n < end; n++ {
			h.appendCode(h.vec(uint32(n)))
			y.Step(1)
		}
	}
	// Fit the codec where the Adds would have last fitted it: on the
	// nodes present at that point.
	fitAt := 0
	for c, f := first+1, h.fitAt; c <= end; c++ {
		if h.quantize && c >= quantizeMin && c >= 2*f {
			fitAt, f = c, c
		}
	}
	if fitAt > 0 {
		h.fitPrefix(fitAt)
	}

	workers = min(workers, end-first)
	if workers <= 1 {
		sc := h.getScratch()
		sc.yieldDist = buildYieldDist
		for n := first; n < end; n++ {
			h.link(sc, uint32(n))
			yield.ToSearches()
		}
		sc.yieldDist, sc.dists = 0, 0
		h.scratch.Put(sc)
	} else {
		lk := new(buildLocks)
		var next atomic.Int64
		next.Store(int64(first))
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				sc := h.getScratch()
				sc.lk, sc.yieldDist = lk, buildYieldDist
				for {
					n := next.Add(1) - 1
					if n >= int64(end) {
						break
					}
					h.link(sc, uint32(n))
					yield.ToSearches()
				}
				sc.lk, sc.yieldDist, sc.dists = nil, 0, 0
				h.scratch.Put(sc)
			})
		}
		wg.Wait()
		h.relinkOrphans()
	}
	h.maybeCompact()
	return nil
}

// batchPerYield is how many of a batch's vectors AddBatch checks,
// indexes or encodes between offers of its processor to searches
// (yield.Every): 4,096 vectors' checks are some hundreds of
// microseconds.
const batchPerYield = 4096

// relinkOrphans links again the live nodes that layer 0 no longer reaches
// from the entry point. A concurrent build can leave such a node: one
// whose search, started at a node still being linked, found nothing but
// that node, so that a single link led to it, and that link was later
// pruned. A few nodes in 10,000 at most; each is searched for again from
// the entry point and its neighbours linked back to it, as on insertion.
func (h *HNSW) relinkOrphans() {
	if h.top < 0 {
		return
	}
	sc := h.getScratch()
	defer h.scratch.Put(sc)
	reached := make([]bool, len(h.ids))
	var stack []uint32
	reach := func(from uint32) {
		if reached[from] {
			return
		}
		reached[from] = true
		stack = append(stack[:0], from)
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, x := range h.links(u, 0) {
				if !reached[x] {
					reached[x] = true
					stack = append(stack, x)
				}
			}
		}
	}
	reach(h.entry)
	for n := range uint32(len(h.ids)) {
		if reached[n] || h.isDead(n) {
			continue
		}
		v := h.vec(n)
		qr := &querier{q: v}
		ep := scored{Dot(v, h.vec(h.entry)), h.entry}
		for l := h.top; l > 0; l-- {
			ep = h.greedy(sc, qr, ep, l)
		}
		sc.newGen(len(h.ids))
		sc.visit(n)
		sc.w = append(sc.w[:0], ep)
		h.searchLayer(sc, qr, sc.w, h.efC, 0, nil, 0)
		sc.w = append(sc.w[:0], sc.res...)
		slices.SortFunc(sc.w, byScore)
		sc.sel = h.heuristic(sc, sc.w, h.m, sc.sel)
		h.setOwnLinks(sc, n, 0, sc.sel)
		for _, e := range sc.sel {
			h.connect(sc, e, n, 0, sc.w)
		}
		// n may now lead to other orphans; those it does not are
		// relinked in turn.
		reach(n)
	}
}

// randomLevel draws floor(-ln(U)·mult), U uniform in (0, 1].
func (h *HNSW) randomLevel() int {
	l := -math.Log(1-h.rng.Float64()) * h.mult
	return int(min(l, maxHNSWLevel-1))
}

// buildLocks are the locks of a concurrent build, as hnswlib's: one per
// node (striped: node n takes stripe n mod 4,096), held while its link
// lists are read or changed, and a global one, held to read the entry
// point and, by a builder whose node will be the new entry point, for the
// whole insertion. No builder holds two node locks at once, and the global
// one is only ever taken first, so they cannot deadlock.
type buildLocks struct {
	node   [4096]sync.Mutex
	global sync.Mutex
}

func (lk *buildLocks) of(n uint32) *sync.Mutex { return &lk.node[n%4096] }

// heuristic is the paper's SELECT-NEIGHBORS-HEURISTIC (Algorithm 4)
// without extendCandidates: from cands, sorted best first by their score
// against the base node, a candidate is kept when it is closer to the base
// than to every neighbour kept before it, so links spread in all
// directions instead of piling into the nearest cluster. With keepPruned
// the rejected candidates refill the list up to m. The kept nodes are
// appended to dst.
func (h *HNSW) heuristic(sc *hnswScratch, cands []scored, m int, dst []uint32) []uint32 {
	dst = dst[:0]
	reject := sc.reject[:0]
	for _, c := range cands {
		if len(dst) >= m {
			break
		}
		vc := h.vec(c.n)
		sc.dists += len(dst)
		good := true
		for _, r := range dst {
			if Dot(vc, h.vec(r)) > c.s {
				good = false
				break
			}
		}
		if good {
			dst = append(dst, c.n)
		} else if h.keepPruned {
			reject = append(reject, c)
		}
	}
	for _, c := range reject {
		if len(dst) >= m {
			break
		}
		dst = append(dst, c.n)
	}
	sc.reject = reject
	return dst
}

// insert adds a new node for id; the caller holds the write lock and has
// checked v.
func (h *HNSW) insert(id uint64, v []float32) {
	n := h.newNode(id, v, h.randomLevel())
	if h.codec != nil {
		h.appendCode(v)
	}
	h.maybeFit()
	sc := h.getScratch()
	defer h.scratch.Put(sc)
	h.link(sc, n)
}

// newNode stores node number len(ids) for id and v, at level lvl, linked
// to nothing yet, and returns its number.
func (h *HNSW) newNode(id uint64, v []float32, lvl int) uint32 {
	n := uint32(len(h.ids))
	h.ids = append(h.ids, id)
	h.appendNodes(1)
	if h.external {
		h.rows = append(h.rows, v)
	} else {
		copy(h.vecs[int(n)*h.stride:], v)
	}
	h.level = append(h.level, uint8(lvl))
	if lvl > 0 {
		h.upperOff = append(h.upperOff, uint32(len(h.upper)))
		h.upper = appendZeros(h.upper, lvl*(1+h.m))
	} else {
		h.upperOff = append(h.upperOff, 0)
	}
	if int(n)/64 >= len(h.dead) {
		h.dead = append(h.dead, 0)
	}
	h.byID[id] = n
	h.live++
	return n
}

// link inserts the stored node n into the graph (the paper's INSERT,
// Algorithm 1): a greedy descent to n's level, then on each layer from
// there down a search of EfConstruction candidates, n's neighbours chosen
// among them by the heuristic, and links back. With sc.lk set it runs
// beside other builders (see buildLocks); otherwise the caller holds the
// write lock.
func (h *HNSW) link(sc *hnswScratch, n uint32) {
	lvl := int(h.level[n])
	var entry uint32
	var top int
	if lk := sc.lk; lk == nil {
		entry, top = h.entry, h.top
	} else {
		lk.global.Lock()
		entry, top = h.entry, h.top
		if lvl > top {
			// n becomes the entry point: no other builder may start
			// from the old one while n is linked above it.
			defer lk.global.Unlock()
		} else {
			lk.global.Unlock()
		}
	}
	if top < 0 {
		h.entry, h.top = n, lvl
		return
	}
	v := h.vec(n)
	qr := &querier{q: v}
	ep := scored{Dot(v, h.vec(entry)), entry}
	for l := top; l > lvl; l-- {
		ep = h.greedy(sc, qr, ep, l)
	}
	sc.w = append(sc.w[:0], ep)
	for l := min(lvl, top); l >= 0; l-- {
		sc.newGen(len(h.ids))
		sc.visit(n)
		h.searchLayer(sc, qr, sc.w, h.efC, l, nil, 0)
		if len(sc.res) == 0 {
			// Every node the search reached on this layer is a tombstone
			// (tombstones route but are never results): link nothing
			// here and keep the entry points for the layer below. Taking
			// the empty results as entry points left the node with no
			// link on any layer, and a graph whose entry it became
			// unsearchable.
			continue
		}
		// The layer's results are the next layer's entry points, with
		// their scores: every node of layer l is on layer l-1 too.
		sc.w = append(sc.w[:0], sc.res...)
		slices.SortFunc(sc.w, byScore)
		sc.sel = h.heuristic(sc, sc.w, h.m, sc.sel)
		if lk := sc.lk; lk != nil {
			mu := lk.of(n)
			mu.Lock()
			h.setOwnLinks(sc, n, l, sc.sel)
			mu.Unlock()
		} else {
			h.setLinks(n, l, sc.sel)
		}
		for _, e := range sc.sel {
			if lk := sc.lk; lk != nil {
				mu := lk.of(e)
				mu.Lock()
				h.connect(sc, e, n, l, sc.w)
				mu.Unlock()
			} else {
				h.connect(sc, e, n, l, sc.w)
			}
			sc.maybeYield() // outside the node's lock
		}
	}
	if lvl > top {
		h.entry, h.top = n, lvl
	}
}

// setOwnLinks sets the links of node n, being linked in a concurrent
// build, on layer l to sel. Other builders may have reached n already
// (through its upper layers, before its lists below were set) and linked
// their nodes to it, making n's list their only way in: those links are
// kept, and sel fills the rest of the list. Were they pruned, a node that
// found nothing but n could become unreachable. The caller holds n's
// lock.
func (h *HNSW) setOwnLinks(sc *hnswScratch, n uint32, l int, sel []uint32) {
	b := h.block(n, l)
	cnt := int(b[0])
	for _, x := range sel {
		if cnt == len(b)-1 {
			break
		}
		if !slices.Contains(b[1:1+cnt], x) {
			b[1+cnt] = x
			cnt++
		}
	}
	b[0] = uint32(cnt)
}

// connect adds the back-link e -> n on layer l, pruning e's list with the
// heuristic when it is full. w holds n's candidates with their scores,
// which include e's.
func (h *HNSW) connect(sc *hnswScratch, e, n uint32, l int, w []scored) {
	b := h.block(e, l)
	cnt := int(b[0])
	if slices.Contains(b[1:1+cnt], n) {
		return // e chose n itself, in a concurrent build
	}
	if cnt < len(b)-1 {
		b[1+cnt] = n
		b[0]++
		return
	}
	var sn float32
	for _, c := range w {
		if c.n == e {
			sn = c.s
			break
		}
	}
	list := b[1 : 1+cnt]
	sc.scores = slices.Grow(sc.scores[:0], cnt)[:cnt]
	h.dotNodes(h.vec(e), list, sc.scores)
	sc.prune = append(sc.prune[:0], scored{sn, n})
	for i, x := range list {
		sc.prune = append(sc.prune, scored{sc.scores[i], x})
	}
	slices.SortFunc(sc.prune, byScore)
	sc.keep = h.heuristic(sc, sc.prune, cnt, sc.keep)
	h.setLinks(e, l, sc.keep)
}
