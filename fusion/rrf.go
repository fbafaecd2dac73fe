// Package fusion merges the ranked lists of several retrievers into one,
// as pure functions over lists of ids: no index, no state, no I/O.
//
// Fusion works on ranks, not scores, because scores of different
// retrievers are not commensurable (a BM25 score and a cosine), while
// positions are. Every fused item carries its rank in each input list, so
// a caller can explain where it came from. Ties are broken by ascending id,
// so the same lists always give the same order.
package fusion

import (
	"cmp"
	"fmt"
	"slices"
)

// DefaultK is the rank constant of Reciprocal Rank Fusion, 60 as proposed
// by Cormack, Clarke and Büttcher (SIGIR 2009), who found it near-optimal.
// A larger k flattens the difference between the top ranks.
const DefaultK = 60

// Options tunes RRF. The zero value is plain RRF with k = 60.
type Options struct {
	// K is the rank constant: an item at rank r adds w/(K + r). Zero or
	// negative means DefaultK.
	K float64
	// Weights holds one weight per list, to trust one retriever more than
	// another. Nil means 1 for every list; otherwise it must have exactly
	// one entry per list.
	Weights []float64
	// Window, when positive, makes only the first Window items of each list
	// count, so that long tails of weak candidates add nothing. Zero means
	// whole lists.
	Window int
}

// Fused is one item of a fused ranking with the explanation of its score.
type Fused struct {
	ID    string
	Score float64 // Σ over lists of weight / (K + rank)
	// Ranks[l] is the 1-based rank of the item in list l, or 0 when list l
	// (within the window) does not hold it.
	Ranks []int
}

// RRF fuses ranked lists of ids by Reciprocal Rank Fusion:
//
//	score(d) = Σ_l w_l / (k + rank_l(d))
//
// with 1-based ranks, summed over the lists that hold d. The result holds
// every id of every list (within the window), best first, equal scores by
// ascending id. An id repeated within one list counts once, at its first
// position; positions are not renumbered. RRF panics if Weights is not nil
// and its length differs from the number of lists.
func RRF(lists [][]string, opts Options) []Fused {
	if opts.Weights != nil && len(opts.Weights) != len(lists) {
		panic(fmt.Sprintf("fusion: %d weights for %d lists", len(opts.Weights), len(lists)))
	}
	k := opts.K
	if k <= 0 {
		k = DefaultK
	}
	nl := len(lists)
	total := 0
	for _, l := range lists {
		total += window(l, opts.Window)
	}
	index := make(map[string]int, total)
	out := make([]Fused, 0, total)
	ranks := make([]int, 0, total*nl) // every item's Ranks, back to back
	for li, l := range lists {
		w := 1.0
		if opts.Weights != nil {
			w = opts.Weights[li]
		}
		for pos, id := range l[:window(l, opts.Window)] {
			i, seen := index[id]
			if !seen {
				i = len(out)
				index[id] = i
				out = append(out, Fused{ID: id})
				ranks = append(ranks, make([]int, nl)...)
			}
			if ranks[i*nl+li] != 0 {
				continue // a repeat within this list
			}
			rank := pos + 1
			ranks[i*nl+li] = rank
			// Summed in list order, so equal inputs give bit-equal scores.
			out[i].Score += w / (k + float64(rank))
		}
	}
	for i := range out {
		out[i].Ranks = ranks[i*nl : (i+1)*nl : (i+1)*nl]
	}
	slices.SortFunc(out, func(a, b Fused) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out
}

// window returns how many items of l count.
func window(l []string, n int) int {
	if n > 0 && n < len(l) {
		return n
	}
	return len(l)
}

// IDs returns the ids of a fused ranking in order.
func IDs(fused []Fused) []string {
	out := make([]string, len(fused))
	for i, f := range fused {
		out[i] = f.ID
	}
	return out
}
