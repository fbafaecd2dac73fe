package lexical

import (
	"math/bits"
	"slices"
)

// MaxScore's first steps cut into ranges a helper may share (split.go):
// the estimate, and the marking and listing of the candidates. Before
// them a MaxScore query ran on one goroutine for a millisecond or more at
// a million chunks (a third of its slowest queries' time), and in a
// hybrid search that is when the dense leg ends and frees the second
// core: ranges claimed from then on take it. Both give what the unsplit
// steps give, bit for bit: the estimate's k-th best score, and the same
// marks, candidates and counts.

// estimateCost is what one posting of MaxScore's estimate costs in
// postings of a walk (splitMinPostings counts those): it is weighed,
// added at a random place in the accumulator, then offered and cleared,
// about 16 ns at a million chunks against 1.5 to 3 for a walked one.
const estimateCost = 8

// splitSteps turns the split of these steps on; false is for measuring
// what it is worth (BenchmarkTopKScale's "default-nosteps").
var splitSteps = true

// estimateSplit is MaxScore's estimate over the terms est, cut into
// ranges: each range adds the terms' postings in it into acc, term by
// term as the unsplit estimate does (the same sums), then offers its
// documents to the worker's top k and clears their entries. An in-place
// model's terms are materialized into buf, each range computing its own
// window. It returns the k-th best score of the allowed documents, the
// unsplit estimate's: every document is in one range, and the merged
// tops keep the k best.
func estimateSplit(est []*queryTerm, acc []float64, buf *[]float64, k int, allow func(int) bool, n int) float64 {
	fill := make([]bool, len(est))
	for i, q := range est {
		if q.weights == nil {
			fill[i] = true
			q.materializeLater(buf)
		}
	}
	nb := (n + (1 << blockBits) - 1) >> blockBits
	tops := make([]topSet, 1+maxHelpers)
	for w := range tops {
		tops[w].init(k, 1)
	}
	runSplit(func(w, p int) {
		b0, b1 := partBlocks(p, nb)
		lo, hi := uint32(b0)<<blockBits, uint32(min(b1<<blockBits, n))
		for i, q := range est {
			j0, j1 := listRange(q.docs, lo, hi)
			docs, weights := q.docs[j0:j1], q.weights[j0:j1]
			if fill[i] {
				q.flat.fillAt(weights, q.start+uint64(j0), docs, q.idf)
			}
			for j, d := range docs {
				acc[d] += weights[j] * q.repeats
			}
		}
		t := &tops[w]
		for _, q := range est {
			j0, j1 := listRange(q.docs, lo, hi)
			for _, d := range q.docs[j0:j1] {
				if a := acc[d]; a != 0 {
					if a >= t.cut {
						t.offer(int(d), a, allow)
					}
					acc[d] = 0
				}
			}
		}
	})
	for w := 1; w < len(tops); w++ {
		tops[0].merge(&tops[w])
	}
	return tops[0].kth()
}

// materializeLater gives an in-place model's term a window of buf for its
// weights, to be filled by the caller (materialize fills it at once).
func (q *queryTerm) materializeLater(buf *[]float64) {
	n := len(*buf)
	*buf = slices.Grow(*buf, len(q.docs))[:n+len(q.docs)]
	q.weights = (*buf)[n : n+len(q.docs) : n+len(q.docs)]
}

// A block must be a word for listSplit: these fail to compile otherwise.
const (
	_ uint = blockBits - 6
	_ uint = 6 - blockBits
)

// listSplit marks the documents of the essential terms' lists in marks
// and lists them, increasing, into cands (reused, returned), with before
// counting per word the candidates in earlier words: what maxScore does
// unsplit, in two passes over ranges of whole words (a block is a word):
// the marks and each range's count, then each range's candidates from
// the offset the counts before it give.
func listSplit(terms []queryTerm, marks []uint64, before []uint32, cands []uint32, n int) []uint32 {
	nb := (n + (1 << blockBits) - 1) >> blockBits
	var counts [splitParts + 1]int
	runSplit(func(_, p int) {
		b0, b1 := partBlocks(p, nb)
		lo, hi := uint32(b0)<<blockBits, uint32(min(b1<<blockBits, n))
		for i := range terms {
			if q := &terms[i]; q.essential {
				j0, j1 := listRange(q.docs, lo, hi)
				for _, d := range q.docs[j0:j1] {
					marks[d/64] |= 1 << (d % 64)
				}
			}
		}
		c := 0
		for _, b := range marks[b0:b1] {
			c += bits.OnesCount64(b)
		}
		counts[p+1] = c
	})
	for p := 1; p <= splitParts; p++ {
		counts[p] += counts[p-1]
	}
	cands = slices.Grow(cands[:0], counts[splitParts])[:counts[splitParts]]
	runSplit(func(_, p int) {
		b0, b1 := partBlocks(p, nb)
		c := counts[p]
		for w := b0; w < b1; w++ {
			before[w] = uint32(c)
			for b := marks[w]; b != 0; b &= b - 1 {
				cands[c] = uint32(w*64 + bits.TrailingZeros64(b))
				c++
			}
		}
	})
	return cands
}
