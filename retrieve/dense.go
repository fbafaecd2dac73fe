package retrieve

import (
	"fmt"
	"hash/fnv"

	"github.com/fonte-rag/fonte/internal/cores"
	"github.com/fonte-rag/fonte/vector"
)

// DenseKind chooses the index behind the dense leg.
type DenseKind string

// The dense index kinds.
const (
	// DenseAuto scans exactly below HNSWMinChunks chunks and searches an
	// HNSW graph from there on.
	DenseAuto DenseKind = ""
	// DenseExact always scans every vector (vector.Flat): exact, and
	// linear in the corpus.
	DenseExact DenseKind = "exact"
	// DenseHNSW always searches an HNSW graph (vector.HNSW): approximate,
	// and logarithmic in the corpus.
	DenseHNSW DenseKind = "hnsw"
)

// ParseDenseKind accepts "auto" (or ""), "exact" or "hnsw".
func ParseDenseKind(s string) (DenseKind, error) {
	switch s {
	case "", "auto":
		return DenseAuto, nil
	case string(DenseExact), string(DenseHNSW):
		return DenseKind(s), nil
	}
	return "", fmt.Errorf("dense index %q: want auto, exact or hnsw", s)
}

// HNSWMinChunks is where DenseAuto switches from the exact scan to HNSW.
// Below it an exact scan of a chunk's vectors costs a few milliseconds
// (50,000 × 512 float32 is 100 MB, a memory-bandwidth-bound pass), returns
// the true neighbours and needs no graph build; above it the scan grows
// linearly with the corpus while HNSW's search stays near a millisecond at
// recall@10 ≈ 0.98 (vector's benchmarks at 100,000 × 384), and the graph is
// built once and kept in the store.
const HNSWMinChunks = 50_000

// hnswEf is the candidate-list size of the dense leg's HNSW searches,
// at least the fusion depth: the leg contributes Depth candidates to RRF,
// and asking HNSW for k results with ef below 2k loses recall at the tail
// of the list.
func hnswEf(depth, efSearch int) int { return max(efSearch, 2*depth) }

// ChunkKey is a chunk's stable key in an HNSW graph: FNV-1a over its id
// and its text hash. Graph nodes are keyed by it, not by the chunk's
// position, so a graph persisted with one generation of the store stays
// valid for the next after positions shift: an edited chunk (new text
// hash) gets a new key, an unchanged one keeps its key.
func ChunkKey(chunkID, textHash string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(chunkID))
	h.Write([]byte{0})
	h.Write([]byte(textHash))
	return h.Sum64()
}

// dense is the dense leg: top-k chunk positions by inner product with q,
// among those allow accepts (nil: all).
type dense interface {
	search(q []float32, k int, allow func(int) bool) []scored
}

// flatLeg scans exactly: a vector.Flat, or a vector.FlatView over rows
// that live elsewhere.
type flatLeg struct {
	f interface {
		SearchFilter(q []float32, k int, filter func(id uint64) bool) []vector.Result
	}
}

func (l flatLeg) search(q []float32, k int, allow func(int) bool) []scored {
	return scoredOf(l.f.SearchFilter(q, k, byID(allow)))
}

// byID is allow over the ids of an exact index's rows, their positions.
func byID(allow func(int) bool) func(uint64) bool {
	if allow == nil {
		return nil
	}
	return func(id uint64) bool { return allow(int(id)) }
}

// scoredOf is an exact index's results as positions and scores.
func scoredOf(rs []vector.Result) []scored {
	var out []scored
	for _, r := range rs {
		out = append(out, scored{int(r.ID), float64(r.Score)})
	}
	return out
}

// hnswLeg searches a graph keyed by ChunkKey, mapping its results back to
// the corpus's positions: by node (nodePos) for a graph stored for this
// corpus, else by key.
type hnswLeg struct {
	g       *vector.HNSW
	pos     map[uint64]int32
	nodePos []uint32
	n       int // the corpus's chunks, with nodePos
	ef      int // the candidate list of unfiltered searches; 0: the graph's EfSearch
	// near is, for a class graph, the score below which a query is far
	// from the class (classNear); 0 for the shared graph.
	near float64
}

// efSearch is the candidate list of the leg's unfiltered searches.
func (l hnswLeg) efSearch() int {
	if l.ef > 0 {
		return l.ef
	}
	return l.g.Options().EfSearch
}

// placedHNSW is the leg over a graph whose nodes map to the corpus's n
// chunks through nodePos.
func placedHNSW(g *vector.HNSW, nodePos []uint32, n int) (hnswLeg, error) {
	if g.Len() != n {
		return hnswLeg{}, fmt.Errorf("retrieve: graph holds %d vectors for %d chunks", g.Len(), n)
	}
	return hnswLeg{g: g, nodePos: nodePos, n: n}, nil
}

func (l hnswLeg) search(q []float32, k int, allow func(int) bool) []scored {
	if l.nodePos != nil {
		return l.searchNodes(q, k, allow)
	}
	filter := func(key uint64) bool {
		p, ok := l.pos[key]
		return ok && (allow == nil || allow(int(p)))
	}
	var rs []vector.Result
	if allow == nil {
		rs = l.g.SearchEf(q, k, hnswEf(k, l.efSearch()))
	} else {
		rs = l.g.SearchFilter(q, k, filter)
	}
	out := make([]scored, 0, len(rs))
	for _, r := range rs {
		if p, ok := l.pos[r.ID]; ok {
			out = append(out, scored{int(p), float64(r.Score)})
		}
	}
	return out
}

// buildHNSW brings g (nil: a new graph) up to date with the corpus: keys
// the graph held that the corpus no longer has (stale, listed in
// previous) are deleted, the corpus's keys are added (Add skips a key
// already present with the same vector). It returns the leg and whether g
// changed.
func buildHNSW(c Corpus, keys []uint64, g *vector.HNSW, previous []uint64, rowsCurrent bool, opts vector.HNSWOptions, workers int) (hnswLeg, bool, error) {
	n := len(keys)
	pos := make(map[uint64]int32, n)
	for i, k := range keys {
		if _, dup := pos[k]; dup {
			return hnswLeg{}, false, fmt.Errorf("retrieve: chunk %s has the same graph key as another chunk", c.source().Chunk(i).ID)
		}
		pos[k] = int32(i)
	}
	changed := false
	if g == nil {
		if opts.Capacity == 0 {
			opts.Capacity = n
		}
		// The graph refers to the corpus's rows (a store's mapped
		// segments) instead of keeping a second copy of every vector.
		opts.External = true
		g = vector.NewHNSW(c.Dim, opts)
		changed = true
	} else if g.Dim() != c.Dim {
		return hnswLeg{}, false, fmt.Errorf("retrieve: graph of dimension %d for vectors of dimension %d", g.Dim(), c.Dim)
	}
	had := make(map[uint64]bool, len(previous))
	for _, k := range previous {
		had[k] = true
		if _, live := pos[k]; !live && g.Delete(k) {
			changed = true
		}
	}
	// New keys go in as one parallel batch: a graph over a million
	// vectors builds in about 1/workers of the time of one-by-one
	// inserts. An External graph handed over from an earlier corpus gets
	// its kept keys again too: adding an unchanged vector only makes the
	// graph refer to this corpus's row, so it never holds a row of a
	// corpus (a store snapshot) that may be released.
	repoint := g.Options().External && !rowsCurrent
	var addKeys []uint64
	var addVecs [][]float32
	fresh := 0
	for i, k := range keys {
		if !had[k] {
			fresh++
		} else if !repoint {
			continue
		}
		addKeys = append(addKeys, k)
		addVecs = append(addVecs, c.Rows[i])
	}
	if len(addKeys) > 0 {
		if err := g.AddBatch(addKeys, addVecs, workers); err != nil {
			return hnswLeg{}, false, fmt.Errorf("retrieve: building the HNSW graph: %w", err)
		}
		changed = changed || fresh > 0
	}
	if g.Len() != n {
		return hnswLeg{}, false, fmt.Errorf("retrieve: graph holds %d vectors for %d chunks", g.Len(), n)
	}
	return hnswLeg{g: g, pos: pos}, changed, nil
}

// searchNodes searches by node, mapping nodes to positions with nodePos,
// with the candidate lists search gives SearchEf and SearchFilter.
func (l hnswLeg) searchNodes(q []float32, k int, allow func(int) bool) []scored {
	var accept func(uint32) bool
	ef := hnswEf(k, l.efSearch())
	if allow != nil {
		ef = l.g.Options().EfSearch
		accept = func(node uint32) bool {
			p := l.at(node)
			return p >= 0 && allow(p)
		}
	}
	rs := l.g.SearchNodes(q, k, ef, accept)
	out := make([]scored, 0, len(rs))
	for _, r := range rs {
		if p := l.at(r.Node); p >= 0 {
			out = append(out, scored{p, float64(r.Score)})
		}
	}
	return out
}

// at is node's chunk number, or -1 for none.
func (l hnswLeg) at(node uint32) int {
	if int(node) >= len(l.nodePos) || int(l.nodePos[node]) >= l.n {
		return -1
	}
	return int(l.nodePos[node])
}

// exactView is the exact index over the corpus's parts, which must hold
// its n chunks' vectors.
func exactView(dim int, parts []vector.FlatPart, n int) (*vector.FlatView, error) {
	f, err := vector.NewFlatView(dim, parts)
	if err != nil {
		return nil, fmt.Errorf("retrieve: %w", err)
	}
	if f.Len() != n {
		return nil, fmt.Errorf("retrieve: %d vectors in the parts for %d chunks", f.Len(), n)
	}
	return f, nil
}

// denseFor returns the dense leg a reader with view rv searches. A
// restricted reader who may not see every chunk (rv set) gets an exact
// scan of the rows it may see instead of the graph: the graph's links
// were shaped by every chunk, hidden ones included, so which visible
// chunks a filtered walk reaches could depend on them. The scan reads the
// int8 copies of the classes the reader may read (classCodes), each
// contiguous, and re-scores the rows the int8 scores cannot rule out from
// the float32 rows where they lie (a vector.FlatView over the store's
// segments, or the corpus's rows): exactly the float32 scan's hits, with
// the same Dot scores and position ties as the flat leg, at a quarter of
// its reads and none of a hidden row. A dimension with no int8 copy scans
// the runs of rows the reader may see in float32 (rowRanges). Every other
// reader keeps the graph.
func (ix *Index) denseFor(rv *readerView) dense {
	if _, graph := ix.dense.(hnswLeg); rv == nil || !graph {
		return ix.dense
	}
	ix.exactOnce.Do(func() {
		parts := ix.exactParts
		if parts == nil {
			parts = rowRuns(ix.corpus.Rows, ix.corpus.Dim)
		}
		// The parts were checked by NewWith, or are whole rows of Dim.
		f, err := exactView(ix.corpus.Dim, parts, ix.src.Len())
		if err != nil {
			panic(err)
		}
		ix.exact = f
	})
	if ix.classGraphsOn() {
		if leg, err := ix.classGraphLegFor(rv); err == nil && len(leg.graphs) > 0 {
			return leg
		} else if err == nil {
			return classLeg{ix.exact, leg.small} // every readable class is small
		}
	}
	if SignCandidates > 0 && rv.chunks >= SignMinChunks {
		if ss, err := ix.access.classSigns(rv, ix.exact); err == nil {
			return signLeg{ix.exact, ss, signCands(rv.chunks)}
		}
	}
	if gs, err := ix.access.classCodes(rv, ix.exact, nil); err == nil {
		return classLeg{ix.exact, gs}
	}
	return rangedLeg{ix.exact, ix.access.rowRanges(rv)}
}

// classGraphLegFor returns the leg of a reader with view rv over the class
// graphs: the graphs of the readable classes large enough to have one
// (built on the first search that needs them), the int8 copies of the
// other readable classes. Which classes, and what each costs, follow from
// the readable classes alone.
func (ix *Index) classGraphLegFor(rv *readerView) (classGraphLeg, error) {
	leg := classGraphLeg{f: ix.exact}
	hasGraph := make([]bool, len(rv.visible))
	for c, ok := range rv.visible {
		if !ok {
			continue
		}
		g, err := ix.classGraph(c)
		if err != nil {
			return leg, err
		}
		if g != nil {
			if len(leg.graphs) == 0 || g.near < leg.near {
				leg.near = g.near
			}
			leg.graphs = append(leg.graphs, g)
			hasGraph[c] = true
		}
	}
	gs, err := ix.access.classCodes(rv, ix.exact, func(c int) bool { return hasGraph[c] })
	leg.small = gs
	// A far query scans the graphs' classes too (classnear.go): their
	// int8 copies are gathered on the first such query.
	leg.graphCodes = func() ([]*vector.Gathered, error) {
		return ix.access.classCodes(rv, ix.exact, func(c int) bool { return !hasGraph[c] })
	}
	return leg, err
}

// classLeg scans exactly the rows of the classes' int8 copies alone.
type classLeg struct {
	f       *vector.FlatView
	classes []*vector.Gathered
}

func (l classLeg) search(q []float32, k int, allow func(int) bool) []scored {
	return scoredOf(l.f.SearchGathered(q, k, l.classes, byID(allow)))
}

// rangedLeg scans exactly the rows of ranges alone.
type rangedLeg struct {
	f      *vector.FlatView
	ranges []vector.RowRange
}

func (l rangedLeg) search(q []float32, k int, allow func(int) bool) []scored {
	return scoredOf(l.f.SearchRanges(q, k, l.ranges, byID(allow)))
}

// searchDense runs leg's search on the calling goroutine counted as a
// core at work (internal/cores), so that no other query's lexical leg
// takes this core for a helper while the dense leg holds it.
func searchDense(leg dense, q []float32, k int, allow func(int) bool) []scored {
	cores.Enter()
	defer cores.Leave()
	return leg.search(q, k, allow)
}

// denseLegFor returns the dense leg a reader under f with view rv
// searches and the predicate it applies: a scan of the readable classes
// or ranges needs only the filter's document prefixes and tags, they
// holding no chunk the reader may not read.
func (ix *Index) denseLegFor(f Filter, rv *readerView) (dense, func(int) bool) {
	leg := ix.denseFor(rv)
	switch leg.(type) {
	case classLeg, rangedLeg, classGraphLeg, signLeg:
		return leg, ix.allowFor(Filter{Prefixes: f.Prefixes, Tags: f.Tags}, nil)
	}
	return leg, ix.allowFor(f, rv)
}

// rowRuns returns rows as parts of a vector.FlatView: one part per run of
// rows that lie back to back in memory (a corpus given as Vectors is one
// run), so that the view refers to the rows rather than copying them.
func rowRuns(rows [][]float32, dim int) []vector.FlatPart {
	var parts []vector.FlatPart
	for i := 0; i < len(rows); {
		first, n := rows[i], 1
		for i+n < len(rows) && cap(first) >= (n+1)*dim && &first[:(n+1)*dim][n*dim] == &rows[i+n][0] {
			n++
		}
		parts = append(parts, vector.FlatPart{Data: first[:n*dim]})
		i += n
	}
	return parts
}
