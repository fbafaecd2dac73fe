package lexical

import (
	"cmp"
	"slices"
	"sync"
)

// A view's top k with candidates chosen first (MaxScore's essential
// terms, over the view's own idf): a view has no stored weights or
// bounds, so each term's bound is the largest weight any document could
// get from it, idf · (k1 + 1) (f / (f + norm) < 1 whatever the length),
// times its repeats in the query.
//
// The highest-bound terms are accumulated until their postings reach
// 1/estimateShare of the query's, which gives θ, the k-th best partial
// score among the documents the view shows and allow accepts: a lower
// bound on the k-th best final score. The lowest-bound terms whose bounds
// add up to less than θ (by a margin far wider than any rounding) are
// non-essential: a document in none of the other terms' lists scores
// below k others and cannot rank. The essential lists' visible documents
// are the candidates; each query token is then added to them in token
// order, walking its list and computing a weight only for a candidate, so
// each candidate's score is the exhaustive path's sum bit for bit.
//
// What it saves is the weight of every visible posting that is not a
// candidate's; the walk over a common term's list remains (a bit test a
// posting).

// viewPruneSlack is the relative margin between the non-essential terms'
// bound sum and θ: sums of a query's few hundred terms round by far less.
const viewPruneSlack = 1e-9

// viewTerm is one distinct term of a view query.
type viewTerm struct {
	tok      int // a token of the term, for its idf
	bound    float64
	postings int
}

var viewMarks sync.Pool // of *[]uint64, a bit per document

// topKPruned is topK choosing candidates first; ok is false when it
// cannot prune (fewer than k documents in the estimate, or every term
// essential), and the caller then scores exhaustively.
func (q *ViewQuery) topKPruned(k int, allow func(doc int) bool, div float64, s *scratch) (out []Result, ok bool) {
	m := q.v.m
	var terms []viewTerm
	postings := 0
	for i, id := range q.ids {
		if id < 0 {
			continue
		}
		bound := q.idf[i] * (m.opts.K1 + 1)
		if j := slices.IndexFunc(terms, func(t viewTerm) bool { return q.ids[t.tok] == id }); j >= 0 {
			terms[j].bound += bound
			continue
		}
		n := len(m.ix.docs(uint32(id)))
		terms = append(terms, viewTerm{tok: i, bound: bound, postings: n})
		postings += n
	}
	if len(terms) < 2 {
		return nil, false
	}
	slices.SortFunc(terms, func(a, b viewTerm) int { return cmp.Compare(b.bound, a.bound) })

	// θ from the highest-bound terms' partial scores (one occurrence
	// each: lower still).
	s.dense = false
	estimated := 0
	for _, t := range terms {
		if estimated > 0 && estimated*estimateShare >= postings {
			break
		}
		estimated += t.postings
		id := q.ids[t.tok]
		for j, d := range m.ix.docs(uint32(id)) {
			if !q.v.visible(int(d)) {
				continue
			}
			if s.acc[d] == 0 {
				s.touched = append(s.touched, d)
			}
			s.acc[d] += q.weight(t.tok, j, d)
		}
	}
	var est topSet
	est.init(k, 1)
	for _, d := range s.touched {
		if a := s.acc[d]; a >= est.cut {
			est.offer(int(d), a, allow)
		}
	}
	theta := est.kth() * (1 - viewPruneSlack)
	for _, d := range s.touched {
		s.acc[d] = 0
	}
	s.touched = s.touched[:0]
	if !(theta > 0) {
		return nil, false
	}
	// The non-essential terms: the lowest bounds, adding up to below θ.
	essential := len(terms)
	rest := 0.0
	for essential > 0 && (rest+terms[essential-1].bound)*(1+viewPruneSlack) < theta {
		essential--
		rest += terms[essential].bound
	}
	if essential == len(terms) {
		return nil, false
	}

	p, _ := viewMarks.Get().(*[]uint64)
	if p == nil {
		p = new([]uint64)
	}
	defer viewMarks.Put(p)
	words := (m.ix.N() + 63) / 64
	if len(*p) < words {
		*p = make([]uint64, words)
	}
	marks := *p
	cands := s.touched[:0]
	for _, t := range terms[:essential] {
		for _, d := range m.ix.docs(uint32(q.ids[t.tok])) {
			if marks[d/64]&(1<<(d%64)) == 0 && q.v.visible(int(d)) {
				marks[d/64] |= 1 << (d % 64)
				cands = append(cands, d)
			}
		}
	}
	// Token by token, as the exhaustive path adds them.
	for i, id := range q.ids {
		if id < 0 {
			continue
		}
		for j, d := range m.ix.docs(uint32(id)) {
			if marks[d/64]&(1<<(d%64)) != 0 {
				s.acc[d] += q.weight(i, j, d)
			}
		}
	}
	var top topSet
	top.init(k, div)
	for _, d := range cands {
		if a := s.acc[d]; a >= top.cut {
			top.offer(int(d), a, allow)
		}
		marks[d/64] &^= 1 << (d % 64)
	}
	if pruneHook != nil {
		pruneHook(len(cands))
	}
	// The scratch clears the candidates' accumulators when put back.
	s.touched = cands
	return top.sorted(), true
}
