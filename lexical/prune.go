package lexical

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/fonte-rag/fonte/internal/cores"
)

// Top-k BM25 without scoring every document: MaxScore (Turtle and Flood,
// "Query evaluation: strategies and optimizations", 1995) over the
// per-term upper bounds BM25 stores, run term at a time around the dense
// accumulator the exhaustive scorer uses.
//
// A query's distinct terms are ranked by their bound (the largest weight
// the term gives any document, times its repeats in the query). First the
// highest-bound terms, the rare ones with short lists, are accumulated
// until their postings reach 1/estimateShare of the query's; the k-th best
// of those partial scores among allowed documents is a lower bound on the
// k-th best final score. The lowest-bound terms whose bounds add up to less
// than it are non-essential: a document found in none of the other,
// essential terms' lists cannot reach the top k. The essential lists give
// the candidates, each with a partial score (its essential terms'
// weights). The k-th best partial score is a tighter lower bound on the
// k-th best final one, so a candidate whose partial score plus the
// bounds of the terms set aside is below it cannot rank and is dropped;
// while many remain, the set-aside terms are added to the partial scores
// one by one, highest bound first, each narrowing the candidates again.
// Every query token is then added to the few left in token order, each
// list galloped through to the candidates, or walked with a test of a
// bitmap of them, whichever costs less. On cmd/fonte-scale's synthetic
// queries (a rare topic word or two among common ones) the essential
// lists hold thousands of documents and fewer than a thousand remain.
//
// The result is exactly the exhaustive one, with no tolerance to tune:
//
//   - a candidate's score is the same sum as ScoresTokens's, of the same
//     weights in the same (token) order, so it is equal bit for bit;
//   - the bounds are sums in other orders, so they are compared with a
//     margin, slack, wider than any rounding of sums of that many terms
//     (plus a few units in the last place, so that the division TopKShare
//     makes cannot turn a pruned document's score into a tie);
//   - ranking uses the same order as the exhaustive path: score, then
//     lower document number.
//
// Pruning pays only when it skips many postings: when the query's common
// terms have lists much longer than the candidates are many. Postings in
// memory are so cheap to add into a dense accumulator (about 1.5 ns each)
// that a walk testing a bitmap saves nothing, and a gallop (tens of ns)
// pays only past a few dozen postings skipped per candidate. So a query
// with fewer than pruneMinPostings postings, or whose estimated pruned
// cost (see the cost constants) is not below the dense one, takes the
// dense path: Search's accumulation, then one scan for the top k. On BEIR
// SciFact (5,183 abstracts; queries of nine terms whose postings cover
// four documents in five) every query takes the dense path, which is
// there 2 to 3 times faster than forced pruning; on 100,000 synthetic
// documents, queries of two common and two rarer words run about twice as
// fast pruned (BenchmarkTopKSelective).
//
// A query whose every term is common (no term MaxScore could set aside)
// goes to block-max pruning instead (blockmax.go), as does one whose
// MaxScore would cost more than the dense path: block bounds over 64
// document numbers skip the blocks that cannot rank and weigh no posting
// of theirs. On SciFact's numbering, which follows no topic, such blocks
// pruned little for a top 10 (66 of 81 scored), so they are not the first
// choice. Document-at-a-time MaxScore, with a cursor per list, paid more
// per posting than it skipped.

// pruneMinPostings is the number of postings below which a query takes the
// dense path without trying to prune: under it, the dense path costs a few
// tens of microseconds, less than pruning's passes would save. A variable
// so that tests can force either path.
var pruneMinPostings = 1 << 14

// forcePrune makes every query that MaxScore can prune take that path,
// whatever its cost estimate says; pruneHook, when set, is told how many
// candidates each pruned query scored; listHook, the estimate's k-th
// score and the candidates first listed. All are for tests.
var (
	forcePrune bool
	pruneHook  func(candidates int)
	listHook   func(kth float64, cands []uint32)
)

// estimateShare sets the postings MaxScore accumulates, highest-bound terms
// first (and at least one term), to estimate the k-th best score: 1/32 of
// the query's. More costs more than a better estimate saves.
const estimateShare = 32

// TopK returns the at most k documents that score above 0 for the analysed
// query tokens and that allow accepts (nil accepts all), best first, ties
// broken by lower document number: exactly the first k of ScoresTokens's
// positive scores over the allowed documents in that order, scores equal
// bit for bit, computed without scoring most documents when the query is
// large enough for pruning to pay (see the notes in prune.go).
//
// allow is called during the search, never for a document that shares no
// term with the query, and possibly more than once for one document; it
// must be safe for concurrent use: a large query may call it from a
// helper goroutine as well as the caller's (split.go). A document it
// rejects is skipped and never counted: TopK still returns k documents
// when k allowed ones match. TopK is safe for concurrent use.
func (m *BM25) TopK(tokens []string, k int, allow func(doc int) bool) []Result {
	return m.topK(tokens, k, allow, 1)
}

// TopKShare is TopK with every score divided by MaxScoreTokens(tokens):
// each document's share of the query's evidence, in [0, 1). It returns
// exactly the first k of ScoresTokens's positive scores each divided by
// that maximum, ranked after the division (which can turn two close scores
// into a tie, then broken by document number); nil when the query has no
// token.
func (m *BM25) TopKShare(tokens []string, k int, allow func(doc int) bool) []Result {
	div := m.MaxScoreTokens(tokens)
	if !(div > 0) {
		return nil
	}
	return m.topK(tokens, k, allow, div)
}

// topK ranks by score/div, with div > 0 (1 leaves scores unchanged).
func (m *BM25) topK(tokens []string, k int, allow func(doc int) bool, div float64) []Result {
	if k <= 0 {
		return nil
	}
	cores.Enter() // for helpers to know this core is taken (split.go)
	defer cores.Leave()
	s := m.pool.get()
	defer m.pool.put(s)
	s.terms = m.ix.termIDs(s.terms, tokens)
	if len(s.terms) == 0 {
		return nil
	}
	postings := m.ix.postingsLen(s.terms)
	if postings >= pruneMinPostings {
		// MaxScore sets no term aside when every term is common; block
		// bounds then still skip blocks (blockmax.go). Otherwise MaxScore
		// first, and block-max for what it cannot prune.
		if !m.allCommon(s.terms) {
			if out, ok := m.maxScore(s, k, allow, div); ok {
				return out
			}
		}
		if out, ok := m.blockMax(s, k, allow, div); ok {
			return out
		}
	}

	// The dense path: Search's accumulation, then a scan for the top k
	// (cut into ranges a helper may share, when the query is large).
	s.begin(postings)
	if s.dense && splits(postings) {
		return m.denseSplit(s, k, allow, div)
	}
	for _, t := range s.terms {
		docs, w := m.termWeights(t, &s.w)
		s.add(docs, w, 1)
	}
	if s.dense && k >= sampleMinK && k*sampleStride*4 <= len(s.acc) {
		if out, ok := sampledTopK(s.acc, k, allow, div); ok {
			return out
		}
	}
	var top topSet
	top.init(k, div)
	if s.dense {
		for d, a := range s.acc {
			if a >= top.cut {
				top.offer(d, a, allow)
			}
		}
	} else {
		for _, d := range s.touched {
			if a := s.acc[d]; a >= top.cut {
				top.offer(int(d), a, allow)
			}
		}
	}
	return top.sorted()
}

// topSet keeps the best k results offered. Offers that may rank are
// appended to a buffer; when it holds 2k+64, a selection keeps the best k
// and raises the cut. That costs a constant per offer where a heap of k
// costs log k, which shows from k = 50 or so (retrieve asks for 50 to 100).
type topSet struct {
	buf []Result
	k   int
	div float64
	// cut is a raw score below which an offer cannot rank: the smallest
	// positive number until k results are kept, then the k-th score times
	// div less 2^-50 of it, so that a < cut implies a/div < the k-th score
	// whatever the rounding.
	cut float64
}

func (t *topSet) init(k int, div float64) {
	*t = topSet{k: k, div: div, cut: math.SmallestNonzeroFloat64}
}

// offer considers document d with raw score a >= t.cut, and reports
// whether allow accepted it.
func (t *topSet) offer(d int, a float64, allow func(int) bool) bool {
	if allow != nil && !allow(d) {
		return false
	}
	if t.buf == nil {
		t.buf = make([]Result, 0, min(2*t.k+64, 1024))
	}
	t.buf = append(t.buf, Result{Doc: d, Score: a / t.div})
	if len(t.buf) >= 2*t.k+64 {
		t.shrink()
	}
	return true
}

// shrink keeps the best k results and raises the cut to the k-th.
func (t *topSet) shrink() {
	if len(t.buf) <= t.k {
		return
	}
	selectBest(t.buf, t.k)
	t.buf = t.buf[:t.k]
	worst := t.buf[0]
	for _, r := range t.buf[1:] {
		if before(worst, r) {
			worst = r
		}
	}
	t.cut = worst.Score * t.div * (1 - 0x1p-50)
}

// sorted returns the best k results, best first.
func (t *topSet) sorted() []Result {
	t.shrink()
	slices.SortFunc(t.buf, func(a, b Result) int {
		if before(a, b) {
			return -1
		}
		return 1
	})
	return t.buf[:len(t.buf):len(t.buf)]
}

// kth returns the k-th best score kept, once k are (0 before).
func (t *topSet) kth() float64 {
	if len(t.buf) < t.k {
		return 0
	}
	t.shrink()
	worst := t.buf[0]
	for _, r := range t.buf[1:] {
		if before(worst, r) {
			worst = r
		}
	}
	return worst.Score
}

// selectBest reorders rs so that its first k elements are the k best (in
// no particular order): Hoare's quickselect, pivot the median of three.
func selectBest(rs []Result, k int) {
	lo, hi := 0, len(rs)-1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if before(rs[mid], rs[lo]) {
			rs[mid], rs[lo] = rs[lo], rs[mid]
		}
		if before(rs[hi], rs[lo]) {
			rs[hi], rs[lo] = rs[lo], rs[hi]
		}
		if before(rs[hi], rs[mid]) {
			rs[hi], rs[mid] = rs[mid], rs[hi]
		}
		pivot := rs[mid]
		i, j := lo, hi
		for i <= j {
			for before(rs[i], pivot) {
				i++
			}
			for before(pivot, rs[j]) {
				j--
			}
			if i <= j {
				rs[i], rs[j] = rs[j], rs[i]
				i++
				j--
			}
		}
		// rs[lo..j] rank at or before the pivot, rs[i..hi] at or after it.
		switch {
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return
		}
	}
}

// A deep top k (50 to 100 for retrieve's fusion) from a dense accumulator
// spends more on selection than on scoring when the cut starts at 0: the
// first documents all enter, and the cut rises slowly. So the scan starts
// from a cut guessed on every sampleStride-th document: the score that
// about 1.5k + 4·sampleStride documents reach. If at least k allowed
// documents reach the guess, the top k is among those the scan kept;
// otherwise (a filter, an unlucky sample) the scan is redone from 0.
const (
	sampleStride = 8
	sampleMinK   = 32
)

var samplePool sync.Pool // of *[]float64

// sampledTopK is the dense path's scan with a guessed starting cut; ok is
// false when fewer than k allowed documents reach the guess.
func sampledTopK(acc []float64, k int, allow func(int) bool, div float64) (out []Result, ok bool) {
	p, _ := samplePool.Get().(*[]float64)
	if p == nil {
		p = new([]float64)
	}
	defer samplePool.Put(p)
	sample := (*p)[:0]
	for i := 0; i < len(acc); i += sampleStride {
		if a := acc[i]; a > 0 {
			sample = append(sample, a)
		}
	}
	*p = sample
	q := (3*k)/(2*sampleStride) + 4
	if len(sample) < 2*q {
		return nil, false
	}
	guess := selectLargest(sample, q)
	var top topSet
	top.init(k, div)
	// Below the guess less 2^-50 of it, a document ranks after any that
	// reaches the guess, even once both are divided by div.
	top.cut = guess * (1 - 0x1p-50)
	reached := 0
	for d, a := range acc {
		if a >= top.cut && top.offer(d, a, allow) && a >= guess {
			reached++
		}
	}
	if reached < k {
		return nil, false
	}
	return top.sorted(), true
}

// selectLargest reorders xs so that its q largest values come first and
// returns the q-th largest: quickselect, pivot the median of three.
func selectLargest(xs []float64, q int) float64 {
	lo, hi := 0, len(xs)-1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if xs[mid] > xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] > xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] > xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		pivot := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] > pivot {
				i++
			}
			for pivot > xs[j] {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case q-1 <= j:
			hi = j
		case q-1 >= i:
			lo = i
		default:
			return xs[q-1]
		}
	}
	return xs[q-1]
}

// queryTerm is one distinct term of a pruned query.
type queryTerm struct {
	id        uint32
	repeats   float64 // how many of the query's tokens are this term
	docs      []uint32
	weights   []float64 // parallel to docs; nil on an in-place model, see at
	flat      *flatBM25 // an in-place model's weights, computed posting by posting
	idf       float64   // with flat: the term's idf
	start     uint64    // with flat: the list's first posting in the form
	bound     float64   // the term's upper bound times its repeats
	essential bool
}

// maxScratch is MaxScore's working memory beyond the accumulator.
type maxScratch struct {
	terms  []queryTerm // distinct terms
	token  []int32     // by query token: its index in terms
	order  []int32     // indices into terms, by decreasing bound
	marks  []uint64    // bitmap of candidates, one bit per document
	cands  []uint32    // the candidates, increasing
	before []uint32    // by word of marks: the candidates in earlier words
	acc    []float64   // by candidate: its score
	// weights backs the weights of an in-place model's lists walked whole
	weights []float64
}

var maxPool sync.Pool // of *maxScratch

// maxScore runs MaxScore on the query in s.terms; ok is false when it finds
// no bound to prune with (fewer than k allowed documents in the estimate,
// or no term to set aside), leaving s as it found it for the dense path.
func (m *BM25) maxScore(s *scratch, k int, allow func(int) bool, div float64) (out []Result, ok bool) {
	x, _ := maxPool.Get().(*maxScratch)
	if x == nil {
		x = &maxScratch{}
	}
	defer func() {
		clear(x.terms) // drop the references to this index's lists
		maxPool.Put(x)
	}()

	// Distinct terms with their repeats folded into the bound.
	x.terms, x.token, x.order, x.weights = x.terms[:0], x.token[:0], x.order[:0], x.weights[:0]
	total := 0
	for _, t := range s.terms {
		i := slices.IndexFunc(x.terms, func(q queryTerm) bool { return q.id == t })
		if i < 0 {
			i = len(x.terms)
			x.terms = append(x.terms, m.queryTerm(t))
			x.order = append(x.order, int32(i))
			total += len(x.terms[i].docs)
		}
		x.terms[i].bound += m.upper[t]
		x.terms[i].repeats++
		x.token = append(x.token, int32(i))
	}
	terms := x.terms
	slices.SortFunc(x.order, func(a, b int32) int { return cmp.Compare(terms[b].bound, terms[a].bound) })
	// Sums of up to len(s.terms) positive numbers err by less than
	// len·2^-53 of the total each way; slack covers that twice over and
	// leaves room for the division.
	slack := 1 + float64(8*len(s.terms)+64)*0x1p-53

	// Estimate: the highest-bound terms' partial scores, a lower bound on
	// each document's final score (within rounding).
	used, nest := 0, 0
	for _, i := range x.order {
		q := &terms[i]
		if used > 0 && used+len(q.docs) > total/estimateShare {
			break
		}
		used += len(q.docs)
		nest++
	}
	var kth float64
	if splitSteps && splits(estimateCost*used) {
		est := make([]*queryTerm, nest)
		for n, i := range x.order[:nest] {
			est[n] = &terms[i]
		}
		kth = estimateSplit(est, s.acc, &x.weights, k, allow, m.ix.N())
	} else {
		acc, touched := s.acc, s.touched[:0]
		for _, i := range x.order[:nest] {
			q := &terms[i]
			q.materialize(&x.weights)
			for j, d := range q.docs {
				if acc[d] == 0 {
					touched = append(touched, d)
				}
				acc[d] += q.at(j) * q.repeats
			}
		}
		var est topSet
		est.init(k, 1)
		for _, d := range touched {
			if a := acc[d]; a >= est.cut {
				est.offer(int(d), a, allow)
			}
			acc[d] = 0
		}
		s.touched = touched[:0]
		kth = est.kth()
	}
	if kth == 0 {
		return nil, false
	}
	floor := kth / slack // at most the final k-th best score

	// Set aside the lowest-bound terms while their bounds sum below floor.
	rest := 0.0
	aside := 0
	for n := len(x.order) - 1; n >= 0; n-- {
		q := &terms[x.order[n]]
		if (rest+q.bound)*slack >= floor {
			break
		}
		rest += q.bound
		aside++
	}
	if aside == 0 || aside == len(x.order) { // the second cannot happen: kth is a score
		return nil, false
	}
	for n, i := range x.order {
		terms[i].essential = n < len(x.order)-aside
	}

	// Candidates: the documents of the essential lists, as a bitmap, then
	// listed by number with, per bitmap word, how many come before it, so
	// that a document's rank among them is a popcount away.
	nw := (m.ix.N() + 63) / 64
	if len(x.marks) < nw {
		x.marks, x.before = make([]uint64, nw), make([]uint32, nw)
	}
	marks, before := x.marks[:nw], x.before[:nw]
	essential := 0
	for i := range terms {
		if terms[i].essential {
			essential += len(terms[i].docs)
		}
	}
	var cands []uint32
	if splitSteps && splits(essential) {
		cands = listSplit(terms, marks, before, x.cands, m.ix.N())
	} else {
		for i := range terms {
			if terms[i].essential {
				for _, d := range terms[i].docs {
					marks[d/64] |= 1 << (d % 64)
				}
			}
		}
		cands = x.cands[:0]
		for w, bitsw := range marks {
			before[w] = uint32(len(cands))
			for b := bitsw; b != 0; b &= b - 1 {
				cands = append(cands, uint32(w*64+bits.TrailingZeros64(b)))
			}
		}
	}
	x.cands = cands
	if listHook != nil {
		listHook(kth, cands)
	}

	// Go on only if the essential lists cost less than the dense path, in
	// rough nanoseconds: they are walked into a small accumulator before
	// the candidates are narrowed; what the narrowing leaves decides the
	// rest (narrow).
	dense := costDense*float64(total) + costScan*float64(m.ix.N())
	if !forcePrune && costWalk*float64(essential) >= dense {
		clear(marks)
		return nil, false
	}

	// Each candidate's partial score, over the essential terms (their
	// weights times their repeats): at most its final score, within
	// rounding. Then narrow the candidates, adding the terms set aside
	// one by one, highest bound first, while many are left (none of
	// this when few are to begin with).
	if cap(x.acc) < len(cands) {
		x.acc = make([]float64, len(cands))
	}
	cacc := x.acc[:len(cands)]
	rank := func(d uint32) uint32 {
		w := d / 64
		return before[w] + uint32(bits.OnesCount64(marks[w]&(1<<(d%64)-1)))
	}
	if len(cands) > narrowEnough(k) {
		if splits(essential) {
			// Every posting of an essential list is a candidate's.
			var qs []*queryTerm
			var scales []float64
			for i := range terms {
				if terms[i].essential {
					qs, scales = append(qs, &terms[i]), append(scales, terms[i].repeats)
				}
			}
			addToSplit(qs, scales, cacc, cands, marks, before, m.ix.N())
		} else {
			for i := range terms {
				q := &terms[i]
				if !q.essential {
					continue
				}
				q.materialize(&x.weights)
				for j, d := range q.docs {
					cacc[rank(d)] += q.at(j) * q.repeats
				}
			}
		}
		next := len(x.order) - aside // the next term set aside to add
		for {
			cands = x.narrow(cands, marks, before, floor, rest, slack, k, allow)
			if len(cands) <= narrowEnough(k) || next == len(x.order) {
				break
			}
			q := &terms[x.order[next]]
			next++
			if splits(q.addCost(len(cands))) {
				addToSplit([]*queryTerm{q}, []float64{q.repeats}, x.acc[:len(cands)], cands, marks, before, m.ix.N())
			} else {
				q.addTo(x.acc[:len(cands)], cands, marks, before, q.repeats)
			}
			rest = 0
			for _, i := range x.order[next:] {
				rest += terms[i].bound
			}
		}
		clear(x.acc[:len(cands)])
	}

	// Scores, token by token as ScoresTokens adds them, into an
	// accumulator indexed by rank among the candidates left; each list
	// is galloped through to the candidates or walked with a bitmap test,
	// whichever costs less.
	cacc = x.acc[:len(cands)]
	cost := 0
	for _, i := range x.token {
		cost += terms[i].addCost(len(cands))
	}
	if splits(cost) {
		qs, scales := make([]*queryTerm, len(x.token)), make([]float64, len(x.token))
		for j, i := range x.token {
			qs[j], scales[j] = &terms[i], 1
		}
		addToSplit(qs, scales, cacc, cands, marks, before, m.ix.N())
	} else {
		for _, i := range x.token {
			terms[i].addTo(cacc, cands, marks, before, 1)
		}
	}

	if pruneHook != nil {
		pruneHook(len(cands))
	}
	var top topSet
	top.init(k, div)
	for c, a := range cacc {
		if a >= top.cut {
			top.offer(int(cands[c]), a, allow)
		}
	}
	clear(cacc)
	clear(marks)
	s.dense = false // acc is clear: nothing for put to do
	return top.sorted(), true
}

// narrowEnough is how many candidates narrowing may stop at: few enough
// that every term's weights for them cost little next to the walks that
// narrowing them further would take.
func narrowEnough(k int) int { return 8*k + 256 }

// narrow keeps the candidates that can still rank, given their partial
// scores in x.acc (by rank among cands) and rest, the bounds of the terms
// not in them: the k-th best partial score among the allowed candidates
// is at most the final k-th best score (within rounding), so a candidate
// whose partial score plus rest is below it cannot rank. floor is the
// estimate's bound, which the partial scores can only raise. It leaves
// the kept candidates in x.cands with their partial scores first in
// x.acc, marked alone in marks with before recounted.
func (x *maxScratch) narrow(cands []uint32, marks []uint64, before []uint32, floor, rest, slack float64, k int, allow func(int) bool) []uint32 {
	cacc := x.acc[:len(cands)]
	var est topSet
	est.init(k, 1)
	for c, a := range cacc {
		if a >= est.cut {
			est.offer(int(cands[c]), a, allow)
		}
	}
	theta := max(floor, est.kth()/slack)
	kept := cands[:0]
	for c, d := range cands {
		if (cacc[c]+rest)*slack >= theta {
			cacc[len(kept)] = cacc[c]
			kept = append(kept, d)
		}
	}
	clear(cacc[len(kept):])
	if len(kept) == len(cands) {
		return cands
	}
	clear(marks)
	for _, d := range kept {
		marks[d/64] |= 1 << (d % 64)
	}
	n := uint32(0)
	for w, bitsw := range marks {
		before[w] = n
		n += uint32(bits.OnesCount64(bitsw))
	}
	x.cands = kept
	return kept
}

// addTo adds the term's weight, times scale, to each candidate's entry in
// acc (by rank among cands, which marks and before index) that its list
// holds: galloping through the list to each candidate, or walking it
// with a bitmap test, whichever costs less.
func (q *queryTerm) addTo(acc []float64, cands []uint32, marks []uint64, before []uint32, scale float64) {
	q.addToRange(acc, cands, marks, before, scale, 0, len(cands), 0, len(q.docs))
}

// addToRange is addTo for the candidates c0 to c1 and the postings j0 to
// j1, which hold the same range of documents.
func (q *queryTerm) addToRange(acc []float64, cands []uint32, marks []uint64, before []uint32, scale float64, c0, c1, j0, j1 int) {
	docs := q.docs[:j1]
	if costGallop*float64(c1-c0) < costFiltered*float64(j1-j0) {
		pos := j0
		for c := c0; c < c1; c++ {
			d := cands[c]
			if pos = seek(docs, pos, d); pos == len(docs) {
				break
			}
			if docs[pos] == d {
				acc[c] += q.at(pos) * scale
			}
		}
		return
	}
	for j := j0; j < j1; j++ {
		d := docs[j]
		if w := d / 64; marks[w]&(1<<(d%64)) != 0 {
			acc[before[w]+uint32(bits.OnesCount64(marks[w]&(1<<(d%64)-1)))] += q.at(j) * scale
		}
	}
}

// addCost is addTo's cost in postings walked, as addTo chooses its way.
func (q *queryTerm) addCost(cands int) int {
	return int(min(costGallop*float64(cands), costFiltered*float64(len(q.docs))) / costFiltered)
}

// addToSplit is addTo for each term of qs in turn (times its scale),
// cut into ranges of documents that a helper may share (split.go): a
// candidate's entry gets the same sum in the same order.
func addToSplit(qs []*queryTerm, scales []float64, acc []float64, cands []uint32, marks []uint64, before []uint32, n int) {
	nb := (n + (1 << blockBits) - 1) >> blockBits
	runSplit(func(_, p int) {
		b0, b1 := partBlocks(p, nb)
		lo, hi := uint32(b0)<<blockBits, uint32(min(b1<<blockBits, n))
		c0, c1 := listRange(cands, lo, hi)
		for i, q := range qs {
			j0, j1 := listRange(q.docs, lo, hi)
			q.addToRange(acc, cands, marks, before, scales[i], c0, c1, j0, j1)
		}
	})
}

// Costs per unit, in about nanoseconds, measured on synthetic corpora of
// 20,000 and 200,000 documents (2-core Xeon): a posting added into the
// dense accumulator, a document scanned for the top k, an essential
// posting (marked, then added by rank), a posting walked with a bitmap
// test, and a gallop to one candidate. maxScore compares the sums to choose
// its path once it knows the candidates.
const (
	costDense    = 1.8
	costScan     = 0.4
	costWalk     = 3
	costFiltered = 3
	costGallop   = 40
)

// seek returns the first position at or after pos whose document is at
// least d, galloping: probes at pos+1, pos+2, pos+4, ... then a binary
// search between the last two.
func seek(docs []uint32, pos int, d uint32) int {
	if pos >= len(docs) || docs[pos] >= d {
		return pos
	}
	lo, step := pos, 1 // docs[lo] < d
	hi := pos + step
	for hi < len(docs) && docs[hi] < d {
		lo = hi
		step *= 2
		hi = pos + step
	}
	hi = min(hi, len(docs)) // docs[hi] >= d, or hi is the end
	for lo+1 < hi {
		mid := int(uint(lo+hi) >> 1)
		if docs[mid] < d {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}
