package lexical

import (
	"slices"
	"strings"
	"sync"

	"github.com/fonte-rag/fonte/analysis"
)

// NewIndexParallel is NewIndexTokens with the work spread over workers
// goroutines (fewer when there are fewer documents; 1 or less runs
// NewIndexTokens itself): each analyses and counts a contiguous range of
// documents with a vocabulary of its own, then the vocabularies are merged
// and each range's postings are written into their place. The index is
// identical to NewIndexTokens's. tokensOf is called once per document,
// concurrently, so it must be safe for concurrent use (every Analyzer in
// package analysis is).
func NewIndexParallel(n int, tokensOf func(doc int) []string, an analysis.Analyzer, workers int) *Index {
	workers = min(workers, n)
	if workers <= 1 {
		return NewIndexTokens(n, tokensOf, an)
	}
	ix := &Index{an: an, lengths: make([]uint32, n), fwdStart: make([]uint32, n+1)}

	// Pass 1, per range: analyse, give terms local ids in order of first
	// appearance, and keep each document's distinct local ids and counts.
	shards := make([]shard, workers)
	var wg sync.WaitGroup
	for w := range shards {
		s := &shards[w]
		s.lo, s.hi = w*n/workers, (w+1)*n/workers
		wg.Go(func() { s.count(ix, tokensOf) })
	}
	wg.Wait()

	// The vocabulary: every range's words, sorted, without repeats.
	var all []string
	for i := range shards {
		all = append(all, shards[i].words...)
	}
	slices.Sort(all)
	ix.terms = slices.Clip(slices.Compact(all))
	if ix.terms == nil {
		ix.terms = []string{} // as NewIndexTokens makes it
	}
	ix.ids = make(map[string]uint32, len(ix.terms))
	for id, t := range ix.terms {
		ix.ids[t] = uint32(id)
	}

	// Pass 2, per range: final ids, each document's terms sorted by them,
	// and document frequencies by range.
	for i := range shards {
		s := &shards[i]
		wg.Go(func() { s.renumber(ix) })
	}
	wg.Wait()

	// Lay out the postings: term t's list holds range 0's documents, then
	// range 1's, and so on, so each comes out sorted.
	total := 0
	for i := range shards {
		total += len(shards[i].fwdTerms)
	}
	docIDs, freqs := make([]uint32, total), make([]uint32, total)
	ix.postings = make([]Postings, len(ix.terms))
	next := make([][]uint32, workers) // per range, per term: where its next posting goes
	for i := range next {
		next[i] = make([]uint32, len(ix.terms))
	}
	off := uint32(0)
	for t := range ix.terms {
		start := off
		for i := range shards {
			next[i][t] = off
			off += shards[i].df[t]
		}
		ix.postings[t] = Postings{Docs: docIDs[start:off:off], Freqs: freqs[start:off:off]}
	}
	if total > 0 { // nil otherwise, as NewIndexTokens leaves them
		ix.fwdTerms, ix.fwdFreqs = make([]uint32, 0, total), make([]uint32, 0, total)
	}
	for i := range shards {
		s := &shards[i]
		base := uint32(len(ix.fwdTerms))
		for d := s.lo; d < s.hi; d++ {
			ix.fwdStart[d+1] = base + s.start[d-s.lo+1]
		}
		ix.fwdTerms = append(ix.fwdTerms, s.fwdTerms...)
		ix.fwdFreqs = append(ix.fwdFreqs, s.fwdFreqs...)
		nx := next[i]
		wg.Go(func() {
			for d := s.lo; d < s.hi; d++ {
				lo, hi := s.start[d-s.lo], s.start[d-s.lo+1]
				for j := lo; j < hi; j++ {
					t := s.fwdTerms[j]
					docIDs[nx[t]], freqs[nx[t]] = uint32(d), s.fwdFreqs[j]
					nx[t]++
				}
			}
		})
	}
	wg.Wait()
	for _, l := range ix.lengths {
		ix.total += uint64(l)
	}
	return ix
}

// shard is one range of documents being indexed by NewIndexParallel.
type shard struct {
	lo, hi   int
	words    []string          // local id -> term
	local    map[string]uint32 // term -> local id
	start    []uint32          // by document in the range, and one past: offsets into fwdTerms
	fwdTerms []uint32          // local ids, then final ids sorted per document
	fwdFreqs []uint32
	df       []uint32 // by final id: documents of the range containing it
}

func (s *shard) count(ix *Index, tokensOf func(int) []string) {
	s.local = make(map[string]uint32)
	s.start = make([]uint32, s.hi-s.lo+1)
	var counts, touched []uint32
	for d := s.lo; d < s.hi; d++ {
		tokens := tokensOf(d)
		ix.lengths[d] = uint32(len(tokens))
		for _, tok := range tokens {
			id, ok := s.local[tok]
			if !ok {
				tok = strings.Clone(tok) // as NewIndexTokens: keep no document alive
				id = uint32(len(s.words))
				s.local[tok] = id
				s.words = append(s.words, tok)
				counts = append(counts, 0)
			}
			if counts[id] == 0 {
				touched = append(touched, id)
			}
			counts[id]++
		}
		for _, id := range touched {
			s.fwdTerms = append(s.fwdTerms, id)
			s.fwdFreqs = append(s.fwdFreqs, counts[id])
			counts[id] = 0
		}
		touched = touched[:0]
		s.start[d-s.lo+1] = uint32(len(s.fwdTerms))
	}
}

func (s *shard) renumber(ix *Index) {
	final := make([]uint32, len(s.words))
	for l, w := range s.words {
		final[l] = ix.ids[w]
	}
	s.words, s.local = nil, nil
	s.df = make([]uint32, len(ix.terms))
	for i, l := range s.fwdTerms {
		s.fwdTerms[i] = final[l]
		s.df[final[l]]++
	}
	var buf []pair
	for d := range s.hi - s.lo {
		lo, hi := s.start[d], s.start[d+1]
		buf = sortPairs(s.fwdTerms[lo:hi], s.fwdFreqs[lo:hi], buf)
	}
}
