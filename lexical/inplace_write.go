package lexical

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
)

// inplaceForm is what the in-place form holds (see the notes in
// inplace.go), given by its counts and by functions that produce each
// section, so that one writer lays the form out for both sources: a model
// in memory (AppendInPlace) and postings merged from runs on disk
// (InPlaceBuilder), and both produce the same bytes.
type inplaceForm struct {
	n, nt, p, total uint64
	width, dict     uint64 // bytes per frequency; bytes of the dictionary
	k1, b           float64
	lengths         []uint32
	term            func(t int) string
	df              func(t int) uint64
	idf, upper      []float64
	// postings writes every posting's document (freqs false) or frequency
	// (freqs true), terms in order, documents increasing per term.
	postings func(f *formWriter, freqs bool) error
}

// freqWidth is the narrowest width, in bytes, that holds maxFreq.
func freqWidth(maxFreq uint32) uint64 {
	switch {
	case maxFreq <= math.MaxUint8:
		return 1
	case maxFreq <= math.MaxUint16:
		return 2
	}
	return 4
}

// layout is where the form's sections start.
func (s *inplaceForm) layout() inplaceLayout {
	return layoutOf(s.n, s.nt, s.p, s.dict, s.width)
}

// write writes the form, trailer included, to f. It checks every section's
// size against the counts, so a source whose postings disagree with them
// (a run file changed under the builder, say) gives an error rather than
// a form that does not open.
func (s *inplaceForm) write(f *formWriter) error {
	l := s.layout()
	f.bytes([]byte(inplaceMagic))
	for _, v := range [inplaceFields - 1]uint64{
		s.n, s.nt, s.p, s.total,
		math.Float64bits(s.k1), math.Float64bits(s.b), math.Float64bits(avgLen(s.total, s.n)),
		s.width, s.dict,
	} {
		f.u64(v)
	}
	for _, off := range l {
		f.u64(off)
	}
	for _, n := range s.lengths {
		f.u32(n)
	}
	f.pad()
	if err := f.at(l, secTermEnds); err != nil {
		return err
	}
	end := uint32(0)
	f.u32(0)
	for t := range int(s.nt) {
		end += uint32(len(s.term(t)))
		f.u32(end)
	}
	f.pad()
	for t := range int(s.nt) {
		f.string(s.term(t))
	}
	f.pad()
	if err := f.at(l, secStarts); err != nil {
		return err
	}
	next := uint64(0)
	f.u64(0)
	for t := range int(s.nt) {
		next += s.df(t)
		f.u64(next)
	}
	for _, x := range s.idf {
		f.u64(math.Float64bits(x))
	}
	for _, x := range s.upper {
		f.u64(math.Float64bits(x))
	}
	if err := f.at(l, secDocs); err != nil {
		return err
	}
	if err := s.postings(f, false); err != nil {
		return err
	}
	f.pad()
	if err := f.at(l, secFreqs); err != nil {
		return err
	}
	f.width = s.width
	if err := s.postings(f, true); err != nil {
		return err
	}
	f.pad()
	if err := f.at(l, secEnd); err != nil {
		return err
	}
	return f.finish()
}

// formStreamBuffer is how many bytes a streaming formWriter gathers before
// writing them out.
const formStreamBuffer = 1 << 16

// formWriter writes the bytes of one form and their CRC-32C, either
// appended to a slice (w nil) or streamed to w through a buffer.
type formWriter struct {
	b     []byte // the slice appended to, or the bytes not yet written to w
	start int    // where the form starts in b, when appending
	w     io.Writer
	crc   uint32 // of the bytes already written to w
	n     uint64 // bytes already written to w
	width uint64 // of the frequencies freq writes
	err   error  // the first error writing to w
}

// off is the number of bytes of the form so far.
func (f *formWriter) off() uint64 { return f.n + uint64(len(f.b)-f.start) }

// at checks that the form is at the start of section i.
func (f *formWriter) at(l inplaceLayout, i int) error {
	if f.err != nil {
		return f.err
	}
	if got := f.off(); got != l[i] {
		return fmt.Errorf("lexical: in-place BM25: section %d would start at byte %d, the header says %d: the postings disagree with their counts", i, got, l[i])
	}
	return nil
}

func (f *formWriter) u32(v uint32) {
	f.b = binary.LittleEndian.AppendUint32(f.b, v)
	f.spill()
}

func (f *formWriter) u64(v uint64) {
	f.b = binary.LittleEndian.AppendUint64(f.b, v)
	f.spill()
}

func (f *formWriter) bytes(p []byte) {
	f.b = append(f.b, p...)
	f.spill()
}

func (f *formWriter) string(s string) {
	f.b = append(f.b, s...)
	f.spill()
}

// freq writes one frequency in f.width bytes.
func (f *formWriter) freq(v uint32) {
	switch f.width {
	case 1:
		f.b = append(f.b, byte(v))
	case 2:
		f.b = binary.LittleEndian.AppendUint16(f.b, uint16(v))
	default:
		f.b = binary.LittleEndian.AppendUint32(f.b, v)
	}
	f.spill()
}

// pad writes zeros up to the next multiple of 8 bytes of the form.
func (f *formWriter) pad() {
	for f.off()%8 != 0 {
		f.b = append(f.b, 0)
	}
}

// spill writes the buffer out once it is full, when streaming.
func (f *formWriter) spill() {
	if f.w != nil && len(f.b) >= formStreamBuffer {
		f.flush()
	}
}

func (f *formWriter) flush() {
	if f.err == nil {
		f.crc = crc32.Update(f.crc, castagnoli, f.b)
		f.write()
	}
	f.n += uint64(len(f.b))
	f.b = f.b[:0]
}

// write writes the buffer to w, keeping the first error.
func (f *formWriter) write() {
	if _, err := f.w.Write(f.b); err != nil {
		f.err = fmt.Errorf("lexical: writing the in-place BM25 form: %w", err)
	}
}

// finish appends the CRC-32C trailer and, when streaming, writes out what
// is left.
func (f *formWriter) finish() error {
	if f.w == nil {
		f.b = binary.LittleEndian.AppendUint32(f.b, crc32.Checksum(f.b[f.start:], castagnoli))
		return nil
	}
	f.b = binary.LittleEndian.AppendUint32(f.b, crc32.Update(f.crc, castagnoli, f.b))
	if f.err == nil {
		f.write()
	}
	f.n += uint64(len(f.b))
	f.b = f.b[:0]
	return f.err
}
