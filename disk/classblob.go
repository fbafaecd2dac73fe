package disk

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/fonte-rag/fonte/retrieve"
	"github.com/fonte-rag/fonte/vector"
)

// The class graph blobs: one per access class large enough to have a
// graph of its own (retrieve.ClassGraph), which restricted readers search
// in place of the shared graph. Each is named BlobClassPrefix and a hash
// of the class's labels, and holds
//
//	magic     8 bytes  "FDCG" 1 0 0 0
//	labelsLen uint32   the bytes of the labels
//	labels    the class's access tags, sorted, each ended by a zero byte
//	padding   to a multiple of 64 bytes
//	graph     a version-3 graph blob (graphblob.go) of the class's graph,
//	          its nodePos the generation's chunk numbers
//
// A class blob is used only by the generation it was written for (the
// graph blob's fingerprint): any other view brings its previous view's
// class graphs up to date, or builds them, and PersistDerived writes them
// again. Its codes are left in the mapping, not read to the heap, so that
// the class graphs add nothing to the memory an opened store holds.
const BlobClassPrefix = "derived/class/"

var classMagic = []byte("FDCG\x01\x00\x00\x00")

// classBlobName is the blob of the class with the given labels.
func classBlobName(labels []string) string {
	h := sha256.Sum256([]byte(strings.Join(labels, "\x00")))
	return BlobClassPrefix + hex.EncodeToString(h[:8])
}

// isClassBlob reports whether name is a class graph blob's.
func isClassBlob(name string) bool { return strings.HasPrefix(name, BlobClassPrefix) }

// encodeClassBlob writes class graph cg of the generation whose
// fingerprint is fp into the empty buffer of capacity n that alloc returns.
func encodeClassBlob(cg retrieve.ClassGraph, fp [32]byte, alloc func(n int) []byte) []byte {
	var labels []byte
	for _, l := range cg.Labels {
		labels = append(append(labels, l...), 0)
	}
	head := (len(classMagic) + 4 + len(labels) + 63) &^ 63
	nodeKeys := cg.Graph.AppendNodeIDs(nil)
	b := alloc(head + graphBlobSize(cg.Graph, len(nodeKeys)))
	b = append(b, classMagic...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(labels)))
	b = append(b, labels...)
	b = append(b, make([]byte, head-len(b))...)
	return appendGraphBlob(b, cg.Graph, nodeKeys, cg.Positions, fp)
}

// classBlob is a class blob's parts, viewed in place.
type classBlob struct {
	labels []string
	graph  []byte // a version-3 graph blob
}

// parseClassBlob views a class blob's parts, checking sizes.
func parseClassBlob(b []byte) (classBlob, error) {
	var cb classBlob
	if !bytes.HasPrefix(b, classMagic) || len(b) < len(classMagic)+4 {
		return cb, errors.New("class graph blob: not a fonte class graph blob of version 1")
	}
	n := int(binary.LittleEndian.Uint32(b[len(classMagic):]))
	at := len(classMagic) + 4
	head := (at + n + 63) &^ 63
	if n > len(b)-at || head > len(b) || n > 0 && b[at+n-1] != 0 {
		return cb, fmt.Errorf("class graph blob: labels of %d bytes in %d", n, len(b))
	}
	if n > 0 {
		cb.labels = strings.Split(string(b[at:at+n-1]), "\x00")
	}
	cb.graph = b[head:]
	return cb, nil
}

// classGraphsOf lists the class blobs of snap written for this very
// generation, to be opened (their codes left in the mapping) when their
// class is first searched; others are skipped. It reads each blob's
// header only.
func classGraphsOf(snap *Snapshot) []retrieve.ClassGraph {
	fp := numberingFingerprint(snap)
	var out []retrieve.ClassGraph
	for _, name := range snap.BlobNames() {
		if !isClassBlob(name) {
			continue
		}
		b, err := snap.MapBlob(name)
		if err != nil {
			continue
		}
		cb, err := parseClassBlob(b)
		if err != nil || !graphBlobFor(cb.graph, fp) {
			continue
		}
		open := func() (*vector.HNSW, []uint32, error) {
			noKeys := func() func(uint64) ([]float32, bool) {
				return func(uint64) ([]float32, bool) { return nil, false }
			}
			g, _, nodePos, current, err := openGraphBlobCodes(cb.graph, fp, snap.NumChunks(), snap.Vector, noKeys, false)
			if err == nil && !current {
				err = errors.New("class graph blob: written for another generation")
			}
			return g, nodePos, err
		}
		out = append(out, retrieve.ClassGraph{Labels: cb.labels, Open: open})
	}
	return out
}

// withPrevious adds to class graphs those of the previous view's index
// prev for the classes the blobs left out, to be brought up to date.
func withPrevious(stored []retrieve.ClassGraph, prev *retrieve.Index) []retrieve.ClassGraph {
	if prev == nil {
		return stored
	}
	have := map[string]bool{}
	for _, cg := range stored {
		have[strings.Join(cg.Labels, "\x00")] = true
	}
	out := stored
	for _, cg := range prev.BuiltClassGraphs() {
		if !have[strings.Join(cg.Labels, "\x00")] {
			out = append(out, cg)
		}
	}
	return out
}

// classBlobsToWrite encodes the class graphs of idx that snap's blobs do
// not hold for this generation (all of them after a deletion, compact
// set), and lists the class blobs of classes that have no graph any more,
// to drop. release frees the encodings' memory.
func classBlobsToWrite(snap *Snapshot, cgs []retrieve.ClassGraph, compact bool) (write map[string][]byte, drop []string, release func()) {
	fp := numberingFingerprint(snap)
	write = map[string][]byte{}
	var scratches [][]byte
	release = func() {
		for _, s := range scratches {
			releaseScratch(s)
		}
	}
	keep := map[string]bool{}
	for _, cg := range cgs {
		name := classBlobName(cg.Labels)
		keep[name] = true
		if !compact && !cg.Changed {
			if b, err := snap.MapBlob(name); err == nil {
				if cb, err := parseClassBlob(b); err == nil && graphBlobFor(cb.graph, fp) {
					continue
				}
			}
		}
		var scratch []byte
		write[name] = encodeClassBlob(cg, fp, func(n int) []byte {
			scratch = mapScratch(n)
			return scratch
		})
		scratches = append(scratches, scratch)
	}
	for _, name := range snap.BlobNames() {
		if isClassBlob(name) && !keep[name] {
			drop = append(drop, name)
		}
	}
	return write, drop, release
}
