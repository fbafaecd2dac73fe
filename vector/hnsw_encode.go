package vector

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// This file holds the binary encoding of an HNSW index and its
// decoder, which validates every decoded graph.

// The HNSW encoding, little-endian like the others:
//
//	magic    8 bytes  "FONTEVHN"
//	version  uint32   hnswVersion
//	dim, M, EfConstruction, EfSearch           uint32 each
//	LevelMult, TombstoneShare                  float64 bits
//	flags    uint8    1: KeepPruned, 2: Quantize
//	n uint64 (nodes, tombstones included), entry uint32, top+1 uint32
//	n ids (uint64), n levels (uint8), ⌈n/64⌉ tombstone words (uint64)
//	n×dim float32 vectors, n×(1+2M) uint32 layer-0 blocks
//	u uint64, then u uint32 upper-layer blocks
//	codec uint8; if 1: fitAt uint64, dim float32 minima, dim float32 steps
//	crc      uint32   CRC-32C of every byte before it
//
// Tombstones are kept, since they route searches: a decoded index answers
// every query exactly as the encoded one did. Int8 codes are not stored;
// they are recomputed from the vectors with the stored codec.
//
// EncodeLinks writes version hnswLinksVersion, the same layout except
// that the vectors are those of the tombstones alone, in node order: the
// live nodes' vectors are the caller's (see DecodeHNSWLinks).
const (
	hnswVersion      = 1
	hnswLinksVersion = 2
)

var hnswMagic = [8]byte{'F', 'O', 'N', 'T', 'E', 'V', 'H', 'N'}

// Encode writes the index to w in the versioned binary format. The index
// is read-locked while it is written, so searches continue and writes
// wait. The random source is not saved. An External index is written with
// its vectors, and decodes (DecodeHNSW) as an index that owns them.
func (h *HNSW) Encode(w io.Writer) error { return h.encode(w, false) }

// EncodeLinks writes the index to w like Encode, but without the vectors
// of its live nodes: the graph's links, its ids and options, and the
// vectors of its deleted nodes (tombstones, which keep routing searches
// until a compaction, and whose vectors the caller no longer has). It is
// the encoding of an index whose vectors are stored elsewhere (External):
// DecodeHNSWLinks reads it back given the live vectors, and DecodeHNSW
// refuses it, as DecodeHNSWLinks refuses Encode's output.
func (h *HNSW) EncodeLinks(w io.Writer) error { return h.encode(w, true) }

func (h *HNSW) encode(w io.Writer, linksOnly bool) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	e := newEncoder(w)
	e.bytes(hnswMagic[:])
	if linksOnly {
		e.u32(hnswLinksVersion)
	} else {
		e.u32(hnswVersion)
	}
	for _, x := range []int{h.dim, h.m, h.efC, h.efS} {
		e.u32(uint32(x))
	}
	e.u64(math.Float64bits(h.mult))
	e.u64(math.Float64bits(h.share))
	var flags byte
	if h.keepPruned {
		flags |= 1
	}
	if h.quantize {
		flags |= 2
	}
	e.bytes([]byte{flags})
	e.u64(uint64(len(h.ids)))
	e.u32(h.entry)
	e.u32(uint32(h.top + 1))
	e.u64s(h.ids)
	e.bytes(h.level)
	e.u64s(h.dead[:(len(h.ids)+63)/64])
	for n := range uint32(len(h.ids)) {
		if !linksOnly || h.isDead(n) {
			e.f32s(h.vec(n))
		}
	}
	for n := range uint32(len(h.ids)) {
		putU32s(e, h.block(n, 0))
	}
	e.u64(uint64(len(h.upper)))
	putU32s(e, h.upper)
	if h.codec == nil {
		e.bytes([]byte{0})
	} else {
		e.bytes([]byte{1})
		e.u64(uint64(h.fitAt))
		e.f32s(h.codec.lo)
		e.f32s(h.codec.step)
	}
	return e.finish()
}

// DecodeHNSW reads an index written by HNSW.Encode. It reads exactly the
// encoding's bytes from r. The levels of nodes added later are drawn from
// a generator seeded with the decoded node count, so the same file and
// the same later Adds give the same graph. It refuses EncodeLinks' output,
// which lacks the vectors, with an error that says so.
//
// Given a reader that tells its length (a bytes.Reader, a file), it
// refuses a count the bytes left cannot hold before allocating for it.
// From a stream it cannot: node blocks are then allocated as their
// vectors arrive, each with room for the links that follow later, so a
// damaged stream can cost about (Dim+1+2M)/Dim times the bytes read
// before the decoder fails.
func DecodeHNSW(r io.Reader) (*HNSW, error) { return decodeHNSW(r, nil) }

// DecodeHNSWLinks reads an index written by HNSW.EncodeLinks, with the
// same checks as DecodeHNSW, and returns an External index (see
// HNSWOptions) whose live nodes' vectors are vectorOf(id): the caller's
// slices, kept, not copied, with the same promise as for Add (never
// modified, valid while the index holds them). The deleted nodes get the
// vectors stored in the encoding. vectorOf is called once for each live
// id, after the whole encoding has been read and checked; an id it has no
// vector for (false) or a vector of the wrong length is an error naming
// the id. The vectors it returns are not checked for NaN or infinities,
// which would mean reading all of them: they are the caller's, who
// checked them when adding them. DecodeHNSWLinks refuses Encode's output
// (decode that with DecodeHNSW).
func DecodeHNSWLinks(r io.Reader, vectorOf func(id uint64) ([]float32, bool)) (*HNSW, error) {
	if vectorOf == nil {
		return nil, fmt.Errorf("vector: DecodeHNSWLinks needs a vectorOf function")
	}
	return decodeHNSW(r, vectorOf)
}

// decodeHNSW reads Encode's output when vectorOf is nil, and EncodeLinks'
// otherwise.
func decodeHNSW(r io.Reader, vectorOf func(id uint64) ([]float32, bool)) (*HNSW, error) {
	linksOnly := vectorOf != nil
	d := newDecoder(r)
	if b := d.read(8); b != nil && [8]byte(b) != hnswMagic {
		d.fail("magic %q, want %q", b, hnswMagic[:])
	}
	switch v := d.u32(); {
	case d.err != nil:
	case v == hnswLinksVersion && !linksOnly:
		d.fail("HNSW encoding version %d is links only (written by EncodeLinks, without the vectors): decode it with DecodeHNSWLinks", v)
	case v == hnswVersion && linksOnly:
		d.fail("HNSW encoding version %d holds its vectors (written by Encode), not links only: decode it with DecodeHNSW", v)
	case v != hnswVersion && v != hnswLinksVersion:
		d.fail("HNSW version %d, this decoder reads versions %d (Encode) and %d (EncodeLinks)", v, hnswVersion, hnswLinksVersion)
	}
	dim := d.dim()
	m, efC, efS := int(d.u32()), int(d.u32()), int(d.u32())
	mult := math.Float64frombits(d.u64())
	share := math.Float64frombits(d.u64())
	flags := d.u8()
	if d.err == nil && (m < 2 || m > maxHNSWM || efC < 1 || efC > math.MaxInt32 || efS < 1 ||
		efS > math.MaxInt32 || !(mult > 0) || math.IsInf(mult, 0) || math.IsNaN(share) || flags > 3) {
		d.fail("options M %d, ef %d/%d, level multiplier %v, tombstone share %v, flags %d", m, efC, efS, mult, share, flags)
	}
	// A node brings at least its id, level and layer-0 block, and its
	// vector unless the encoding is links only.
	blockBytes := 4 * (1 + 2*m)
	perNode := nodeWireBytes(dim, m)
	if linksOnly {
		perNode = blockBytes
	}
	n := d.count("HNSW node count", 8+1+perNode)
	entry := d.u32()
	top := int(d.u32()) - 1
	if d.err != nil {
		return nil, d.err
	}
	h := NewHNSW(dim, HNSWOptions{
		M: m, EfConstruction: efC, EfSearch: efS, LevelMult: mult,
		KeepPruned: flags&1 != 0, Quantize: flags&2 != 0, TombstoneShare: share,
		Rand:     rand.New(rand.NewPCG(uint64(n), 0x484e5357)),
		External: linksOnly,
	})
	h.ids = d.u64s(n)
	h.level = getBytes(d, n)
	h.dead = d.u64s((n + 63) / 64)
	// The node blocks are reserved for the nodes the bytes left can hold
	// and grow past that as the data arrives, so a damaged count ends in
	// a truncation error, not a huge allocation.
	h.setNodes(make([]uint32, 0, d.capFor(n, perNode)*h.stride))
	if linksOnly {
		h.rows = getTombstoneRows(d, h, n)
	} else {
		for i := 0; i < n && d.err == nil; i++ {
			h.appendNodes(1)
			getF32sInto(d, h.vecs[i*h.stride:i*h.stride+dim])
		}
	}
	for i := 0; i < n && d.err == nil; i++ {
		if len(h.nodes) == i*h.stride {
			h.appendNodes(1)
		}
		getU32sInto(d, h.block(uint32(i), 0))
	}
	u := d.count("HNSW upper-layer word count", 4)
	h.upper = getU32s(d, u)
	var lo, step []float32
	fitted := d.u8()
	if fitted == 1 {
		h.fitAt = d.count("HNSW codec fit count", 0)
		lo, step = d.f32s(1, dim), d.f32s(1, dim)
	} else if d.err == nil && fitted != 0 {
		d.fail("codec flag %d", fitted)
	}
	if err := d.finish(); err != nil {
		return nil, err
	}
	if err := h.validate(n, entry, top); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	if linksOnly {
		if err := h.setLiveRows(vectorOf); err != nil {
			return nil, err
		}
	}
	if fitted == 1 {
		if !h.quantize || !finite(lo) || !finite(step) || slices.ContainsFunc(step, func(s float32) bool { return s < 0 }) {
			return nil, fmt.Errorf("%w: bad Int8 codec", ErrFormat)
		}
		h.codec = &Int8{dim: dim, lo: lo, step: step}
		h.encodeAll()
	}
	return h, nil
}

// getTombstoneRows reads the vectors of a links-only encoding, those of
// the tombstones among the n nodes, and returns the rows of all n nodes:
// the tombstones' set, the live ones' nil until setLiveRows.
func getTombstoneRows(d *decoder, h *HNSW, n int) [][]float32 {
	if d.err != nil {
		return nil
	}
	// The ids were read whole, so n is bounded by the bytes read.
	rows := make([][]float32, n)
	dead := 0
	for i := range uint32(n) {
		if h.isDead(i) {
			dead++
		}
	}
	if !d.need("HNSW tombstone count", dead, 4*h.dim) {
		return nil
	}
	vecs := d.f32s(dead, h.dim)
	if d.err != nil {
		return nil
	}
	if !finite(vecs) {
		d.fail("non-finite values in the vectors of deleted nodes")
		return nil
	}
	for i := range uint32(n) {
		if h.isDead(i) {
			rows[i], vecs = vecs[:h.dim:h.dim], vecs[h.dim:]
		}
	}
	return rows
}

// setLiveRows sets the rows of the live nodes of an index decoded from a
// links-only encoding to vectorOf's vectors.
func (h *HNSW) setLiveRows(vectorOf func(id uint64) ([]float32, bool)) error {
	for i, id := range h.ids {
		if h.isDead(uint32(i)) {
			continue
		}
		v, ok := vectorOf(id)
		switch {
		case !ok:
			return fmt.Errorf("vector: DecodeHNSWLinks: no vector for id %d, which the graph holds: the vectors given are not the ones the graph was encoded with", id)
		case len(v) != h.dim:
			return fmt.Errorf("vector: DecodeHNSWLinks: the vector for id %d has %d values, the graph's dimension is %d", id, len(v), h.dim)
		}
		h.rows[i] = v
	}
	return nil
}

// validate checks a decoded graph's invariants and builds the id map, so
// a decoded index can never index out of range.
func (h *HNSW) validate(n int, entry uint32, top int) error {
	if uint64(n) > math.MaxUint32 {
		return fmt.Errorf("%d nodes", n)
	}
	// An External index's tombstone vectors were checked as read, and
	// its live ones are the caller's.
	for i := range uint32(n) {
		if !h.external && !finite(h.vec(i)) {
			return fmt.Errorf("non-finite vector values")
		}
	}
	if w := len(h.dead); n%64 != 0 && w > 0 && h.dead[w-1]>>(n%64) != 0 {
		return fmt.Errorf("tombstone bits past the last node")
	}
	h.deleted = popcount(h.dead)
	h.live = n - h.deleted
	h.upperOff = make([]uint32, n)
	off := 0
	for i, lv := range h.level {
		if lv >= maxHNSWLevel {
			return fmt.Errorf("node %d at level %d", i, lv)
		}
		if lv > 0 {
			h.upperOff[i] = uint32(off)
			off += int(lv) * (1 + h.m)
		}
	}
	if off != len(h.upper) {
		return fmt.Errorf("%d upper-layer words, levels need %d", len(h.upper), off)
	}
	if n == 0 {
		if top != -1 {
			return fmt.Errorf("empty graph with top layer %d", top)
		}
		return nil
	}
	if int(entry) >= n || top != int(h.level[entry]) {
		return fmt.Errorf("entry %d at top layer %d", entry, top)
	}
	h.entry, h.top = entry, top
	for i := range uint32(n) {
		if err := h.checkNode(i); err != nil {
			return err
		}
		if !h.isDead(i) {
			if _, dup := h.byID[h.ids[i]]; dup {
				return fmt.Errorf("id %d stored twice", h.ids[i])
			}
			h.byID[h.ids[i]] = i
		}
	}
	return nil
}

func putU32s(e *encoder, v []uint32) {
	for len(v) > 0 && e.err == nil {
		n := min(len(v), cap(e.buf)/4)
		b := e.buf[:0]
		for _, x := range v[:n] {
			b = binary.LittleEndian.AppendUint32(b, x)
		}
		e.bytes(b)
		v = v[n:]
	}
}

// getF32sInto and getU32sInto fill dst from d.
func getF32sInto(d *decoder, dst []float32) {
	for len(dst) > 0 && d.err == nil {
		b := d.read(4 * min(len(dst), len(d.buf)/4))
		for i := 0; i < len(b); i += 4 {
			dst[i/4] = math.Float32frombits(binary.LittleEndian.Uint32(b[i:]))
		}
		dst = dst[len(b)/4:]
	}
}

func getU32sInto(d *decoder, dst []uint32) {
	for len(dst) > 0 && d.err == nil {
		b := d.read(4 * min(len(dst), len(d.buf)/4))
		for i := 0; i < len(b); i += 4 {
			dst[i/4] = binary.LittleEndian.Uint32(b[i:])
		}
		dst = dst[len(b)/4:]
	}
}

// getU32s and getBytes grow their result as data arrives, like the
// decoder's own readers, so a corrupted count cannot allocate much.
func getU32s(d *decoder, n int) []uint32 {
	out := make([]uint32, 0, d.capFor(n, 4))
	for len(out) < n && d.err == nil {
		b := d.read(4 * min(n-len(out), len(d.buf)/4))
		for i := 0; i < len(b); i += 4 {
			out = append(out, binary.LittleEndian.Uint32(b[i:]))
		}
	}
	return out
}

func getBytes(d *decoder, n int) []byte {
	out := make([]byte, 0, d.capFor(n, 1))
	for len(out) < n && d.err == nil {
		out = append(out, d.read(min(n-len(out), len(d.buf)))...)
	}
	return out
}

// nodeWireBytes is the size of a node's vector and layer-0 block in the
// encoding; its id and level take 9 bytes more.
func nodeWireBytes(dim, m int) int { return 4*dim + 4*(1+2*m) }

// popcount counts the set bits of a bitset.
func popcount(b []uint64) int {
	c := 0
	for _, w := range b {
		c += bits.OnesCount64(w)
	}
	return c
}
