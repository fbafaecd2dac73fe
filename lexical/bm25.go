package lexical

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/fonte-rag/fonte/analysis"
)

// BM25Options are the two BM25 parameters. There is no implicit default:
// start from DefaultBM25Options.
type BM25Options struct {
	// K1 controls how fast a term's weight saturates with its frequency in
	// a document; 0 scores presence only. Must be >= 0.
	K1 float64
	// B is the strength of document-length normalisation, from 0 (none) to
	// 1 (full).
	B float64
}

// DefaultBM25Options returns Lucene's defaults, k1 = 1.2 and b = 0.75.
// (Seed 001 uses k1 = 1.5, b = 0.75.)
func DefaultBM25Options() BM25Options { return BM25Options{K1: 1.2, B: 0.75} }

// BM25 is Okapi BM25 over an inverted index. A document's score for a query
// sums, over the query's analysed tokens (a repeated token counts each
// time), idf * f * (k1 + 1) / (f + k1 * (1 - b + b * len / avglen)), where
// f is the token's frequency in the document, len the document's analysed
// length, and idf = ln(1 + (N - df + 0.5) / (df + 0.5)), always positive.
// This is seed 001's formula and Lucene's.
type BM25 struct {
	ix   *Index
	opts BM25Options
	idf  []float64 // by term id
	// weights holds each posting's whole contribution (idf included),
	// parallel to the postings; upper is each term's largest, the bound
	// WAND or MaxScore pruning would skip with.
	weights [][]float64
	upper   []float64
	// flat is set on a model opened in place: weights is then nil, idf and
	// upper are views of the form, and weights are computed per query.
	flat *flatBM25
	pool scratchPool
	// blocks holds common terms' block maxima, made as queries need them
	// (see blockmax.go).
	blocks sync.Map // term id (uint32) → []float32
}

// NewBM25 indexes docs with an. It panics if K1 < 0 or B is outside [0, 1].
func NewBM25(docs []string, an analysis.Analyzer, opts BM25Options) *BM25 {
	return NewBM25Index(NewIndex(docs, an), opts)
}

// NewBM25Index scores an existing index. It panics if K1 < 0 or B is
// outside [0, 1].
func NewBM25Index(ix *Index, opts BM25Options) *BM25 {
	if !(opts.K1 >= 0) || !(opts.B >= 0 && opts.B <= 1) {
		panic(fmt.Sprintf("lexical: invalid BM25 options k1=%v b=%v", opts.K1, opts.B))
	}
	m := &BM25{ix: ix, opts: opts, pool: scratchPool{n: ix.N()}}
	n, avg := ix.N(), ix.AvgDocLen()
	k1, b := opts.K1, opts.B
	m.idf = make([]float64, ix.NumTerms())
	m.upper = make([]float64, ix.NumTerms())
	m.weights = make([][]float64, ix.NumTerms())
	all := make([]float64, ix.numPostings())
	for t := range m.idf {
		idf := bm25IDF(n, ix.DocFreq(t))
		m.idf[t] = idf
		p := ix.Postings(t)
		w := all[:len(p.Docs):len(p.Docs)]
		all = all[len(p.Docs):]
		for i, d := range p.Docs {
			w[i] = bm25Weight(idf, float64(p.Freqs[i]), k1, b, float64(ix.lengths[d]), avg)
			m.upper[t] = max(m.upper[t], w[i])
		}
		m.weights[t] = w
	}
	return m
}

// Index is the underlying inverted index.
func (m *BM25) Index() *Index { return m.ix }

// N is the number of documents.
func (m *BM25) N() int { return m.ix.N() }

// Options returns the parameters the model scores with.
func (m *BM25) Options() BM25Options { return m.opts }

// IDF returns the idf of term and whether it is in the vocabulary.
func (m *BM25) IDF(term string) (float64, bool) {
	id, ok := m.ix.TermID(term)
	if !ok {
		return 0, false
	}
	return m.idf[id], true
}

// Scores returns the BM25 score of every document for the query.
func (m *BM25) Scores(query string) []float64 {
	return m.ScoresTokens(m.ix.an.Analyze(query))
}

// ScoresTokens is Scores for a query already analysed, for callers that
// choose the query's analyzer themselves (by its language, say).
func (m *BM25) ScoresTokens(tokens []string) []float64 {
	s := m.pool.get()
	defer m.pool.put(s)
	s.terms = m.ix.termIDs(s.terms, tokens)
	out := make([]float64, m.N())
	for _, t := range s.terms {
		docs, w := m.termWeights(t, &s.w)
		for j, d := range docs {
			out[d] += w[j]
		}
	}
	return out
}

// Search returns the at most k documents with a score above 0, best first,
// ties broken by document number.
func (m *BM25) Search(query string, k int) []Result {
	if k <= 0 {
		return nil
	}
	s := m.pool.get()
	defer m.pool.put(s)
	s.terms = m.ix.queryTerms(s.terms, query)
	s.begin(m.ix.postingsLen(s.terms))
	for _, t := range s.terms {
		docs, w := m.termWeights(t, &s.w)
		s.add(docs, w, 1)
	}
	return s.topK(k)
}

// MaxScore is the score a document could reach for query in the limit of
// infinite term frequency: the sum over the query's tokens of idf·(k1+1),
// where a token the corpus lacks counts with the idf of a term no document
// contains. Dividing a score by it gives a number in [0, 1) that says how
// much of the query's evidence a document matched: the basis of fonte's
// abstain floor, because raw BM25 scores grow with corpus and query size
// and cannot be compared against one fixed floor.
func (m *BM25) MaxScore(query string) float64 {
	return m.MaxScoreTokens(m.ix.an.Analyze(query))
}

// MaxScoreTokens is MaxScore for a query already analysed.
func (m *BM25) MaxScoreTokens(tokens []string) float64 {
	n := float64(m.ix.N())
	unseen := math.Log(1 + (n+0.5)/0.5)
	total := 0.0
	for _, tok := range tokens {
		idf := unseen
		if id, ok := m.ix.TermID(tok); ok {
			idf = m.idf[id]
		}
		total += idf * (m.opts.K1 + 1)
	}
	return total
}

// ScoreDoc is ScoresTokens(tokens)[doc] computed for one document, from
// the forward index: the cost of the query's tokens times a binary search,
// for callers that need a second score of a few hits only.
func (m *BM25) ScoreDoc(tokens []string, doc int) float64 {
	if m.ix.flat != nil {
		return m.scoreDocFlat(tokens, doc)
	}
	terms, freqs := m.ix.DocTerms(doc)
	k1, b := m.opts.K1, m.opts.B
	avg := m.ix.AvgDocLen()
	s := 0.0
	for _, tok := range tokens {
		id, ok := m.ix.TermID(tok)
		if !ok {
			continue
		}
		i, found := slices.BinarySearch(terms, uint32(id))
		if !found {
			continue
		}
		// The same expression as the posting weights, so the sum is the
		// same to the last bit.
		s += bm25Weight(m.idf[id], float64(freqs[i]), k1, b, float64(m.ix.lengths[doc]), avg)
	}
	return s
}

// bm25IDF is the idf of a term in df of n documents. Both model builders
// (NewBM25Index and InPlaceBuilder) compute it here, so the bits agree.
func bm25IDF(n, df int) float64 {
	return math.Log(1 + (float64(n-df)+0.5)/(float64(df)+0.5))
}

// bm25Weight is one posting's whole contribution: a term of idf idf found f
// times in a document of length l, average length avg. Every weight the
// package computes, stored or on the fly, goes through this one expression
// in seed 001's Python's operation order, so that the sums agree to the
// last bit.
func bm25Weight(idf, f, k1, b, l, avg float64) float64 {
	return bm25WeightNorm(idf, f, k1, lengthNorm(b, l, avg))
}

// lengthNorm is a document's length normalisation in bm25Weight, which
// depends on the document alone: a model opened in place computes it once
// per document rather than once per posting.
func lengthNorm(b, l, avg float64) float64 { return 1 - b + b*l/avg }

// bm25WeightNorm is bm25Weight given the document's lengthNorm: the same
// operations on the same values, so the same bits.
func bm25WeightNorm(idf, f, k1, norm float64) float64 {
	return idf * f * (k1 + 1) / (f + k1*norm)
}
