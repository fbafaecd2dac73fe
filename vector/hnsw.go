package vector

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
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
	// and searches the graph on codes, re-ranking the best 2·k of the
	// final candidates (by their codes' scores) with the float32 vectors,
	// so returned scores stay exact and a large ef reads few vectors.
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

	// External makes the index keep the caller's vector slices instead of
	// copying them, for vectors that already live elsewhere (rows of a
	// memory-mapped store): Add and AddBatch keep v itself, and the caller
	// promises never to modify it and to keep it valid while the index
	// holds it. The index then holds the links alone (node blocks of
	// 4·(1+2M) bytes rounded up to 64) and a slice header a node (24
	// bytes) instead of a copy of each vector. A node that is deleted, or
	// replaced by re-adding its id, gets a copy of its vector, since its
	// tombstone keeps routing searches until the next compaction: the
	// caller may release a row once its id is deleted or re-added. The
	// graph, and so every result, is the one an owning index builds from
	// the same Adds. A float32 search is somewhat slower, since a vector
	// no longer shares a block with its links (about 0.85 of the owning
	// index's queries a second at the same recall on the 100k×384 data
	// of BenchmarkHNSWSearch100kExternal, on a loaded 2-core machine); a
	// Quantize index searches its own codes and reads the rows only to
	// re-rank, and ran as fast as an owning one. Default false.
	External bool
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
// heap), against hnswlib's 1,810. An External index (see HNSWOptions)
// keeps the caller's vectors instead: its blocks hold the links alone,
// and EncodeLinks writes it without the vectors of its live nodes, for
// DecodeHNSWLinks to refer to them again. AppendInPlace writes an External
// index as the slices it holds, for OpenHNSWInPlace to search where a
// read-only mapping holds them, with no decoding (see hnsw_inplace.go).
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
	external   bool
	rng        *rand.Rand

	// Node i's block is nodes[i*stride : (i+1)*stride]: its vector (dim
	// float32 values), then its layer-0 links (a count, then m0 slots),
	// zero padded to whole cache lines. A search that scores a node and
	// later expands it finds both in one place, as in hnswlib. An External
	// index's blocks hold the links alone, and rows[i] is node i's vector.
	nodes    []uint32
	vecs     []float32   // nodes seen as float32, for the vectors
	stride   int         // words per node block, a multiple of 16
	linkOff  int         // where the layer-0 links start in a block: dim, or 0 (External)
	rows     [][]float32 // node -> vector (External only)
	ids      []uint64    // node -> id
	level    []uint8     // node -> top layer
	upperOff []uint32    // node -> start of its blocks in upper (level > 0 only)
	upper    []uint32    // per node with level L > 0: L blocks of 1+m words, layers 1..L
	dead     []uint64    // bitset of deleted nodes
	// byID maps live ids to nodes. A graph opened in place builds it on
	// first need (idMap), so that opening does no work per node.
	byID     map[uint64]uint32
	byIDOnce sync.Once
	live     int // nodes not deleted
	deleted  int
	entry    uint32 // entry point, a node on the top layer
	top      int    // top layer; -1 when the graph is empty

	codec *Int8    // nil until fitted (Quantize only)
	codes []uint64 // node i is codes[i*codeW : (i+1)*codeW], zero padded
	codeW int      // codec.codeWords(): whole cache lines per code
	fitAt int      // node count when the codec was fitted
	// codesShared is set when codes' array is shared with a clone (in
	// the original and the clone; the clone's capacity is cut to its
	// length, so its appends copy): a rewrite in place (encodeAll, reset)
	// must first drop it. Atomic: Clone sets it in the original under
	// the read lock.
	codesShared atomic.Bool

	scratch sync.Pool // *hnswScratch

	// ip is set while the slices above are views of an in-place form
	// (OpenHNSWInPlace), read-only memory: every change first makes the
	// graph own copies (own). damage is the first damage found in a form.
	ip     *inPlaceState
	damage atomic.Pointer[error]
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
		share: opts.TombstoneShare, quantize: opts.Quantize, external: opts.External,
		rng: opts.Rand, byID: make(map[uint64]uint32, opts.Capacity), top: -1,
	}
	if !h.external {
		h.linkOff = dim
	}
	h.stride = (h.linkOff + 1 + h.m0 + 15) &^ 15
	if c := opts.Capacity; c > 0 {
		h.setNodes(make([]uint32, 0, c*h.stride))
		if h.external {
			h.rows = make([][]float32, 0, c)
		}
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
		TombstoneShare: h.share, External: h.external,
	}
}
