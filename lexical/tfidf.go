package lexical

import (
	"math"
	"slices"

	"github.com/fonte-rag/fonte/analysis"
)

// TFIDFOptions are TfidfVectorizer's weighting choices. The zero value is
// scikit-learn's default: raw counts, smooth idf, L2-normalised rows.
type TFIDFOptions struct {
	// Sublinear replaces a count tf by 1 + ln(tf) (sublinear_tf=True).
	Sublinear bool
}

// TFIDF is scikit-learn's TfidfVectorizer fitted on a corpus, scoring by
// cosine similarity. A document's weights are tf * idf, divided by the
// row's L2 norm, with idf = ln((1 + n) / (1 + df)) + 1; a query is
// transformed the same way with the corpus's idf, ignoring terms outside
// the vocabulary, so the cosine is a dot product. Computed in float64, the
// matrix and query vectors match scikit-learn's within 1e-12 (the tests
// check it), given an analyzer that matches the vectorizer's (analysis.Sklearn,
// analysis.SklearnEnglish, analysis.CharWB).
type TFIDF struct {
	ix      *Index
	opts    TFIDFOptions
	idf     []float64   // by term id
	norms   []float64   // L2 norm of each document's tf * idf row
	weights [][]float64 // by term id, parallel to its postings: normalised weights
	pool    scratchPool
}

// NewTFIDF indexes docs with an and fits TF-IDF weights on them.
func NewTFIDF(docs []string, an analysis.Analyzer, opts TFIDFOptions) *TFIDF {
	return NewTFIDFIndex(NewIndex(docs, an), opts)
}

// NewTFIDFIndex fits TF-IDF weights on an existing index.
func NewTFIDFIndex(ix *Index, opts TFIDFOptions) *TFIDF {
	return newTFIDF(ix, opts, nil)
}

// NewTFIDFVisible fits TF-IDF weights on the documents of ix that visible
// accepts, as a vectorizer fitted on those documents alone would: n,
// every document frequency, idf and row norm count them only, a term no
// visible document holds is left out of queries as a term outside the
// vocabulary is, and the other documents score 0. It is how a reader who
// may see only some documents gets scores that nothing hidden moves.
func NewTFIDFVisible(ix *Index, opts TFIDFOptions, visible func(doc int) bool) *TFIDF {
	return newTFIDF(ix, opts, visible)
}

func newTFIDF(ix *Index, opts TFIDFOptions, visible func(doc int) bool) *TFIDF {
	m := &TFIDF{ix: ix, opts: opts, pool: scratchPool{n: ix.N()}}
	seen := func(d uint32) bool { return visible == nil || visible(int(d)) }
	n := ix.N()
	if visible != nil {
		n = 0
		for d := range ix.N() {
			if visible(d) {
				n++
			}
		}
	}
	m.idf = make([]float64, ix.NumTerms())
	for t := range m.idf {
		df := ix.DocFreq(t)
		if visible != nil {
			df = 0
			for _, d := range ix.docs(uint32(t)) {
				if seen(d) {
					df++
				}
			}
			if df == 0 {
				continue // idf 0: outside the visible vocabulary (see transformTokens)
			}
		}
		m.idf[t] = math.Log((1+float64(n))/(1+float64(df))) + 1
	}
	m.norms = make([]float64, ix.N())
	for d := range m.norms {
		if !seen(uint32(d)) {
			continue
		}
		terms, freqs := ix.DocTerms(d)
		sum := 0.0
		for i, t := range terms {
			w := m.tf(freqs[i]) * m.idf[t]
			sum += w * w
		}
		m.norms[d] = math.Sqrt(sum)
	}
	all := make([]float64, ix.numPostings()) // one backing array for every list
	m.weights = make([][]float64, ix.NumTerms())
	for t := range m.weights {
		p := ix.Postings(t)
		w := all[:len(p.Docs):len(p.Docs)]
		all = all[len(p.Docs):]
		for i, d := range p.Docs {
			if seen(d) {
				w[i] = m.tf(p.Freqs[i]) * m.idf[t] / m.norms[d]
			}
		}
		m.weights[t] = w
	}
	return m
}

// tf is the term-frequency factor of a count.
func (m *TFIDF) tf(count uint32) float64 {
	if m.opts.Sublinear {
		return 1 + math.Log(float64(count))
	}
	return float64(count)
}

// Index is the underlying inverted index.
func (m *TFIDF) Index() *Index { return m.ix }

// N is the number of documents.
func (m *TFIDF) N() int { return m.ix.N() }

// Vocabulary returns the terms, sorted like scikit-learn's
// get_feature_names_out(); a term's position is its column.
func (m *TFIDF) Vocabulary() []string { return m.ix.Terms() }

// IDF returns the idf of term and whether it is in the vocabulary.
func (m *TFIDF) IDF(term string) (float64, bool) {
	id, ok := m.ix.TermID(term)
	if !ok {
		return 0, false
	}
	return m.idf[id], true
}

// Row returns document doc's row of the TF-IDF matrix.
func (m *TFIDF) Row(doc int) SparseVector {
	terms, freqs := m.ix.DocTerms(doc)
	v := SparseVector{Terms: make([]int, len(terms)), Weights: make([]float64, len(terms))}
	for i, t := range terms {
		v.Terms[i] = int(t)
		v.Weights[i] = m.tf(freqs[i]) * m.idf[t] / m.norms[doc]
	}
	return v
}

// Transform returns the TF-IDF vector of a text, as scikit-learn's
// transform does: the zero vector when no term is in the vocabulary.
func (m *TFIDF) Transform(text string) SparseVector {
	terms, weights := m.transform(nil, nil, text)
	v := SparseVector{Terms: make([]int, len(terms)), Weights: weights}
	for i, t := range terms {
		v.Terms[i] = int(t)
	}
	return v
}

// transform appends the query's term ids, increasing, and their normalised
// weights to terms and weights.
func (m *TFIDF) transform(terms []uint32, weights []float64, text string) ([]uint32, []float64) {
	return m.transformTokens(terms, weights, m.ix.an.Analyze(text))
}

// transformTokens is transform for a query already analysed.
func (m *TFIDF) transformTokens(terms []uint32, weights []float64, tokens []string) ([]uint32, []float64) {
	ids := m.ix.termIDs(terms, tokens)
	slices.Sort(ids)
	terms = ids[:0]
	sum := 0.0
	for i := 0; i < len(ids); {
		j := i + 1
		for j < len(ids) && ids[j] == ids[i] {
			j++
		}
		if m.idf[ids[i]] == 0 { // a term no visible document holds (NewTFIDFVisible)
			i = j
			continue
		}
		w := m.tf(uint32(j-i)) * m.idf[ids[i]]
		terms = append(terms, ids[i])
		weights = append(weights, w)
		sum += w * w
		i = j
	}
	if norm := math.Sqrt(sum); norm > 0 {
		for i := range weights {
			weights[i] /= norm
		}
	}
	return terms, weights
}

// Scores returns the cosine similarity of the query with every document.
func (m *TFIDF) Scores(query string) []float64 {
	return m.ScoresTokens(m.ix.an.Analyze(query))
}

// ScoresTokens is Scores for a query already analysed.
func (m *TFIDF) ScoresTokens(tokens []string) []float64 {
	s := m.pool.get()
	defer m.pool.put(s)
	s.terms, s.weights = m.transformTokens(s.terms, s.weights, tokens)
	out := make([]float64, m.N())
	for i, t := range s.terms {
		p, w, q := m.ix.docs(t), m.weights[t], s.weights[i]
		for j, d := range p {
			out[d] += q * w[j]
		}
	}
	return out
}

// Search returns the min(k, N) documents most similar to the query, best
// first, ties broken by document number: exactly the first k of numpy's
// argsort(-scores, kind="stable"). Documents that share no term with the
// query score 0 and fill the list in document order when fewer than k do,
// as the seeds' listings show; drop Score == 0 results to get matches only.
func (m *TFIDF) Search(query string, k int) []Result {
	k = min(k, m.N())
	if k <= 0 {
		return nil
	}
	s := m.pool.get()
	defer m.pool.put(s)
	s.terms, s.weights = m.transform(s.terms, s.weights, query)
	s.begin(m.ix.postingsLen(s.terms))
	for i, t := range s.terms {
		s.add(m.ix.docs(t), m.weights[t], s.weights[i])
	}
	results := s.topK(k)
	for d := 0; len(results) < k; d++ {
		if s.acc[d] == 0 { // every matching document scored above 0
			results = append(results, Result{Doc: d})
		}
	}
	return results
}
