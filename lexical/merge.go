package lexical

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/fonte-rag/fonte/internal/yield"
)

// An InPlaceBuilder given a previous model (Reuse) builds the form of a
// new corpus that shares documents with it without analysing them again:
// a shared document is added by its number in the old model (AddReused),
// the others by their tokens (Add), all in the new corpus's order. Finish
// then merges, term by term, the old model's postings of the documents
// reused, renumbered, with the runs of the documents added; the old
// model's documents that were not reused are left out. The form is byte
// for byte the one a builder given every document's tokens writes, as
// long as each reused document's tokens are those the old model was built
// from: the caller's promise (same analyzer, same text).
//
// Renumbering may reorder the old documents: each term's renumbered list
// is sorted when it is out of order (a store's write moves the survivors
// of the segments it rewrites behind the segments it keeps, so most lists
// stay in order and the rest are a few sorted pieces).
//
// Memory beyond a builder's own: 4 bytes per old document for the
// renumbering, and buffers for one term's lists, about 24 bytes per
// posting of the longest (O(N), as the lengths are), none per posting of
// the corpus.

// reuse is the previous model an InPlaceBuilder copies documents from.
type reuse struct {
	old      *BM25
	oldToNew []int32 // by old document: its new number, -1 if not reused
	used     int     // old documents reused so far
}

// Reuse makes old the model that AddReused copies documents from. It must
// be called before any document is added. When old was opened in place,
// its form's checksum is verified first (the merge trusts every posting
// it copies); the error wraps ErrFormat, and a caller would then build
// from every document's tokens instead.
func (b *InPlaceBuilder) Reuse(old *BM25) error {
	switch {
	case b.err != nil:
		return b.err
	case b.finished || len(b.lengths) > 0 || b.reuse != nil:
		return errors.New("lexical: InPlaceBuilder.Reuse after documents were added")
	case old.ix.N() >= math.MaxInt32:
		return fmt.Errorf("lexical: InPlaceBuilder.Reuse: %d documents are too many to renumber", old.ix.N())
	}
	if f := old.ix.flat; f != nil {
		if err := VerifyInPlace(f.data); err != nil {
			return err
		}
	}
	m := make([]int32, old.ix.N())
	for i := range m {
		m[i] = -1
	}
	b.reuse = &reuse{old: old, oldToNew: m}
	return nil
}

// AddReused adds the next document as a copy of the previous model's
// document oldDoc (see Reuse); each old document can be added once.
func (b *InPlaceBuilder) AddReused(oldDoc int) error {
	switch {
	case b.err != nil:
		return b.err
	case b.finished:
		return errors.New("lexical: InPlaceBuilder.AddReused after Finish")
	case b.reuse == nil:
		return errors.New("lexical: InPlaceBuilder.AddReused without Reuse")
	case oldDoc < 0 || oldDoc >= len(b.reuse.oldToNew):
		return fmt.Errorf("lexical: InPlaceBuilder.AddReused: document %d of a model of %d", oldDoc, len(b.reuse.oldToNew))
	case b.reuse.oldToNew[oldDoc] >= 0:
		return fmt.Errorf("lexical: InPlaceBuilder.AddReused: document %d of the previous model added twice", oldDoc)
	case len(b.lengths) >= math.MaxInt32:
		b.err = fmt.Errorf("lexical: a merged in-place BM25 form holds at most %d documents", math.MaxInt32)
		return b.err
	}
	l := b.reuse.old.ix.lengths[oldDoc]
	b.reuse.oldToNew[oldDoc] = int32(len(b.lengths))
	b.reuse.used++
	b.lengths = append(b.lengths, l)
	b.total += uint64(l)
	return nil
}

// AddBatchedReusing is AddBatched for a builder given a previous model:
// document i is the old model's document old(i) when that is >= 0
// (AddReused), and is analysed otherwise (tokensOf(i), on the builder's
// workers, batch analysed documents at a time).
func (b *InPlaceBuilder) AddBatchedReusing(n, batch int, old func(i int) int, tokensOf func(i int) []string) error {
	batch = max(1, batch)
	workers := b.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var fresh []int // the documents of the batch to analyse
	tokens := make([][]string, batch)
	for lo := 0; lo < n; {
		// A batch ends after batch documents to analyse, or at n.
		fresh = fresh[:0]
		hi := lo
		for ; hi < n && len(fresh) < batch; hi++ {
			if old(hi) < 0 {
				fresh = append(fresh, hi)
			}
		}
		var wg sync.WaitGroup
		for w := range min(workers, len(fresh)) {
			wg.Go(func() {
				y := yield.NewEvery(analysedPerYield)
				for k := w; k < len(fresh); k += workers {
					tokens[k] = tokensOf(fresh[k])
					y.Step(1)
				}
			})
		}
		wg.Wait()
		k := 0
		for i := lo; i < hi; i++ {
			var err error
			if j := old(i); j >= 0 {
				err = b.AddReused(j)
			} else {
				err = b.Add(tokens[k])
				tokens[k] = nil
				k++
			}
			if err != nil {
				return err
			}
		}
		lo = hi
	}
	return nil
}

// Reused is the number of documents added by AddReused.
func (b *InPlaceBuilder) Reused() int {
	if b.reuse == nil {
		return 0
	}
	return b.reuse.used
}

// lists lists the terms of the old model and of the runs together: a
// term's postings are the old model's of the reused documents, renumbered
// (and sorted if need be), merged with the runs' of the documents added.
// A term whose documents were all left out is left out.
func (r *reuse) lists(sources []runSource) termLists {
	return func(fn func(t int, term []byte, docs, freqs []uint32) error) error {
		ix := r.old.ix
		nt := ix.NumTerms()
		var (
			ot                int // the old model's next term
			t                 int // the next term of the form
			oldTerm           []byte
			newDocs, newFreqs []uint32
			oldDocs, oldFreqs []uint32
			docs, freqs       []uint32
			sorted            []uint64
		)
		emit := func(term []byte, docs, freqs []uint32) error {
			if len(docs) == 0 {
				return nil
			}
			t++
			return fn(t-1, term, docs, freqs)
		}
		// old renumbers old term ot's postings into oldDocs and oldFreqs.
		old := func(ot int) error {
			oldDocs, oldFreqs = oldDocs[:0], oldFreqs[:0]
			ds := ix.docs(uint32(ot))
			if len(ds) != ix.DocFreq(ot) {
				return fmt.Errorf("%w: the previous BM25 model's postings of term %q are damaged", ErrFormat, ix.term(ot))
			}
			inOrder, prev := true, int32(-1)
			for j, d := range ds {
				if j&(postingsPerYield-1) == postingsPerYield-1 {
					// A common term's postings are seconds' worth at a
					// million chunks under load: give way within them.
					yield.ToSearches()
				}
				nd := r.oldToNew[d]
				if nd < 0 {
					continue
				}
				inOrder = inOrder && nd > prev
				prev = nd
				oldDocs, oldFreqs = append(oldDocs, uint32(nd)), append(oldFreqs, ix.freqAt(uint32(ot), j))
			}
			if !inOrder {
				sorted = sorted[:0]
				for j, d := range oldDocs {
					sorted = append(sorted, uint64(d)<<32|uint64(oldFreqs[j]))
				}
				slices.Sort(sorted)
				for j, p := range sorted {
					oldDocs[j], oldFreqs[j] = uint32(p>>32), uint32(p)
				}
			}
			return nil
		}
		// merge merges the renumbered old postings with the new ones.
		merge := func() {
			docs, freqs = docs[:0], freqs[:0]
			i, j := 0, 0
			for i < len(oldDocs) && j < len(newDocs) {
				if (i+j)&(postingsPerYield-1) == postingsPerYield-1 {
					yield.ToSearches() // a common term's lists, as in old
				}
				if oldDocs[i] < newDocs[j] {
					docs, freqs = append(docs, oldDocs[i]), append(freqs, oldFreqs[i])
					i++
				} else {
					docs, freqs = append(docs, newDocs[j]), append(freqs, newFreqs[j])
					j++
				}
			}
			docs, freqs = append(append(docs, oldDocs[i:]...), newDocs[j:]...), append(append(freqs, oldFreqs[i:]...), newFreqs[j:]...)
		}
		// oldOnly emits the old terms before term (all of them if all).
		oldOnly := func(term []byte, all bool) error {
			for ; ot < nt && (all || ix.term(ot) < string(term)); ot++ {
				if err := old(ot); err != nil {
					return err
				}
				oldTerm = append(oldTerm[:0], ix.term(ot)...)
				if err := emit(oldTerm, oldDocs, oldFreqs); err != nil {
					return err
				}
			}
			return nil
		}
		err := mergeRuns(sources, func(_ int, term []byte, heads []*runReader) error {
			if err := oldOnly(term, false); err != nil {
				return err
			}
			var err error
			if newDocs, newFreqs, err = readHeads(heads, newDocs[:0], newFreqs[:0]); err != nil {
				return err
			}
			if ot < nt && ix.term(ot) == string(term) {
				if err := old(ot); err != nil {
					return err
				}
				ot++
				merge()
				return emit(term, docs, freqs)
			}
			return emit(term, newDocs, newFreqs)
		})
		if err != nil {
			return err
		}
		return oldOnly(nil, true)
	}
}
