// Package eval measures retrieval and answers apart, as the seeds insist:
// ranking metrics over relevance judgments (hit@k, recall@k, reciprocal
// rank, nDCG@k), the score-floor trade-off between answering unanswerable
// questions and refusing answerable ones, and counts for answer accuracy
// and the right × supported grid.
//
// The ranking metrics follow trec_eval (and pytrec_eval, which wraps it),
// with two differences of input, not of arithmetic: a ranking is given as an
// ordered list, so ties are however the caller broke them (trec_eval re-sorts
// by score and breaks ties by document id, descending), and a repeated id is
// counted at its first position only.
package eval

import (
	"math"
	"slices"

	"github.com/fonte-rag/fonte"
)

// Judgments maps a document (or chunk) id to its relevance grade for one
// query. A grade of 0 or less means judged not relevant; ids absent from the
// map are unjudged and count as not relevant.
type Judgments map[string]int

// Relevant returns how many ids have a positive grade.
func (j Judgments) Relevant() int {
	n := 0
	for _, g := range j {
		if g > 0 {
			n++
		}
	}
	return n
}

// Qrels holds the judgments of every query, by query id.
type Qrels map[string]Judgments

// Run holds one ranking per query id, best first.
type Run map[string][]string

// Metric scores one ranking against one query's judgments.
type Metric func(ranked []string, rel Judgments) float64

// unique returns ranked without repeated ids, cut to k when k > 0.
func unique(ranked []string, k int) []string {
	seen := make(map[string]bool, len(ranked))
	out := make([]string, 0, len(ranked))
	for _, id := range ranked {
		if k > 0 && len(out) == k {
			break
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// Rank returns the 1-based rank of the first relevant id in ranked, or 0
// when none is relevant.
func Rank(ranked []string, rel Judgments) int {
	for i, id := range unique(ranked, 0) {
		if rel[id] > 0 {
			return i + 1
		}
	}
	return 0
}

// ReciprocalRank is 1/Rank, or 0 when nothing relevant was retrieved
// (trec_eval's recip_rank; its mean over queries is MRR).
func ReciprocalRank(ranked []string, rel Judgments) float64 {
	if r := Rank(ranked, rel); r > 0 {
		return 1 / float64(r)
	}
	return 0
}

// HitAt returns the metric that is 1 when a relevant id is among the first
// k, else 0 (success@k). k <= 0 looks at the whole ranking. With one
// relevant id per query, as in the seeds, hit@k and recall@k coincide: seed
// 002's "recall@k" is this.
func HitAt(k int) Metric {
	return func(ranked []string, rel Judgments) float64 {
		if r := Rank(ranked, rel); r > 0 && (k <= 0 || r <= k) {
			return 1
		}
		return 0
	}
}

// RecallAt returns the metric counting the share of the relevant ids that
// appear among the first k (trec_eval's recall_k). k <= 0 looks at the
// whole ranking. A query with no relevant id scores 0.
func RecallAt(k int) Metric {
	return func(ranked []string, rel Judgments) float64 {
		total := rel.Relevant()
		if total == 0 {
			return 0
		}
		found := 0
		for _, id := range unique(ranked, k) {
			if rel[id] > 0 {
				found++
			}
		}
		return float64(found) / float64(total)
	}
}

// NDCGAt returns normalised discounted cumulative gain at k, as trec_eval's
// ndcg_cut: the gain of a document is its grade (linear, not 2^grade−1),
// the document at rank r is discounted by log2(r+1), ids with grade <= 0
// add nothing, and the ideal ranking is every positively graded id of the
// judgments, sorted by grade descending and cut at k. A query with no
// relevant id scores 0. k <= 0 looks at the whole ranking.
func NDCGAt(k int) Metric {
	return func(ranked []string, rel Judgments) float64 {
		var grades []int
		for _, g := range rel {
			if g > 0 {
				grades = append(grades, g)
			}
		}
		if len(grades) == 0 {
			return 0
		}
		slices.Sort(grades)
		slices.Reverse(grades)
		if k > 0 && len(grades) > k {
			grades = grades[:k]
		}
		ideal := 0.0
		for i, g := range grades {
			ideal += float64(g) / math.Log2(float64(i+2))
		}
		dcg := 0.0
		for i, id := range unique(ranked, k) {
			if g := rel[id]; g > 0 {
				dcg += float64(g) / math.Log2(float64(i+2))
			}
		}
		return dcg / ideal
	}
}

// PerQuery scores every query that has both judgments in qrels and a
// ranking in run, like trec_eval: a query missing from run is skipped, a
// query judged but with no relevant id scores 0 and is kept. To count a
// query the system retrieved nothing for as 0 (trec_eval -c), put it in
// run with an empty ranking.
func PerQuery(qrels Qrels, run Run, m Metric) map[string]float64 {
	out := make(map[string]float64, len(qrels))
	for q, rel := range qrels {
		if ranked, ok := run[q]; ok {
			out[q] = m(ranked, rel)
		}
	}
	return out
}

// Mean averages m over the queries PerQuery scores; 0 when there are none.
func Mean(qrels Qrels, run Run, m Metric) float64 {
	per := PerQuery(qrels, run, m)
	if len(per) == 0 {
		return 0
	}
	// Sum in query order so the result does not depend on map iteration.
	qs := make([]string, 0, len(per))
	for q := range per {
		qs = append(qs, q)
	}
	slices.Sort(qs)
	sum := 0.0
	for _, q := range qs {
		sum += per[q]
	}
	return sum / float64(len(per))
}

// IDs returns the chunk ids of hits, in order: the ranking to score against
// chunk-level judgments.
func IDs(hits []fonte.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Chunk.ID
	}
	return out
}

// DocIDs returns the document ids of hits in order, each once at its best
// rank: the ranking to score against document-level judgments such as
// BEIR's, when a document is retrieved through several of its chunks.
func DocIDs(hits []fonte.Hit) []string {
	seen := make(map[string]bool, len(hits))
	out := make([]string, 0, len(hits))
	for _, h := range hits {
		if !seen[h.Chunk.DocID] {
			seen[h.Chunk.DocID] = true
			out = append(out, h.Chunk.DocID)
		}
	}
	return out
}
