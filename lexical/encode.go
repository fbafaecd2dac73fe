package lexical

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strings"

	"github.com/fonte-rag/fonte/analysis"

	"github.com/fonte-rag/fonte/internal/piecewise"
)

// The binary forms of Index and BM25, version 1. All integers are unsigned
// varints (encoding/binary's Uvarint) unless said otherwise.
//
// Index:
//
//	"fonteLX" 0x01                        magic and version
//	N, then N document lengths           analysed tokens per document
//	T, then T terms in increasing order  each as the length of the prefix it
//	                                     shares with the previous term, the
//	                                     length of the rest, the rest's bytes
//	T postings lists, by term id         df, then df pairs (gap, freq-1):
//	                                     the first gap is the document number,
//	                                     each next one the distance from the
//	                                     previous document
//	CRC-32C of all the bytes before it   4 bytes, little-endian
//
// BM25: "fonteBM" 0x01, k1 and b as IEEE 754 bits (8 bytes each,
// little-endian), the Index form, then a CRC-32C of all of it. Weights,
// bounds and the forward index are recomputed on decoding, so the form holds
// nothing that a reader could get out of step with the postings.
//
// The analyzer is not encoded: the decoder is given it, as NewIndex is.
const (
	indexMagic = "fonteLX\x01"
	bm25Magic  = "fonteBM\x01"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrFormat is wrapped by every decoding error: the data is not an encoding
// this version of the package reads, or is damaged.
var ErrFormat = errors.New("lexical: bad encoding")

// AppendBinary appends the index's binary form (see the format notes in
// encode.go) to b. It implements encoding.BinaryAppender; the error is
// always nil.
func (ix *Index) AppendBinary(b []byte) ([]byte, error) {
	start := len(b)
	b = append(b, indexMagic...)
	b = binary.AppendUvarint(b, uint64(len(ix.lengths)))
	for _, l := range ix.lengths {
		b = binary.AppendUvarint(b, uint64(l))
	}
	b = binary.AppendUvarint(b, uint64(ix.NumTerms()))
	prev := ""
	for id := range ix.NumTerms() {
		t := ix.term(id)
		shared := 0
		for shared < len(prev) && shared < len(t) && prev[shared] == t[shared] {
			shared++
		}
		b = binary.AppendUvarint(b, uint64(shared))
		b = binary.AppendUvarint(b, uint64(len(t)-shared))
		b = append(b, t[shared:]...)
		prev = t
	}
	for id := range ix.NumTerms() {
		p := ix.Postings(id)
		b = binary.AppendUvarint(b, uint64(len(p.Docs)))
		last := uint32(0)
		for i, d := range p.Docs {
			b = binary.AppendUvarint(b, uint64(d-last))
			b = binary.AppendUvarint(b, uint64(p.Freqs[i]-1))
			last = d
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli)), nil
}

// MarshalBinary returns the index's binary form. It implements
// encoding.BinaryMarshaler; the error is always nil.
func (ix *Index) MarshalBinary() ([]byte, error) { return ix.AppendBinary(nil) }

// AppendBinary appends the model's binary form, its parameters and its
// index, to b. It implements encoding.BinaryAppender; the error is always
// nil.
func (m *BM25) AppendBinary(b []byte) ([]byte, error) {
	start := len(b)
	b = append(b, bm25Magic...)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.opts.K1))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.opts.B))
	b, _ = m.ix.AppendBinary(b)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli)), nil
}

// MarshalBinary returns the model's binary form. It implements
// encoding.BinaryMarshaler; the error is always nil.
func (m *BM25) MarshalBinary() ([]byte, error) { return m.AppendBinary(nil) }

// DecodeIndex reads an index from its binary form; an is the analyzer
// queries will use, the one the index was built with. It checks the
// checksum and every invariant of the index (sorted unique terms, sorted
// postings within range, frequencies adding up to the document lengths),
// so damaged or foreign data yields an error wrapping ErrFormat, never a
// panic or an index that misbehaves later.
func DecodeIndex(data []byte, an analysis.Analyzer) (*Index, error) {
	body, err := checked(data, indexMagic)
	if err != nil {
		return nil, err
	}
	r := reader{b: body}
	ix, err := r.index(an)
	if err != nil {
		return nil, err
	}
	if len(r.b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the postings", ErrFormat, len(r.b))
	}
	return ix, nil
}

// DecodeBM25 reads a model from its binary form, as DecodeIndex does, and
// recomputes its weights.
func DecodeBM25(data []byte, an analysis.Analyzer) (*BM25, error) {
	body, err := checked(data, bm25Magic)
	if err != nil {
		return nil, err
	}
	if len(body) < 16 {
		return nil, fmt.Errorf("%w: truncated parameters", ErrFormat)
	}
	opts := BM25Options{
		K1: math.Float64frombits(binary.LittleEndian.Uint64(body)),
		B:  math.Float64frombits(binary.LittleEndian.Uint64(body[8:])),
	}
	if !(opts.K1 >= 0) || math.IsInf(opts.K1, 0) || !(opts.B >= 0 && opts.B <= 1) {
		return nil, fmt.Errorf("%w: BM25 parameters k1=%v b=%v", ErrFormat, opts.K1, opts.B)
	}
	ix, err := DecodeIndex(body[16:], an)
	if err != nil {
		return nil, err
	}
	return NewBM25Index(ix, opts), nil
}

// checked verifies data's magic and trailing checksum and returns what lies
// between them.
func checked(data []byte, magic string) ([]byte, error) {
	if len(data) < len(magic)+4 || !strings.HasPrefix(string(data[:len(magic)]), magic[:len(magic)-1]) {
		return nil, fmt.Errorf("%w: not a %q encoding", ErrFormat, magic[:len(magic)-1])
	}
	if v, want := data[len(magic)-1], magic[len(magic)-1]; v != want {
		return nil, fmt.Errorf("%w: version %d, this package reads version %d", ErrFormat, v, want)
	}
	n := len(data) - 4
	if got, want := piecewise.Checksum(data[:n], castagnoli), binary.LittleEndian.Uint32(data[n:]); got != want {
		return nil, fmt.Errorf("%w: checksum %08x, want %08x", ErrFormat, got, want)
	}
	return data[len(magic):n], nil
}

// reader decodes varints from b, consuming it.
type reader struct{ b []byte }

// uint reads a varint no larger than limit.
func (r *reader) uint(what string, limit uint64) (uint64, error) {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		return 0, fmt.Errorf("%w: truncated or overlong %s", ErrFormat, what)
	}
	if v > limit {
		return 0, fmt.Errorf("%w: %s %d exceeds %d", ErrFormat, what, v, limit)
	}
	r.b = r.b[n:]
	return v, nil
}

func (r *reader) index(an analysis.Analyzer) (*Index, error) {
	// Every count is bounded by the bytes left (each item takes at least
	// one), so no allocation exceeds a small multiple of the input.
	n, err := r.uint("document count", min(uint64(len(r.b)), math.MaxUint32-1))
	if err != nil {
		return nil, err
	}
	ix := &Index{an: an, lengths: make([]uint32, n), fwdStart: make([]uint32, n+1)}
	for d := range ix.lengths {
		l, err := r.uint("document length", math.MaxUint32)
		if err != nil {
			return nil, err
		}
		ix.lengths[d] = uint32(l)
		ix.total += l
	}
	nt, err := r.uint("term count", uint64(len(r.b)/2))
	if err != nil {
		return nil, err
	}
	ix.terms = make([]string, nt)
	ix.ids = make(map[string]uint32, nt)
	prev := ""
	for t := range ix.terms {
		shared, err := r.uint("shared prefix", uint64(len(prev)))
		if err != nil {
			return nil, err
		}
		rest, err := r.uint("term length", math.MaxUint32)
		if err != nil {
			return nil, err
		}
		if rest > uint64(len(r.b)) {
			return nil, fmt.Errorf("%w: term %d runs past the end", ErrFormat, t)
		}
		term := prev[:shared] + string(r.b[:rest])
		r.b = r.b[rest:]
		if t > 0 && term <= prev {
			return nil, fmt.Errorf("%w: term %d %q does not follow %q", ErrFormat, t, term, prev)
		}
		ix.terms[t], ix.ids[term] = term, uint32(t)
		prev = term
	}

	// Postings, into two shared arrays grown as lists arrive, then cut into
	// capacity-clipped windows as NewIndexTokens lays them out.
	// A posting takes at least two bytes and one token of its document,
	// which bounds their number without a first pass.
	capacity := min(ix.total, uint64(len(r.b)/2))
	docs, freqs := make([]uint32, 0, capacity), make([]uint32, 0, capacity)
	ends := make([]int, nt)
	sums := make([]uint64, n) // frequencies per document, to check lengths
	for t := range ix.terms {
		df, err := r.uint("document frequency", min(n, uint64(len(r.b)/2)))
		if err != nil {
			return nil, err
		}
		if df == 0 {
			return nil, fmt.Errorf("%w: term %q has no postings", ErrFormat, ix.terms[t])
		}
		d := uint64(0)
		for i := range df {
			gap, err := r.uint("document gap", n)
			if err != nil {
				return nil, err
			}
			if i > 0 && gap == 0 {
				return nil, fmt.Errorf("%w: term %q lists a document twice", ErrFormat, ix.terms[t])
			}
			if d += gap; d >= n {
				return nil, fmt.Errorf("%w: term %q lists document %d of %d", ErrFormat, ix.terms[t], d, n)
			}
			f, err := r.uint("frequency", math.MaxUint32-1)
			if err != nil {
				return nil, err
			}
			docs = append(docs, uint32(d))
			freqs = append(freqs, uint32(f+1))
			sums[d] += f + 1
			ix.fwdStart[d+1]++
		}
		ends[t] = len(docs)
	}
	for d, s := range sums {
		if s != uint64(ix.lengths[d]) {
			return nil, fmt.Errorf("%w: document %d has length %d but %d postings occurrences", ErrFormat, d, ix.lengths[d], s)
		}
	}
	ix.postings = make([]Postings, nt)
	lo := 0
	for t, hi := range ends {
		ix.postings[t] = Postings{Docs: docs[lo:hi:hi], Freqs: freqs[lo:hi:hi]}
		lo = hi
	}

	// The forward index: counts are in fwdStart[d+1]; make them offsets,
	// then fill in term order so each document's terms come out sorted.
	for d := range n {
		ix.fwdStart[d+1] += ix.fwdStart[d]
	}
	if len(docs) > 0 { // nil otherwise, as NewIndexTokens leaves them
		ix.fwdTerms = make([]uint32, len(docs))
		ix.fwdFreqs = make([]uint32, len(docs))
	}
	next := make([]uint32, n)
	copy(next, ix.fwdStart[:n])
	for t, p := range ix.postings {
		for i, d := range p.Docs {
			ix.fwdTerms[next[d]], ix.fwdFreqs[next[d]] = uint32(t), p.Freqs[i]
			next[d]++
		}
	}
	return ix, nil
}
