package lexical

import (
	"math"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/fonte-rag/fonte/internal/cores"
)

// Intra-query parallelism. A walk over long lists (at least
// splitMinPostings postings) on any path (block-max's second pass, the
// dense path, MaxScore's estimate, its candidates' listing and its walks
// to them) cuts the documents into
// splitParts ranges of whole blocks; the query's own goroutine takes them
// one by one, and before each it asks internal/cores for an idle core: if
// one is free, a helper goroutine starts and takes ranges too. Each range
// is scored as the whole corpus is, token by token into the accumulator
// (its documents, or candidates, are its own); block-max and the dense
// path offer each range's documents to a top k of the worker's, merged at
// the end. So a document's score is the same sum in the same order as
// without the split, and the merge, by score then document number, keeps
// exactly the k best: the result is the unsplit one bit for bit. A query
// that gets no core runs its ranges alone, and a cheap query never
// splits. MaxScore's estimate and the marking and listing of its
// candidates split too (prune_split.go); each narrowing's selection stays
// on the query's goroutine.
//
// Block-max's ranges share a threshold: each worker, after a range,
// raises a common θ to its own k-th best score (the k-th best of real
// documents, so a lower bound on the final k-th), and a range zeroes the
// bounds of its blocks below it before it walks the lists, skipping their
// weights.
//
// FONTE_LEXICAL_SPLIT=0 in the environment turns the split off (every
// query runs as before it existed), for comparison; it is read once, here.

// splitEnabled is false when FONTE_LEXICAL_SPLIT=0.
var splitEnabled = os.Getenv("FONTE_LEXICAL_SPLIT") != "0"

// splitMinPostings is the postings a query's lists must hold (with
// repeats) to split: below it, a helper's start and the merge would cost
// more than the half of the walk it takes. A variable so that tests can
// split small corpora's queries.
var splitMinPostings = 1 << 17

// splitParts is how many ranges a split query's documents are cut into:
// enough that a helper joining late (the hybrid's dense leg held the
// second core until then) still takes a share, few enough that each
// range's own seek into every list costs nothing.
const splitParts = 8

// maxHelpers bounds the helpers of one query.
var maxHelpers = max(1, min(runtime.GOMAXPROCS(0)-1, splitParts-1))

// forceSplit makes every query that may split start its helpers whether
// or not a core is idle; splitHook, when set, is told how many helpers
// each split query had. Both are for tests and benchmarks.
var (
	forceSplit bool
	splitHook  func(helpers int)
)

// splitShareTheta turns block-max's shared θ on; false is for measuring
// what it is worth.
var splitShareTheta = true

// splits reports whether a query of the given postings splits.
func splits(postings int) bool {
	return splitEnabled && postings >= splitMinPostings
}

// runSplit calls part(w, p) once for every p in [0, splitParts), w being
// the worker: 0 the caller, from 1 the helpers it starts while cores
// (or forceSplit) allow. It returns when every part is done, with the
// number of helpers started.
func runSplit(part func(w, p int)) int {
	force := forceSplit
	var next atomic.Int32
	var wg sync.WaitGroup
	helpers := 0
	take := func(w int) bool {
		p := int(next.Add(1)) - 1
		if p >= splitParts {
			return false
		}
		part(w, p)
		return true
	}
	for {
		if helpers < maxHelpers && int(next.Load()) < splitParts-1 && (force || cores.TryHelper()) {
			helpers++
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				if !force {
					defer cores.Leave()
				}
				for take(w) {
				}
			}(helpers)
		}
		if !take(0) {
			break
		}
	}
	wg.Wait()
	if splitHook != nil {
		splitHook(helpers)
	}
	return helpers
}

// partBlocks returns the blocks of part p of nb blocks.
func partBlocks(p, nb int) (lo, hi int) {
	return p * nb / splitParts, (p + 1) * nb / splitParts
}

// newTops returns a top k for the caller and for each helper of a split
// query.
func newTops(k int, div float64) []topSet {
	tops := make([]topSet, 1+maxHelpers)
	for w := range tops {
		tops[w].init(k, div)
	}
	return tops
}

// partDocs returns the documents [lo, hi) of part p of n documents.
func partDocs(p, n int) (lo, hi uint32) {
	b0, b1 := partBlocks(p, (n+(1<<blockBits)-1)>>blockBits)
	return uint32(b0) << blockBits, uint32(min(b1<<blockBits, n))
}

// listRange returns the positions in docs (increasing) of the documents
// in [lo, hi).
func listRange(docs []uint32, lo, hi uint32) (int, int) {
	j0, _ := slices.BinarySearch(docs, lo)
	j1, _ := slices.BinarySearch(docs[j0:], hi)
	return j0, j0 + j1
}

// sharedTheta is a threshold the workers of one split query raise
// together: the float64 bits of a positive number order as the number.
type sharedTheta struct{ bits atomic.Uint64 }

func (t *sharedTheta) load() float64 { return math.Float64frombits(t.bits.Load()) }

// raise makes the threshold at least v.
func (t *sharedTheta) raise(v float64) {
	if !(v > 0) {
		return
	}
	nb := math.Float64bits(v)
	for {
		old := t.bits.Load()
		if old >= nb || t.bits.CompareAndSwap(old, nb) {
			return
		}
	}
}

// merge adds the results u kept (allowed, scores divided) to t.
func (t *topSet) merge(u *topSet) {
	for _, r := range u.buf {
		if t.buf == nil {
			t.buf = make([]Result, 0, min(2*t.k+64, 1024))
		}
		t.buf = append(t.buf, r)
		if len(t.buf) >= 2*t.k+64 {
			t.shrink()
		}
	}
}

// denseSplit is the dense path cut into ranges (see above): each range
// adds every token's postings in it into acc, token by token as
// Search's accumulation does, then offers its documents to the worker's
// top k and clears their entries. s.terms holds the query.
func (m *BM25) denseSplit(s *scratch, k int, allow func(int) bool, div float64) []Result {
	n := m.ix.N()
	lists := make([][]uint32, len(s.terms))
	for i, t := range s.terms {
		lists[i] = m.ix.docs(t) // checked here, once, not by every worker
	}
	tops := newTops(k, div)
	bufs := make([][]float64, 1+maxHelpers)
	acc := s.acc
	runSplit(func(w, p int) {
		lo, hi := partDocs(p, n)
		for i, t := range s.terms {
			j0, j1 := listRange(lists[i], lo, hi)
			docs := lists[i][j0:j1]
			weights := m.weightsAt(t, docs, j0, &bufs[w])
			for j, d := range docs {
				acc[d] += weights[j]
			}
		}
		tops[w].offerRange(acc, int(lo), int(hi), allow)
	})
	s.dense = false // acc is clear: nothing for put to do
	return mergeTops(tops).sorted()
}

// offerRange offers the documents of [lo, hi) with a score in acc to t,
// and clears their entries.
func (t *topSet) offerRange(acc []float64, lo, hi int, allow func(int) bool) {
	for d := lo; d < hi; d++ {
		if a := acc[d]; a > 0 {
			if a >= t.cut {
				t.offer(d, a, allow)
			}
			acc[d] = 0
		}
	}
}

// mergeTops merges the workers' tops into the first and returns it.
func mergeTops(tops []topSet) *topSet {
	for w := 1; w < len(tops); w++ {
		tops[0].merge(&tops[w])
	}
	return &tops[0]
}

// weightsAt returns the weights of term t's postings from the j0-th, of
// documents docs: the stored ones, or on an in-place model ones computed
// into *buf (grown as needed).
func (m *BM25) weightsAt(t uint32, docs []uint32, j0 int, buf *[]float64) []float64 {
	if m.flat == nil {
		return m.weights[t][j0 : j0+len(docs)]
	}
	if cap(*buf) < len(docs) {
		*buf = make([]float64, len(docs))
	}
	w := (*buf)[:len(docs)]
	m.flat.fillAt(w, m.ix.flat.starts[t]+uint64(j0), docs, m.idf[t])
	return w
}
