package retrieve

import (
	"cmp"
	"slices"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/lexical"
)

// ProximityDepth is how many of the lexical leg's best candidates, per
// query language, a search with Request.Proximity re-scores by term
// proximity. The leg fetches at least this many whatever the search's
// depth, so that a search's order does not depend on how many hits it
// asks for.
const ProximityDepth = 100

// proximityShares returns, for each of the first n candidates of a
// lexical top list, what term proximity adds to its BM25 share: the
// BM25TP proximity score (lexical.Proximity, with fonte's BM25 k1 and b)
// of the query's rank terms in the candidate's analysed enriched text
// (tokens(i)), divided by the query's MaxScore as the BM25 score is, so
// that share plus addition is BM25TP's score over the same constant. st
// are the corpus statistics of terms, as the BM25 leg used them.
func proximityShares(terms []string, st fonte.TermStats, n int, tokens func(i int) []string) []float64 {
	m := maxScore(st)
	if m <= 0 || n == 0 {
		return nil
	}
	p := lexical.NewProximity(terms, func(i int) float64 { return idf(st.Chunks, st.DF[i]) },
		fonte.BM25K1, fonte.BM25B, st.AvgLen())
	out := make([]float64, n)
	for i := range out {
		out[i] = p.Score(tokens(i)) / m
	}
	return out
}

// byProximity re-scores the first ProximityDepth results of the lexical
// leg for query terms toks (BM25 shares, best first) by term proximity
// and sorts them again, best first, ties by corpus position as before.
// The chunks are analysed in their own language, as the index analysed
// them; the statistics are those of the reader's view c.
func (ix *Index) byProximity(toks []string, rs []lexical.Result, c corpusView) []lexical.Result {
	n := min(len(rs), ProximityDepth)
	add := proximityShares(toks, ix.termStats(toks, c.view, c.rv), n, func(i int) []string {
		d := rs[i].Doc
		return ix.an.of(ix.lang(d)).Analyze(chunk.Enriched(ix.src.Chunk(d)))
	})
	out := slices.Clone(rs)
	for i, a := range add {
		out[i].Score += a
	}
	slices.SortFunc(out, func(a, b lexical.Result) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
	return out
}

// byProximity is Index.byProximity over a store's lexical top list for
// one query language (raw BM25 scores, best first): what proximity adds
// to the share of each of its first ProximityDepth chunks.
func (s *StoreSearch) byProximity(q langQuery, res []fonte.ScoredChunk) []float64 {
	return proximityShares(q.terms, q.termStats, min(len(res), ProximityDepth), func(i int) []string {
		return s.An.of(res[i].Lang).Analyze(chunk.Enriched(res[i].Chunk))
	})
}
