package vector

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
)

// The encodings are little-endian binary:
//
//	magic    8 bytes   "FONTEVFL" (Flat) or "FONTEVIV" (IVF)
//	version  uint32    encodingVersion
//	dim      uint32
//	Flat:    n uint64, then n ids (uint64), then n×dim float32
//	IVF:     cells uint32, trained uint8; if trained, cells×dim float32
//	         centroids, then for each cell: n uint64, n ids, n×dim float32
//	crc      uint32    CRC-32C of every byte before it
//
// The magic tells the two kinds apart, the version lets a later layout be
// read by a later decoder, and the checksum turns a torn or corrupted file
// into an error instead of a silently wrong index.
const encodingVersion = 1

var (
	flatMagic  = [8]byte{'F', 'O', 'N', 'T', 'E', 'V', 'F', 'L'}
	ivfMagic   = [8]byte{'F', 'O', 'N', 'T', 'E', 'V', 'I', 'V'}
	castagnoli = crc32.MakeTable(crc32.Castagnoli)
)

// ErrFormat is wrapped by every decoding error caused by the input: a wrong
// magic, an unknown version, inconsistent sizes, a checksum mismatch or a
// truncated stream.
var ErrFormat = errors.New("vector: malformed index encoding")

// Limits on decoded sizes, so a corrupted header is an error rather than an
// attempt to allocate terabytes. Beyond them, every decoder checks each
// count it reads against the bytes left when the reader tells its length
// (bytes.Reader, bytes.Buffer, strings.Reader, a file): a count the rest
// cannot hold is an ErrFormat naming the field, before anything is
// allocated for it. From a stream of unknown length (a pipe, a
// bufio.Reader) storage is reserved at most 1 MiB ahead of the data and
// grows as the data arrives.
const (
	maxDim   = 1 << 16
	maxCells = 1 << 24
)

// Encode writes the index to w in the versioned binary format. The index is
// read-locked while it is written, so searches continue and writes wait.
func (f *Flat) Encode(w io.Writer) error {
	f.mu.RLock()
	defer f.mu.RUnlock()
	e := newEncoder(w)
	e.bytes(flatMagic[:])
	e.u32(encodingVersion)
	e.u32(uint32(f.dim))
	e.u64(uint64(len(f.ids)))
	e.u64s(f.ids)
	e.f32s(f.data)
	return e.finish()
}

// DecodeFlat reads an index written by Flat.Encode. It reads exactly the
// encoding's bytes from r, so an index can be embedded in a larger stream.
func DecodeFlat(r io.Reader) (*Flat, error) {
	d := newDecoder(r)
	d.magic(flatMagic)
	dim := d.dim()
	n := d.count("Flat vector count", 8+4*dim) // an id and a vector each
	var f *Flat
	if d.err == nil {
		f = NewFlat(dim)
		f.ids = d.u64s(n)
		f.data = d.f32s(n, dim)
	}
	if err := d.finish(); err != nil {
		return nil, err
	}
	f.row = make(map[uint64]int, len(f.ids))
	for i, id := range f.ids {
		if _, dup := f.row[id]; dup {
			return nil, fmt.Errorf("%w: id %d stored twice", ErrFormat, id)
		}
		f.row[id] = i
	}
	if !finite(f.data) {
		return nil, fmt.Errorf("%w: non-finite vector values", ErrFormat)
	}
	if f.has8 {
		for r := range f.ids {
			f.rows8.set(r, f.data[r*dim:(r+1)*dim])
		}
	}
	return f, nil
}

// Encode writes the index, centroids and cells, to w in the versioned
// binary format. The random source is not saved.
func (x *IVF) Encode(w io.Writer) error {
	x.mu.RLock()
	defer x.mu.RUnlock()
	e := newEncoder(w)
	e.bytes(ivfMagic[:])
	e.u32(encodingVersion)
	e.u32(uint32(x.dim))
	e.u32(uint32(x.cells))
	if x.centroids == nil {
		e.bytes([]byte{0})
		return e.finish()
	}
	e.bytes([]byte{1})
	e.f32s(x.centroids)
	for _, l := range x.lists {
		e.u64(uint64(len(l.ids)))
		e.u64s(l.ids)
		e.f32s(l.data)
	}
	return e.finish()
}

// DecodeIVF reads an index written by IVF.Encode. rng drives any later
// Train, as in NewIVF (nil means a fixed seed). Vectors stay in the cells
// they were encoded in.
func DecodeIVF(r io.Reader, rng *rand.Rand) (*IVF, error) {
	d := newDecoder(r)
	d.magic(ivfMagic)
	dim := d.dim()
	cells := int(d.u32())
	if d.err == nil && (cells < 1 || cells > maxCells) {
		d.fail("%d cells", cells)
	}
	trained := d.u8()
	if d.err == nil && trained > 1 {
		d.fail("trained flag %d", trained)
	}
	if trained == 1 {
		// Every cell brings its centroid and its vector count.
		d.need("IVF cell count", cells, 4*dim+8)
	}
	var x *IVF
	if d.err == nil {
		x = NewIVF(dim, cells, rng)
		if trained == 1 {
			x.centroids = d.f32s(cells, dim)
			if d.err == nil {
				x.lists = make([]cellList, cells)
			}
			for c := 0; c < len(x.lists) && d.err == nil; c++ {
				n := d.count("IVF cell vector count", 8+4*dim)
				x.lists[c] = cellList{ids: d.u64s(n), data: d.f32s(n, dim)}
			}
		}
	}
	if err := d.finish(); err != nil {
		return nil, err
	}
	if !finite(x.centroids) {
		return nil, fmt.Errorf("%w: non-finite centroid values", ErrFormat)
	}
	for c, l := range x.lists {
		if !finite(l.data) {
			return nil, fmt.Errorf("%w: non-finite vector values", ErrFormat)
		}
		for i, id := range l.ids {
			if _, dup := x.where[id]; dup {
				return nil, fmt.Errorf("%w: id %d stored twice", ErrFormat, id)
			}
			x.where[id] = slot{cell: int32(c), row: int32(i)}
		}
	}
	return x, nil
}

// encoder writes through a buffer and a running checksum, remembering the
// first error so the encoding code reads as a straight sequence of fields.
type encoder struct {
	bw  *bufio.Writer
	crc hash.Hash32
	w   io.Writer // bw and crc together
	buf []byte
	err error
}

func newEncoder(w io.Writer) *encoder {
	bw := bufio.NewWriterSize(w, 1<<16)
	crc := crc32.New(castagnoli)
	return &encoder{bw: bw, crc: crc, w: io.MultiWriter(bw, crc), buf: make([]byte, 0, 1<<15)}
}

func (e *encoder) bytes(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *encoder) u32(v uint32) { e.bytes(binary.LittleEndian.AppendUint32(e.buf[:0], v)) }
func (e *encoder) u64(v uint64) { e.bytes(binary.LittleEndian.AppendUint64(e.buf[:0], v)) }

// u64s and f32s convert in blocks so large indexes are written without a
// byte copy of the whole index.
func (e *encoder) u64s(v []uint64) {
	for len(v) > 0 && e.err == nil {
		n := min(len(v), cap(e.buf)/8)
		b := e.buf[:0]
		for _, x := range v[:n] {
			b = binary.LittleEndian.AppendUint64(b, x)
		}
		e.bytes(b)
		v = v[n:]
	}
}

func (e *encoder) f32s(v []float32) {
	for len(v) > 0 && e.err == nil {
		n := min(len(v), cap(e.buf)/4)
		b := e.buf[:0]
		for _, x := range v[:n] {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
		e.bytes(b)
		v = v[n:]
	}
}

func (e *encoder) finish() error {
	if e.err == nil {
		// The checksum itself goes to the buffer only.
		_, e.err = e.bw.Write(binary.LittleEndian.AppendUint32(nil, e.crc.Sum32()))
	}
	if e.err == nil {
		e.err = e.bw.Flush()
	}
	if e.err != nil {
		return fmt.Errorf("vector: encoding index: %w", e.err)
	}
	return nil
}

// decoder reads exact byte counts (no read-ahead) and checksums them.
type decoder struct {
	r   io.Reader
	crc hash.Hash32
	buf []byte
	err error
	// left is the number of bytes r holds from here on, or -1 when r
	// cannot tell (a pipe, a bufio.Reader). Every count read is checked
	// against it before anything is allocated for it.
	left int64
}

// streamReserve is how many bytes of storage a decoder reserves ahead of
// the data when it cannot know how much data there is: past that,
// storage grows as the data arrives.
const streamReserve = 1 << 20

func newDecoder(r io.Reader) *decoder {
	d := &decoder{r: r, crc: crc32.New(castagnoli), buf: make([]byte, 1<<15)}
	d.left, d.err = readerLen(r)
	return d
}

// readerLen returns how many bytes r holds from its position: the length
// of a reader that reports it (bytes.Reader, bytes.Buffer,
// strings.Reader), the distance to the end of one that seeks (a file), or
// -1 for a stream. It fails only if r cannot seek back to where it was.
func readerLen(r io.Reader) (int64, error) {
	switch r := r.(type) {
	case interface{ Len() int }:
		return int64(r.Len()), nil
	case io.Seeker:
		at, err := r.Seek(0, io.SeekCurrent)
		if err != nil {
			return -1, nil // not seekable after all (a pipe): a stream
		}
		end, err := r.Seek(0, io.SeekEnd)
		if _, back := r.Seek(at, io.SeekStart); back != nil {
			return -1, fmt.Errorf("vector: decoding index: seeking back to %d: %w", at, back)
		}
		if err != nil || end < at {
			return -1, nil
		}
		return end - at, nil
	}
	return -1, nil
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
	}
}

// read fills d.buf[:n], n ≤ len(d.buf).
func (d *decoder) read(n int) []byte {
	if d.err != nil {
		return nil
	}
	b := d.buf[:n]
	if _, err := io.ReadFull(d.r, b); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			d.err = fmt.Errorf("%w: truncated: %w", ErrFormat, err)
		} else {
			d.err = fmt.Errorf("vector: decoding index: %w", err)
		}
		return nil
	}
	d.crc.Write(b)
	if d.left >= 0 {
		d.left = max(d.left-int64(n), 0) // a reader that grew: stay a bound
	}
	return b
}

func (d *decoder) u8() uint8 {
	if b := d.read(1); b != nil {
		return b[0]
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if b := d.read(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if b := d.read(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (d *decoder) magic(want [8]byte) {
	b := d.read(8)
	if b == nil {
		return
	}
	if [8]byte(b) != want {
		d.fail("magic %q, want %q", b, want[:])
		return
	}
	if v := d.u32(); d.err == nil && v != encodingVersion {
		d.fail("version %d, this decoder reads version %d", v, encodingVersion)
	}
}

func (d *decoder) dim() int {
	dim := int(d.u32())
	if d.err == nil && (dim < 1 || dim > maxDim) {
		d.fail("dimension %d", dim)
	}
	return dim
}

// count reads the count named field, of items that each take at least
// size bytes further on (0: the count is not of items that follow). A
// count the bytes left cannot hold is an error naming the field, and with
// an error 0 is returned, so a damaged count allocates nothing.
func (d *decoder) count(field string, size int) int {
	n := d.u64()
	if d.err == nil && n > math.MaxInt32 {
		d.fail("%s %d, over the limit of %d", field, n, math.MaxInt32)
	}
	if !d.need(field, int(min(n, math.MaxInt32)), size) {
		return 0 // after a failed read nothing more is read: allocate nothing
	}
	return int(n)
}

// need reports whether n items of size bytes each fit in the bytes left,
// failing with an error naming field when they do not, so that nothing is
// allocated for a count a damaged header made up. From a stream of
// unknown length it cannot tell, and reports true.
func (d *decoder) need(field string, n, size int) bool {
	if d.err != nil {
		return false
	}
	if d.left >= 0 && size > 0 && int64(n) > d.left/int64(size) {
		d.fail("%s %d needs %d × %d bytes, only %d left: truncated or damaged", field, n, n, size, d.left)
		return false
	}
	return true
}

// capFor is the capacity to reserve for n items taking size bytes each in
// the encoding: all n when the bytes left hold them, otherwise only what
// the bytes left (or, from a stream, streamReserve bytes) can hold, the
// rest growing as data arrives; after an error, none. Reserving the exact
// count spares a large index the slack of a growing slice.
func (d *decoder) capFor(n, size int) int {
	if d.err != nil {
		return 0 // nothing more will be read
	}
	limit := int64(streamReserve)
	if d.left >= 0 {
		limit = d.left
	}
	return int(min(int64(n), limit/int64(size)))
}

func (d *decoder) u64s(n int) []uint64 {
	out := make([]uint64, 0, d.capFor(n, 8))
	for len(out) < n && d.err == nil {
		m := min(n-len(out), len(d.buf)/8)
		b := d.read(8 * m)
		for i := 0; i < len(b); i += 8 {
			out = append(out, binary.LittleEndian.Uint64(b[i:]))
		}
	}
	return out
}

func (d *decoder) f32s(n, dim int) []float32 {
	total := n * dim
	out := make([]float32, 0, d.capFor(total, 4))
	for len(out) < total && d.err == nil {
		m := min(total-len(out), len(d.buf)/4)
		b := d.read(4 * m)
		for i := 0; i < len(b); i += 4 {
			out = append(out, math.Float32frombits(binary.LittleEndian.Uint32(b[i:])))
		}
	}
	return out
}

// finish checks the trailing checksum.
func (d *decoder) finish() error {
	if d.err != nil {
		return d.err
	}
	sum := d.crc.Sum32()
	b := make([]byte, 4)
	if _, err := io.ReadFull(d.r, b); err != nil {
		return fmt.Errorf("%w: truncated checksum: %w", ErrFormat, err)
	}
	if got := binary.LittleEndian.Uint32(b); got != sum {
		return fmt.Errorf("%w: checksum %08x, content sums to %08x", ErrFormat, got, sum)
	}
	return nil
}
