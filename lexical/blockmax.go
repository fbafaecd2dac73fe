package lexical

import (
	"math"
	"slices"
	"sync"

	"github.com/fonte-rag/fonte/internal/yield"
)

// Top-k BM25 block by block (block-max pruning: Ding and Suel's block
// maxima, the best blocks scored first as in Mallia, Suel and
// Tonellotto's BMP, over BM25's own weights): the documents are cut into
// blocks of 64 consecutive numbers, and a query's bound on a block is,
// per term, the largest weight the term gives a document of the block,
// summed over the query's tokens. The blocks with the highest bounds are
// scored first, exactly; their k-th best score among the documents allow
// accepts is a threshold θ, and a block whose bound is below θ holds no
// document that can rank. The other blocks are then scored term by term
// over the dense accumulator, as the dense path adds them, walking each
// list and computing the weight of the postings in those blocks alone.
// Each document's score is summed token by token as ScoresTokens adds
// them, so the top k is the exhaustive one, scores equal bit for bit.
//
// It takes the queries MaxScore cannot prune: when every term's list is
// long, no term's bound is small beside the others', so MaxScore sets no
// term aside, fails after its estimate, and the dense path weighs every
// posting. On cmd/fonte-scale's synthetic corpus at 100,000 chunks, such
// queries (see BenchmarkTopKScale) took about half the dense path's time
// and a quarter of a failed MaxScore's; the slowest of them still score
// 90% of the blocks or more, at about the dense path's cost.
//
// A term whose list holds at least 1/blockMinShare of the documents keeps
// its maxima, a float32 per block rounded up, computed the first time a
// query needs them (a pass over its list) and kept with the model (4
// bytes per 64 documents per such term), or before a new view's model is
// published, for the terms the previous model had (blockmax_carry.go); a
// shorter list adds its weights into the blocks' bounds as the query
// starts (a sum per block, which bounds its largest).

// blockBits sets the block: 64 documents, a word of a bitmap.
const blockBits = 6

// blockMinShare: a term in at least 1/blockMinShare of the documents keeps
// block maxima. A variable so that tests can give small corpora's terms
// maxima.
var blockMinShare = 16

// blockFirst is how many of the best blocks are scored before θ is taken,
// at least: enough to hold the top k in most queries.
func blockFirst(k int) int { return max(16, k) }

// blockHook, when set, is told how many blocks a block-max query scored,
// of how many. For tests.
var blockHook func(scored, blocks int)

// keepsBlocks reports whether a list of the given length keeps block
// maxima.
func (m *BM25) keepsBlocks(postings int) bool {
	return blockMinShare > 0 && postings*blockMinShare >= m.ix.N()
}

// allCommon reports whether every term keeps block maxima.
func (m *BM25) allCommon(terms []uint32) bool {
	for _, t := range terms {
		if !m.keepsBlocks(m.ix.DocFreq(int(t))) {
			return false
		}
	}
	return true
}

// blockMaxima returns term q's largest weight per block, computing it on
// first use.
func (m *BM25) blockMaxima(q *queryTerm) []float32 {
	if v, ok := m.blocks.Load(q.id); ok {
		return v.([]float32)
	}
	v, _ := m.blocks.LoadOrStore(q.id, m.computeMaxima(q, false))
	return v.([]float32)
}

// computeMaxima computes term q's largest weight per block, rounded up to
// a float32; a write's build (yields) gives way to searches every
// postingsPerYield postings, a query does not. An in-place model's
// weights are computed maximaChunk at a time, by the loop the dense path
// fills them with (the same bits as queryTerm.at, in a tight loop).
func (m *BM25) computeMaxima(q *queryTerm, yields bool) []float32 {
	maxima := make([]float32, (m.ix.N()+(1<<blockBits)-1)>>blockBits)
	var buf []float64
	if q.weights == nil {
		buf = make([]float64, min(len(q.docs), maximaChunk))
	}
	for lo := 0; lo < len(q.docs); lo += maximaChunk {
		if yields && lo > 0 && lo%postingsPerYield == 0 {
			yield.ToSearches()
		}
		docs := q.docs[lo:min(lo+maximaChunk, len(q.docs))]
		var w []float64
		if q.weights != nil {
			w = q.weights[lo : lo+len(docs)]
		} else {
			w = buf[:len(docs)]
			q.flat.fillAt(w, q.start+uint64(lo), docs, q.idf)
		}
		for j, d := range docs {
			x := float32(w[j])
			if float64(x) < w[j] {
				x = math.Nextafter32(x, float32(math.Inf(1)))
			}
			maxima[d>>blockBits] = max(maxima[d>>blockBits], x)
		}
	}
	return maxima
}

// maximaChunk is how many postings' weights computeMaxima computes at a
// time on an in-place model: a divisor of postingsPerYield.
const maximaChunk = 4096

// blockScratch is a block-max query's working memory: the blocks' bounds
// (0 once scored or skipped), the blocks to score, the query's distinct
// terms and each token's among them, each term's cursor.
type blockScratch struct {
	bound []float64
	sel   []float64
	first []int32
	terms []queryTerm
	token []int32
	pos   []int
}

var blockPool sync.Pool // of *blockScratch

// blockMax runs block-max pruning on the query in s.terms; ok is false
// when no term of the query keeps block maxima (MaxScore and the dense
// path take it then).
func (m *BM25) blockMax(s *scratch, k int, allow func(int) bool, div float64) (out []Result, ok bool) {
	n := m.ix.N()
	x, _ := blockPool.Get().(*blockScratch)
	if x == nil {
		x = &blockScratch{}
	}
	defer func() {
		clear(x.terms) // drop the references to this index's lists
		blockPool.Put(x)
	}()
	x.terms, x.token = x.terms[:0], x.token[:0]
	var reps []float64
	kept := false
	postings := 0 // with repeats: what the second pass walks
	for _, t := range s.terms {
		i := slices.IndexFunc(x.terms, func(q queryTerm) bool { return q.id == t })
		if i < 0 {
			i = len(x.terms)
			x.terms = append(x.terms, m.queryTerm(t))
			reps = append(reps, 0)
			kept = kept || m.keepsBlocks(len(x.terms[i].docs))
		}
		reps[i]++
		x.token = append(x.token, int32(i))
		postings += len(x.terms[i].docs)
	}
	if !kept {
		return nil, false
	}
	nb := (n + (1 << blockBits) - 1) >> blockBits
	if cap(x.bound) < nb {
		x.bound = make([]float64, nb)
	}
	bound := x.bound[:nb]
	clear(bound)
	for i := range x.terms {
		q := &x.terms[i]
		if m.keepsBlocks(len(q.docs)) {
			for b, w := range m.blockMaxima(q) {
				bound[b] += float64(w) * reps[i]
			}
			continue
		}
		for j, d := range q.docs {
			bound[d>>blockBits] += q.at(j) * reps[i]
		}
	}
	slack := 1 + float64(8*len(s.terms)+64)*0x1p-53

	// Score block b exactly into top.
	if cap(x.pos) < len(x.terms) {
		x.pos = make([]int, len(x.terms))
	}
	pos := x.pos[:len(x.terms)]
	var top topSet
	top.init(k, div)
	scored := 0
	score := func(b int) {
		scored++
		bound[b] = 0 // scored
		var acc [1 << blockBits]float64
		lo := uint32(b) << blockBits
		hi := lo + 1<<blockBits
		for _, i := range x.token {
			q := &x.terms[i]
			pos[i] = seek(q.docs, pos[i], lo)
			for j := pos[i]; j < len(q.docs) && q.docs[j] < hi; j++ {
				acc[q.docs[j]-lo] += q.at(j)
			}
		}
		for i, a := range acc {
			if a > 0 && a >= top.cut {
				top.offer(int(lo)+i, a, allow)
			}
		}
	}

	// The best blocks first, in document order (so that each term's
	// cursor only moves forward).
	sel := append(x.sel[:0], bound...)
	x.sel = sel
	want := min(blockFirst(k), nb)
	cut := selectLargest(sel, want)
	first := x.first[:0]
	for b, u := range bound {
		if u >= cut && u > 0 {
			first = append(first, int32(b))
		}
	}
	x.first = first
	clear(pos)
	for _, b := range first {
		score(int(b))
	}
	// Then every other block whose bound reaches θ, the k-th best raw
	// score so far (less a few units in the last place for the division
	// and back, 0 until k are kept): term by term over the dense
	// accumulator, as the dense path adds them, walking each list and
	// weighing only the postings in those blocks.
	theta := top.kth() * div * (1 - 0x1p-50) / slack
	if splits(postings) {
		scored += m.blockMaxSplit(x, s.acc, bound, theta, slack, &top, allow)
	} else {
		todo := x.first[:0]
		for b, u := range bound {
			if u > 0 && u*slack >= theta {
				todo = append(todo, int32(b))
			} else {
				bound[b] = 0
			}
		}
		x.first = todo
		if len(todo) > 0 {
			acc := s.acc
			for _, i := range x.token {
				q := &x.terms[i]
				q.addInBlocks(acc, bound, 0, len(q.docs))
			}
			for _, b := range todo {
				scoreBlock(acc, int(b), n, &top, allow)
			}
			scored += len(todo)
		}
	}
	if blockHook != nil {
		blockHook(scored, nb)
	}
	s.dense = false // acc untouched: nothing for put to do
	return top.sorted(), true
}

// scoreBlock offers block b's documents with a score in acc to top, and
// clears their entries.
func scoreBlock(acc []float64, b, n int, top *topSet, allow func(int) bool) {
	lo := b << blockBits
	for d := lo; d < min(lo+1<<blockBits, n); d++ {
		if a := acc[d]; a > 0 {
			if a >= top.cut {
				top.offer(d, a, allow)
			}
			acc[d] = 0
		}
	}
}

// addInBlocks adds the weights of the term's postings j0 to j1 into acc,
// for those whose block has a positive bound, weighing no other posting.
func (q *queryTerm) addInBlocks(acc, bound []float64, j0, j1 int) {
	docs := q.docs[j0:j1]
	if q.weights != nil {
		weights := q.weights[j0:j1]
		for j, d := range docs {
			if bound[d>>blockBits] > 0 {
				acc[d] += weights[j]
			}
		}
		return
	}
	f := q.flat
	lo, hi := q.start+uint64(j0), q.start+uint64(j1)
	norms := f.docNorms()
	switch f.ix.width {
	case 1:
		addInBlocks(acc, bound, docs, f.ix.freq1[lo:hi], norms, q.idf, f.k1)
	case 2:
		addInBlocks(acc, bound, docs, f.ix.freq2[lo:hi], norms, q.idf, f.k1)
	default:
		addInBlocks(acc, bound, docs, f.ix.freq4[lo:hi], norms, q.idf, f.k1)
	}
}

// addInBlocks is queryTerm.addInBlocks on an in-place model, for one
// frequency width: the weight fillWeights computes, for the postings in
// blocks of positive bound alone.
func addInBlocks[F uint8 | uint16 | uint32](acc, bound []float64, docs []uint32, freqs []F, norms []float64, idf, k1 float64) {
	freqs = freqs[:len(docs)]
	for j, d := range docs {
		if bound[d>>blockBits] > 0 {
			acc[d] += bm25WeightNorm(idf, float64(freqs[j]), k1, norms[d])
		}
	}
}

// blockMaxSplit is block-max's second pass cut into ranges of blocks
// that the caller and any helpers share (see split.go): each range
// zeroes its blocks whose bound is below the shared θ, walks every
// token's postings in the range into acc, and offers its blocks'
// documents to the worker's top k; top, the caller's, gets the others'
// at the end. It returns the blocks scored.
func (m *BM25) blockMaxSplit(x *blockScratch, acc, bound []float64, theta, slack float64, top *topSet, allow func(int) bool) int {
	n, nb := m.ix.N(), len(bound)
	var shared sharedTheta
	shared.raise(theta)
	share := splitShareTheta
	tops := make([]topSet, 1+maxHelpers)
	for w := range tops[1:] {
		tops[1+w].init(top.k, top.div)
		tops[1+w].cut = top.cut
	}
	scored := make([]int, 1+maxHelpers)
	runSplit(func(w, p int) {
		t := top
		if w > 0 {
			t = &tops[w]
		}
		b0, b1 := partBlocks(p, nb)
		th := shared.load()
		any := false
		for b := b0; b < b1; b++ {
			if u := bound[b]; u > 0 {
				if u*slack >= th {
					any = true
					scored[w]++
				} else {
					bound[b] = 0
				}
			}
		}
		if !any {
			return
		}
		lo, hi := uint32(b0)<<blockBits, uint32(min(b1<<blockBits, n))
		for _, i := range x.token {
			q := &x.terms[i]
			j0, j1 := listRange(q.docs, lo, hi)
			q.addInBlocks(acc, bound, j0, j1)
		}
		for b := b0; b < b1; b++ {
			if bound[b] > 0 {
				scoreBlock(acc, b, n, t, allow)
			}
		}
		if share {
			shared.raise(t.kth() * t.div * (1 - 0x1p-50) / slack)
		}
	})
	total := scored[0]
	for w := 1; w < len(tops); w++ {
		top.merge(&tops[w])
		total += scored[w]
	}
	return total
}
