package disk

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/fonte-rag/fonte/vector"
)

// The graph blob, version 3: the HNSW graph in vector's in-place form,
// searched where the blob's mapping holds it, with what the store needs
// to give the graph its rows and to map its nodes to chunks without a
// map of a million keys:
//
//	magic     8 bytes  "FDGR" 3 0 0 0
//	fp        32 bytes the fingerprint (corpusFingerprint) of the
//	                   generation whose chunk numbers nodePos holds
//	nodes     uint64   N, the graph's nodes, tombstones included
//	formLen   uint64
//	padding   to 64 bytes
//	form      formLen bytes, vector.HNSW.AppendInPlace
//	padding   to a multiple of 8
//	nodeKeys  [N]uint64 each node's key (retrieve.ChunkKey)
//	nodePos   [N]uint32 each node's chunk number in that generation,
//	                   MaxUint32 for none
//
// Opened for the generation it was written for (same fingerprint), the
// live nodes' rows are that generation's rows by nodePos, and the search
// maps nodes to chunks through nodePos. For another generation (a reader
// that sees the data before the blob's commit), rows are found by key and
// the graph is brought up to date as a handed-over graph is.
const graphFormOff = 64

// encodeGraphBlob writes g, the graph of the generation whose fingerprint
// is fp and whose chunks have the given keys, in order.
func encodeGraphBlob(g *vector.HNSW, keys []uint64, fp [32]byte) []byte {
	return encodeGraphBlobIn(g, keys, fp, func(n int) []byte { return make([]byte, 0, n) })
}

// encodeGraphBlobIn is encodeGraphBlob into the empty buffer of capacity
// n that alloc returns.
func encodeGraphBlobIn(g *vector.HNSW, keys []uint64, fp [32]byte, alloc func(n int) []byte) []byte {
	pos := make(map[uint64]uint32, len(keys))
	for i, k := range keys {
		pos[k] = uint32(i)
	}
	nodeKeys := g.AppendNodeIDs(nil)
	nodePos := make([]uint32, len(nodeKeys))
	for n, k := range nodeKeys {
		p, ok := pos[k]
		if !ok {
			p = math.MaxUint32
		}
		nodePos[n] = p
	}
	return appendGraphBlob(alloc(graphBlobSize(g, len(nodeKeys))), g, nodeKeys, nodePos, fp)
}

// graphBlobSize is the bytes a graph blob of g, of nodes nodes, takes at
// most, so that appending never grows it by a copy, which would hold two
// of its hundreds of megabytes at once: id, level, upper-layer offset,
// layer-0 block (whole cache lines), key, position, upper layers on
// average, and a quantized graph's code.
func graphBlobSize(g *vector.HNSW, nodes int) int {
	m := g.Options().M
	perNode := 8 + 1 + 4 + 4*((1+2*m+15)&^15) + 8 + 4 + 8
	if g.HasCodes() {
		perNode += vector.Int8Stride(g.Dim())
	}
	return graphFormOff + nodes*perNode + 4096
}

// appendGraphBlob appends the graph blob of g to b, whose length must be
// a multiple of 64 (the form is 64-byte aligned where the blob's bytes
// are): nodeKeys are g's node ids (AppendNodeIDs), nodePos each node's
// chunk number in the generation of fingerprint fp (MaxUint32 for none).
func appendGraphBlob(b []byte, g *vector.HNSW, nodeKeys []uint64, nodePos []uint32, fp [32]byte) []byte {
	at := len(b)
	b = append(b, make([]byte, graphFormOff)...)
	copy(b[at:], graphMagic)
	copy(b[at+len(graphMagic):], fp[:])
	binary.LittleEndian.PutUint64(b[at+40:], uint64(len(nodeKeys)))
	b = g.AppendInPlace(b)
	binary.LittleEndian.PutUint64(b[at+48:], uint64(len(b)-at-graphFormOff))
	b = append(b, make([]byte, pad8(len(b))-len(b))...)
	for _, k := range nodeKeys {
		b = binary.LittleEndian.AppendUint64(b, k)
	}
	for _, p := range nodePos {
		b = binary.LittleEndian.AppendUint32(b, p)
	}
	return b
}

// graphBlob is a version-3 graph blob's parts, viewed in place.
type graphBlob struct {
	fp       [32]byte
	form     []byte
	nodeKeys []uint64
	nodePos  []uint32
}

// parseGraphBlob views a version-3 graph blob's parts, checking sizes.
func parseGraphBlob(b []byte) (graphBlob, error) {
	var gb graphBlob
	if !bytes.HasPrefix(b, graphMagic) || len(b) < graphFormOff {
		return gb, errors.New("graph blob: not a fonte graph blob of version 3")
	}
	copy(gb.fp[:], b[len(graphMagic):])
	n, formLen := binary.LittleEndian.Uint64(b[40:]), binary.LittleEndian.Uint64(b[48:])
	rest := uint64(len(b) - graphFormOff)
	if formLen > rest || n > rest/12 {
		return gb, fmt.Errorf("graph blob: %d nodes and a form of %d bytes in %d bytes", n, formLen, len(b))
	}
	gb.form = b[graphFormOff : graphFormOff+formLen]
	at := uint64(pad8(graphFormOff + int(formLen)))
	if at+12*n != uint64(len(b)) {
		return gb, fmt.Errorf("graph blob: %d bytes, its %d nodes need %d", len(b), n, at+12*n)
	}
	gb.nodeKeys = leView[uint64](b[at:], int(n))
	gb.nodePos = leView[uint32](b[at+8*n:], int(n))
	return gb, nil
}

// graphBlobsOpened counts the graph blobs openGraphBlob opened, for tests.
var graphBlobsOpened atomic.Int64

// openGraphBlob opens a version-3 graph blob over a corpus of n chunks
// whose numbering has fingerprint fp: rowAt is chunk i's row, byKey finds
// a row by its chunk's key. When the blob was written for this numbering,
// current is true and nodePos maps its nodes to chunks; otherwise its
// live rows are found by key.
func openGraphBlob(b []byte, fp [32]byte, n int, rowAt func(i int) []float32, byKey func() func(key uint64) ([]float32, bool)) (g *vector.HNSW, nodeKeys []uint64, nodePos []uint32, current bool, err error) {
	return openGraphBlobCodes(b, fp, n, rowAt, byKey, true)
}

// openGraphBlobCodes is openGraphBlob, reading the graph's codes to the
// heap when load is set, else leaving them in the mapping.
func openGraphBlobCodes(b []byte, fp [32]byte, n int, rowAt func(i int) []float32, byKey func() func(key uint64) ([]float32, bool), load bool) (g *vector.HNSW, nodeKeys []uint64, nodePos []uint32, current bool, err error) {
	gb, err := parseGraphBlob(b)
	if err != nil {
		return nil, nil, nil, false, err
	}
	graphBlobsOpened.Add(1)
	current = gb.fp == fp
	var rowOf func(node int) []float32
	if current {
		rowOf = func(node int) []float32 {
			if p := gb.nodePos[node]; p < uint32(n) {
				return rowAt(int(p))
			}
			return nil
		}
	} else {
		find := byKey()
		rowOf = func(node int) []float32 {
			v, _ := find(gb.nodeKeys[node])
			return v
		}
	}
	if g, err = vector.OpenHNSWInPlace(gb.form, rowOf); err != nil {
		return nil, nil, nil, false, fmt.Errorf("graph blob: %w", err)
	}
	// The walk reads a code for every node it scores, at random: read
	// them once, in order, rather than fault them in query by query.
	if load {
		g.LoadCodes()
	}
	if !current {
		return g, gb.nodeKeys, nil, false, nil
	}
	return g, gb.nodeKeys, gb.nodePos, true, nil
}

// rowsByKey finds a live chunk's vector by its graph key, for a graph
// blob whose vectors are the segments' rows.
func rowsByKey(snap *Snapshot, keys []uint64) func(key uint64) ([]float32, bool) {
	pos := make(map[uint64]int32, len(keys))
	for i, k := range keys {
		pos[k] = int32(i)
	}
	return func(key uint64) ([]float32, bool) {
		i, ok := pos[key]
		if !ok {
			return nil, false
		}
		return snap.Vector(int(i)), true
	}
}

// decodeGraphBlob reads a graph blob of version 1 or 2 (see
// openGraphBlob for version 3); a version-2 blob's live vectors are
// rowOf's.
func decodeGraphBlob(b []byte, rowOf func(key uint64) ([]float32, bool)) (g *vector.HNSW, keys []uint64, err error) {
	// The blob is checksummed, but one whose checksum was recomputed over
	// damaged content made vector.DecodeHNSW panic (a count read after a
	// failed read; found by FuzzGraphBlob): the graph is rebuilt instead.
	defer func() {
		if r := recover(); r != nil {
			g, keys, err = nil, nil, fmt.Errorf("graph blob: decoder panicked: %v", r)
		}
	}()
	v2 := bytes.HasPrefix(b, graphMagicV2)
	if !v2 && !bytes.HasPrefix(b, graphMagicV1) || len(b) < len(graphMagicV2)+8 {
		return nil, nil, errors.New("graph blob: not a fonte graph blob of this version")
	}
	b = b[len(graphMagicV2):]
	n := binary.LittleEndian.Uint64(b)
	b = b[8:]
	if n > uint64(len(b))/8 {
		return nil, nil, fmt.Errorf("graph blob: %d keys in %d bytes", n, len(b))
	}
	keys = make([]uint64, n)
	for i := range keys {
		keys[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	if v2 {
		g, err = vector.DecodeHNSWLinks(bytes.NewReader(b[8*n:]), rowOf)
	} else {
		g, err = vector.DecodeHNSW(bytes.NewReader(b[8*n:]))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("graph blob: %w", err)
	}
	return g, keys, nil
}

// graphBlobFor reports whether b is a version-3 graph blob written for the
// numbering whose fingerprint is fp, reading only its header.
func graphBlobFor(b []byte, fp [32]byte) bool {
	gb, err := parseGraphBlob(b)
	return err == nil && gb.fp == fp
}
