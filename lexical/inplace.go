package lexical

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/fonte-rag/fonte/analysis"

	"github.com/fonte-rag/fonte/internal/piecewise"
)

// The in-place form of BM25, version 1: laid out so that a model can be
// searched straight from the bytes (a read-only memory map, typically)
// without decoding the postings. Every integer and float is little-endian
// and every section starts at a multiple of 8 bytes from the start of the
// form, padded with zeros; so when the form itself starts 8-byte aligned
// in memory, each section can be viewed as a slice of its type.
//
//	header, 152 bytes:
//	  0  "fonteBI" 0x01           magic and version
//	  8  N                        documents (uint64)
//	 16  T                        terms (uint64)
//	 24  P                        postings (uint64)
//	 32  total length             sum of the documents' lengths (uint64)
//	 40  k1, b, avg length        IEEE 754 bits (3 × 8 bytes); avg = total/N
//	 64  W                        bytes per frequency: 1, 2 or 4 (uint64)
//	 72  D                        bytes of the term dictionary (uint64)
//	 80  9 offsets                of the sections below, then of the trailer
//	lengths    [N]uint32          analysed tokens per document
//	term ends  [T+1]uint32        term t is dict[ends[t]:ends[t+1]]; ends[0] = 0
//	dict       [D]byte            the terms, sorted, concatenated
//	starts     [T+1]uint64        term t's postings are [starts[t], starts[t+1])
//	idf        [T]float64         each term's idf
//	upper      [T]float64         each term's largest posting weight
//	docs       [P]uint32          the postings' documents, increasing per term
//	freqs      [P]uintW           the postings' frequencies (>= 1)
//	trailer    4 bytes            CRC-32C of every byte before it
//
// W is the narrowest width that holds the largest frequency: 1 byte for
// chunks of a few hundred tokens, so a posting costs 5 bytes. Weights are
// not stored: they are computed per posting at query time with the
// expression NewBM25Index stores (bm25Weight), so scores are identical
// bit for bit. The forward index is not stored either (see DocTerms).
const (
	inplaceMagic  = "fonteBI\x01"
	inplaceHeader = 152
	inplaceFields = 10 // header words before the offsets
	inplaceOffs   = 9  // section offsets, the trailer's last
)

// maxInPlaceK1 bounds k1 in the in-place form, so that no weight can
// overflow whatever the other fields say.
const maxInPlaceK1 = 1e200

// littleEndian says whether the machine's byte order is the form's, so that
// sections can be viewed rather than copied.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// inplaceLayout is where each section of the form starts, from the start of
// the form; end is the trailer's offset.
type inplaceLayout [inplaceOffs]uint64

const (
	secLengths = iota
	secTermEnds
	secDict
	secStarts
	secIDF
	secUpper
	secDocs
	secFreqs
	secEnd
)

// layoutOf places the sections for the given counts and widths.
func layoutOf(n, nt, p, dict, width uint64) inplaceLayout {
	var l inplaceLayout
	off := uint64(inplaceHeader)
	sizes := [inplaceOffs - 1]uint64{4 * n, 4 * (nt + 1), dict, 8 * (nt + 1), 8 * nt, 8 * nt, 4 * p, width * p}
	for i, size := range sizes {
		l[i] = off
		off = (off + size + 7) &^ 7
	}
	l[secEnd] = off
	return l
}

// AppendInPlace appends the model's in-place form (see the notes in
// inplace.go) to b and returns the extended slice. The form's sections are
// aligned to 8 bytes from its start, so a reader that views them in place
// needs the form at an 8-byte-aligned address; OpenBM25InPlace copies the
// sections it cannot view. The model may itself have been opened in place.
func (m *BM25) AppendInPlace(b []byte) []byte {
	ix := m.ix
	nt := ix.NumTerms()
	var p, dict uint64
	maxFreq := uint32(0)
	for t := range nt {
		dict += uint64(len(ix.term(t)))
		ps := ix.Postings(t)
		p += uint64(len(ps.Docs))
		for _, f := range ps.Freqs {
			maxFreq = max(maxFreq, f)
		}
	}
	form := inplaceForm{
		n: uint64(ix.N()), nt: uint64(nt), p: p, total: ix.total,
		width: freqWidth(maxFreq), dict: dict,
		k1: m.opts.K1, b: m.opts.B,
		lengths: ix.lengths,
		term:    ix.term,
		df:      func(t int) uint64 { return uint64(ix.docFreqChecked(t)) },
		idf:     m.idf, upper: m.upper,
		postings: func(f *formWriter, freqs bool) error {
			for t := range nt {
				ps := ix.Postings(t)
				if freqs {
					for _, x := range ps.Freqs {
						f.freq(x)
					}
					continue
				}
				for _, d := range ps.Docs {
					f.u32(d)
				}
			}
			return nil
		},
	}
	f := formWriter{b: slices.Grow(b, int(form.layout()[secEnd])+4), start: len(b)}
	if err := form.write(&f); err != nil {
		panic(err) // the counts above are the postings': cannot happen
	}
	return f.b
}

// VerifyInPlace checks the CRC-32C trailer of an in-place form, the check
// OpenBM25InPlace leaves out so that opening costs no pass over the
// postings: run it in the background after opening, and close the model
// if it fails. The error wraps ErrFormat.
func VerifyInPlace(data []byte) error {
	if len(data) < inplaceHeader+4 || string(data[:len(inplaceMagic)]) != inplaceMagic {
		return fmt.Errorf("%w: not a %q encoding of version %d", ErrFormat, inplaceMagic[:len(inplaceMagic)-1], inplaceMagic[len(inplaceMagic)-1])
	}
	n := len(data) - 4
	if got, want := piecewise.Checksum(data[:n], castagnoli), binary.LittleEndian.Uint32(data[n:]); got != want {
		return fmt.Errorf("%w: in-place BM25 checksum %08x, want %08x", ErrFormat, got, want)
	}
	return nil
}

// OpenBM25InPlace returns a model that searches the in-place form in data
// without decoding it: document lengths, the dictionary and the postings
// are views of data (copies only of sections that are misaligned in memory,
// or on a big-endian machine), per-posting weights are computed at query
// time, and scores are identical bit for bit to those of the model the form
// was written from. an is the analyzer queries use, as for DecodeBM25.
//
// Opening checks the header and every section's place and size, the term
// dictionary (offsets increasing, terms sorted), the postings starts and
// the idf and bound of every term: time proportional to the vocabulary,
// nothing per posting and not the checksum (see VerifyInPlace). The first
// search computes each document's length normalisation (8 bytes a
// document), which saves a division per posting. Each
// postings list is checked once, the first time a search uses it; a list
// found damaged (documents out of range or out of order, a zero frequency)
// is treated as empty and reported by the index's Damage method, so a
// damaged form never makes a search panic or read out of bounds.
//
// The model keeps data: it must stay readable, unchanged, for as long as
// the model or anything obtained from it is in use. Strings the index
// returns (Term, Terms) are copies and outlive data.
func OpenBM25InPlace(data []byte, an analysis.Analyzer) (*BM25, error) {
	bad := func(format string, args ...any) (*BM25, error) {
		return nil, fmt.Errorf("%w: in-place BM25: "+format, append([]any{ErrFormat}, args...)...)
	}
	if len(data) < inplaceHeader+4 || !strings.HasPrefix(string(data[:len(inplaceMagic)]), inplaceMagic[:len(inplaceMagic)-1]) {
		return bad("not a %q encoding", inplaceMagic[:len(inplaceMagic)-1])
	}
	if v, want := data[len(inplaceMagic)-1], inplaceMagic[len(inplaceMagic)-1]; v != want {
		return bad("version %d, this package reads version %d", v, want)
	}
	word := func(i int) uint64 { return binary.LittleEndian.Uint64(data[8*i:]) }
	n, nt, p, total := word(1), word(2), word(3), word(4)
	k1, b, avg := math.Float64frombits(word(5)), math.Float64frombits(word(6)), math.Float64frombits(word(7))
	width, dict := word(8), word(9)

	// Bound every count by the bytes before multiplying, then demand the
	// exact layout the encoder writes.
	size := uint64(len(data))
	if n > size/4 || nt > size/8 || p > size/4 || dict > size {
		return bad("counts N=%d T=%d P=%d D=%d exceed the %d bytes", n, nt, p, dict, size)
	}
	if width != 1 && width != 2 && width != 4 {
		return bad("frequency width %d", width)
	}
	l := layoutOf(n, nt, p, dict, width)
	for i, want := range l {
		if got := word(inplaceFields + i); got != want {
			return bad("section %d at offset %d, want %d", i, got, want)
		}
	}
	if l[secEnd]+4 != size {
		return bad("%d bytes, the header describes %d", size, l[secEnd]+4)
	}
	if !(k1 >= 0 && k1 <= maxInPlaceK1) || !(b >= 0 && b <= 1) {
		return bad("parameters k1=%v b=%v", k1, b)
	}
	switch {
	case n == 0 && (p != 0 || total != 0 || avg != 0):
		return bad("no documents but %d postings, total length %d, average %v", p, total, avg)
	case n > 0 && avg != float64(total)/float64(n):
		return bad("average length %v for total %d over %d documents", avg, total, n)
	case total < p: // every posting counts at least one token
		return bad("total length %d below the %d postings", total, p)
	}

	section := func(i int) []byte { return data[l[i]:l[i+1]] }
	ix := &Index{an: an, total: total}
	ix.lengths = view[uint32](section(secLengths))[:n]
	f := &flatIndex{
		data:   data,
		ends:   view[uint32](section(secTermEnds))[:nt+1],
		starts: view[uint64](section(secStarts))[:nt+1],
		docs:   view[uint32](section(secDocs))[:p],
		width:  int(width),
		state:  make([]atomic.Uint32, (nt+15)/16),
	}
	if dict > 0 {
		f.dict = unsafe.String(&data[l[secDict]], dict)
	}
	switch freqs := section(secFreqs); width {
	case 1:
		f.freq1 = view[uint8](freqs)[:p]
	case 2:
		f.freq2 = view[uint16](freqs)[:p]
	default:
		f.freq4 = view[uint32](freqs)[:p]
	}
	if f.ends[0] != 0 || uint64(f.ends[nt]) != dict || f.starts[0] != 0 || f.starts[nt] != p {
		return bad("dictionary or postings do not start at 0 and end at their section's size")
	}
	idf := view[float64](section(secIDF))[:nt]
	upper := view[float64](section(secUpper))[:nt]
	// Any idf lies between those of a term in every document and of one in
	// none; any weight is below idf·(k1+1) but for rounding.
	lo := math.Log(1+0.5/(float64(n)+0.5)) / 2
	hi := math.Log(1+(float64(n)+0.5)/0.5) * 2
	for t := range int(nt) {
		if f.ends[t] > f.ends[t+1] {
			return bad("term %d ends before it starts", t)
		}
	}
	for t := range int(nt) {
		if t > 0 && f.term(t-1) >= f.term(t) {
			return bad("term %d is out of order", t)
		}
		if f.starts[t] > f.starts[t+1] || f.starts[t+1]-f.starts[t] > n {
			return bad("term %d's postings [%d, %d) are out of order", t, f.starts[t], f.starts[t+1])
		}
		if !(idf[t] >= lo && idf[t] <= hi) || !(upper[t] >= 0 && upper[t] <= idf[t]*(k1+1)*(1+1e-9)) {
			return bad("term %d has idf %v and bound %v", t, idf[t], upper[t])
		}
	}
	ix.flat = f
	m := &BM25{
		ix:    ix,
		opts:  BM25Options{K1: k1, B: b},
		idf:   idf,
		upper: upper,
		flat:  &flatBM25{ix: f, lengths: ix.lengths, k1: k1, b: b, avg: ix.AvgDocLen()},
		pool:  scratchPool{n: ix.N()},
	}
	return m, nil
}

// view returns the little-endian values in b as a slice: b itself when the
// machine is little-endian and b is aligned for T, a decoded copy otherwise.
func view[T uint8 | uint16 | uint32 | uint64 | float64](b []byte) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	n := len(b) / size
	if n == 0 {
		return []T{}
	}
	if littleEndian && uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(size) == 0 {
		return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
	}
	out := make([]T, n)
	for i := range out {
		switch v := any(&out[i]).(type) {
		case *uint8:
			*v = b[i]
		case *uint16:
			*v = binary.LittleEndian.Uint16(b[2*i:])
		case *uint32:
			*v = binary.LittleEndian.Uint32(b[4*i:])
		case *uint64:
			*v = binary.LittleEndian.Uint64(b[8*i:])
		case *float64:
			*v = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		}
	}
	return out
}

// flatIndex is the vocabulary and postings of an index opened in place.
type flatIndex struct {
	data   []byte   // the whole form, for VerifyInPlace
	dict   string   // the terms, concatenated (a view of the form)
	ends   []uint32 // T+1 offsets into dict
	starts []uint64 // T+1 offsets into docs and the frequencies
	docs   []uint32
	width  int // of the frequencies: one of freq1, freq2, freq4 is set
	freq1  []uint8
	freq2  []uint16
	freq4  []uint32

	// state holds two bits per term, 16 terms a word: its list was
	// checked, and found damaged. Lists are checked on first use so that
	// opening does no work per posting.
	state  []atomic.Uint32
	damage atomic.Pointer[error] // the first damage found

	forwardOnce sync.Once
}

func (f *flatIndex) numTerms() int { return len(f.ends) - 1 }

// term returns term t as a view of the form.
func (f *flatIndex) term(t int) string { return f.dict[f.ends[t]:f.ends[t+1]] }

// lookup binary-searches the sorted dictionary for term.
func (f *flatIndex) lookup(term string) (uint32, bool) {
	lo, hi := 0, f.numTerms()
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if f.term(mid) < term {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return uint32(lo), lo < f.numTerms() && f.term(lo) == term
}

func (f *flatIndex) docFreq(t int) int { return int(f.starts[t+1] - f.starts[t]) }

// freq is the frequency of posting p.
func (f *flatIndex) freq(p uint64) uint32 {
	switch f.width {
	case 1:
		return uint32(f.freq1[p])
	case 2:
		return uint32(f.freq2[p])
	}
	return f.freq4[p]
}

// checkedDocs returns term t's documents once they are known sound for an
// index of n documents (strictly increasing, below n, frequencies >= 1),
// nil when they are not.
func (f *flatIndex) checkedDocs(t uint32, n int) []uint32 {
	lo, hi := f.starts[t], f.starts[t+1]
	docs := f.docs[lo:hi:hi]
	w, shift := &f.state[t/16], (t%16)*2
	st := w.Load() >> shift & 3
	if st&1 == 0 {
		st = 1
		if err := f.check(t, docs, lo, n); err != nil {
			st = 3
			f.damage.CompareAndSwap(nil, &err)
		}
		w.Or(st << shift)
	}
	if st&2 != 0 {
		return nil
	}
	return docs
}

// check reports what is wrong with term t's list, whose first posting is
// number lo.
func (f *flatIndex) check(t uint32, docs []uint32, lo uint64, n int) error {
	prev := -1
	for i, d := range docs {
		if int(d) <= prev || int(d) >= n {
			return fmt.Errorf("%w: in-place BM25: term %q lists document %d after %d, of %d", ErrFormat, f.term(int(t)), d, prev, n)
		}
		prev = int(d)
		if f.freq(lo+uint64(i)) == 0 {
			return fmt.Errorf("%w: in-place BM25: term %q has frequency 0 in document %d", ErrFormat, f.term(int(t)), d)
		}
	}
	return nil
}

// postings returns term t's checked list with its frequencies as uint32s.
func (f *flatIndex) postings(t uint32, n int) Postings {
	docs := f.checkedDocs(t, n)
	if docs == nil {
		return Postings{Docs: []uint32{}, Freqs: []uint32{}}
	}
	lo, hi := f.starts[t], f.starts[t+1]
	if f.width == 4 {
		return Postings{Docs: docs, Freqs: f.freq4[lo:hi:hi]}
	}
	freqs := make([]uint32, len(docs))
	for i := range freqs {
		freqs[i] = f.freq(lo + uint64(i))
	}
	return Postings{Docs: docs, Freqs: freqs}
}

// Damage returns the first damage that searches found in an index opened
// in place (a postings list whose documents are out of range or out of
// order, or with a zero frequency; such a list is treated as empty), nil
// if none so far or for an index that was not opened in place. Lists are
// checked as searches first use them, so nil does not vouch for the lists
// not searched yet: VerifyInPlace does.
func (ix *Index) Damage() error {
	if ix.flat == nil {
		return nil
	}
	if err := ix.flat.damage.Load(); err != nil {
		return *err
	}
	return nil
}

// term returns term t, a view of the form for an index opened in place.
func (ix *Index) term(t int) string {
	if ix.flat != nil {
		return ix.flat.term(t)
	}
	return ix.terms[t]
}

// docFreqChecked is DocFreq counting a damaged list of an index opened in
// place as empty, as searches do.
func (ix *Index) docFreqChecked(id int) int {
	if ix.flat != nil {
		return len(ix.flat.checkedDocs(uint32(id), ix.N()))
	}
	return ix.DocFreq(id)
}

// buildForward fills the forward index of an index opened in place from its
// (checked) postings, as DecodeIndex does.
func (ix *Index) buildForward() {
	n := ix.N()
	ix.fwdStart = make([]uint32, n+1)
	nt := ix.NumTerms()
	total := 0
	for t := range nt {
		for _, d := range ix.docs(uint32(t)) {
			ix.fwdStart[d+1]++
			total++
		}
	}
	for d := range n {
		ix.fwdStart[d+1] += ix.fwdStart[d]
	}
	ix.fwdTerms, ix.fwdFreqs = make([]uint32, total), make([]uint32, total)
	next := slices.Clone(ix.fwdStart[:n])
	for t := range nt {
		lo := ix.flat.starts[t]
		for i, d := range ix.docs(uint32(t)) {
			ix.fwdTerms[next[d]], ix.fwdFreqs[next[d]] = uint32(t), ix.flat.freq(lo+uint64(i))
			next[d]++
		}
	}
}

// flatBM25 computes the weights of an in-place model's postings.
type flatBM25 struct {
	ix         *flatIndex
	lengths    []uint32
	k1, b, avg float64

	// norms holds each document's lengthNorm, computed on the first
	// search (time and 8 bytes per document, not per posting): it saves a
	// division per posting.
	normsOnce sync.Once
	norms     []float64
}

// docNorms returns the documents' lengthNorms, computing them once.
func (f *flatBM25) docNorms() []float64 {
	f.normsOnce.Do(func() {
		f.norms = make([]float64, len(f.lengths))
		for d, l := range f.lengths {
			f.norms[d] = lengthNorm(f.b, float64(l), f.avg)
		}
	})
	return f.norms
}

// weight is the weight of posting p, of document d, for a term of idf idf.
func (f *flatBM25) weight(idf float64, p uint64, d uint32) float64 {
	return bm25WeightNorm(idf, float64(f.ix.freq(p)), f.k1, f.docNorms()[d])
}

// fill computes into w the weights of term t's checked documents docs.
func (f *flatBM25) fill(w []float64, t uint32, docs []uint32, idf float64) {
	f.fillAt(w, f.ix.starts[t], docs, idf)
}

// fillAt computes into w the weights of the postings from number lo, of
// checked documents docs, for a term of idf idf.
func (f *flatBM25) fillAt(w []float64, lo uint64, docs []uint32, idf float64) {
	hi := lo + uint64(len(docs))
	norms := f.docNorms()
	switch f.ix.width {
	case 1:
		fillWeights(w, docs, f.ix.freq1[lo:hi], norms, idf, f.k1)
	case 2:
		fillWeights(w, docs, f.ix.freq2[lo:hi], norms, idf, f.k1)
	default:
		fillWeights(w, docs, f.ix.freq4[lo:hi], norms, idf, f.k1)
	}
}

// fillWeights is fill for one frequency width.
func fillWeights[F uint8 | uint16 | uint32](w []float64, docs []uint32, freqs []F, norms []float64, idf, k1 float64) {
	w, freqs = w[:len(docs)], freqs[:len(docs)]
	for i, d := range docs {
		w[i] = bm25WeightNorm(idf, float64(freqs[i]), k1, norms[d])
	}
}

// termWeights returns term t's documents and their weights: the stored
// ones, or on an in-place model ones computed into *buf (grown as needed),
// valid until the next call with buf.
func (m *BM25) termWeights(t uint32, buf *[]float64) ([]uint32, []float64) {
	if m.flat == nil {
		return m.ix.docs(t), m.weights[t]
	}
	docs := m.ix.docs(t)
	if cap(*buf) < len(docs) {
		*buf = make([]float64, len(docs))
	}
	w := (*buf)[:len(docs)]
	m.flat.fill(w, t, docs, m.idf[t])
	return docs, w
}

// queryTerm returns term t ready for MaxScore: its documents with their
// stored weights, or on an in-place model what computing them takes.
func (m *BM25) queryTerm(t uint32) queryTerm {
	if m.flat == nil {
		docs := m.ix.docs(t)
		return queryTerm{id: t, docs: docs, weights: m.weights[t][:len(docs)]}
	}
	return queryTerm{id: t, docs: m.ix.docs(t), flat: m.flat, idf: m.idf[t], start: m.ix.flat.starts[t]}
}

// at is the weight of the term's j-th posting: MaxScore reaches few of a
// common term's postings, so an in-place model computes only those.
func (q *queryTerm) at(j int) float64 {
	if q.weights != nil {
		return q.weights[j]
	}
	return q.flat.weight(q.idf, q.start+uint64(j), q.docs[j])
}

// materialize computes every weight of an in-place model's term into buf,
// for a list about to be walked whole; earlier terms keep their windows of
// buf even if it grows.
func (q *queryTerm) materialize(buf *[]float64) {
	if q.weights != nil {
		return
	}
	n := len(*buf)
	*buf = slices.Grow(*buf, len(q.docs))[:n+len(q.docs)]
	q.weights = (*buf)[n : n+len(q.docs) : n+len(q.docs)]
	q.flat.fill(q.weights, q.id, q.docs, q.idf)
}

// scoreDocFlat is ScoreDoc on an in-place model: a binary search for doc
// in each token's postings instead of the forward index, which the form
// does not hold.
func (m *BM25) scoreDocFlat(tokens []string, doc int) float64 {
	s := 0.0
	for _, tok := range tokens {
		id, ok := m.ix.flat.lookup(tok)
		if !ok {
			continue
		}
		docs := m.ix.docs(id)
		i, found := slices.BinarySearch(docs, uint32(doc))
		if !found {
			continue
		}
		s += m.flat.weight(m.idf[id], m.ix.flat.starts[id]+uint64(i), uint32(doc))
	}
	return s
}
