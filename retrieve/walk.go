package retrieve

import (
	"math"

	"github.com/fonte-rag/fonte/vector"
)

// This file holds a restricted reader's walk of the graph: the dense leg
// of a reader who may read a large share of the chunks, where scanning
// every readable row costs many times a graph search.

// A restricted reader's dense leg walks the graph (vector.SearchWithin)
// when it may read at least walkMinShare of the chunks and at least
// walkMinChunks of them, and scans its readable rows exactly otherwise
// (classLeg): below either the scan costs less than the walk, or about
// what an unrestricted search does. Both were chosen by measurement on a
// corpus of seed 2 (BENCHMARKS.md, "Restricted readers walking the
// graph").
var (
	walkMinShare  = 0.0625
	walkMinChunks = 20_000
)

// walkSteps is the walk's expansions for a reader who may read share of
// the chunks, with a candidate list of ef: ef·walkStepsPerEf at a half
// and more, doubling each time the share halves. The share is rounded
// down to a power of two first, so the walk's time, which follows its
// expansions, tells the reader its share of the corpus within a factor of
// two and nothing finer (the reader knows its own chunks, not the
// corpus's).
func walkSteps(ef int, share float64) int {
	halvings := max(0, -int(math.Floor(math.Log2(share)))-1)
	return ef * walkStepsPerEf << halvings
}

// walkStepsPerEf is walkSteps at a share of a half and more.
var walkStepsPerEf = 2

// walkLeg walks graph over the nodes of the chunks a reader may read
// (set), and scans exactly (fallback) in the rare search that finds fewer
// than k of them.
type walkLeg struct {
	graph    hnswLeg
	set      vector.NodeSet
	share    float64
	fallback dense
}

func (l walkLeg) search(q []float32, k int, allow func(int) bool) []scored {
	g := l.graph.g
	ef := hnswEf(k, g.Options().EfSearch)
	rs, ok := g.SearchWithin(q, k, ef, walkSteps(ef, l.share), l.set, nil)
	if !ok {
		return l.fallback.search(q, k, allow)
	}
	out := make([]scored, 0, len(rs))
	for _, r := range rs {
		if p := l.graph.place(r); p >= 0 {
			out = append(out, scored{p, float64(r.Score)})
		}
	}
	return out
}

// place is the chunk number of a result of the graph, or -1 for none.
func (l hnswLeg) place(r vector.NodeResult) int {
	if l.nodePos != nil {
		return l.at(r.Node)
	}
	if p, ok := l.pos[r.ID]; ok {
		return int(p)
	}
	return -1
}

// walkFor returns the walk of the graph for a reader with view rv, when
// it has a graph and may read enough of the chunks (see walkMinShare).
func (ix *Index) walkFor(rv *readerView) (walkLeg, bool) {
	g, graph := ix.dense.(hnswLeg)
	n := ix.src.Len()
	if rv == nil || !graph || n == 0 || rv.chunks < walkMinChunks {
		return walkLeg{}, false
	}
	share := float64(rv.chunks) / float64(n)
	if share < walkMinShare {
		return walkLeg{}, false
	}
	return walkLeg{graph: g, set: ix.access.nodeSet(rv, g), share: share, fallback: ix.denseFor(rv)}, true
}

// nodeSet returns the graph nodes of the chunks view v shows, kept for
// the next search of the same view (up to maxRangeViews views): one pass
// over the graph's nodes, the same whoever the reader is.
func (a *accessClasses) nodeSet(v *readerView, g hnswLeg) vector.NodeSet {
	key := v.key()
	a.rangesMu.Lock()
	s, ok := a.sets[key]
	a.rangesMu.Unlock()
	if ok {
		return s
	}
	visible := func(p int) bool { return p >= 0 && v.visible[a.class[p]] }
	if g.nodePos != nil {
		s = vector.NewNodeSet(len(g.nodePos))
		for node := range g.nodePos {
			if visible(g.at(uint32(node))) {
				s.Add(uint32(node))
			}
		}
	} else {
		ids := g.g.AppendNodeIDs(nil)
		s = vector.NewNodeSet(len(ids))
		for node, id := range ids {
			if p, ok := g.pos[id]; ok && visible(int(p)) {
				s.Add(uint32(node))
			}
		}
	}
	a.rangesMu.Lock()
	defer a.rangesMu.Unlock()
	if a.sets == nil {
		a.sets = map[string]vector.NodeSet{}
	}
	if len(a.sets) < maxRangeViews {
		a.sets[key] = s
	}
	return s
}
