package vector

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// HNSWOptions are the tunables of an HNSW index. The zero value of every
// field means its default.
type HNSWOptions struct {
	// M is the number of links a node gets on each layer when it is
	// inserted, and the most it keeps on layers above 0; layer 0 keeps up
	// to 2·M. Default 16. Larger M raises recall at a given EfSearch and
	// costs memory (8·M bytes a vector on layer 0) and build time.
	M int

	// EfConstruction is the size of the candidate list searched when a
	// node is inserted. Default 200. Larger values build a better graph,
	// more slowly.
	EfConstruction int

	// EfSearch is the size of the candidate list of a search, the main
	// speed/recall knob; SearchEf overrides it per query. Default 64. A
	// search never uses less than k.
	EfSearch int

	// LevelMult scales the random level of a node: a node reaches layer l
	// with probability exp(-l/LevelMult). Default 1/ln(M), the paper's
	// choice, which makes each layer about M times smaller than the one
	// below.
	LevelMult float64

	// KeepPruned is the keepPrunedConnections flag of the paper's
	// neighbour heuristic (Algorithm 4): candidates the heuristic rejects
	// refill the list up to its capacity, so every list is full. Default
	// false, as in hnswlib: lists hold only the heuristic's diverse
	// neighbours, so a list often has room and takes a back-link without
	// pruning. On 10,000 clustered 384-d vectors keeping them built about a
	// quarter slower and raised recall at a given ef slightly, with no gain
	// in recall for the same search time.
	KeepPruned bool

	// Rand draws the levels of inserted nodes. Nil means a generator with
	// a fixed seed, so the same inserts in the same order always build the
	// same graph.
	Rand *rand.Rand

	// Quantize keeps an Int8 code of every vector beside the float32 one
	// and searches the graph on codes, re-ranking the final EfSearch
	// candidates with the float32 vectors, so returned scores stay exact.
	// It costs Dim bytes a vector more (a quarter of the float32 data,
	// which stays for re-ranking and for building), rounded up to whole
	// 64-byte lines. A search reads a quarter of the bytes: with the
	// AVX-512 VNNI or AVX2 int8 kernels it runs about 1.3 times as many
	// queries a second as on float32, at the same recall on clustered
	// 384-d data (see BenchmarkHNSWSearch100k); with the pure-Go int8
	// kernel (purego, other architectures) it is slower than the
	// assembly float32 search. The codec is fitted on the vectors present
	// when the index first holds 1,000 of them and refitted whenever the
	// index has doubled since; smaller indexes search on float32.
	// Building always uses float32, so the graph is the same with or
	// without quantization. Default false.
	Quantize bool

	// Capacity is the number of vectors to reserve storage for, like
	// hnswlib's max_elements, but only a hint: the index grows past it.
	// Reserving avoids the copies and the slack of growing slices.
	Capacity int

	// TombstoneShare is the share of deleted nodes (tombstones) above
	// which Delete compacts the graph (see Compact). Default 0.25; a
	// negative value never compacts automatically.
	TombstoneShare float64
}

// Defaults of HNSWOptions.
const (
	DefaultM              = 16
	DefaultEfConstruction = 200
	DefaultEfSearch       = 64
	DefaultTombstoneShare = 0.25
)

// Limits keep the flat link blocks and level bytes in range.
const (
	maxHNSWM     = 1 << 10
	maxHNSWLevel = 32
	maxHNSWNodes = math.MaxUint32
	// quantizeMin is the size at which a Quantize index fits its codec.
	quantizeMin = 1000
	// exactFilterFactor: SearchFilter scans exactly when it expects no
	// more than this many times ef allowed vectors, because a graph search
	// computes a few thousand distances at ef 64 and the scan computes one
	// per allowed vector.
	exactFilterFactor = 32
	// filterSample is the number of nodes a filtered search tries its
	// filter on to estimate how selective it is.
	filterSample = 256
)

// HNSW is an approximate inner-product index: a Hierarchical Navigable
// Small World graph (Malkov & Yashunin, arXiv:1603.09320). Every vector is
// a node on layer 0 and, with geometrically falling probability, on layers
// above; a search descends greedily through the sparse upper layers and
// then runs a best-first search of EfSearch candidates on layer 0.
//
// Vectors are expected L2-normalised, as for Flat: scores are inner
// products, higher is better, results are ordered by descending score and
// then ascending id. Scores returned are exact inner products (computed by
// Dot, as Flat computes them); only the set of results is approximate.
//
// Storage is flat, for speed and for the garbage collector: one []uint32
// of fixed-size node blocks by node number, each the vector's Dim float32
// values, then its layer-0 links (a count, then 2·M slots), padded to
// whole 64-byte cache lines; the rare upper-layer blocks in a second
// []uint32. Nodes are numbered in insertion order. A search's time goes
// to cache misses, so the vector a search scores and the links it expands
// later share a block, as in hnswlib, and the neighbours of an expanded
// node are scored by an assembly kernel that requests all their vectors
// before it scores them (see dotNodes). With M = 16 a vector costs 4·Dim
// bytes plus about 240 (1,773 bytes in all at Dim 384, measured on the
// heap), against hnswlib's 1,810.
//
// AddBatch builds with several goroutines, as hnswlib's parallel build
// does. Fresh ids added by Add or by a one-worker AddBatch give the same
// graph for the same seed.
//
// Delete leaves a tombstone: the node keeps routing searches but is never
// returned. When tombstones exceed TombstoneShare of the nodes, or on
// Compact, the links into deleted nodes are repaired and the nodes
// removed. Re-adding an id deletes its old node and inserts a new one.
//
// An HNSW is safe for concurrent use: searches share a read lock and run
// in parallel; Add, AddBatch, Delete and Compact take the write lock.
type HNSW struct {
	mu sync.RWMutex

	dim        int
	m, m0      int // link capacity above layer 0, and on layer 0
	efC, efS   int
	mult       float64
	keepPruned bool
	share      float64
	quantize   bool
	rng        *rand.Rand

	// Node i's block is nodes[i*stride : (i+1)*stride]: its vector (dim
	// float32 values), then its layer-0 links (a count, then m0 slots),
	// zero padded to whole cache lines. A search that scores a node and
	// later expands it finds both in one place, as in hnswlib.
	nodes    []uint32
	vecs     []float32 // nodes seen as float32, for the vectors
	stride   int       // words per node block, a multiple of 16
	ids      []uint64  // node -> id
	level    []uint8   // node -> top layer
	upperOff []uint32  // node -> start of its blocks in upper (level > 0 only)
	upper    []uint32  // per node with level L > 0: L blocks of 1+m words, layers 1..L
	dead     []uint64  // bitset of deleted nodes
	byID     map[uint64]uint32
	live     int // nodes not deleted
	deleted  int
	entry    uint32 // entry point, a node on the top layer
	top      int    // top layer; -1 when the graph is empty

	codec *Int8    // nil until fitted (Quantize only)
	codes []uint64 // node i is codes[i*codeW : (i+1)*codeW], zero padded
	codeW int      // codec.codeWords(): whole cache lines per code
	fitAt int      // node count when the codec was fitted

	scratch sync.Pool // *hnswScratch
}

// NewHNSW returns an empty HNSW index for vectors of length dim. It panics
// if dim < 1 or an option is out of range (M of 1 or above 1,024, negative
// sizes, a level multiplier that is not a positive number).
func NewHNSW(dim int, opts HNSWOptions) *HNSW {
	if dim < 1 || dim > maxDim {
		panic(fmt.Sprintf("vector: NewHNSW dimension %d, want 1 to %d", dim, maxDim))
	}
	if opts.M == 0 {
		opts.M = DefaultM
	}
	if opts.EfConstruction == 0 {
		opts.EfConstruction = DefaultEfConstruction
	}
	if opts.EfSearch == 0 {
		opts.EfSearch = DefaultEfSearch
	}
	if opts.LevelMult == 0 {
		opts.LevelMult = 1 / math.Log(float64(max(opts.M, 2)))
	}
	if opts.TombstoneShare == 0 {
		opts.TombstoneShare = DefaultTombstoneShare
	}
	switch {
	case opts.M < 2 || opts.M > maxHNSWM:
		panic(fmt.Sprintf("vector: HNSW M %d, want 2 to %d", opts.M, maxHNSWM))
	case opts.EfConstruction < 1 || opts.EfSearch < 1 || opts.Capacity < 0:
		panic(fmt.Sprintf("vector: HNSW EfConstruction %d, EfSearch %d, Capacity %d: want positive sizes", opts.EfConstruction, opts.EfSearch, opts.Capacity))
	case !(opts.LevelMult > 0) || math.IsInf(opts.LevelMult, 0):
		panic(fmt.Sprintf("vector: HNSW LevelMult %v, want a positive number", opts.LevelMult))
	case math.IsNaN(opts.TombstoneShare):
		panic("vector: HNSW TombstoneShare is NaN")
	}
	if opts.Rand == nil {
		opts.Rand = rand.New(rand.NewPCG(0, 0))
	}
	h := &HNSW{
		dim: dim, m: opts.M, m0: 2 * opts.M,
		efC: opts.EfConstruction, efS: opts.EfSearch,
		mult: opts.LevelMult, keepPruned: opts.KeepPruned,
		share: opts.TombstoneShare, quantize: opts.Quantize,
		rng: opts.Rand, byID: make(map[uint64]uint32, opts.Capacity), top: -1,
	}
	h.stride = (dim + 1 + h.m0 + 15) &^ 15
	if c := opts.Capacity; c > 0 {
		h.setNodes(make([]uint32, 0, c*h.stride))
		h.ids = make([]uint64, 0, c)
		h.level = make([]uint8, 0, c)
		h.upperOff = make([]uint32, 0, c)
		// A node has 1/(M-1) upper layers on average.
		h.upper = make([]uint32, 0, c*(1+h.m)/(h.m-1)+16)
	}
	return h
}

// Dim returns the length of the vectors the index holds.
func (h *HNSW) Dim() int { return h.dim }

// Len returns the number of vectors in the index, deleted ones excluded.
func (h *HNSW) Len() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.live
}

// Options returns the index's options with defaults filled in. Rand is
// the generator in use; Capacity is zero.
func (h *HNSW) Options() HNSWOptions {
	return HNSWOptions{
		M: h.m, EfConstruction: h.efC, EfSearch: h.efS, LevelMult: h.mult,
		KeepPruned: h.keepPruned, Rand: h.rng, Quantize: h.quantize,
		TombstoneShare: h.share,
	}
}

// Add inserts a copy of v under id. An id already present is replaced:
// its old node is deleted and a new one inserted, unless the vector is
// unchanged. Add returns a *DimensionError if len(v) is not the index's
// dimension and ErrNotFinite if v holds NaN or infinities, and an error
// when the index already holds 2^32-1 nodes.
func (h *HNSW) Add(id uint64, v []float32) error {
	if err := checkVector(v, h.dim); err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if uint64(len(h.ids)) >= maxHNSWNodes {
		// Node numbers are uint32; Compact frees the tombstones' numbers.
		return fmt.Errorf("vector: HNSW holds %d nodes, its limit", len(h.ids))
	}
	if n, ok := h.byID[id]; ok {
		if slices.Equal(h.vec(n), v) {
			return nil
		}
		h.remove(n)
	}
	h.insert(id, v)
	h.maybeCompact()
	return nil
}

// AddBatch adds vecs[i] under ids[i] for every i, as that sequence of Add
// calls would, building the graph with up to workers goroutines (workers
// < 1 means GOMAXPROCS). It is the way to build a large index: with W
// workers it takes about 1/W of the time of the Adds.
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
	for _, v := range vecs {
		if err := checkVector(v, h.dim); err != nil {
			return err
		}
	}
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	last := make(map[uint64]int, len(ids))
	for i, id := range ids {
		last[id] = i
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if uint64(len(h.ids))+uint64(len(last)) > maxHNSWNodes {
		return fmt.Errorf("vector: HNSW holds %d nodes and AddBatch adds %d, over its limit", len(h.ids), len(last))
	}
	first := len(h.ids)
	k := len(last)
	h.setNodes(slices.Grow(h.nodes, k*h.stride))
	h.ids = slices.Grow(h.ids, k)
	h.level = slices.Grow(h.level, k)
	h.upperOff = slices.Grow(h.upperOff, k)
	for i, id := range ids {
		if last[id] != i {
			continue // a later vector replaces this one
		}
		if n, ok := h.byID[id]; ok {
			if slices.Equal(h.vec(n), vecs[i]) {
				continue
			}
			h.remove(n)
		}
		h.newNode(id, vecs[i], h.randomLevel())
	}
	end := len(h.ids)
	if h.codec != nil {
		h.codes = slices.Grow(h.codes, (end-first)*h.codeW)
		for n := first; n < end; n++ {
			h.appendCode(h.vec(uint32(n)))
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
		for n := first; n < end; n++ {
			h.link(sc, uint32(n))
		}
		h.scratch.Put(sc)
	} else {
		lk := new(buildLocks)
		var next atomic.Int64
		next.Store(int64(first))
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				sc := h.getScratch()
				sc.lk = lk
				for {
					n := next.Add(1) - 1
					if n >= int64(end) {
						break
					}
					h.link(sc, uint32(n))
				}
				sc.lk = nil
				h.scratch.Put(sc)
			})
		}
		wg.Wait()
		h.relinkOrphans()
	}
	h.maybeCompact()
	return nil
}

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

// Delete removes id and reports whether it was present. The node stays in
// the graph as a tombstone until the next compaction.
func (h *HNSW) Delete(id uint64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	n, ok := h.byID[id]
	if !ok {
		return false
	}
	h.remove(n)
	h.maybeCompact()
	return true
}

// remove turns node n into a tombstone; the caller holds the write lock.
func (h *HNSW) remove(n uint32) {
	delete(h.byID, h.ids[n])
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
	h.dead, h.codes = h.dead[:0], h.codes[:0]
	clear(h.byID)
	h.live, h.deleted, h.entry, h.top = 0, 0, 0, -1
	h.codec, h.fitAt = nil, 0
}

func (h *HNSW) isDead(n uint32) bool { return h.dead[n/64]&(1<<(n%64)) != 0 }

func (h *HNSW) vec(n uint32) []float32 {
	i := int(n) * h.stride
	return h.vecs[i : i+h.dim : i+h.dim]
}

// setNodes makes nodes the node blocks, and vecs its float32 view.
func (h *HNSW) setNodes(nodes []uint32) {
	h.nodes = nodes
	h.vecs = unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(nodes))), cap(nodes))[:len(nodes)]
}

// appendNodes appends k zeroed node blocks.
func (h *HNSW) appendNodes(k int) {
	h.setNodes(appendZeros(h.nodes, k*h.stride))
}

// links returns node n's links on layer l, and the block they live in
// (count word first, then the capacity).
func (h *HNSW) links(n uint32, l int) []uint32 {
	b := h.block(n, l)
	return b[1 : 1+b[0]]
}

func (h *HNSW) block(n uint32, l int) []uint32 {
	if l == 0 {
		i := int(n)*h.stride + h.dim
		return h.nodes[i : i+1+h.m0 : i+1+h.m0]
	}
	i := int(h.upperOff[n]) + (l-1)*(1+h.m)
	return h.upper[i : i+1+h.m : i+1+h.m]
}

func (h *HNSW) setLinks(n uint32, l int, to []uint32) {
	b := h.block(n, l)
	b[0] = uint32(copy(b[1:], to))
}

// randomLevel draws floor(-ln(U)·mult), U uniform in (0, 1].
func (h *HNSW) randomLevel() int {
	l := -math.Log(1-h.rng.Float64()) * h.mult
	return int(min(l, maxHNSWLevel-1))
}

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
}

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

// querier scores nodes against one query, on float32 vectors or on codes.
type querier struct {
	q  []float32
	q8 *Int8Query // nil: score with float32
}

func (h *HNSW) score(qr *querier, n uint32) float32 {
	if qr.q8 != nil {
		i := int(n) * h.codeW
		cl := len(qr.q8.even)
		d, s := dotInt8(qr.q8.even, qr.q8.odd, h.codes[i:i+cl:i+cl])
		return qr.q8.score(d, s)
	}
	return Dot(qr.q, h.vec(n))
}

// greedy walks layer l from ep to a local maximum of the score, moving to
// the best neighbour each step (the upper-layer search, ef = 1).
func (h *HNSW) greedy(sc *hnswScratch, qr *querier, ep scored, l int) scored {
	for changed := true; changed; {
		changed = false
		for _, nb := range sc.links(h, ep.n, l) {
			if s := h.score(qr, nb); s > ep.s {
				ep, changed = scored{s, nb}, true
			}
		}
	}
	return ep
}

// searchLayer is the paper's SEARCH-LAYER (Algorithm 2): a best-first
// search of layer l from the entry points, keeping the ef best nodes
// accepted as results in sc.res. Deleted nodes, and with allow nodes it
// rejects, are expanded like any other (they keep the graph connected) but
// never enter the results. budget > 0 caps the distances computed; the
// search reports false when it hit the cap. The caller has started a
// visited generation.
func (h *HNSW) searchLayer(sc *hnswScratch, qr *querier, entries []scored, ef, l int, allow func(uint64) bool, budget int) bool {
	cand, res := sc.cand[:0], sc.res[:0]
	for _, e := range entries {
		if !sc.visit(e.n) {
			continue
		}
		cand = pushMax(cand, e)
		if h.accept(e.n, allow) {
			if len(res) < ef {
				res = pushMin(res, e)
			} else if e.s > res[0].s {
				replaceMin(res, e)
			}
		}
	}
	ok := true
	computed := 0
	for len(cand) > 0 {
		var c scored
		c, cand = popMax(cand)
		if len(res) >= ef && c.s < res[0].s {
			break // the best candidate left cannot improve the results
		}
		if budget > 0 && computed > budget {
			ok = false
			break
		}
		// Gather the unvisited neighbours and score them in one call:
		// the kernels request every vector (or code) before scoring, so
		// the cache misses overlap instead of being paid one at a time.
		batch := sc.batch[:0]
		for _, nb := range sc.links(h, c.n, l) {
			if sc.visit(nb) {
				batch = append(batch, nb)
			}
		}
		sc.batch = batch
		computed += len(batch)
		scores := sc.scores
		if cap(scores) < len(batch) {
			scores = make([]float32, len(batch), 2*len(batch))
			sc.scores = scores
		}
		scores = scores[:len(batch)]
		if qr.q8 == nil {
			dotNodes(qr.q, h.vecs, h.stride, batch, scores)
		} else {
			d := sc.d32
			if cap(d) < len(batch) {
				d = make([]int32, len(batch), 2*len(batch))
				sc.d32 = d
			}
			d = d[:len(batch)]
			dotNodesInt8(qr.q8, h.codes, h.codeW, batch, d)
			for i, x := range d {
				scores[i] = qr.q8.scoreD(int64(x))
			}
		}
		for i, nb := range batch {
			s := scores[i]
			if len(res) < ef || s > res[0].s {
				cand = pushMax(cand, scored{s, nb})
				if h.accept(nb, allow) {
					if len(res) < ef {
						res = pushMin(res, scored{s, nb})
					} else {
						replaceMin(res, scored{s, nb})
					}
				}
			}
		}
		if l == 0 && len(cand) > 0 {
			// The next node to expand is likely the best candidate
			// now: its links are requested while this one's are used.
			prefetchNode(h.nodes[h.dim:], h.stride, cand[0].n, 1+h.m0)
		}
	}
	sc.cand, sc.res = cand, res
	return ok
}

// accept reports whether node n may be a result: live, and allowed.
func (h *HNSW) accept(n uint32, allow func(uint64) bool) bool {
	return !h.isDead(n) && (allow == nil || allow(h.ids[n]))
}

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
	copy(h.vecs[int(n)*h.stride:], v)
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
	dotNodes(h.vec(e), h.vecs, h.stride, list, sc.scores)
	sc.prune = append(sc.prune[:0], scored{sn, n})
	for i, x := range list {
		sc.prune = append(sc.prune, scored{sc.scores[i], x})
	}
	slices.SortFunc(sc.prune, byScore)
	sc.keep = h.heuristic(sc, sc.prune, cnt, sc.keep)
	h.setLinks(e, l, sc.keep)
}

func appendZeros(s []uint32, n int) []uint32 {
	s = slices.Grow(s, n)
	s = s[:len(s)+n]
	clear(s[len(s)-n:])
	return s
}

// maybeFit fits or refits the Int8 codec of a Quantize index when it has
// reached quantizeMin nodes or doubled since the last fit: refitting is
// linear in the index size, so doubling keeps its cost per Add constant.
func (h *HNSW) maybeFit() {
	if !h.quantize || len(h.ids) < quantizeMin || len(h.ids) < 2*h.fitAt {
		return
	}
	h.fit()
}

// fit fits the codec on the current vectors and encodes all of them.
func (h *HNSW) fit() { h.fitPrefix(len(h.ids)) }

// fitPrefix fits the codec on the vectors of the first n nodes and
// encodes all of them.
func (h *HNSW) fitPrefix(n int) {
	if n == 0 {
		return // nothing to fit
	}
	h.codec = fitInt8(n, h.dim, func(i int) []float32 { return h.vec(uint32(i)) })
	h.fitAt = n
	h.encodeAll()
}

func (h *HNSW) encodeAll() {
	h.codeW = h.codec.codeWords()
	if cap(h.codes) < len(h.ids)*h.codeW {
		h.codes = make([]uint64, 0, cap(h.ids)*h.codeW)
	}
	h.codes = h.codes[:0]
	for n := range h.ids {
		h.appendCode(h.vec(uint32(n)))
	}
}

// appendCode appends the code of v, padded to codeW words.
func (h *HNSW) appendCode(v []float32) {
	h.codes = h.codec.Encode(h.codes, v)
	for range h.codeW - h.codec.CodeLen() {
		h.codes = append(h.codes, 0)
	}
}

func (h *HNSW) checkQuery(q []float32) {
	if len(q) != h.dim {
		panic(&DimensionError{Want: h.dim, Got: len(q)})
	}
}

// Search returns about the k stored vectors with the highest inner product
// with q, best first, ties broken by ascending id, searching with the
// index's EfSearch. It returns fewer than k results only when the index
// holds fewer, and nil when k < 1. Search panics if len(q) is not the
// index's dimension, as Flat.Search does.
func (h *HNSW) Search(q []float32, k int) []Result {
	return h.SearchEf(q, k, h.efS)
}

// SearchEf is Search with a candidate list of ef (at least k) instead of
// EfSearch: larger is slower and finds more of the true top k.
func (h *HNSW) SearchEf(q []float32, k, ef int) []Result {
	h.checkQuery(q)
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.search(q, k, ef, nil)
}

// SearchFilter is Search restricted to the vectors whose id allow accepts;
// a nil allow accepts every id. The filter is applied inside the search,
// so it returns k results whenever k allowed vectors exist:
//
//   - The filter is first tried on 256 nodes spread over the index to
//     estimate how many vectors it allows. When that is at most 32·EfSearch
//     vectors, an exact scan (allow on every id, a distance for each
//     allowed one) costs less than a graph search and is used: results are
//     then exactly Flat.SearchFilter's.
//   - Otherwise the graph is searched with every node routing but only
//     allowed ones kept as results, which widens the search by itself: it
//     runs until it holds EfSearch allowed candidates. If the filter is far
//     more selective near q than the sample said, and the search computes
//     more distances than half the index, it falls back to the exact scan,
//     as it does when it ends with fewer than k results.
//
// allow is called from the searching goroutine, with the index's read
// lock held: it must not call the index's write methods.
func (h *HNSW) SearchFilter(q []float32, k int, allow func(id uint64) bool) []Result {
	h.checkQuery(q)
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.search(q, k, h.efS, allow)
}

// search runs a query; the caller holds the read lock.
func (h *HNSW) search(q []float32, k, ef int, allow func(uint64) bool) []Result {
	if k < 1 || h.live == 0 {
		return nil
	}
	ef = max(ef, k)
	if h.live <= ef {
		return h.exact(q, k, allow) // the graph search would visit everything anyway
	}
	budget := 0
	if allow != nil {
		if h.allowedEstimate(allow) <= exactFilterFactor*float64(ef) {
			return h.exact(q, k, allow)
		}
		budget = h.live / 2
	}
	sc := h.getScratch()
	defer h.scratch.Put(sc)
	qr := &querier{q: q}
	if h.codec != nil {
		h.codec.prepare(&sc.q8, q)
		qr.q8 = &sc.q8
	}
	ep := scored{h.score(qr, h.entry), h.entry}
	for l := h.top; l > 0; l-- {
		ep = h.greedy(sc, qr, ep, l)
	}
	sc.newGen(len(h.ids))
	sc.w = append(sc.w[:0], ep)
	if !h.searchLayer(sc, qr, sc.w, ef, 0, allow, budget) {
		return h.exact(q, k, allow)
	}
	kk := min(k, h.live)
	t := newTopK(kk, make([]Result, 0, kk))
	if qr.q8 != nil {
		// Re-rank on float32, the vectors fetched as in the search.
		sc.batch = sc.batch[:0]
		for _, r := range sc.res {
			sc.batch = append(sc.batch, r.n)
		}
		sc.scores = slices.Grow(sc.scores[:0], len(sc.batch))[:len(sc.batch)]
		dotNodes(q, h.vecs, h.stride, sc.batch, sc.scores)
		for i := range sc.res {
			sc.res[i].s = sc.scores[i]
		}
	}
	for _, r := range sc.res {
		t.push(Result{ID: h.ids[r.n], Score: r.s})
	}
	if len(t.h) < kk {
		// Tombstones or the filter cut the graph's reach; rare, and the
		// contract is k results whenever k exist.
		return h.exact(q, k, allow)
	}
	return t.sorted()
}

// allowedEstimate estimates how many live vectors allow accepts from a
// sample of nodes evenly spread over the index.
func (h *HNSW) allowedEstimate(allow func(uint64) bool) float64 {
	step := max(1, len(h.ids)/filterSample)
	seen, ok := 0, 0
	for n := 0; n < len(h.ids); n += step {
		if h.isDead(uint32(n)) {
			continue
		}
		seen++
		if allow(h.ids[n]) {
			ok++
		}
	}
	if seen == 0 {
		return 0
	}
	return float64(ok) / float64(seen) * float64(h.live)
}

// exact is a Flat-style scan of the live (and allowed) vectors.
func (h *HNSW) exact(q []float32, k int, allow func(uint64) bool) []Result {
	kk := min(k, h.live)
	t := newTopK(kk, make([]Result, 0, kk))
	for n, id := range h.ids {
		if h.isDead(uint32(n)) || (allow != nil && !allow(id)) {
			continue
		}
		s := Dot(q, h.vec(uint32(n)))
		if t.full() {
			root := t.h[0]
			if s < root.Score || (s == root.Score && id > root.ID) {
				continue
			}
		}
		t.push(Result{ID: id, Score: s})
	}
	if len(t.h) == 0 {
		return nil
	}
	return t.sorted()
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
		// The vector, then the layer-0 block with new numbers, then
		// the padding.
		b := h.nodes[int(n)*h.stride : int(n+1)*h.stride]
		nh.nodes = append(nh.nodes, b[:h.dim]...)
		nh.nodes = mapBlock(nh.nodes, b[h.dim:h.dim+1+h.m0])
		nh.nodes = appendZeros(nh.nodes, h.stride-h.dim-1-h.m0)
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

// The HNSW encoding, little-endian like the others:
//
//	magic    8 bytes  "FONTEVHN"
//	version  uint32   hnswVersion
//	dim, M, EfConstruction, EfSearch           uint32 each
//	LevelMult, TombstoneShare                  float64 bits
//	flags    uint8    1: KeepPruned, 2: Quantize
//	n uint64 (nodes, tombstones included), entry uint32, top+1 uint32
//	n ids (uint64), n levels (uint8), ⌈n/64⌉ tombstone words (uint64)
//	n×dim float32 vectors, n×(1+2M) uint32 layer-0 blocks
//	u uint64, then u uint32 upper-layer blocks
//	codec uint8; if 1: fitAt uint64, dim float32 minima, dim float32 steps
//	crc      uint32   CRC-32C of every byte before it
//
// Tombstones are kept, since they route searches: a decoded index answers
// every query exactly as the encoded one did. Int8 codes are not stored;
// they are recomputed from the vectors with the stored codec.
const hnswVersion = 1

var hnswMagic = [8]byte{'F', 'O', 'N', 'T', 'E', 'V', 'H', 'N'}

// Encode writes the index to w in the versioned binary format. The index
// is read-locked while it is written, so searches continue and writes
// wait. The random source is not saved.
func (h *HNSW) Encode(w io.Writer) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	e := newEncoder(w)
	e.bytes(hnswMagic[:])
	e.u32(hnswVersion)
	for _, x := range []int{h.dim, h.m, h.efC, h.efS} {
		e.u32(uint32(x))
	}
	e.u64(math.Float64bits(h.mult))
	e.u64(math.Float64bits(h.share))
	var flags byte
	if h.keepPruned {
		flags |= 1
	}
	if h.quantize {
		flags |= 2
	}
	e.bytes([]byte{flags})
	e.u64(uint64(len(h.ids)))
	e.u32(h.entry)
	e.u32(uint32(h.top + 1))
	e.u64s(h.ids)
	e.bytes(h.level)
	e.u64s(h.dead[:(len(h.ids)+63)/64])
	for n := range uint32(len(h.ids)) {
		e.f32s(h.vec(n))
	}
	for n := range uint32(len(h.ids)) {
		putU32s(e, h.block(n, 0))
	}
	e.u64(uint64(len(h.upper)))
	putU32s(e, h.upper)
	if h.codec == nil {
		e.bytes([]byte{0})
	} else {
		e.bytes([]byte{1})
		e.u64(uint64(h.fitAt))
		e.f32s(h.codec.lo)
		e.f32s(h.codec.step)
	}
	return e.finish()
}

// DecodeHNSW reads an index written by HNSW.Encode. It reads exactly the
// encoding's bytes from r. The levels of nodes added later are drawn from
// a generator seeded with the decoded node count, so the same file and
// the same later Adds give the same graph.
func DecodeHNSW(r io.Reader) (*HNSW, error) {
	d := newDecoder(r)
	if b := d.read(8); b != nil && [8]byte(b) != hnswMagic {
		d.fail("magic %q, want %q", b, hnswMagic[:])
	}
	if v := d.u32(); d.err == nil && v != hnswVersion {
		d.fail("HNSW version %d, this decoder reads version %d", v, hnswVersion)
	}
	dim := d.dim()
	m, efC, efS := int(d.u32()), int(d.u32()), int(d.u32())
	mult := math.Float64frombits(d.u64())
	share := math.Float64frombits(d.u64())
	flags := d.u8()
	if d.err == nil && (m < 2 || m > maxHNSWM || efC < 1 || efC > math.MaxInt32 || efS < 1 ||
		efS > math.MaxInt32 || !(mult > 0) || math.IsInf(mult, 0) || math.IsNaN(share) || flags > 3) {
		d.fail("options M %d, ef %d/%d, level multiplier %v, tombstone share %v, flags %d", m, efC, efS, mult, share, flags)
	}
	n := d.count()
	entry := d.u32()
	top := int(d.u32()) - 1
	if d.err != nil {
		return nil, d.err
	}
	h := NewHNSW(dim, HNSWOptions{
		M: m, EfConstruction: efC, EfSearch: efS, LevelMult: mult,
		KeepPruned: flags&1 != 0, Quantize: flags&2 != 0, TombstoneShare: share,
		Rand: rand.New(rand.NewPCG(uint64(n), 0x484e5357)),
	})
	h.ids = d.u64s(n)
	h.level = getBytes(d, n)
	h.dead = d.u64s((n + 63) / 64)
	// The node blocks grow as the data arrives, so a corrupted count
	// ends in a truncation error, not a huge allocation.
	h.setNodes(make([]uint32, 0, min(n, 1<<12)*h.stride))
	for i := 0; i < n && d.err == nil; i++ {
		h.appendNodes(1)
		getF32sInto(d, h.vecs[i*h.stride:i*h.stride+dim])
	}
	for i := 0; i < n && d.err == nil; i++ {
		getU32sInto(d, h.block(uint32(i), 0))
	}
	u := d.count()
	h.upper = getU32s(d, u)
	var lo, step []float32
	fitted := d.u8()
	if fitted == 1 {
		h.fitAt = d.count()
		lo, step = d.f32s(1, dim), d.f32s(1, dim)
	} else if d.err == nil && fitted != 0 {
		d.fail("codec flag %d", fitted)
	}
	if err := d.finish(); err != nil {
		return nil, err
	}
	if err := h.validate(n, entry, top); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	if fitted == 1 {
		if !h.quantize || !finite(lo) || !finite(step) || slices.ContainsFunc(step, func(s float32) bool { return s < 0 }) {
			return nil, fmt.Errorf("%w: bad Int8 codec", ErrFormat)
		}
		h.codec = &Int8{dim: dim, lo: lo, step: step}
		h.encodeAll()
	}
	return h, nil
}

// validate checks a decoded graph's invariants and builds the id map, so
// a decoded index can never index out of range.
func (h *HNSW) validate(n int, entry uint32, top int) error {
	if uint64(n) > math.MaxUint32 {
		return fmt.Errorf("%d nodes", n)
	}
	for i := range uint32(n) {
		if !finite(h.vec(i)) {
			return fmt.Errorf("non-finite vector values")
		}
	}
	if w := len(h.dead); n%64 != 0 && w > 0 && h.dead[w-1]>>(n%64) != 0 {
		return fmt.Errorf("tombstone bits past the last node")
	}
	h.deleted = popcount(h.dead)
	h.live = n - h.deleted
	h.upperOff = make([]uint32, n)
	off := 0
	for i, lv := range h.level {
		if lv >= maxHNSWLevel {
			return fmt.Errorf("node %d at level %d", i, lv)
		}
		if lv > 0 {
			h.upperOff[i] = uint32(off)
			off += int(lv) * (1 + h.m)
		}
	}
	if off != len(h.upper) {
		return fmt.Errorf("%d upper-layer words, levels need %d", len(h.upper), off)
	}
	if n == 0 {
		if top != -1 {
			return fmt.Errorf("empty graph with top layer %d", top)
		}
		return nil
	}
	if int(entry) >= n || top != int(h.level[entry]) {
		return fmt.Errorf("entry %d at top layer %d", entry, top)
	}
	h.entry, h.top = entry, top
	for i := range uint32(n) {
		for l := 0; l <= int(h.level[i]); l++ {
			b := h.block(i, l)
			if int(b[0]) > len(b)-1 {
				return fmt.Errorf("node %d layer %d: %d links", i, l, b[0])
			}
			for _, x := range b[1 : 1+b[0]] {
				if int(x) >= n || x == i || int(h.level[x]) < l {
					return fmt.Errorf("node %d layer %d links to %d", i, l, x)
				}
			}
		}
		if !h.isDead(i) {
			if _, dup := h.byID[h.ids[i]]; dup {
				return fmt.Errorf("id %d stored twice", h.ids[i])
			}
			h.byID[h.ids[i]] = i
		}
	}
	return nil
}

func putU32s(e *encoder, v []uint32) {
	for len(v) > 0 && e.err == nil {
		n := min(len(v), cap(e.buf)/4)
		b := e.buf[:0]
		for _, x := range v[:n] {
			b = binary.LittleEndian.AppendUint32(b, x)
		}
		e.bytes(b)
		v = v[n:]
	}
}

// getF32sInto and getU32sInto fill dst from d.
func getF32sInto(d *decoder, dst []float32) {
	for len(dst) > 0 && d.err == nil {
		b := d.read(4 * min(len(dst), len(d.buf)/4))
		for i := 0; i < len(b); i += 4 {
			dst[i/4] = math.Float32frombits(binary.LittleEndian.Uint32(b[i:]))
		}
		dst = dst[len(b)/4:]
	}
}

func getU32sInto(d *decoder, dst []uint32) {
	for len(dst) > 0 && d.err == nil {
		b := d.read(4 * min(len(dst), len(d.buf)/4))
		for i := 0; i < len(b); i += 4 {
			dst[i/4] = binary.LittleEndian.Uint32(b[i:])
		}
		dst = dst[len(b)/4:]
	}
}

// getU32s and getBytes grow their result as data arrives, like the
// decoder's own readers, so a corrupted count cannot allocate much.
func getU32s(d *decoder, n int) []uint32 {
	out := make([]uint32, 0, min(n, 1<<16))
	for len(out) < n && d.err == nil {
		b := d.read(4 * min(n-len(out), len(d.buf)/4))
		for i := 0; i < len(b); i += 4 {
			out = append(out, binary.LittleEndian.Uint32(b[i:]))
		}
	}
	return out
}

func getBytes(d *decoder, n int) []byte {
	out := make([]byte, 0, min(n, 1<<16))
	for len(out) < n && d.err == nil {
		out = append(out, d.read(min(n-len(out), len(d.buf)))...)
	}
	return out
}

// popcount counts the set bits of a bitset.
func popcount(b []uint64) int {
	c := 0
	for _, w := range b {
		c += bits.OnesCount64(w)
	}
	return c
}
