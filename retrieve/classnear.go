package retrieve

import (
	"slices"

	"github.com/fonte-rag/fonte/vector"
)

// This file holds the class graphs' fallback: a query far from every
// class a reader may read is scanned exactly instead of walked.
//
// Why: a graph walk finds a query's neighbours well when they stand out
// from the crowd, as a query's own topic does. A reader of whole topic
// folders often asks about a topic it may not read; its exact top 10 are
// then chunks of other topics that score little above the rest, nearly
// equidistant, spread over the class's topics, and a walk of 200
// candidates finds few of them (at 300,000 synth chunks, seed 2, a
// 60,000-chunk class graph returned 0.63 of its own top 10 for such
// queries, 0.91 at a list of 800; BENCHMARKS.md, "Class graphs: why
// folder readers lost recall"). No candidate list short of a scan's cost
// fixes that, so such a query is scanned.
//
// Far is measured against the class itself: each class graph keeps the
// score its own chunks reach with their nearest neighbour in the class
// (a low quantile over a sample), and a query whose nearRank-th best hit
// over the reader's classes scores below nearFactor times the lowest such
// score of the reader's class graphs is far. The decision reads the
// reader's own classes alone, so whether a query is scanned, and how long
// it takes, tells the reader nothing of the chunks it may not read.

// nearSample is how many of a class's chunks classNear looks at.
const nearSample = 256

// nearEf is the candidate list of classNear's searches: a chunk's own
// nearest neighbours stand out, so a short list finds them.
const nearEf = 32

// nearQuantile is the quantile of the sampled nearest-neighbour scores a
// class graph keeps, and nearFactor the share of it below which a query
// is far, and nearRank the rank of the hit compared, chosen at 100,000
// and 300,000 synth chunks, seed 2 (BENCHMARKS.md, "Class graphs: why
// folder readers lost recall"): with the 1st percentile, 0.8 and the
// 10th hit, the readers of whole folders kept recall@10 1.000 against
// the exact leg (0.818 and 0.875 without the fallback at 300,000) and the
// readers of random documents, whose query topics they may all read,
// were never scanned; comparing the best hit instead lost recall (0.84
// at 300,000).
const (
	nearQuantile = 0.01
	nearFactor   = 0.8
	nearRank     = 10
)

// classNear returns the score below which a query is far from the
// class of leg, whose chunks are rows: nearFactor times the nearQuantile
// quantile of the scores of a sample of the class's chunks with their
// nearest other chunk in the graph.
func (ix *Index) classNear(leg *hnswLeg, rows []int) float64 {
	step := max(1, len(rows)/nearSample)
	var nn []float64
	for j := 0; j < len(rows); j += step {
		r := rows[j]
		for _, res := range leg.g.SearchNodes(ix.corpus.Rows[r], 2, nearEf, nil) {
			if leg.chunk(res) != r {
				nn = append(nn, float64(res.Score))
				break
			}
		}
	}
	if len(nn) == 0 {
		return 0
	}
	slices.Sort(nn)
	return nearFactor * nn[int(nearQuantile*float64(len(nn)))]
}

// chunk is the chunk number of a node the leg's graph returned, or -1.
func (l *hnswLeg) chunk(r vector.NodeResult) int {
	if l.nodePos != nil {
		return l.at(r.Node)
	}
	if p, ok := l.pos[r.ID]; ok {
		return int(p)
	}
	return -1
}

// far reports whether hits, a restricted reader's merged dense hits
// from its class graphs and scans, lie far from every class it may
// read: fewer than nearRank of k asked for, or the nearRank-th (or k-th,
// for a shorter list) scoring below near. Asked for no hit, a query is
// not far.
func far(hits []scored, k int, near float64) bool {
	r := min(k, nearRank)
	if r < 1 {
		return false
	}
	return len(hits) < r || hits[r-1].score < near
}
