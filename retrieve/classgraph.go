package retrieve

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/fonte-rag/fonte/vector"
)

// This file holds the class graphs: an HNSW graph per access class, built
// from that class's chunks alone, which a restricted reader searches for
// the classes it may read in place of the shared graph. The shared
// graph's links were shaped by every chunk, hidden ones included, so a
// filtered walk of it could tell a reader something of the chunks it may
// not read; a class graph was shaped by chunks the reader may read, every
// one of them, so what its walk reaches, and how long the walk takes,
// depend on them alone.

// ClassGraphMinChunks turns the class graphs on: when positive, it is
// the class size from which a class of a corpus with a graph leg gets a
// graph of its own (Options.ClassGraphMin overrides it; 10,000 was
// measured at 100,000 chunks), below which a restricted reader scans the
// class's int8 copy exactly. It is 0, off, by default. At 300,000
// chunks the readers of whole topic folders got recall@10 of 0.818
// (folder-50) and 0.875 (folder-10) against the exact scan with a list of
// 200 (BENCHMARKS.md, "Per-class graphs for restricted readers"); the
// scan of a query far from every readable class (classnear.go) brought
// them to 1.000, but a far query then costs the walks and the scan, so a
// reader of half the chunks in whole folders took more processor time
// than with the scan alone, and no reader of half the chunks came within
// twice the unrestricted p99 (BENCHMARKS.md, "Class graphs: why folder
// readers lost recall").
var ClassGraphMinChunks = 0

// ClassEfSearch is the candidate list of a class graph's searches (at
// least twice the hits asked for). A class graph is smaller than the
// shared one, so a shorter list finds its neighbours: at 100,000
// synthetic chunks (cmd/fonte-scale, seed 2) a reader of half of them,
// whole topic folders, in classes of 20,000 and 16,000 chunks with graphs
// and 14,000 scanned, had recall@10 against exact of 0.941 at 100, 0.972
// at 200 and 0.990 at 400, at 1.7, 1.8 and 2.8 ms of processor time a
// query (1.0 ms for the shared graph's unrestricted search).
var ClassEfSearch = 200

// classGraphSerialBelow is the class size below which a class graph is
// built by one goroutine, which makes it the same graph for the same
// chunks in the same order: a small build gains little from more.
const classGraphSerialBelow = 10_000

// ClassGraph is one access class's graph, handed between an index and a
// store (see Options.ClassGraphs and Index.ClassGraphs).
type ClassGraph struct {
	// Labels are the class's access tags, sorted: the class is the
	// chunks of the documents with exactly these access tags.
	Labels []string
	// Graph is keyed by ChunkKey and holds the class's chunks only.
	Graph *vector.HNSW
	// Positions maps Graph's nodes to this corpus's chunk numbers when
	// the graph was stored for exactly this corpus (a store's blob of the
	// same numbering; math.MaxUint32 for a node with no chunk); nil for
	// a graph of an earlier corpus, which the index clones and brings up
	// to date.
	Positions []uint32
	// Changed, from Index.ClassGraphs, says that this index built or
	// changed the graph, which a store then persists.
	Changed bool
	// Open, when set instead of Graph, opens a graph stored for this
	// corpus and its Positions: called when the class is first searched,
	// so that opening a store touches no class graph.
	Open func() (*vector.HNSW, []uint32, error)
}

// classSlot is one class's graph in an index: given (handed over and
// brought up to date, or placed) when the index was made, else built on
// first need. mu is held while it is made, so a second search of the
// class waits for the first's build.
type classSlot struct {
	mu      sync.Mutex
	done    bool
	leg     *hnswLeg // nil: the class is scanned exactly
	changed bool
	err     error
}

// get returns the slot's leg, made by make when the slot is not yet.
func (s *classSlot) get(make func() (*hnswLeg, bool, error)) (*hnswLeg, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.done {
		s.leg, s.changed, s.err = make()
		s.done = true
	}
	return s.leg, s.err
}

// classGraphs is an index's per-class graphs.
type classGraphs struct {
	min   int
	slots []classSlot // per class of the partition
}

// classGraphsOn reports whether the index keeps class graphs: it has a
// graph leg (so its restricted readers would otherwise scan), and more
// than one access class (with one, a restricted reader sees all or
// nothing).
func (ix *Index) classGraphsOn() bool {
	_, graph := ix.dense.(hnswLeg)
	return graph && ix.classMin > 0
}

// initClassGraphs sets up the class graphs o gives: a graph stored for
// this corpus is kept to be placed when its class is first searched (so
// that opening a store reads nothing per document), one handed over is
// brought up to date now, as it refers to the rows of the corpus it was
// built for, which may be released once this index exists.
func (ix *Index) initClassGraphs(o Options) error {
	ix.classMin = o.ClassGraphMin
	if ix.classMin == 0 {
		ix.classMin = ClassGraphMinChunks
	}
	ix.classEf = o.ClassEfSearch
	if ix.classEf == 0 {
		ix.classEf = ClassEfSearch
	}
	if !ix.classGraphsOn() {
		return nil
	}
	var handed []ClassGraph
	for _, given := range o.ClassGraphs {
		switch {
		case given.Open != nil:
			if ix.classStored == nil {
				ix.classStored = map[string]ClassGraph{}
			}
			ix.classStored[labelsKey(given.Labels)] = given
		case given.Graph == nil || given.Graph.Dim() != ix.corpus.Dim:
		case given.Positions != nil:
			if ix.classStored == nil {
				ix.classStored = map[string]ClassGraph{}
			}
			ix.classStored[labelsKey(given.Labels)] = given
		default:
			handed = append(handed, given)
		}
	}
	if len(handed) == 0 {
		return nil
	}
	p := ix.partition()
	cg := ix.classSlots()
	byKey := make(map[string]int, len(p.tags))
	for c, tags := range p.tags {
		byKey[labelsKey(tags)] = c
	}
	var rows [][]int
	for _, given := range handed {
		c, ok := byKey[labelsKey(given.Labels)]
		if !ok || p.chunks[c] < cg.min || len(p.tags) < 2 {
			continue // the class is gone or too small now
		}
		if rows == nil {
			rows = ix.classRows()
		}
		g := given.Graph
		if _, err := cg.slots[c].get(func() (*hnswLeg, bool, error) { return ix.updateClass(rows[c], g) }); err != nil {
			return err
		}
	}
	return nil
}

// classSlots returns the class graph slots, one per class.
func (ix *Index) classSlots() *classGraphs {
	ix.classOnce.Do(func() {
		ix.classes = &classGraphs{min: ix.classMin, slots: make([]classSlot, len(ix.partition().tags))}
	})
	return ix.classes
}

// classRows returns each class's chunk numbers, in order: one pass over
// every chunk's class.
func (ix *Index) classRows() [][]int {
	p := ix.partition()
	rows := make([][]int, len(p.tags))
	for c, n := range p.chunks {
		rows[c] = make([]int, 0, n)
	}
	for i, c := range p.class {
		rows[c] = append(rows[c], i)
	}
	return rows
}

// rowsOfClass returns class c's chunk numbers, in order.
func (ix *Index) rowsOfClass(c int) []int {
	p := ix.partition()
	rows := make([]int, 0, p.chunks[c])
	for i, cl := range p.class {
		if cl == uint32(c) {
			rows = append(rows, i)
		}
	}
	return rows
}

// updateClass brings g, the graph of the class whose chunks are rows in
// an earlier corpus, up to date in a clone; a graph that does not fit is
// replaced by one built anew.
func (ix *Index) updateClass(rows []int, g *vector.HNSW) (*hnswLeg, bool, error) {
	leg, changed, err := ix.buildClass(rows, g.Clone())
	if err != nil {
		leg, changed, err = ix.buildClass(rows, nil)
	}
	if err == nil {
		leg.near = ix.classNear(leg, rows)
	}
	return leg, changed, err
}

// placeClass returns the leg of class c over its graph stored for this
// corpus, or nil when its positions do not fit the class.
func (ix *Index) placeClass(c int, stored ClassGraph) *hnswLeg {
	p := ix.partition()
	if stored.Open != nil {
		g, positions, err := stored.Open()
		if err != nil || g.Dim() != ix.corpus.Dim {
			return nil
		}
		stored.Graph, stored.Positions = g, positions
	}
	g := stored.Graph
	if g.Len() != p.chunks[c] || len(stored.Positions) != nodeCount(g) || !placedFits(stored.Positions, uint32(c), p.class) {
		return nil
	}
	return &hnswLeg{g: g, nodePos: stored.Positions, n: ix.src.Len(), ef: ix.classEf}
}

// nodeCount is g's nodes, tombstones included.
func nodeCount(g *vector.HNSW) int { return len(g.AppendNodeIDs(nil)) }

// placedFits reports whether positions map nodes only to chunks of
// class c: a stored graph must never lead a reader to a chunk of another
// class.
func placedFits(positions []uint32, c uint32, class []uint32) bool {
	for _, p := range positions {
		if p != math.MaxUint32 && (int(p) >= len(class) || class[p] != c) {
			return false
		}
	}
	return true
}

// buildClass builds the graph of the class whose chunks are rows, or
// brings g (a graph of an earlier corpus of the class, which it changes)
// up to date, returning a leg over the corpus's chunk numbers.
func (ix *Index) buildClass(rows []int, g *vector.HNSW) (*hnswLeg, bool, error) {
	sub := Corpus{Dim: ix.corpus.Dim, Rows: make([][]float32, len(rows))}
	keys := make([]uint64, len(rows))
	seen := make(map[uint64]bool, len(rows))
	for j, i := range rows {
		sub.Rows[j], keys[j] = ix.corpus.Rows[i], ix.keys[i]
		if seen[keys[j]] {
			return nil, false, fmt.Errorf("retrieve: chunk %s has the same graph key as another chunk", ix.src.Chunk(i).ID)
		}
		seen[keys[j]] = true
	}
	var previous []uint64
	if g != nil {
		previous = g.AppendNodeIDs(nil)
	}
	workers := ix.workers
	if len(rows) < classGraphSerialBelow {
		workers = 1
	}
	opts := ix.hnswOpts
	opts.Capacity, opts.Rand = 0, nil // each graph its own, sized for its class
	leg, changed, err := buildHNSW(sub, keys, g, previous, false, opts, workers)
	if err != nil {
		return nil, false, err
	}
	for k, j := range leg.pos {
		leg.pos[k] = int32(rows[j])
	}
	leg.ef = ix.classEf
	return &leg, changed, nil
}

// classGraph returns class c's leg, building its graph on first need, or
// nil when the class is scanned exactly (below the minimum size).
func (ix *Index) classGraph(c int) (*hnswLeg, error) {
	cg := ix.classSlots()
	if ix.partition().chunks[c] < cg.min {
		return nil, nil
	}
	return cg.slots[c].get(func() (*hnswLeg, bool, error) {
		rows := ix.rowsOfClass(c)
		if stored, ok := ix.classStored[labelsKey(ix.partition().tags[c])]; ok {
			if leg := ix.placeClass(c, stored); leg != nil {
				leg.near = ix.classNear(leg, rows)
				return leg, false, nil
			}
		}
		leg, _, err := ix.buildClass(rows, nil)
		if err == nil {
			leg.near = ix.classNear(leg, rows)
		}
		return leg, err == nil, err
	})
}

// ClassGraphs builds the graph of every class large enough to have one
// and returns them, for a store to persist: none when the index keeps no
// class graphs (no graph leg, or a single access class). Positions maps
// each graph's nodes to this corpus's chunk numbers.
func (ix *Index) ClassGraphs() ([]ClassGraph, error) {
	if !ix.classGraphsOn() || len(ix.partition().tags) < 2 {
		return nil, nil
	}
	var out []ClassGraph
	for c, tags := range ix.partition().tags {
		leg, err := ix.classGraph(c)
		if err != nil {
			return nil, err
		}
		if leg == nil {
			continue
		}
		s := &ix.classes.slots[c]
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		out = append(out, ClassGraph{Labels: tags, Graph: leg.g, Positions: leg.positions(), Changed: changed})
	}
	return out, nil
}

// BuiltClassGraphs returns the class graphs this index holds so far,
// building none, for the next corpus to take over (Options.ClassGraphs):
// Positions is nil, as they are of this corpus.
func (ix *Index) BuiltClassGraphs() []ClassGraph {
	if !ix.classGraphsOn() {
		return nil
	}
	var out []ClassGraph
	have := map[string]bool{}
	if ix.classes != nil {
		for c, tags := range ix.partition().tags {
			s := &ix.classes.slots[c]
			s.mu.Lock()
			leg := s.leg
			s.mu.Unlock()
			if leg != nil {
				out = append(out, ClassGraph{Labels: tags, Graph: leg.g})
				have[labelsKey(tags)] = true
			}
		}
	}
	// Stored graphs no search has placed yet are this corpus's too (one
	// not opened yet is left to the next corpus's store to find).
	for key, stored := range ix.classStored {
		if !have[key] && stored.Graph != nil {
			out = append(out, ClassGraph{Labels: stored.Labels, Graph: stored.Graph})
		}
	}
	return out
}

// positions is the leg's node-to-chunk map: its own for a placed graph,
// else made from its keys.
func (l *hnswLeg) positions() []uint32 {
	if l.nodePos != nil {
		return l.nodePos
	}
	ids := l.g.AppendNodeIDs(nil)
	out := make([]uint32, len(ids))
	for n, id := range ids {
		p, ok := l.pos[id]
		if !ok {
			p = -1
		}
		out[n] = uint32(p) // -1 is math.MaxUint32
	}
	return out
}

// classGraphLeg is a restricted reader's dense leg with class graphs: the
// graphs of the readable classes that have one, and an exact scan of the
// int8 copies of the others, merged by score.
type classGraphLeg struct {
	graphs []*hnswLeg
	f      *vector.FlatView
	small  []*vector.Gathered
	// near is the lowest near score of graphs: merged hits below it are
	// far from every class graph the reader may read (classnear.go).
	near float64
	// graphCodes returns the int8 copies of the graphs' classes, which a
	// far query scans exactly.
	graphCodes func() ([]*vector.Gathered, error)
}

func (l classGraphLeg) search(q []float32, k int, allow func(int) bool) []scored {
	var all []scored
	for _, g := range l.graphs {
		all = append(all, g.search(q, k, allow)...)
	}
	var small []scored
	if len(l.small) > 0 {
		small = scoredOf(l.f.SearchGathered(q, k, l.small, byID(allow)))
	}
	hits := mergeScored(all, small, k)
	if l.graphCodes == nil || !far(hits, k, l.near) {
		return hits
	}
	// Far from every readable class: the walks' hits are unreliable
	// (classnear.go), so the graphs' classes are scanned exactly and
	// merged with the small classes' scan.
	gs, err := l.graphCodes()
	if err != nil {
		return hits // the copies were checked when the small ones were gathered
	}
	return mergeScored(scoredOf(l.f.SearchGathered(q, k, gs, byID(allow))), small, k)
}

// mergeScored returns the best k of a and b in the exact leg's order:
// higher score, then lower position.
func mergeScored(a, b []scored, k int) []scored {
	all := append(a, b...)
	slices.SortFunc(all, func(a, b scored) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return cmp.Compare(a.doc, b.doc)
	})
	return all[:min(k, len(all))]
}

// CompactClassGraphs removes the deleted nodes of the class graphs this
// index brought up to date, so that a store persisting them after a
// deletion writes no deleted chunk's code. A graph placed as stored is
// left alone: it maps nodes by number, which compaction changes, and it
// was written for this very corpus.
func (ix *Index) CompactClassGraphs() {
	if !ix.classGraphsOn() || ix.classes == nil {
		return
	}
	for c := range ix.classes.slots {
		s := &ix.classes.slots[c]
		s.mu.Lock()
		if s.leg != nil && s.leg.nodePos == nil {
			s.leg.g.Compact()
		}
		s.mu.Unlock()
	}
}
