package lexical

import (
	"slices"
	"sync"
)

// Result is one ranked document.
type Result struct {
	Doc   int     // document number, its position in the indexed slice
	Score float64 // the model's score
}

// SparseVector is a sparse row of a document-term matrix: term ids,
// increasing, and their weights.
type SparseVector struct {
	Terms   []int
	Weights []float64
}

// Dense returns the vector as a dense slice of dim entries.
func (v SparseVector) Dense(dim int) []float64 {
	out := make([]float64, dim)
	for i, t := range v.Terms {
		out[t] = v.Weights[i]
	}
	return out
}

// Dot is the dot product of two sparse vectors.
func (v SparseVector) Dot(w SparseVector) float64 {
	s := 0.0
	for i, j := 0, 0; i < len(v.Terms) && j < len(w.Terms); {
		switch {
		case v.Terms[i] < w.Terms[j]:
			i++
		case v.Terms[i] > w.Terms[j]:
			j++
		default:
			s += v.Weights[i] * w.Weights[j]
			i++
			j++
		}
	}
	return s
}

// scratch is the per-query working memory of a search: one accumulator per
// document and room for the query's terms. A selective query also lists
// the documents it touched, so that ranking and resetting cost what the
// query cost rather than the corpus size; a query whose postings cover a
// good part of the corpus skips that bookkeeping (its branch in the inner
// loop costs more than a scan) and scans the whole accumulator instead.
type scratch struct {
	acc     []float64
	dense   bool     // this query scans acc instead of listing touched documents
	touched []uint32 // documents with a nonzero score, when !dense
	terms   []uint32
	weights []float64
	w       []float64 // a term's weights computed for the query (in-place BM25)
}

// denseRatio picks the dense path when a query's postings number at least
// 1/denseRatio of the documents: measured on the synthetic benchmark corpus,
// a listed posting costs about six times an unlisted one, and scanning or
// clearing a document costs about half of one.
const denseRatio = 10

// scratchPool hands out scratch buffers sized for n documents, so that
// concurrent searches never share one.
type scratchPool struct {
	n    int
	pool sync.Pool
}

func (p *scratchPool) get() *scratch {
	if s, ok := p.pool.Get().(*scratch); ok {
		return s
	}
	return &scratch{acc: make([]float64, p.n)}
}

// put clears the accumulator and returns s to the pool.
func (p *scratchPool) put(s *scratch) {
	if s.dense {
		clear(s.acc)
	} else {
		for _, d := range s.touched {
			s.acc[d] = 0
		}
	}
	s.touched = s.touched[:0]
	s.terms = s.terms[:0]
	s.weights = s.weights[:0]
	p.pool.Put(s)
}

// begin chooses the path for a query whose postings lists hold postings
// entries in all.
func (s *scratch) begin(postings int) {
	s.dense = postings*denseRatio >= len(s.acc)
}

// add accumulates w times the weights of one postings list. Scores only
// grow from 0 (all weights are positive), so a zero accumulator marks a
// document not yet touched.
func (s *scratch) add(docs []uint32, weights []float64, w float64) {
	acc := s.acc
	weights = weights[:len(docs)]
	if s.dense {
		for i, d := range docs {
			acc[d] += w * weights[i]
		}
		return
	}
	for i, d := range docs {
		if acc[d] == 0 {
			s.touched = append(s.touched, d)
		}
		acc[d] += w * weights[i]
	}
}

// before reports whether a ranks before b: higher score first, then lower
// document number, the order of a stable sort on descending score.
func before(a, b Result) bool {
	return a.Score > b.Score || a.Score == b.Score && a.Doc < b.Doc
}

// topK returns the k best documents with a nonzero score in rank order,
// using a heap of size k whose root is the worst result kept.
func (s *scratch) topK(k int) []Result {
	if k <= 0 {
		return nil
	}
	var h []Result
	consider := func(d int, score float64) {
		r := Result{Doc: d, Score: score}
		if len(h) < k {
			h = append(h, r)
			siftUp(h, len(h)-1)
		} else if before(r, h[0]) {
			h[0] = r
			siftDown(h, 0)
		}
	}
	if s.dense {
		h = make([]Result, 0, k)
		for d, score := range s.acc {
			if score != 0 {
				consider(d, score)
			}
		}
	} else {
		h = make([]Result, 0, min(k, len(s.touched)))
		for _, d := range s.touched {
			consider(int(d), s.acc[d])
		}
	}
	slices.SortFunc(h, func(a, b Result) int {
		if before(a, b) {
			return -1
		}
		return 1
	})
	return h
}

// The heap keeps the result that ranks last at index 0.
func siftUp(h []Result, i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !before(h[parent], h[i]) {
			return
		}
		h[parent], h[i] = h[i], h[parent]
		i = parent
	}
}

func siftDown(h []Result, i int) {
	for {
		worst, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && before(h[worst], h[l]) {
			worst = l
		}
		if r < len(h) && before(h[worst], h[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}
