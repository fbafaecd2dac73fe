package vector

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/fonte-rag/fonte/internal/piecewise"
)

// The in-place form of an External HNSW graph, version 1: laid out so
// that the graph can be searched straight from the bytes (a read-only
// memory map, typically) without decoding them. Every integer and float
// is little-endian, and every section is exactly the slice the graph
// holds in memory, starting at a multiple of 8 bytes from the start of
// the form (the node blocks and the codes at a multiple of 64, whole
// cache lines as in memory), padded with zeros; so when the form starts
// 8-byte aligned in memory (64 for the cache lines), each section can be
// viewed as a slice of its type.
//
//	header, 208 bytes, 26 words (uint64):
//	  0  "fonteHG" 0x01           magic and version
//	  8  dim, M, EfConstruction, EfSearch
//	 40  LevelMult, TombstoneShare  IEEE 754 bits
//	 56  flags                    1: KeepPruned, 2: Quantize
//	 64  N                        nodes, tombstones included
//	 72  entry                    the entry point's node
//	 80  top+1                    0 for an empty graph
//	 88  U                        words of the upper-layer blocks
//	 96  T                        tombstones (deleted nodes)
//	104  fitAt                    nodes the Int8 codec was fitted on; 0: no codec
//	112  12 offsets               of the sections below, then of the trailer
//	ids        [N]uint64          node -> id
//	level      [N]uint8           node -> top layer
//	dead       [⌈N/64⌉]uint64     tombstone bits
//	upperOff   [N]uint32          node -> its first word in upper (0 at level 0)
//	upper      [U]uint32          per node of level L > 0, in node order: L
//	                              blocks of 1+M words (a count, then M slots)
//	nodes      [N·S]uint32        layer-0 blocks, S = 1+2M rounded up to 16
//	                              words: a count, 2M slots, zero padding
//	tombstones [T]uint32          the deleted nodes, increasing
//	tomb rows  [T·dim]float32     their vectors, in that order
//	codec lo   [dim]float32       Int8 codec minima   } fitAt > 0 only;
//	codec step [dim]float32       and steps           } empty otherwise
//	codes      [N·C]uint64        node codes, C = ⌈dim/64⌉·8 words
//	trailer    4 bytes            CRC-32C (Castagnoli) of every byte before it
//
// The live nodes' vectors are not in the form: they are the caller's
// rows (rowOf in OpenHNSWInPlace). A deleted node's vector is, since its
// tombstone keeps routing searches until a compaction and the caller may
// have released its row. The checksum is not checked at open, which
// would read every byte: VerifyHNSWInPlace checks it, in the background.
const (
	hnswFormMagic   = "fonteHG\x01"
	hnswFormHeader  = 208
	hnswFormFields  = 14 // header words before the offsets
	hnswFormOffsets = 12 // section offsets, the trailer's last
)

const (
	hsIDs = iota
	hsLevel
	hsDead
	hsUpperOff
	hsUpper
	hsNodes
	hsTombs
	hsTombRows
	hsLo
	hsStep
	hsCodes
	hsEnd
)

// hnswLittleEndian says whether the machine's byte order is the form's,
// so that sections can be viewed rather than copied.
var hnswLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// hnswFormCounts are the counts that size the form's sections.
type hnswFormCounts struct {
	n, u, t, dim, stride, codeW uint64 // codeW is 0 without a codec
}

// layout places the sections, returning their offsets and the trailer's.
func (c hnswFormCounts) layout() [hnswFormOffsets]uint64 {
	sizes := [hnswFormOffsets - 1]uint64{
		8 * c.n, c.n, 8 * ((c.n + 63) / 64), 4 * c.n, 4 * c.u, 4 * c.n * c.stride,
		4 * c.t, 4 * c.t * c.dim, 0, 0, 8 * c.n * c.codeW,
	}
	if c.codeW > 0 {
		sizes[hsLo], sizes[hsStep] = 4*c.dim, 4*c.dim
	}
	var l [hnswFormOffsets]uint64
	off := uint64(hnswFormHeader)
	for i, size := range sizes {
		if i == hsNodes || i == hsCodes {
			off = (off + 63) &^ 63
		}
		l[i] = off
		off = (off + size + 7) &^ 7
	}
	l[hsEnd] = off
	return l
}

// AppendInPlace appends the graph's in-place form (see the notes in
// hnsw_inplace.go) to b and returns the extended slice. Only an External
// graph has one, since the form leaves the live vectors to the caller:
// AppendInPlace panics on any other (a program error, like a wrong
// dimension). The sections are aligned from the form's start, so a
// reader that views them needs the form at an 8-byte-aligned address, and
// searches as fast as in memory at a 64-byte-aligned one. The graph may
// itself have been opened in place. It is read-locked while written.
func (h *HNSW) AppendInPlace(b []byte) []byte {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if !h.external {
		panic("vector: HNSW.AppendInPlace of a graph that holds its vectors: only an External graph (HNSWOptions.External) has an in-place form; write this one with Encode")
	}
	n := len(h.ids)
	var tombs []uint32
	for i := range uint32(n) {
		if h.isDead(i) {
			tombs = append(tombs, i)
		}
	}
	c := hnswFormCounts{n: uint64(n), u: uint64(len(h.upper)), t: uint64(len(tombs)),
		dim: uint64(h.dim), stride: uint64(h.stride)}
	fitAt := 0
	if h.codec != nil {
		// fitAt is at least 1 once fitted; 0 in the form means no codec.
		c.codeW, fitAt = uint64(h.codeW), max(h.fitAt, 1)
	}
	l := c.layout()
	start := len(b)
	b = slices.Grow(b, int(l[hsEnd])+4)
	b = append(b, hnswFormMagic...)
	var flags uint64
	if h.keepPruned {
		flags |= 1
	}
	if h.quantize {
		flags |= 2
	}
	for _, w := range []uint64{uint64(h.dim), uint64(h.m), uint64(h.efC), uint64(h.efS),
		math.Float64bits(h.mult), math.Float64bits(h.share), flags,
		c.n, uint64(h.entry), uint64(h.top + 1), c.u, c.t, uint64(fitAt)} {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	for _, off := range l {
		b = binary.LittleEndian.AppendUint64(b, off)
	}
	section := func(i int, data any) {
		for uint64(len(b)-start) < l[i] {
			b = append(b, 0)
		}
		var err error
		if b, err = binary.Append(b, binary.LittleEndian, data); err != nil {
			panic(err) // slices of fixed-size values: cannot happen
		}
	}
	section(hsIDs, h.ids)
	section(hsLevel, h.level)
	section(hsDead, h.dead[:(n+63)/64])
	section(hsUpperOff, h.upperOff)
	section(hsUpper, h.upper)
	section(hsNodes, h.nodes[:n*h.stride])
	section(hsTombs, tombs)
	for i, t := range tombs {
		if i == 0 {
			section(hsTombRows, h.rows[t])
		} else {
			b, _ = binary.Append(b, binary.LittleEndian, h.rows[t])
		}
	}
	if h.codec != nil {
		section(hsLo, h.codec.lo)
		section(hsStep, h.codec.step)
		section(hsCodes, h.codes[:n*h.codeW])
	}
	for uint64(len(b)-start) < l[hsEnd] {
		b = append(b, 0)
	}
	return binary.LittleEndian.AppendUint32(b, piecewise.Checksum(b[start:], castagnoli))
}

// VerifyHNSWInPlace checks the CRC-32C trailer of an in-place form, the
// check OpenHNSWInPlace leaves out so that opening reads no section whole:
// run it in the background after opening, and stop using the graph if it
// fails. The error wraps ErrFormat.
func VerifyHNSWInPlace(form []byte) error {
	if len(form) < hnswFormHeader+4 || string(form[:len(hnswFormMagic)]) != hnswFormMagic {
		return fmt.Errorf("%w: not an in-place HNSW form of version %d", ErrFormat, hnswFormMagic[len(hnswFormMagic)-1])
	}
	n := len(form) - 4
	if got, want := piecewise.Checksum(form[:n], castagnoli), binary.LittleEndian.Uint32(form[n:]); got != want {
		return fmt.Errorf("%w: in-place HNSW checksum %08x, want %08x: the form is damaged", ErrFormat, got, want)
	}
	return nil
}

// OpenHNSWInPlace returns the External graph whose in-place form (written
// by AppendInPlace) is form, searched where form holds it: on a
// little-endian machine with form 8-byte aligned, every slice of the
// graph is a view of form (otherwise a copy), so opening allocates only
// the rows (24 bytes a node) and two bits a node of check marks, and
// never builds the id map (the first change, Delete or Clone builds it).
// rowOf(node) is the vector of each live node, called once for each, in
// node order: the caller's row, kept, not copied, with the promise of
// HNSWOptions.External (never modified, valid while the graph holds it);
// a vector of the wrong length is an error naming the node. The graph
// answers every query exactly as the graph the form was written from,
// and later Adds draw the levels a DecodeHNSWLinks copy would.
//
// Opening checks the header, every section's place and size against
// form's length, the levels and the upper-layer offsets (a pass over 5
// bytes a node), the tombstones, the entry point and the codec: what a
// search needs so as never to index out of range. It does not read the
// link lists nor verify the checksum (see VerifyHNSWInPlace). A node's
// lists are checked the first time a search reaches them: a node with a
// link out of range (to a node that does not exist, to itself, or to one
// not on that layer) or a count over its capacity is searched as if it
// had no links and reported by Damage, so a damaged form never makes a
// search panic; the search still returns k results, from the exact scan,
// when the damage cuts it short. Tombstones' vectors are not checked for
// NaN, which would read them all: a NaN only misroutes.
//
// Form is read-only to the graph: the first Add, AddBatch, Delete or
// Compact copies the graph to the heap (time and memory of a decode)
// before changing it, so form is never written, and the graph no longer
// refers to it afterwards. Until then form must stay readable and
// unchanged while the graph, or a NodeResult's node, is in use.
func OpenHNSWInPlace(form []byte, rowOf func(node int) []float32) (*HNSW, error) {
	bad := func(format string, args ...any) (*HNSW, error) {
		return nil, fmt.Errorf("%w: in-place HNSW: "+format, append([]any{ErrFormat}, args...)...)
	}
	if rowOf == nil {
		return nil, fmt.Errorf("vector: OpenHNSWInPlace needs a rowOf function")
	}
	if len(form) < hnswFormHeader+4 || string(form[:len(hnswFormMagic)-1]) != hnswFormMagic[:len(hnswFormMagic)-1] {
		return bad("not an in-place HNSW form (magic %q)", hnswFormMagic[:len(hnswFormMagic)-1])
	}
	if v, want := form[len(hnswFormMagic)-1], hnswFormMagic[len(hnswFormMagic)-1]; v != want {
		return bad("version %d, this package reads version %d", v, want)
	}
	word := func(i int) uint64 { return binary.LittleEndian.Uint64(form[8*i:]) }
	dim, m, efC, efS := word(1), word(2), word(3), word(4)
	mult, share := math.Float64frombits(word(5)), math.Float64frombits(word(6))
	flags, n, entry, top1, u, t, fitAt := word(7), word(8), word(9), word(10), word(11), word(12), word(13)
	size := uint64(len(form))
	switch {
	case dim < 1 || dim > maxDim || m < 2 || m > maxHNSWM || efC < 1 || efC > math.MaxInt32 ||
		efS < 1 || efS > math.MaxInt32 || !(mult > 0) || math.IsInf(mult, 0) || math.IsNaN(share) || flags > 3:
		return bad("options dim %d, M %d, ef %d/%d, level multiplier %v, tombstone share %v, flags %d", dim, m, efC, efS, mult, share, flags)
	case n > size/8 || n > maxHNSWNodes || u > size/4 || t > n:
		return bad("counts N=%d U=%d T=%d exceed the %d bytes", n, u, t, size)
	case fitAt > maxHNSWNodes || (fitAt > 0 && flags&2 == 0):
		return bad("codec fitted on %d nodes, flags %d", fitAt, flags)
	case n == 0 && (top1 != 0 || entry != 0 || u != 0):
		return bad("empty graph with entry %d, top layer %d, %d upper-layer words", entry, int64(top1)-1, u)
	case n > 0 && (entry >= n || top1 < 1 || top1 > maxHNSWLevel):
		return bad("entry %d, top layer %d, of %d nodes", entry, int64(top1)-1, n)
	}
	h := NewHNSW(int(dim), HNSWOptions{
		M: int(m), EfConstruction: int(efC), EfSearch: int(efS), LevelMult: mult,
		KeepPruned: flags&1 != 0, Quantize: flags&2 != 0, TombstoneShare: share,
		Rand: rand.New(rand.NewPCG(n, 0x484e5357)), External: true,
	})
	c := hnswFormCounts{n: n, u: u, t: t, dim: dim, stride: uint64(h.stride)}
	if fitAt > 0 {
		c.codeW = uint64((dim + 63) / 64 * 8)
	}
	l := c.layout()
	for i, want := range l {
		if got := word(hnswFormFields + i); got != want {
			return bad("section %d at offset %d, want %d", i, got, want)
		}
	}
	if l[hsEnd]+4 != size {
		return bad("%d bytes, the header describes %d", size, l[hsEnd]+4)
	}

	viewable := hnswLittleEndian && uintptr(unsafe.Pointer(unsafe.SliceData(form)))%8 == 0
	sec := func(i int) []byte { return form[l[i]:l[i+1]] }
	h.byID = nil // built on first need (idMap)
	h.ids = formSlice[uint64](sec(hsIDs), n, viewable)
	h.level = formSlice[uint8](sec(hsLevel), n, viewable)
	h.dead = formSlice[uint64](sec(hsDead), (n+63)/64, viewable)
	h.upperOff = formSlice[uint32](sec(hsUpperOff), n, viewable)
	h.upper = formSlice[uint32](sec(hsUpper), u, viewable)
	h.setNodes(formSlice[uint32](sec(hsNodes), n*c.stride, viewable))
	tombs := formSlice[uint32](sec(hsTombs), t, viewable)
	tombRows := formSlice[float32](sec(hsTombRows), t*dim, viewable)

	if w := len(h.dead); n%64 != 0 && w > 0 && h.dead[w-1]>>(n%64) != 0 {
		return bad("tombstone bits past the last node")
	}
	if d := uint64(popcount(h.dead)); d != t {
		return bad("%d tombstone bits, %d tombstones listed", d, t)
	}
	h.rows = make([][]float32, n)
	for i, x := range tombs {
		if uint64(x) >= n || !h.isDead(x) || (i > 0 && x <= tombs[i-1]) {
			return bad("tombstone %d is node %d, not a deleted node in increasing order", i, x)
		}
		h.rows[x] = tombRows[uint64(i)*dim : uint64(i+1)*dim : uint64(i+1)*dim]
	}
	if n > 0 && uint64(h.level[entry]) != top1-1 {
		return bad("entry %d at level %d, the top layer is %d", entry, h.level[entry], top1-1)
	}
	// The levels and offsets, so that any node's upper blocks lie in
	// upper, and the live rows.
	off := uint64(0)
	for i, lv := range h.level {
		switch {
		case lv >= maxHNSWLevel:
			return bad("node %d at level %d", i, lv)
		case lv == 0 && h.upperOff[i] != 0:
			return bad("node %d at level 0 has upper-layer offset %d", i, h.upperOff[i])
		case lv > 0 && uint64(h.upperOff[i]) != off:
			return bad("node %d's upper-layer blocks at %d, want %d", i, h.upperOff[i], off)
		}
		off += uint64(lv) * (1 + m)
		if !h.isDead(uint32(i)) {
			v := rowOf(i)
			if len(v) != int(dim) {
				return nil, fmt.Errorf("vector: OpenHNSWInPlace: rowOf(%d) gave %d values, the graph's dimension is %d: the rows given are not those the graph was written with", i, len(v), dim)
			}
			h.rows[i] = v
		}
	}
	if off != u {
		return bad("%d upper-layer words, the levels need %d", u, off)
	}
	h.deleted = int(t)
	h.live = int(n - t)
	if n > 0 {
		h.entry, h.top = uint32(entry), int(top1)-1
	}
	if fitAt > 0 {
		lo := formSlice[float32](sec(hsLo), dim, viewable)
		step := formSlice[float32](sec(hsStep), dim, viewable)
		if !finite(lo) || !finite(step) || slices.ContainsFunc(step, func(s float32) bool { return s < 0 }) {
			return bad("bad Int8 codec")
		}
		h.codec = &Int8{dim: int(dim), lo: lo, step: step}
		h.codeW, h.fitAt = int(c.codeW), int(fitAt)
		h.codes = formSlice[uint64](sec(hsCodes), n*c.codeW, viewable)
	}
	h.ip = &inPlaceState{checked: make([]atomic.Uint64, (n+31)/32)}
	return h, nil
}

// formSlice returns the first n little-endian values of b: a view of b
// (capacity n, so an append copies) when view is set, a decoded copy
// otherwise.
func formSlice[T uint8 | uint32 | uint64 | float32](b []byte, n uint64, view bool) []T {
	if n == 0 {
		return []T{}
	}
	if view {
		return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
	}
	out := make([]T, n)
	for i := range out {
		switch v := any(&out[i]).(type) {
		case *uint8:
			*v = b[i]
		case *uint32:
			*v = binary.LittleEndian.Uint32(b[4*i:])
		case *uint64:
			*v = binary.LittleEndian.Uint64(b[8*i:])
		case *float32:
			*v = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	}
	return out
}
