package lexical

import (
	"bytes"
	"cmp"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/fonte-rag/fonte/internal/yield"
)

// DefaultInPlaceBudget is the postings memory an InPlaceBuilder keeps when
// its options give none.
const DefaultInPlaceBudget = 64 << 20

// Memory accounted per posting held (its term, document and frequency,
// and its place in the sort that spills it), and per distinct term of a
// run on top of the term's bytes (the string, its map entry and counts).
const (
	postingCost = 16
	termCost    = 64
)

// InPlaceBuilder writes BM25's in-place form for documents added in order
// (ids 0..n-1), keeping at most about Budget bytes of postings in memory:
// beyond it, the postings gathered so far are sorted and written to a run
// file under Dir, and Finish merges the runs.
//
// The form is byte for byte the one NewBM25Index(NewIndexTokens(...),
// opts).AppendInPlace(nil) writes for the same tokens, without the index:
// memory is O(N) for the documents' lengths (4 bytes each), O(T) for the
// vocabulary while Finish writes (the terms' bytes, and 36 bytes a term
// for their dictionary offsets, postings starts, idf and bound), and
// O(Budget) for the postings (a posting held costs 16 bytes, a distinct
// term of a run 64 plus its bytes; the budget is checked after each
// document, so one document can go past it), plus about 4 MiB of read
// buffers and one term's postings (8 bytes each, so at most 8·N) while
// Finish merges: nothing is O(P). On disk, the runs hold
// the postings as uvarints, a few bytes each. Finish reads the runs three
// times, merging them by term: once for each term's document frequency,
// largest weight and the largest frequency (which fix the sections before
// the postings), once for the documents and once for the frequencies,
// which it streams to the writer in order, computing the checksum as it
// goes (w needs no Seek).
//
// A builder is not safe for concurrent use.
type InPlaceBuilder struct {
	opts    InPlaceBuilderOptions
	lengths []uint32
	total   uint64

	// The run being gathered: its terms by local id, their counts in the
	// current document, and its postings in document order.
	local   map[string]uint32
	words   []string
	counts  []uint32
	touched []uint32
	posts   []runPosting
	mem     int64 // bytes accounted to the run

	runs     []string // run files written, in document order
	reuse    *reuse   // the previous model documents are copied from (merge.go)
	finished bool
	err      error // the first error, returned by every later call
}

// InPlaceBuilderOptions configure an InPlaceBuilder.
type InPlaceBuilderOptions struct {
	// BM25 are the parameters the form records; they must be valid for
	// NewBM25Index.
	BM25 BM25Options
	// Budget is the bytes of postings held in memory before a run is
	// spilled to disk; <= 0 means DefaultInPlaceBudget.
	Budget int64
	// Dir is where run files go ("" means os.TempDir()); Finish and Close
	// remove them.
	Dir string
	// Workers is how many goroutines AddBatched analyses on; <= 0 means
	// GOMAXPROCS. A build beside live readers leaves them a processor.
	Workers int
}

// runPosting is one posting of the run being gathered: a local term id,
// a document and the term's frequency in it.
type runPosting struct{ term, doc, freq uint32 }

// NewInPlaceBuilder returns an empty builder. It panics if the BM25
// options are invalid, as NewBM25Index does.
func NewInPlaceBuilder(o InPlaceBuilderOptions) *InPlaceBuilder {
	if !(o.BM25.K1 >= 0) || !(o.BM25.B >= 0 && o.BM25.B <= 1) {
		panic(fmt.Sprintf("lexical: invalid BM25 options k1=%v b=%v", o.BM25.K1, o.BM25.B))
	}
	if o.Budget <= 0 {
		o.Budget = DefaultInPlaceBudget
	}
	if o.Dir == "" {
		o.Dir = os.TempDir()
	}
	return &InPlaceBuilder{opts: o, local: make(map[string]uint32)}
}

// Runs is the number of run files written so far by Add (Finish writes
// one more for the postings still held when Add spilled any).
func (b *InPlaceBuilder) Runs() int { return len(b.runs) }

// AddBatched adds the next n documents, the tokens of the i-th from
// tokensOf(i): batch documents at a time are analysed on every processor
// (analysis is the costly part), then added in order. Only one batch's
// tokens are held at once.
func (b *InPlaceBuilder) AddBatched(n, batch int, tokensOf func(i int) []string) error {
	batch = max(1, min(batch, n))
	workers := b.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	tokens := make([][]string, batch)
	for lo := 0; lo < n; lo += batch {
		hi := min(lo+batch, n)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				y := yield.NewEvery(analysedPerYield)
				for i := lo + w; i < hi; i += workers {
					tokens[i-lo] = tokensOf(i)
					y.Step(1)
				}
			})
		}
		wg.Wait()
		for i := lo; i < hi; i++ {
			if err := b.Add(tokens[i-lo]); err != nil {
				return err
			}
			tokens[i-lo] = nil
		}
	}
	return nil
}

// Add adds the next document, given by its analysed tokens (those
// NewIndexTokens would get for it); it spills a run when the postings
// held reach the budget. After an error the builder is unusable: every
// later call returns the same error.
func (b *InPlaceBuilder) Add(terms []string) error {
	switch {
	case b.err != nil:
		return b.err
	case b.finished:
		return errors.New("lexical: InPlaceBuilder.Add after Finish")
	case len(b.lengths) == math.MaxUint32:
		b.err = fmt.Errorf("lexical: the in-place BM25 form holds at most %d documents", uint32(math.MaxUint32))
		return b.err
	}
	doc := uint32(len(b.lengths))
	b.lengths = append(b.lengths, uint32(len(terms)))
	b.total += uint64(len(terms))
	for _, tok := range terms {
		id, ok := b.local[tok]
		if !ok {
			tok = strings.Clone(tok) // keep no caller's document alive
			id = uint32(len(b.words))
			b.local[tok] = id
			b.words = append(b.words, tok)
			b.counts = append(b.counts, 0)
			b.mem += int64(len(tok)) + termCost
		}
		if b.counts[id] == 0 {
			b.touched = append(b.touched, id)
		}
		b.counts[id]++
	}
	if need := len(b.posts) + len(b.touched); need > cap(b.posts) {
		// Grow by doubling, but not past the budget: append's growth
		// would hold up to twice the postings the budget allows.
		limit := int(min(b.opts.Budget/postingCost, math.MaxInt32))
		grown := make([]runPosting, len(b.posts), max(need, min(max(2*cap(b.posts), 1024), limit)))
		b.posts = grown[:copy(grown, b.posts)]
	}
	for _, id := range b.touched {
		b.posts = append(b.posts, runPosting{id, doc, b.counts[id]})
		b.counts[id] = 0
	}
	b.mem += postingCost * int64(len(b.touched))
	b.touched = b.touched[:0]
	if b.mem >= b.opts.Budget {
		if err := b.spill(); err != nil {
			b.err = err
			return err
		}
	}
	return nil
}

// spill writes the run gathered to a new file under Dir and empties it.
func (b *InPlaceBuilder) spill() error {
	f, err := os.CreateTemp(b.opts.Dir, "fonte-bm25-run-*")
	if err != nil {
		return fmt.Errorf("lexical: creating a BM25 postings run: %w (InPlaceBuilderOptions.Dir must be a writable directory with room for the postings)", err)
	}
	b.runs = append(b.runs, f.Name())
	w := runWriter{f: f}
	b.encodeRun(&w)
	if err := w.close(); err != nil {
		return fmt.Errorf("lexical: writing BM25 postings run %s: %w", f.Name(), err)
	}
	return nil
}

// encodeRun writes the run gathered to w, terms sorted, and empties it.
// A run is the count of its terms, then per term its length and bytes,
// its document frequency and per document the difference from the
// previous one (from 0 for the first) and the frequency, all uvarints.
func (b *InPlaceBuilder) encodeRun(w *runWriter) {
	// Counting sort of the postings by the terms' sorted order: stable,
	// so each term's documents stay increasing.
	rank := make([]uint32, len(b.words)) // sorted position -> local id
	for i := range rank {
		rank[i] = uint32(i)
	}
	slices.SortFunc(rank, func(x, y uint32) int { return strings.Compare(b.words[x], b.words[y]) })
	next := make([]uint32, len(b.words)+1) // by local id: where its next posting goes
	for _, p := range b.posts {
		next[p.term+1]++
	}
	starts := make([]uint32, len(b.words)+1) // by sorted position
	for i, id := range rank {
		starts[i+1] = starts[i] + next[id+1]
	}
	for i, id := range rank {
		next[id] = starts[i]
	}
	order := make([]uint32, len(b.posts))
	for i, p := range b.posts {
		order[next[p.term]] = uint32(i)
		next[p.term]++
	}
	w.uvarint(uint64(len(rank)))
	for i, id := range rank {
		w.uvarint(uint64(len(b.words[id])))
		w.string(b.words[id])
		w.uvarint(uint64(starts[i+1] - starts[i]))
		prev := uint32(0)
		for _, j := range order[starts[i]:starts[i+1]] {
			p := b.posts[j]
			w.uvarint(uint64(p.doc - prev))
			w.uvarint(uint64(p.freq))
			prev = p.doc
		}
	}
	clear(b.local)
	b.words, b.counts, b.posts, b.mem = nil, b.counts[:0], b.posts[:0], 0
}

// Finish writes the form of the documents added to w, followed by its
// CRC-32C trailer, and returns the bytes written; it removes the run files
// whether it succeeds or not. Errors name the run file that failed; an
// error writing to w is w's (an *os.File's names its file).
func (b *InPlaceBuilder) Finish(w io.Writer) (written int64, err error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.finished {
		return 0, errors.New("lexical: InPlaceBuilder.Finish called twice")
	}
	b.finished = true
	defer func() {
		if cerr := b.Close(); err == nil && cerr != nil {
			b.err, err = cerr, cerr
		}
	}()
	// When nothing was spilled, the postings stay in memory, encoded (no
	// disk for a corpus within the budget); otherwise the rest is a run
	// like the others, so that its encoding and the postings it encodes
	// are not held together with the merge.
	var last runWriter
	if len(b.runs) == 0 {
		b.encodeRun(&last)
	} else if len(b.posts) > 0 {
		if err := b.spill(); err != nil {
			b.err = err
			return 0, err
		}
	}
	b.local, b.words, b.counts, b.posts, b.touched = nil, nil, nil, nil, nil
	sources := make([]runSource, 0, len(b.runs)+1)
	for _, name := range b.runs {
		sources = append(sources, runSource{name: name})
	}
	if len(b.runs) == 0 {
		sources = append(sources, runSource{name: "the postings held in memory", mem: last.buf})
	}

	lists := b.runLists(sources)
	if b.reuse != nil {
		lists = b.reuse.lists(sources)
	}
	lists = yielding(lists)
	v, err := b.vocabulary(lists)
	if err != nil {
		b.err = err
		return 0, err
	}
	n := uint64(len(b.lengths))
	form := inplaceForm{
		n: n, nt: uint64(len(v.upper)), p: v.starts[len(v.upper)], total: b.total,
		width: freqWidth(v.maxFreq), dict: uint64(len(v.dict)),
		k1: b.opts.BM25.K1, b: b.opts.BM25.B,
		lengths: b.lengths,
		term:    func(t int) string { return v.dict[v.ends[t]:v.ends[t+1]] },
		df:      func(t int) uint64 { return v.starts[t+1] - v.starts[t] },
		idf:     v.idf, upper: v.upper,
		postings: func(f *formWriter, freqs bool) error {
			return lists(func(t int, term []byte, docs, fs []uint32) error {
				if f.err != nil { // stop at once when w fails
					return f.err
				}
				if t >= len(v.upper) || string(term) != v.dict[v.ends[t]:v.ends[t+1]] || uint64(len(docs)) != v.starts[t+1]-v.starts[t] {
					return fmt.Errorf("lexical: BM25 postings runs under %s changed while the form was written", b.opts.Dir)
				}
				if freqs {
					for _, fr := range fs {
						f.freq(fr)
					}
				} else {
					for _, d := range docs {
						f.u32(d)
					}
				}
				return nil
			})
		},
	}
	out := formWriter{w: w, b: make([]byte, 0, formStreamBuffer+8)}
	if err := form.write(&out); err != nil {
		b.err = err
		return int64(out.n), err
	}
	return int64(out.n), nil
}

// vocab is what the first pass over the runs gathers: the sorted terms,
// concatenated, with their ends; each term's postings start (T+1 values),
// idf and largest weight; the largest frequency.
type vocab struct {
	dict    string
	ends    []uint32
	starts  []uint64
	idf     []float64
	upper   []float64
	maxFreq uint32
}

// termLists calls fn with each term of the form in sorted order: its
// number, its bytes and its postings, documents increasing (all valid
// during the call only), stopping at fn's first error.
type termLists func(fn func(t int, term []byte, docs, freqs []uint32) error) error

// runLists lists the terms of the runs: each term's postings are its
// runs' in run order, which is document order.
func (b *InPlaceBuilder) runLists(sources []runSource) termLists {
	return func(fn func(t int, term []byte, docs, freqs []uint32) error) error {
		var docs, freqs []uint32
		return mergeRuns(sources, func(t int, term []byte, heads []*runReader) error {
			var err error
			if docs, freqs, err = readHeads(heads, docs[:0], freqs[:0]); err != nil {
				return err
			}
			return fn(t, term, docs, freqs)
		})
	}
}

// readHeads appends the current term's postings of every run in heads, in
// order, to docs and freqs.
func readHeads(heads []*runReader, docs, freqs []uint32) ([]uint32, []uint32, error) {
	for _, r := range heads {
		for range r.df {
			d, f, err := r.posting()
			if err != nil {
				return nil, nil, err
			}
			docs, freqs = append(docs, d), append(freqs, f)
		}
	}
	return docs, freqs, nil
}

// vocabulary lists the terms once for the vocabulary and the per-term
// values the sections before the postings hold, computed as NewBM25Index
// computes them, and checks the postings.
func (b *InPlaceBuilder) vocabulary(lists termLists) (*vocab, error) {
	n := len(b.lengths)
	avg := avgLen(b.total, uint64(n))
	k1, bb := b.opts.BM25.K1, b.opts.BM25.B
	v := &vocab{ends: []uint32{0}, starts: []uint64{0}}
	var dict []byte
	err := lists(func(_ int, term []byte, docs, freqs []uint32) error {
		if uint64(len(dict))+uint64(len(term)) > math.MaxUint32 {
			return fmt.Errorf("lexical: the in-place BM25 form holds at most %d bytes of terms", uint32(math.MaxUint32))
		}
		dict = append(dict, term...)
		v.ends = append(v.ends, uint32(len(dict)))
		df := uint64(len(docs))
		idf := bm25IDF(n, int(df))
		up := 0.0
		prev := int64(-1)
		for i, d := range docs {
			if i&(postingsPerYield-1) == postingsPerYield-1 {
				// A common term's million postings are tens of
				// milliseconds of weights: give way within them
				// (yielding steps between terms only).
				yield.ToSearches()
			}
			f := freqs[i]
			if int64(d) <= prev || int(d) >= n || f == 0 {
				return fmt.Errorf("lexical: BM25 postings under %s are damaged: term %q has document %d (frequency %d) after %d, of %d", b.opts.Dir, term, d, f, prev, n)
			}
			prev = int64(d)
			v.maxFreq = max(v.maxFreq, f)
			up = max(up, bm25Weight(idf, float64(f), k1, bb, float64(b.lengths[d]), avg))
		}
		v.starts = append(v.starts, v.starts[len(v.starts)-1]+df)
		v.idf = append(v.idf, idf)
		v.upper = append(v.upper, up)
		return nil
	})
	if err != nil {
		return nil, err
	}
	v.dict = string(dict)
	v.idf, v.upper = slices.Clip(v.idf), slices.Clip(v.upper)
	if v.idf == nil { // as NewBM25Index makes them for no terms
		v.idf, v.upper = []float64{}, []float64{}
	}
	return v, nil
}

// Close removes the run files that remain (Finish removes them itself);
// it may be called more than once, and abandons a builder not finished.
func (b *InPlaceBuilder) Close() error {
	var errs []error
	for _, name := range b.runs {
		if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("lexical: removing BM25 postings run: %w", err))
		}
	}
	b.runs = nil
	if !b.finished && b.err == nil {
		b.err = errors.New("lexical: InPlaceBuilder used after Close")
	}
	return errors.Join(errs...)
}

// runSource is one run to merge: a file, or bytes in memory.
type runSource struct {
	name string
	mem  []byte
}

// mergeRuns merges the runs by term, calling fn with each term's number
// in sorted order, its bytes (valid during the call) and the runs that
// hold it, in run order, hence in document order; fn must read all of
// each run's postings of the term.
func mergeRuns(sources []runSource, fn func(t int, term []byte, heads []*runReader) error) (err error) {
	// Readers' buffers shrink with their number, to keep the merge's
	// memory near 4 MiB however many runs there are.
	size := max(4<<10, (4<<20)/len(sources))
	h := make(runHeap, 0, len(sources))
	for i, s := range sources {
		r := &runReader{name: s.name, order: i}
		if s.mem != nil {
			r.src = bytes.NewReader(s.mem)
		} else {
			f, err := os.Open(s.name)
			if err != nil {
				return fmt.Errorf("lexical: reading BM25 postings run: %w", err)
			}
			defer func() {
				if cerr := f.Close(); err == nil && cerr != nil {
					err = fmt.Errorf("lexical: reading BM25 postings run: %w", cerr)
				}
			}()
			r.src = f
		}
		r.buf = make([]byte, 0, size)
		if r.terms, err = r.uvarint(); err != nil {
			return err
		}
		if ok, err := r.nextTerm(); err != nil {
			return err
		} else if ok {
			h = append(h, r)
		}
	}
	heap.Init(&h)
	var heads []*runReader
	var term []byte
	for t := 0; len(h) > 0; t++ {
		heads = heads[:0]
		term = append(term[:0], h[0].term...)
		for len(h) > 0 && bytes.Equal(h[0].term, term) {
			heads = append(heads, heap.Pop(&h).(*runReader))
		}
		if err := fn(t, term, heads); err != nil {
			return err
		}
		for _, r := range heads {
			if ok, err := r.nextTerm(); err != nil {
				return err
			} else if ok {
				heap.Push(&h, r)
			}
		}
	}
	return nil
}

// runHeap orders runs by their current term, then by run order.
type runHeap []*runReader

func (h runHeap) Len() int { return len(h) }
func (h runHeap) Less(i, j int) bool {
	if c := bytes.Compare(h[i].term, h[j].term); c != 0 {
		return c < 0
	}
	return h[i].order < h[j].order
}
func (h runHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)   { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	r := old[len(old)-1]
	*h = old[:len(old)-1]
	return r
}

// runReader reads one run through a buffer.
type runReader struct {
	name  string
	order int // the run's place in document order
	src   io.Reader
	buf   []byte // buf[pos:] is read but not consumed
	pos   int
	eof   bool

	terms uint64 // terms not yet started
	term  []byte // the current term
	df    uint64 // its postings
	left  uint64 // of them, not yet read
	doc   uint32 // the last document read
}

// fill reads until at least n bytes are buffered or the run ends.
func (r *runReader) fill(n int) error {
	if len(r.buf)-r.pos >= n || r.eof {
		return nil
	}
	r.buf = r.buf[:copy(r.buf, r.buf[r.pos:])]
	r.pos = 0
	if n > cap(r.buf) {
		r.buf = slices.Grow(r.buf, n-len(r.buf))
	}
	for len(r.buf) < n && !r.eof {
		m, err := r.src.Read(r.buf[len(r.buf):cap(r.buf)])
		r.buf = r.buf[:len(r.buf)+m]
		switch {
		case errors.Is(err, io.EOF):
			r.eof = true
		case err != nil:
			return fmt.Errorf("lexical: reading BM25 postings run %s: %w", r.name, err)
		}
	}
	return nil
}

func (r *runReader) uvarint() (uint64, error) {
	if err := r.fill(binary.MaxVarintLen64); err != nil {
		return 0, err
	}
	v, k := binary.Uvarint(r.buf[r.pos:])
	if k <= 0 {
		return 0, r.damaged("a number is cut short or too large")
	}
	r.pos += k
	return v, nil
}

func (r *runReader) damaged(what string) error {
	return fmt.Errorf("lexical: BM25 postings run %s is damaged: %s", r.name, what)
}

// nextTerm moves to the run's next term, false at its end.
func (r *runReader) nextTerm() (bool, error) {
	if r.left != 0 {
		return false, fmt.Errorf("lexical: BM25 postings run %s: term %q left %d postings unread", r.name, r.term, r.left)
	}
	if r.terms == 0 {
		return false, nil
	}
	r.terms--
	n, err := r.uvarint()
	if err != nil {
		return false, err
	}
	if n > math.MaxUint32 {
		return false, r.damaged(fmt.Sprintf("a term of %d bytes", n))
	}
	if err := r.fill(int(n)); err != nil {
		return false, err
	}
	if len(r.buf)-r.pos < int(n) {
		return false, r.damaged("a term is cut short")
	}
	r.term = append(r.term[:0], r.buf[r.pos:r.pos+int(n)]...)
	r.pos += int(n)
	if r.df, err = r.uvarint(); err != nil {
		return false, err
	}
	if r.df == 0 || r.df > math.MaxUint32 {
		return false, r.damaged(fmt.Sprintf("term %q has %d postings", r.term, r.df))
	}
	r.left, r.doc = r.df, 0
	return true, nil
}

// posting reads the current term's next posting.
func (r *runReader) posting() (doc, freq uint32, err error) {
	if r.left == 0 {
		return 0, 0, r.damaged("a term has more postings than it says")
	}
	delta, err := r.uvarint()
	if err != nil {
		return 0, 0, err
	}
	f, err := r.uvarint()
	if err != nil {
		return 0, 0, err
	}
	d := uint64(r.doc) + delta
	if d > math.MaxUint32 || f > math.MaxUint32 || (delta == 0 && r.left != r.df) {
		return 0, 0, r.damaged(fmt.Sprintf("term %q has document %d with frequency %d", r.term, d, f))
	}
	r.left--
	r.doc = uint32(d)
	return r.doc, uint32(f), nil
}

// runWriter writes a run to a file through a buffer, or gathers it in
// memory when f is nil.
type runWriter struct {
	f   *os.File
	buf []byte
	err error
}

func (w *runWriter) uvarint(v uint64) {
	w.buf = binary.AppendUvarint(w.buf, v)
	w.spill()
}

func (w *runWriter) string(s string) {
	w.buf = append(w.buf, s...)
	w.spill()
}

func (w *runWriter) spill() {
	if w.f != nil && len(w.buf) >= 1<<18 {
		if w.err == nil {
			_, w.err = w.f.Write(w.buf)
		}
		w.buf = w.buf[:0]
	}
}

// close writes out the rest and closes the file.
func (w *runWriter) close() error {
	if w.err == nil {
		_, w.err = w.f.Write(w.buf)
	}
	w.buf = nil
	return cmp.Or(w.err, w.f.Close())
}
