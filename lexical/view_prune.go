package lexical

import (
	"cmp"
	"math/bits"
	"slices"
	"sync"
)

// A view's top k with candidates chosen first (MaxScore's essential
// terms, over the view's own idf): a view has no stored weights or
// bounds, so each term's bound is its idf times a bound on the rest of
// the weight taken from the visible groups' own largest frequency and
// smallest length per occurrence (GroupFreqs.tfBound; k1 + 1 without
// groups), times its repeats in the query.
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
// posting). The estimate and the candidates' scoring are cut into
// split.go's ranges, which a helper takes when the query is long and a
// core idle: at a million chunks a restricted reader's slowest queries
// are these walks, and they had only one core where an unrestricted
// reader's had two.

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
		bound := q.idf[i] * q.v.tfBound(id)
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

	// Each step walks the lists range by range (split.go's ranges of
	// whole blocks), with a helper when the query is long and a core is
	// idle: a document lies in one range, where its sums are added in the
	// order the unsplit walk adds them, and the workers' tops are merged
	// by score then document number, so the result is the unsplit one.
	lists := q.lists()
	n := m.ix.N()
	split := splits(postings)
	acc := s.acc

	// θ from the highest-bound terms' partial scores (one occurrence
	// each: lower still).
	estimated, ne := 0, 0
	for _, t := range terms {
		if estimated > 0 && estimated*estimateShare >= postings {
			break
		}
		estimated += t.postings
		ne++
	}
	est := terms[:ne]
	tops := newTops(k, 1)
	eachPart(split, func(w, p int) {
		lo, hi := partDocs(p, n)
		for _, t := range est {
			docs := lists[t.tok]
			j0, j1 := listRange(docs, lo, hi)
			for j := j0; j < j1; j++ {
				if d := docs[j]; q.v.sees(d) {
					acc[d] += q.weight(t.tok, j, d)
				}
			}
		}
		top := &tops[w]
		for _, t := range est {
			docs := lists[t.tok]
			j0, j1 := listRange(docs, lo, hi)
			for _, d := range docs[j0:j1] {
				if a := acc[d]; a != 0 {
					if a >= top.cut {
						top.offer(int(d), a, allow)
					}
					acc[d] = 0
				}
			}
		}
	})
	theta := mergeTops(tops).kth() * (1 - viewPruneSlack)
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

	pm, _ := viewMarks.Get().(*[]uint64)
	if pm == nil {
		pm = new([]uint64)
	}
	defer viewMarks.Put(pm)
	if words := (n + 63) / 64; len(*pm) < words {
		*pm = make([]uint64, words)
	}
	marks := *pm
	tops = newTops(k, div)
	cands := make([]int, len(tops))
	eachPart(split, func(w, p int) {
		lo, hi := partDocs(p, n)
		before := cands[w]
		// The candidates: the essential lists' visible documents.
		for _, t := range terms[:essential] {
			docs := lists[t.tok]
			j0, j1 := listRange(docs, lo, hi)
			for _, d := range docs[j0:j1] {
				if marks[d/64]&(1<<(d%64)) == 0 && q.v.sees(d) {
					marks[d/64] |= 1 << (d % 64)
					cands[w]++
				}
			}
		}
		// Token by token, as the exhaustive path adds them: a list much
		// longer than the range's candidates is searched for each of
		// them (seek, prune.go's galloping search) rather than walked.
		for i, docs := range lists {
			j0, j1 := listRange(docs, lo, hi)
			if (cands[w]-before)*rangeSeekCost >= j1-j0 {
				for j := j0; j < j1; j++ {
					if d := docs[j]; marks[d/64]&(1<<(d%64)) != 0 {
						addRepeated(&acc[d], q.weight(i, j, d), q.repeat[i])
					}
				}
				continue
			}
			list, j := docs[:j1], j0
			for wd := lo / 64; wd < (hi+63)/64 && j < j1; wd++ {
				for word := marks[wd]; word != 0 && j < j1; word &= word - 1 {
					d := wd*64 + uint32(bits.TrailingZeros64(word))
					if j = seek(list, j, d); j < j1 && docs[j] == d {
						addRepeated(&acc[d], q.weight(i, j, d), q.repeat[i])
					}
				}
			}
		}
		top := &tops[w]
		for wd := lo / 64; wd < (hi+63)/64; wd++ {
			for word := marks[wd]; word != 0; word &= word - 1 {
				d := wd*64 + uint32(bits.TrailingZeros64(word))
				if a := acc[d]; a >= top.cut {
					top.offer(int(d), a, allow)
				}
				acc[d] = 0
			}
			marks[wd] = 0
		}
	})
	top := mergeTops(tops)
	if pruneHook != nil {
		total := 0
		for _, c := range cands {
			total += c
		}
		pruneHook(total)
	}
	// Every accumulator the walks set is clear again.
	s.dense, s.touched = false, s.touched[:0]
	return top.sorted(), true
}

// topKSplit is topK's exhaustive path cut into split.go's ranges, as
// BM25's dense path is (denseSplit): each range adds every token's
// visible postings in it, token by token, then offers its documents to
// the worker's top k and clears their entries.
func (q *ViewQuery) topKSplit(k int, allow func(doc int) bool, div float64, s *scratch) []Result {
	lists, n := q.lists(), q.v.m.ix.N()
	tops := newTops(k, div)
	acc := s.acc
	runSplit(func(w, p int) {
		lo, hi := partDocs(p, n)
		for i, docs := range lists {
			j0, j1 := listRange(docs, lo, hi)
			for j := j0; j < j1; j++ {
				if d := docs[j]; q.v.sees(d) {
					addRepeated(&acc[d], q.weight(i, j, d), q.repeat[i])
				}
			}
		}
		tops[w].offerRange(acc, int(lo), int(hi), allow)
	})
	s.dense, s.touched = false, s.touched[:0] // acc is clear
	return mergeTops(tops).sorted()
}

// lists returns each token's postings list (nil outside the
// vocabulary, and for a token that repeats the one before it, whose run
// the first token walks), checked once here rather than by every range.
func (q *ViewQuery) lists() [][]uint32 {
	lists := make([][]uint32, len(q.ids))
	for i, id := range q.ids {
		if id >= 0 && q.repeat[i] > 0 {
			lists[i] = q.v.m.ix.docs(uint32(id))
		}
	}
	return lists
}

// eachPart calls part(w, p) for every range p of split.go's: through
// runSplit, which may start helpers, when split, else on the caller's
// goroutine in order (worker 0).
func eachPart(split bool, part func(w, p int)) {
	if split {
		runSplit(part)
		return
	}
	for p := range splitParts {
		part(0, p)
	}
}
