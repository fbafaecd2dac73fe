package disk

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"unsafe"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/vector"

	"github.com/fonte-rag/fonte/internal/piecewise"
)

// Segment and blob files; the layout is in the package documentation.
const (
	segmentVersion = 3
	blobVersion    = 2
	segHeaderLen   = 56 // version 3
	segHeaderLenV2 = 40
	segHeaderLenV1 = 36
	blobHeaderLen  = 20 // then padding up to blobDataOff in version 2
	blobDataOff    = 64 // where a version-2 blob's bytes start
	trailerLen     = 4
	// vecAlign is the alignment of a version-2 segment's vector block in
	// the file, so that a mapped block is aligned for float32 loads and
	// its rows start on cache lines as often as the dimension allows.
	vecAlign = 64
)

var (
	segMagic   = [8]byte{'F', 'O', 'N', 'T', 'E', 'S', 'E', 'G'}
	blobMagic  = [8]byte{'F', 'O', 'N', 'T', 'E', 'B', 'L', 'B'}
	castagnoli = crc32.MakeTable(crc32.Castagnoli)
)

// Chunk flags in the meta section: which strings are stored explicitly
// rather than derived from the document, the usual case costing no bytes.
const (
	flagExplicitText  = 1 << 0 // else Text is Doc.Text[Start:End]
	flagExplicitTitle = 1 << 1 // else Title is Doc.Title
	flagHexHash       = 1 << 2 // the text hash is 64 hex digits, stored as 32 bytes (version 3)
)

// Document flags, a byte before each document's record in version 3.
const docFlagHexSHA = 1 << 0 // SHA256 is 64 hex digits, stored as 32 bytes

// hexBytes is s's 32 bytes when s is 64 lowercase hex digits (a SHA-256
// as fonte writes them), so that it is stored in half the bytes; else nil.
func hexBytes(s string) []byte {
	if len(s) != 64 {
		return nil
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return nil
		}
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil
	}
	return b
}

// ioBlock is the unit vectors are converted and written or read in.
const ioBlock = 1 << 20

// summer writes through a buffer and a running CRC-32C and counts bytes.
type summer struct {
	bw  *bufio.Writer
	crc hash.Hash32
	n   int64
	err error
}

func newSummer(w io.Writer) *summer {
	return &summer{bw: bufio.NewWriterSize(w, ioBlock), crc: crc32.New(castagnoli)}
}

func (s *summer) write(p []byte) {
	if s.err != nil {
		return
	}
	s.crc.Write(p)
	_, s.err = s.bw.Write(p)
	s.n += int64(len(p))
}

// finish appends the checksum trailer and flushes.
func (s *summer) finish() (size int64, sum uint32, err error) {
	sum = s.crc.Sum32()
	s.write(binary.LittleEndian.AppendUint32(nil, sum))
	if s.err == nil {
		s.err = s.bw.Flush()
	}
	return s.n, sum, s.err
}

// writeFloats converts v to little-endian bytes a block at a time.
func (s *summer) writeFloats(v []float32, scratch []byte) {
	for len(v) > 0 && s.err == nil {
		n := min(len(v), len(scratch)/4)
		b := scratch[:4*n]
		for i, x := range v[:n] {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
		}
		s.write(b)
		v = v[n:]
	}
}

// encodeSegment writes docs, sorted by ID, as one version-3 segment and
// returns the file's size and CRC-32C.
func encodeSegment(w io.Writer, dim int, docs []*docData, withInt8 bool) (int64, uint32, error) {
	meta, dir := buildDir(docs)
	dirBytes := dir.encode(nil)
	var int8Bytes []byte
	if withInt8 && dim <= vector.MaxInt8Dim && len(dir.chunkOff) > 0 {
		int8Bytes = encodeInt8(dim, docs)
	}
	hdr := make([]byte, 0, segHeaderLen)
	hdr = append(hdr, segMagic[:]...)
	hdr = binary.LittleEndian.AppendUint32(hdr, segmentVersion)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(dim))
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(docs)))
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(dir.chunkOff)))
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(meta)))
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(dirBytes)))
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(int8Bytes)))
	// The directory's own checksum lets a reader trust it at open without
	// reading the meta section or the vectors, which the whole-file
	// checksum covers (verified in the background).
	dirSum := crc32.Update(crc32.Checksum(hdr, castagnoli), castagnoli, dirBytes)
	hdr = binary.LittleEndian.AppendUint32(hdr, dirSum)
	hdr = append(hdr, make([]byte, segHeaderLen-len(hdr))...)
	lay := layoutV3(len(meta), len(dirBytes), len(dir.chunkOff), dim, len(int8Bytes))
	s := newSummer(w)
	s.write(hdr)
	s.write(meta)
	s.write(make([]byte, lay.dir-s.n))
	s.write(dirBytes)
	s.write(make([]byte, lay.vecs-s.n))
	scratch := make([]byte, ioBlock)
	for _, d := range docs {
		s.writeFloats(d.vecs, scratch)
	}
	if int8Bytes != nil {
		s.write(make([]byte, lay.int8-s.n))
		s.write(int8Bytes)
	}
	return s.finish()
}

// encodeInt8 is the int8 section of a segment holding docs: the int8 copy
// exact search scans (vector.QuantizeBlock), codes (64-byte rows), scales
// (float32), code sums (int32), then the two error bounds (float64).
func encodeInt8(dim int, docs []*docData) []byte {
	var data []float32
	for _, d := range docs {
		data = append(data, d.vecs...)
	}
	blk := vector.QuantizeBlock(dim, data)
	n := len(blk.Scale)
	b := make([]byte, 0, int8Len(dim, n))
	b = append(b, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(blk.Codes))), len(blk.Codes))...)
	for _, x := range blk.Scale {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	for _, x := range blk.Sum {
		b = binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(blk.MaxErr))
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(blk.MaxNorm))
}

// int8Len is the size of the int8 section of n rows of dimension dim.
func int8Len(dim, n int) int { return n*vector.Int8Stride(dim) + 8*n + 16 }

// readInt8 views a segment's int8 section of n rows in place (copying
// where the machine or the alignment does not allow a view) and checks
// its sizes.
func readInt8(b []byte, dim, n int) (*vector.Int8Block, error) {
	stride := vector.Int8Stride(dim)
	if dim > vector.MaxInt8Dim || len(b) != int8Len(dim, n) {
		return nil, fmt.Errorf("int8 section of %d bytes for %d rows of dimension %d", len(b), n, dim)
	}
	codes := b[:n*stride]
	blk := &vector.Int8Block{
		Stride: stride,
		Codes:  unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(codes))), len(codes)),
		Scale:  floatView(b[n*stride : n*stride+4*n]),
		Sum:    int32View(b[n*stride+4*n : n*stride+8*n]),
	}
	tail := b[n*stride+8*n:]
	blk.MaxErr = math.Float64frombits(binary.LittleEndian.Uint64(tail))
	blk.MaxNorm = math.Float64frombits(binary.LittleEndian.Uint64(tail[8:]))
	if err := blk.Check(dim, n); err != nil {
		return nil, err
	}
	return blk, nil
}

// int32View is b's little-endian int32s, as floatView.
func int32View(b []byte) []int32 {
	u := leView[uint32](b, len(b)/4)
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(u))), len(u))
}

// segLayout is where a version-3 segment's sections start in the file,
// and where its trailer does.
type segLayout struct {
	dir, vecs, int8, end int64
}

// layoutV3 places a version-3 segment's sections: the meta section after
// the header, the directory 8-aligned after it, the vector block and the
// int8 section (when int8Len > 0) aligned to vecAlign.
func layoutV3(metaLen, dirLen, chunks, dim, int8Len int) segLayout {
	var l segLayout
	l.dir = (segHeaderLen + int64(metaLen) + 7) &^ 7
	l.vecs = (l.dir + int64(dirLen) + vecAlign - 1) &^ (vecAlign - 1)
	l.end = l.vecs + 4*int64(chunks)*int64(dim)
	l.int8 = l.end
	if int8Len > 0 {
		l.int8 = (l.end + vecAlign - 1) &^ (vecAlign - 1)
		l.end = l.int8 + int64(int8Len)
	}
	return l
}

// vecOffset is where a version-2 segment's vector block starts: after the
// header and the meta section, padded to vecAlign.
func vecOffset(metaLen int) int64 {
	return (segHeaderLenV2 + int64(metaLen) + vecAlign - 1) &^ (vecAlign - 1)
}

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendStrs(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendStr(b, s)
	}
	return b
}

// appendDoc appends d's record; atChunk, when set, is called before each
// chunk's record is appended, with the chunk's index and the offset its
// record starts at in b.
func appendDoc(b []byte, d *docData, atChunk func(i, off int)) []byte {
	doc := &d.doc
	sha := hexBytes(doc.SHA256)
	var docFlags byte
	if sha != nil {
		docFlags |= docFlagHexSHA
	}
	b = append(b, docFlags)
	for _, s := range []string{doc.ID, doc.Title, doc.Source, doc.Language} {
		b = appendStr(b, s)
	}
	if sha != nil {
		b = append(b, sha...)
	} else {
		b = appendStr(b, doc.SHA256)
	}
	t, err := doc.Updated.MarshalBinary()
	if err != nil {
		// Only a zone offset that is not a whole minute fails; keep the
		// instant in UTC rather than lose the document.
		t, _ = doc.Updated.UTC().MarshalBinary()
	}
	b = appendStr(b, string(t))
	b = appendStr(b, doc.Text)
	b = appendStrs(b, doc.Tags)
	keys := slices.Sorted(maps.Keys(d.meta))
	b = binary.AppendUvarint(b, uint64(len(keys)))
	for _, k := range keys {
		b = appendStr(b, k)
		b = appendStr(b, d.meta[k])
	}
	b = binary.AppendUvarint(b, uint64(len(d.chunks)))
	for i, c := range d.chunks {
		var flags byte
		if c.Start < 0 || c.End > len(doc.Text) || c.Start > c.End || doc.Text[c.Start:c.End] != c.Text {
			flags |= flagExplicitText
		}
		if c.Title != doc.Title {
			flags |= flagExplicitTitle
		}
		hash := hexBytes(d.hashes[i])
		if hash != nil {
			flags |= flagHexHash
		}
		if atChunk != nil {
			atChunk(i, len(b))
		}
		b = append(b, flags)
		b = appendStr(b, c.ID)
		if flags&flagExplicitTitle != 0 {
			b = appendStr(b, c.Title)
		}
		b = appendStrs(b, c.Headings)
		if flags&flagExplicitText != 0 {
			b = appendStr(b, c.Text)
		}
		b = binary.AppendVarint(b, int64(c.Start))
		b = binary.AppendVarint(b, int64(c.End))
		b = binary.AppendVarint(b, int64(c.Page))
		b = binary.AppendVarint(b, int64(c.Position))
		if hash != nil {
			b = append(b, hash...)
		} else {
			b = appendStr(b, d.hashes[i])
		}
	}
	return b
}

// metaReader parses the meta section, remembering the first error so the
// parsing code reads as a sequence of fields. Every count is checked
// against the bytes left, so a corrupted section cannot ask for a huge
// allocation.
type metaReader struct {
	b   []byte
	err error
}

func (r *metaReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

func (r *metaReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("bad varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *metaReader) varint() int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 || int64(int(v)) != v {
		r.fail("bad varint")
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

// count reads a length that needs at least one byte per element.
func (r *metaReader) count() int {
	v := r.uvarint()
	if v > uint64(len(r.b)) {
		r.fail("count %d exceeds the %d bytes left", v, len(r.b))
		return 0
	}
	return int(v)
}

func (r *metaReader) bytes() []byte {
	n := r.count()
	if r.err != nil {
		return nil
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

// hex reads a 32-byte hash stored raw and returns it as 64 hex digits.
func (r *metaReader) hex() string {
	if r.err == nil && len(r.b) < 32 {
		r.fail("truncated hash")
	}
	if r.err != nil {
		return ""
	}
	h := hex.EncodeToString(r.b[:32])
	r.b = r.b[32:]
	return h
}

// str reads a string that shares the meta buffer's memory rather than
// copying it (see parseMeta): at a million documents the copies were a
// third of the time to open an index.
func (r *metaReader) str() string { return view(r.bytes()) }

// view is p as a string without a copy; p must never change afterwards.
func view(p []byte) string {
	if len(p) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(p), len(p))
}

func (r *metaReader) byte() byte {
	if r.err == nil && len(r.b) == 0 {
		r.fail("truncated")
	}
	if r.err != nil {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// strs reads a string list; prev lets equal strings share memory (heading
// paths repeat from chunk to chunk), and the comparison does not allocate.
func (r *metaReader) strs(prev []string) []string {
	n := r.count()
	if n == 0 || r.err != nil {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		p := r.bytes()
		if i < len(prev) && string(p) == prev[i] {
			out[i] = prev[i]
		} else {
			out[i] = view(p)
		}
	}
	return out
}

// readDocHead reads a document record's fields up to its chunk count
// into d and returns the count; v3 says the record is version 3's, which
// starts with the document's flags. Without withMeta the metadata is
// passed over rather than put in a map (a chunk decoded for a hit needs
// none of it). The strings share r's buffer.
func readDocHead(r *metaReader, d *docData, v3, withMeta bool) int {
	var flags byte
	if v3 {
		flags = r.byte()
	}
	doc := &d.doc
	doc.ID = r.str()
	doc.Title = r.str()
	doc.Source = r.str()
	doc.Language = r.str()
	if flags&docFlagHexSHA != 0 {
		doc.SHA256 = r.hex()
	} else {
		doc.SHA256 = r.str()
	}
	if t := r.bytes(); r.err == nil {
		if err := doc.Updated.UnmarshalBinary(t); err != nil {
			r.fail("document %q: time: %v", doc.ID, err)
		}
	}
	doc.Text = r.str()
	doc.Tags = r.strs(nil)
	if n := r.count(); n > 0 && withMeta {
		d.meta = make(map[string]string, n)
		for range n {
			k := r.str()
			d.meta[k] = r.str()
		}
	} else {
		for range n {
			r.bytes()
			r.bytes()
		}
	}
	return r.count()
}

// readDocAccessTags reads a version-3 document record's tags that start
// with prefix, as readDocHead would, passing over the fields before them
// without decoding any: a pass over every document's access labels then
// allocates only for the labels it finds.
func readDocAccessTags(r *metaReader, prefix string) []string {
	flags := r.byte()
	for range 4 { // ID, title, source, language
		r.bytes()
	}
	if flags&docFlagHexSHA != 0 {
		if r.err == nil && len(r.b) < 32 {
			r.fail("truncated hash")
		}
		if r.err == nil {
			r.b = r.b[32:]
		}
	} else {
		r.bytes()
	}
	r.bytes() // updated
	r.bytes() // text
	var out []string
	for range r.count() {
		if p := r.bytes(); r.err == nil && strings.HasPrefix(view(p), prefix) {
			out = append(out, string(p))
		}
	}
	if r.err != nil {
		return nil
	}
	return out
}

// readChunk reads chunk record j of doc into c and returns its text
// hash; prev is the chunk before it, whose heading path it may share.
func readChunk(r *metaReader, doc *fonte.Document, j int, c *fonte.Chunk, prevHeadings []string) string {
	flags := r.byte()
	c.ID = r.str()
	c.DocID = doc.ID
	c.Title = doc.Title
	if flags&flagExplicitTitle != 0 {
		c.Title = r.str()
	}
	c.Headings = r.strs(prevHeadings)
	if flags&flagExplicitText != 0 {
		c.Text = r.str()
	}
	c.Start = r.varint()
	c.End = r.varint()
	c.Page = r.varint()
	c.Position = r.varint()
	var hash string
	if flags&flagHexHash != 0 {
		hash = r.hex()
	} else {
		hash = r.str()
	}
	if r.err == nil && flags&flagExplicitText == 0 {
		if c.Start < 0 || c.Start > c.End || c.End > len(doc.Text) {
			r.fail("document %q chunk %d: span %d..%d outside the text", doc.ID, j, c.Start, c.End)
		} else {
			// A substring shares the document's memory.
			c.Text = doc.Text[c.Start:c.End]
		}
	}
	return hash
}

// parseMeta decodes the meta section of a segment holding docs documents
// and chunks chunks, in version 3's records when v3 is set (else those of
// versions 1 and 2). The vectors stay nil. The documents' strings share
// b's memory, which the caller hands over: it must never change b again
// (b stays alive as long as any of its strings does).
func parseMeta(b []byte, docs int, chunks uint64, v3 bool) ([]*docData, error) {
	r := &metaReader{b: b}
	out := make([]*docData, 0, min(docs, len(b)))
	var total uint64
	for i := 0; i < docs && r.err == nil; i++ {
		d := &docData{}
		n := readDocHead(r, d, v3, true)
		if i > 0 && r.err == nil && d.doc.ID <= out[i-1].doc.ID {
			r.fail("document %q after %q: not in ID order", d.doc.ID, out[i-1].doc.ID)
		}
		d.chunks = make([]fonte.Chunk, n)
		d.hashes = make([]string, n)
		var prevHeadings []string
		for j := 0; j < n && r.err == nil; j++ {
			d.hashes[j] = readChunk(r, &d.doc, j, &d.chunks[j], prevHeadings)
			prevHeadings = d.chunks[j].Headings
		}
		total += uint64(n)
		out = append(out, d)
	}
	switch {
	case r.err != nil:
	case total != chunks:
		r.fail("%d chunks listed, header says %d", total, chunks)
	case len(r.b) != 0:
		r.fail("%d stray bytes after the last document", len(r.b))
	}
	if r.err != nil {
		return nil, r.err
	}
	return out, nil
}

// segmentReader reads a version-1 segment, whose vector block is not
// aligned for reading in place, in two steps: open reads and checks the
// header and the meta section, then readVectors streams the vector block
// into memory and checks the whole file's checksum.
type segmentReader struct {
	path   string
	entry  segmentEntry
	docs   []*docData
	crc    hash.Hash32
	vecOff int64
	dim    int
}

func corrupt(path, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrCorrupt, path, fmt.Sprintf(format, args...))
}

// loadSegment opens the segment at path (see openSegment) and decodes
// all its documents, whose vectors are rows of the returned segFile.
func loadSegment(path string, e segmentEntry, dim int) ([]*docData, *segFile, error) {
	sf, err := openSegment(path, e, dim)
	if err != nil {
		return nil, nil, err
	}
	docs := make([]*docData, sf.numDocs())
	for i := range docs {
		if docs[i], err = sf.decodeDoc(i); err != nil {
			return nil, nil, err
		}
	}
	return docs, sf, nil
}

// openSegment opens the segment at path, checking it against the
// manifest entry and the dimension. A version-3 segment is mapped and
// nothing in it is parsed: its directory is read in place and its
// documents are decoded when asked for; its whole checksum is verified
// later (segFile.verify). Older segments are parsed whole, their
// directory built in memory.
func openSegment(path string, e segmentEntry, dim int) (*segFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, wrapFile("opening segment", path, err)
	}
	keep := false
	defer func() {
		if !keep {
			f.Close()
		}
	}()
	st, err := f.Stat()
	if err != nil {
		return nil, wrapFile("reading segment", path, err)
	}
	size := st.Size()
	if size != e.Size {
		return nil, corrupt(path, "%d bytes, the manifest says %d", size, e.Size)
	}
	if size < segHeaderLenV1+trailerLen {
		return nil, corrupt(path, "truncated at %d bytes", size)
	}
	var head [12]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return nil, wrapFile("reading segment", path, err)
	}
	if [8]byte(head[:8]) != segMagic {
		return nil, corrupt(path, "not a fonte segment (magic %q)", head[:8])
	}
	var tr [trailerLen]byte
	if _, err := f.ReadAt(tr[:], size-trailerLen); err != nil {
		return nil, wrapFile("reading segment", path, err)
	}
	if sum := binary.LittleEndian.Uint32(tr[:]); sum != e.CRC32C {
		return nil, corrupt(path, "checksum mismatch (file says %08x, manifest says %08x)", sum, e.CRC32C)
	}
	var sf *segFile
	switch v := binary.LittleEndian.Uint32(head[8:]); v {
	case 1:
		docs, vecs, err := loadSegmentV1(path, e, dim)
		if err != nil {
			return nil, err
		}
		sf = &segFile{path: path, entry: e, dim: dim, vecs: vecs}
		sf.meta, sf.dir = buildDir(docs)
		sf.markVerified() // while its vectors were read
		return sf, nil
	case 2:
		sf, err = openSegmentV2(f, path, e, dim, size)
	case segmentVersion:
		sf, err = openSegmentV3(f, path, e, dim, size)
	default:
		return nil, fmt.Errorf("%w: segment %s has version %d, this fonte reads versions 1 to %d", ErrFormatVersion, path, v, segmentVersion)
	}
	if err != nil {
		return nil, err
	}
	keep = true
	return sf, nil
}

// openSegmentV3 maps a version-3 segment and reads its directory in place.
func openSegmentV3(f *os.File, path string, e segmentEntry, dim int, size int64) (*segFile, error) {
	hdr, docs, chunks, metaLen, err := readHeader(f, path, e, dim, size, segHeaderLen)
	if err != nil {
		return nil, err
	}
	dirLen := binary.LittleEndian.Uint64(hdr[36:])
	int8Len := binary.LittleEndian.Uint64(hdr[44:])
	// The sizes must add up to the file's length exactly; checked against
	// the (small) file size first so that no sum or product can overflow.
	body := uint64(size - trailerLen)
	bad := metaLen > body || dirLen > body || int8Len > body || chunks > body/uint64(4*dim)
	var lay segLayout
	if !bad {
		lay = layoutV3(int(metaLen), int(dirLen), int(chunks), dim, int(int8Len))
		bad = uint64(lay.end) != body
	}
	if bad {
		return nil, corrupt(path, "header sizes (%d chunks, %d meta bytes, %d directory bytes) do not match the file's %d bytes", chunks, metaLen, dirLen, size)
	}
	sf := &segFile{path: path, entry: e, dim: dim}
	data, err := sf.mapFile(f, size)
	if err != nil {
		return nil, err
	}
	dirBytes := data[lay.dir : lay.dir+int64(dirLen)]
	want := binary.LittleEndian.Uint32(hdr[52:])
	if got := crc32.Update(crc32.Checksum(hdr[:52], castagnoli), castagnoli, dirBytes); got != want {
		return nil, corrupt(path, "directory checksum mismatch (header says %08x, content hashes to %08x)", want, got)
	}
	if sf.dir, err = readDir(dirBytes, docs, int(chunks), metaLen); err != nil {
		return nil, corrupt(path, "%v", err)
	}
	sf.meta = data[segHeaderLen : segHeaderLen+metaLen]
	if chunks > 0 {
		sf.vecs = floatView(data[lay.vecs : lay.vecs+4*int64(chunks)*int64(dim)])
	}
	if int8Len > 0 {
		if sf.int8, err = readInt8(data[lay.int8:lay.end], dim, int(chunks)); err != nil {
			return nil, corrupt(path, "%v", err)
		}
	}
	return sf, nil
}

// openSegmentV2 reads and parses a version-2 segment's meta section,
// builds its directory in memory and maps its vectors.
func openSegmentV2(f *os.File, path string, e segmentEntry, dim int, size int64) (*segFile, error) {
	hdr, docs, chunks, metaLen, err := readHeader(f, path, e, dim, size, segHeaderLenV2)
	if err != nil {
		return nil, err
	}
	body := uint64(size - trailerLen)
	badSizes := metaLen > body
	if !badSizes {
		vo := uint64(vecOffset(int(metaLen)))
		badSizes = vo > body || chunks > (body-vo)/uint64(4*dim) || vo+chunks*uint64(4*dim) != body
	}
	if badSizes {
		return nil, corrupt(path, "header sizes (%d chunks, %d meta bytes) do not match the file's %d bytes", chunks, metaLen, size)
	}
	meta := make([]byte, metaLen)
	if _, err := f.ReadAt(meta, segHeaderLenV2); err != nil {
		return nil, wrapFile("reading segment", path, err)
	}
	want := binary.LittleEndian.Uint32(hdr[36:])
	if got := crc32.Update(crc32.Checksum(hdr[:36], castagnoli), castagnoli, meta); got != want {
		return nil, corrupt(path, "meta checksum mismatch (header says %08x, content hashes to %08x)", want, got)
	}
	dd, err := parseMeta(meta, docs, chunks, false)
	if err != nil {
		return nil, corrupt(path, "%v", err)
	}
	sf := &segFile{path: path, entry: e, dim: dim}
	sf.meta, sf.dir = buildDir(dd)
	data, err := sf.mapFile(f, size)
	if err != nil {
		return nil, err
	}
	if off := vecOffset(int(metaLen)); chunks > 0 {
		sf.vecs = floatView(data[off : off+4*int64(chunks)*int64(dim)])
	}
	return sf, nil
}

// readHeader reads the n-byte header of a segment of size bytes and its
// counts, checked against the manifest entry and the dimension.
func readHeader(f *os.File, path string, e segmentEntry, dim int, size int64, n int) (hdr []byte, docs int, chunks, metaLen uint64, err error) {
	if size < int64(n)+trailerLen {
		return nil, 0, 0, 0, corrupt(path, "truncated at %d bytes", size)
	}
	hdr = make([]byte, n)
	if _, err := f.ReadAt(hdr, 0); err != nil {
		return nil, 0, 0, 0, wrapFile("reading segment", path, err)
	}
	docs, chunks, metaLen, err = checkHeader(path, hdr, e, dim)
	return hdr, docs, chunks, metaLen, err
}

// checkHeader reads the counts of a segment header (the layout shared by
// versions 1 and 2) and checks them against the manifest entry and the
// dimension.
func checkHeader(path string, hdr []byte, e segmentEntry, dim int) (docs int, chunks, metaLen uint64, err error) {
	fileDim := int(binary.LittleEndian.Uint32(hdr[12:]))
	docs = int(binary.LittleEndian.Uint32(hdr[16:]))
	chunks = binary.LittleEndian.Uint64(hdr[20:])
	metaLen = binary.LittleEndian.Uint64(hdr[28:])
	if fileDim != dim {
		return 0, 0, 0, corrupt(path, "vectors of dimension %d, the index has %d", fileDim, dim)
	}
	if e.Docs != docs || uint64(e.Chunks) != chunks {
		return 0, 0, 0, corrupt(path, "%d documents and %d chunks, the manifest says %d and %d", docs, chunks, e.Docs, e.Chunks)
	}
	return docs, chunks, metaLen, nil
}

// loadSegmentV1 reads a version-1 segment whole into memory.
// Its documents and its vectors (row-major, in document order) are
// returned; the whole checksum is verified on the way.
func loadSegmentV1(path string, e segmentEntry, dim int) ([]*docData, []float32, error) {
	r, err := openSegmentV1(path, e, dim)
	if err != nil {
		return nil, nil, err
	}
	vecs := make([]float32, e.Chunks*dim)
	off := 0
	for _, d := range r.docs {
		n := len(d.chunks) * dim
		d.vecs = vecs[off : off+n : off+n]
		off += n
	}
	if err := r.readVectors(func(i int) []float32 { return r.docs[i].vecs }); err != nil {
		return nil, nil, err
	}
	return r.docs, vecs, nil
}

// openSegmentV1 reads the header and meta section of the version-1
// segment at path, checking them against the manifest entry and the
// dimension.
func openSegmentV1(path string, e segmentEntry, dim int) (*segmentReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, wrapFile("opening segment", path, err)
	}
	defer f.Close()
	size := e.Size
	br := bufio.NewReaderSize(f, 1<<16)
	crc := crc32.New(castagnoli)
	hdr := make([]byte, segHeaderLenV1)
	if _, err := io.ReadFull(br, hdr); err != nil {
		return nil, wrapFile("reading segment", path, err)
	}
	crc.Write(hdr)
	docs, chunks, metaLen, err := checkHeader(path, hdr, e, dim)
	if err != nil {
		return nil, err
	}
	body := uint64(size - segHeaderLenV1 - trailerLen)
	if metaLen > body || chunks > (body-metaLen)/uint64(4*dim) || metaLen+chunks*uint64(4*dim) != body {
		return nil, corrupt(path, "header sizes (%d chunks, %d meta bytes) do not match the file's %d bytes", chunks, metaLen, size)
	}
	meta := make([]byte, metaLen)
	if _, err := io.ReadFull(br, meta); err != nil {
		return nil, wrapFile("reading segment", path, err)
	}
	crc.Write(meta)
	dd, err := parseMeta(meta, docs, chunks, false)
	if err != nil {
		// A checksum mismatch is the likelier story; report it if so.
		if cerr := verifyWhole(path, e); cerr != nil {
			return nil, cerr
		}
		return nil, corrupt(path, "%v", err)
	}
	return &segmentReader{path: path, entry: e, docs: dd, crc: crc, vecOff: segHeaderLenV1 + int64(metaLen), dim: dim}, nil
}

// readVectors streams the vector block into dst(i), the destination of
// the i-th document's vectors, and verifies the file's checksum. Blocks
// are read straight from the file and decoded across document
// boundaries, so no buffer copies in between.
func (sr *segmentReader) readVectors(dst func(i int) []float32) error {
	f, err := os.Open(sr.path)
	if err != nil {
		return wrapFile("opening segment", sr.path, err)
	}
	defer f.Close()
	if _, err := f.Seek(sr.vecOff, io.SeekStart); err != nil {
		return wrapFile("reading segment", sr.path, err)
	}
	remaining := int64(sr.entry.Chunks) * int64(sr.dim) * 4
	buf := make([]byte, min(remaining, ioBlock))
	doc, v := -1, []float32(nil)
	for remaining > 0 {
		b := buf[:min(remaining, int64(len(buf)))]
		if _, err := io.ReadFull(f, b); err != nil {
			if err == io.ErrUnexpectedEOF || err == io.EOF {
				return corrupt(sr.path, "truncated vector block")
			}
			return wrapFile("reading segment", sr.path, err)
		}
		sr.crc.Write(b)
		remaining -= int64(len(b))
		for len(b) > 0 {
			for len(v) == 0 {
				if doc++; doc == len(sr.docs) {
					return corrupt(sr.path, "more vectors than chunks")
				}
				v = dst(doc)
			}
			n := min(len(v), len(b)/4)
			decodeFloats(v[:n], b[:4*n])
			v, b = v[n:], b[4*n:]
		}
	}
	var tr [trailerLen]byte
	if _, err := io.ReadFull(f, tr[:]); err != nil {
		return corrupt(sr.path, "missing checksum")
	}
	got, want := sr.crc.Sum32(), binary.LittleEndian.Uint32(tr[:])
	if got != want || got != sr.entry.CRC32C {
		return corrupt(sr.path, "checksum mismatch (file says %08x, content hashes to %08x, manifest says %08x)", want, got, sr.entry.CRC32C)
	}
	return nil
}

// decodeFloats converts little-endian bytes to float32s; len(b) is
// 4*len(dst). Unrolled by four, which nearly doubles its speed.
func decodeFloats(dst []float32, b []byte) {
	for len(dst) >= 4 && len(b) >= 16 {
		dst[0] = math.Float32frombits(binary.LittleEndian.Uint32(b[0:4]))
		dst[1] = math.Float32frombits(binary.LittleEndian.Uint32(b[4:8]))
		dst[2] = math.Float32frombits(binary.LittleEndian.Uint32(b[8:12]))
		dst[3] = math.Float32frombits(binary.LittleEndian.Uint32(b[12:16]))
		dst, b = dst[4:], b[16:]
	}
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
}

// verifyWhole checks a file's checksum against its trailer and the
// manifest, for error reporting.
func verifyWhole(path string, e segmentEntry) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return wrapFile("reading segment", path, err)
	}
	return checkSum(path, data, e.CRC32C)
}

func checkSum(path string, data []byte, manifestSum uint32) error {
	if len(data) < trailerLen {
		return corrupt(path, "truncated at %d bytes", len(data))
	}
	body := data[:len(data)-trailerLen]
	got := piecewise.Checksum(body, castagnoli)
	want := binary.LittleEndian.Uint32(data[len(body):])
	if got != want || got != manifestSum {
		return corrupt(path, "checksum mismatch (file says %08x, content hashes to %08x, manifest says %08x)", want, got, manifestSum)
	}
	return nil
}
