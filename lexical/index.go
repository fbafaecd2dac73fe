// Package lexical ranks documents by the words they share with a query:
// an inverted index, TF-IDF cosine identical to scikit-learn's
// TfidfVectorizer, and BM25.
//
// The index stores postings as compact parallel slices sorted by document,
// so scoring walks only the query terms' postings and accumulates into a
// per-document buffer taken from a pool; nothing proportional to the
// vocabulary or the corpus is allocated per query (beyond refilling the
// pool after a garbage collection empties it) except the slice Scores
// returns. Indexes and models are immutable after construction and safe
// for concurrent use.
//
// A BM25 top-k query with long lists may use a second core: its walks
// over the lists are cut into ranges of documents that a helper goroutine
// shares when internal/cores counts a core idle, with the same results
// bit for bit (split.go). FONTE_LEXICAL_SPLIT=0 in the environment turns
// that off, for comparison; the package reads it once, at start.
package lexical

import (
	"cmp"
	"slices"
	"strings"

	"github.com/fonte-rag/fonte/analysis"
)

// Postings is one term's postings list: the documents that contain the term,
// in increasing order, and the term's frequency in each. Both slices have
// the term's document frequency as length.
type Postings struct {
	Docs  []uint32
	Freqs []uint32
}

// Index is an inverted index over analysed documents, numbered from 0 in
// the order given. Terms are numbered in sorted order, so term ids order
// like scikit-learn's feature names.
//
// Postings are sorted by document so that they can be merged or skipped
// through (what WAND or MaxScore pruning needs); each term's lists are
// capacity-clipped windows of shared backing arrays, so a later append to
// one term copies that term's list only and never overwrites a neighbour.
// A forward copy (each document's terms and frequencies, by term id) serves
// matrix rows and, later, document removal.
type Index struct {
	an       analysis.Analyzer
	terms    []string          // the vocabulary, sorted
	ids      map[string]uint32 // term -> position in terms
	postings []Postings        // by term id
	lengths  []uint32          // analysed tokens per document
	total    uint64            // sum of lengths

	// Forward index in compressed-row form: document d's terms are
	// fwdTerms[fwdStart[d]:fwdStart[d+1]], increasing, with fwdFreqs.
	fwdStart []uint32
	fwdTerms []uint32
	fwdFreqs []uint32

	// flat is set on an index opened in place (see inplace.go): terms, ids
	// and postings are then nil, the vocabulary and postings are views of
	// the encoded form, and the forward index is built on first use.
	flat *flatIndex
}

// NewIndex analyses docs with an and indexes them.
func NewIndex(docs []string, an analysis.Analyzer) *Index {
	return NewIndexTokens(len(docs), func(d int) []string { return an.Analyze(docs[d]) }, an)
}

// NewIndexTokens indexes n documents whose tokens tokensOf returns, for
// callers that analyse each document differently (by its language, say);
// an is the analyzer queries will use.
func NewIndexTokens(n int, tokensOf func(doc int) []string, an analysis.Analyzer) *Index {
	ix := &Index{an: an, lengths: make([]uint32, n), fwdStart: make([]uint32, n+1)}

	// Pass 1: give terms provisional ids in order of first appearance and
	// collect each document's distinct terms with their counts.
	provisional := make(map[string]uint32)
	var words []string // provisional id -> term
	var counts []uint32
	var touched []uint32
	for d := range n {
		tokens := tokensOf(d)
		ix.lengths[d] = uint32(len(tokens))
		ix.total += uint64(len(tokens))
		for _, tok := range tokens {
			id, ok := provisional[tok]
			if !ok {
				// Clone: a token may be a substring of the whole (lower-cased)
				// document, which the vocabulary must not keep alive.
				tok = strings.Clone(tok)
				id = uint32(len(words))
				provisional[tok] = id
				words = append(words, tok)
				counts = append(counts, 0)
			}
			if counts[id] == 0 {
				touched = append(touched, id)
			}
			counts[id]++
		}
		for _, id := range touched {
			ix.fwdTerms = append(ix.fwdTerms, id)
			ix.fwdFreqs = append(ix.fwdFreqs, counts[id])
			counts[id] = 0
		}
		touched = touched[:0]
		ix.fwdStart[d+1] = uint32(len(ix.fwdTerms))
	}

	// Sort the vocabulary and renumber.
	order := make([]uint32, len(words)) // final id -> provisional id
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(words[a], words[b]) })
	final := make([]uint32, len(words)) // provisional id -> final id
	ix.terms = make([]string, len(words))
	ix.ids = provisional // reused: same keys, values rewritten below
	for f, p := range order {
		final[p] = uint32(f)
		ix.terms[f] = words[p]
		ix.ids[words[p]] = uint32(f)
	}
	df := counts // all zeros again after the last document: reuse it
	for i, p := range ix.fwdTerms {
		ix.fwdTerms[i] = final[p]
		df[final[p]]++
	}
	var buf []pair
	for d := range n {
		lo, hi := ix.fwdStart[d], ix.fwdStart[d+1]
		buf = sortPairs(ix.fwdTerms[lo:hi], ix.fwdFreqs[lo:hi], buf)
	}

	// Pass 2: lay the postings out in two shared arrays, filled in document
	// order so every list comes out sorted.
	docIDs := make([]uint32, len(ix.fwdTerms))
	freqs := make([]uint32, len(ix.fwdTerms))
	ix.postings = make([]Postings, len(words))
	off := uint32(0)
	for t, n := range df {
		ix.postings[t] = Postings{Docs: docIDs[off : off : off+n], Freqs: freqs[off : off : off+n]}
		off += n
	}
	for d := range n {
		for i := ix.fwdStart[d]; i < ix.fwdStart[d+1]; i++ {
			p := &ix.postings[ix.fwdTerms[i]]
			p.Docs = append(p.Docs, uint32(d))
			p.Freqs = append(p.Freqs, ix.fwdFreqs[i])
		}
	}
	return ix
}

type pair struct{ t, f uint32 }

// sortPairs sorts terms increasingly, carrying freqs along, in buf (which
// it returns for reuse).
func sortPairs(terms, freqs []uint32, buf []pair) []pair {
	if slices.IsSorted(terms) {
		return buf
	}
	buf = buf[:0]
	for i := range terms {
		buf = append(buf, pair{terms[i], freqs[i]})
	}
	slices.SortFunc(buf, func(a, b pair) int { return cmp.Compare(a.t, b.t) })
	for i, p := range buf {
		terms[i], freqs[i] = p.t, p.f
	}
	return buf
}

// Analyzer is the analyzer the index was built with; queries must use it.
func (ix *Index) Analyzer() analysis.Analyzer { return ix.an }

// N is the number of documents.
func (ix *Index) N() int { return len(ix.lengths) }

// NumTerms is the size of the vocabulary.
func (ix *Index) NumTerms() int {
	if ix.flat != nil {
		return ix.flat.numTerms()
	}
	return len(ix.terms)
}

// Terms returns a copy of the vocabulary, sorted; a term's id is its
// position.
func (ix *Index) Terms() []string {
	if ix.flat != nil {
		out := make([]string, ix.flat.numTerms())
		for t := range out {
			out[t] = strings.Clone(ix.flat.term(t))
		}
		return out
	}
	return slices.Clone(ix.terms)
}

// Term returns the term with the given id.
func (ix *Index) Term(id int) string {
	if ix.flat != nil {
		// A copy: the view must not outlive the caller's mapping.
		return strings.Clone(ix.flat.term(id))
	}
	return ix.terms[id]
}

// TermID returns the id of term and whether it is in the vocabulary.
func (ix *Index) TermID(term string) (int, bool) {
	if ix.flat != nil {
		id, ok := ix.flat.lookup(term)
		return int(id), ok
	}
	id, ok := ix.ids[term]
	return int(id), ok
}

// Postings returns the postings of a term id. The slices are the index's
// own: do not modify them. On an index opened in place they are views of
// the encoded form (Freqs a copy when the form stores frequencies narrower
// than 32 bits), and a list found damaged is returned empty (see Damage).
func (ix *Index) Postings(id int) Postings {
	if ix.flat != nil {
		return ix.flat.postings(uint32(id), ix.N())
	}
	return ix.postings[id]
}

// DocFreq is the number of documents containing the term id.
func (ix *Index) DocFreq(id int) int {
	if ix.flat != nil {
		return ix.flat.docFreq(id)
	}
	return len(ix.postings[id].Docs)
}

// docs returns term t's documents, increasing; on an index opened in place,
// nil when the list is damaged.
func (ix *Index) docs(t uint32) []uint32 {
	if ix.flat != nil {
		return ix.flat.checkedDocs(t, ix.N())
	}
	return ix.postings[t].Docs
}

// freqAt is the frequency of the j-th posting of term t.
func (ix *Index) freqAt(t uint32, j int) uint32 {
	if ix.flat != nil {
		return ix.flat.freq(ix.flat.starts[t] + uint64(j))
	}
	return ix.postings[t].Freqs[j]
}

// numPostings is the number of postings of all terms.
func (ix *Index) numPostings() int {
	if ix.flat != nil {
		return len(ix.flat.docs)
	}
	return len(ix.fwdTerms)
}

// DocLen is the number of analysed tokens in document doc.
func (ix *Index) DocLen(doc int) int { return int(ix.lengths[doc]) }

// AvgDocLen is the mean number of analysed tokens per document, 0 for an
// empty index.
func (ix *Index) AvgDocLen() float64 { return avgLen(ix.total, uint64(len(ix.lengths))) }

// avgLen is the mean of n documents' lengths summing to total, 0 for none:
// the one expression every writer and reader of the models uses.
func avgLen(total, n uint64) float64 {
	if n == 0 {
		return 0
	}
	return float64(total) / float64(n)
}

// DocTerms returns document doc's term ids, increasing, with their
// frequencies. The slices are the index's own: do not modify them. On an
// index opened in place, the first call builds the forward index (memory
// proportional to the postings).
func (ix *Index) DocTerms(doc int) (terms, freqs []uint32) {
	if ix.flat != nil {
		ix.flat.forwardOnce.Do(ix.buildForward)
	}
	lo, hi := ix.fwdStart[doc], ix.fwdStart[doc+1]
	return ix.fwdTerms[lo:hi:hi], ix.fwdFreqs[lo:hi:hi]
}

// queryTerms appends to dst the in-vocabulary ids of the query's tokens in
// token order (repeats kept); out-of-vocabulary tokens are ignored.
func (ix *Index) queryTerms(dst []uint32, query string) []uint32 {
	return ix.termIDs(dst, ix.an.Analyze(query))
}

// termIDs appends to dst the in-vocabulary ids of tokens, in order.
func (ix *Index) termIDs(dst []uint32, tokens []string) []uint32 {
	for _, tok := range tokens {
		if id, ok := ix.TermID(tok); ok {
			dst = append(dst, uint32(id))
		}
	}
	return dst
}

// postingsLen is the total length of the terms' postings lists.
func (ix *Index) postingsLen(terms []uint32) int {
	n := 0
	for _, t := range terms {
		n += ix.DocFreq(int(t))
	}
	return n
}

// TotalLen is the sum of every document's analysed length.
func (ix *Index) TotalLen() uint64 { return ix.total }
