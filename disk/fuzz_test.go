package disk

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte/vector"
)

// sealSegment stamps the magic, version and a matching checksum on
// mutated segment bytes, so the fuzzer reaches the meta and vector
// decoders instead of stopping at the checksum.
func sealSegment(data []byte) ([]byte, uint32) {
	data = slices.Clone(data)
	copy(data, segMagic[:])
	switch binary.LittleEndian.Uint32(data[8:]) {
	case 1:
	case 2:
		// Version 2 guards its meta section with a checksum of its own.
		if metaLen := binary.LittleEndian.Uint64(data[28:]); metaLen <= uint64(len(data)-segHeaderLenV2-trailerLen) {
			sum := crc32.Update(crc32.Checksum(data[:36], castagnoli), castagnoli, data[segHeaderLenV2:segHeaderLenV2+int(metaLen)])
			binary.LittleEndian.PutUint32(data[36:], sum)
		}
	default:
		// Version 3 guards its directory with a checksum of its own.
		binary.LittleEndian.PutUint32(data[8:], segmentVersion)
		metaLen, dirLen := binary.LittleEndian.Uint64(data[28:]), binary.LittleEndian.Uint64(data[36:])
		if body := uint64(len(data) - trailerLen); metaLen <= body && dirLen <= body {
			if at := uint64(pad8(segHeaderLen + int(metaLen))); at+dirLen <= body {
				sum := crc32.Update(crc32.Checksum(data[:52], castagnoli), castagnoli, data[at:at+dirLen])
				binary.LittleEndian.PutUint32(data[52:], sum)
			}
		}
	}
	n := len(data) - trailerLen
	sum := crc32.Checksum(data[:n], castagnoli)
	binary.LittleEndian.PutUint32(data[n:], sum)
	return data, sum
}

// readSegment opens a segment file, verifies its whole checksum and
// returns its docs with their vectors copied out of the mapping.
func readSegment(path string, e segmentEntry, dim int) ([]*docData, error) {
	docs, sf, err := loadSegment(path, e, dim)
	if err != nil {
		return nil, err
	}
	if err := sf.verify(); err != nil {
		return nil, err
	}
	// The documents' strings and vectors are views of the mapping, which
	// goes once sf is unreachable.
	for _, d := range docs {
		d.vecs = slices.Clone(d.vecs)
		d.detach()
	}
	runtime.KeepAlive(sf)
	return docs, nil
}

// FuzzSegment feeds sealed mutations of segment files to the reader: it
// rejects them with ErrCorrupt or ErrFormatVersion, or returns documents
// whose chunks belong to them, in the numbers the header announces, which
// re-encode into a segment that reads back the same.
func FuzzSegment(f *testing.F) {
	for _, v := range []string{"v1", "v2", "v3"} {
		if golden, err := os.ReadFile("testdata/" + v + "/seg-1-0.fseg"); err == nil {
			f.Add(golden)
		}
	}
	var docs []*docData
	for i, id := range []string{"a", "b", "c"} {
		d, err := newDocData(makeRecord(id, 1, i, 3), 3)
		if err != nil {
			f.Fatal(err)
		}
		docs = append(docs, d)
	}
	var buf bytes.Buffer
	if _, _, err := encodeSegment(&buf, 3, docs); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	dir := f.TempDir() // one folder for the run: a fresh one per input is slow
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < segHeaderLen+trailerLen {
			return
		}
		data, sum := sealSegment(data)
		dim := int(binary.LittleEndian.Uint32(data[12:]))
		if dim < 1 || dim > 1024 {
			dim = 4
		}
		e := segmentEntry{File: "seg-1-0.fseg", Size: int64(len(data)), CRC32C: sum,
			Docs: int(binary.LittleEndian.Uint32(data[16:])), Chunks: int(binary.LittleEndian.Uint64(data[20:]) & math.MaxInt32)}
		path := filepath.Join(dir, e.File)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readSegment(path, e, dim)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrFormatVersion) {
				t.Fatalf("error is neither ErrCorrupt nor ErrFormatVersion: %v", err)
			}
			return
		}
		chunks := 0
		for _, d := range got {
			chunks += len(d.chunks)
			for _, c := range d.chunks {
				if c.DocID != d.doc.ID {
					t.Fatalf("chunk %q of document %q", c.ID, d.doc.ID)
				}
			}
		}
		if len(got) != e.Docs || chunks != e.Chunks {
			t.Fatalf("%d documents and %d chunks read, the header says %d and %d", len(got), chunks, e.Docs, e.Chunks)
		}
		var again bytes.Buffer
		size, sum2, err := encodeSegment(&again, dim, got)
		if err != nil {
			t.Fatalf("re-encoding: %v", err)
		}
		path2 := filepath.Join(dir, "seg-2-0.fseg")
		if err := os.WriteFile(path2, again.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		back, err := readSegment(path2, segmentEntry{File: e.File, Size: size, CRC32C: sum2, Docs: e.Docs, Chunks: e.Chunks}, dim)
		if err != nil {
			t.Fatalf("re-encoded segment: %v", err)
		}
		for i := range got {
			a, b := *got[i], *back[i]
			if !a.doc.Updated.Equal(b.doc.Updated) {
				t.Fatalf("document %d: updated %v, read back %v", i, a.doc.Updated, b.doc.Updated)
			}
			a.doc.Updated = b.doc.Updated
			if !slices.Equal(bitsOf(a.vecs), bitsOf(b.vecs)) {
				t.Fatalf("document %d: vectors differ after a round trip", i)
			}
			a.vecs, b.vecs = nil, nil
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("document %d differs after a round trip:\n%+v\n%+v", i, a, b)
			}
		}
	})
}

func bitsOf(v []float32) []uint32 {
	out := make([]uint32, len(v))
	for i, x := range v {
		out[i] = math.Float32bits(x)
	}
	return out
}

// FuzzManifest: a manifest is rejected, or it is valid (format version,
// configuration, unique file names of the right kinds) and survives a JSON
// round trip unchanged.
func FuzzManifest(f *testing.F) {
	if raw, err := os.ReadFile("testdata/v1/manifest"); err == nil {
		f.Add(raw)
	}
	f.Add([]byte(`{"format":2}`))
	f.Add([]byte(`{"format":1,"config":{"analyzer":"a","chunker":"c","embedder":"e","dim":4},"segments":[{"file":"seg-1-0.fseg","size":-1}]}`))
	f.Add([]byte(`{"format":1,"config":{"analyzer":"a","chunker":"c","embedder":"e","dim":4},"blobs":[{"name":"x","file":"blob-1-0.fblob"},{"name":"x","file":"blob-1-1.fblob"}],"retained":["../x"]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := parseManifest("manifest", raw)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrFormatVersion) {
				t.Fatalf("error is neither ErrCorrupt nor ErrFormatVersion: %v", err)
			}
			return
		}
		if m.Format < 1 || m.Format > formatVersion {
			t.Fatalf("format %d accepted", m.Format)
		}
		if err := validateConfig(m.Config); err != nil {
			t.Fatalf("invalid config accepted: %v", err)
		}
		seen := map[string]bool{}
		for _, name := range m.files() {
			if seen[name] || (!isSegmentName(name) && !isBlobName(name)) || filepath.Base(name) != name {
				t.Fatalf("file name %q accepted", name)
			}
			seen[name] = true
		}
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		back, err := parseManifest("manifest", data)
		if err != nil {
			t.Fatalf("re-encoded manifest %s: %v", data, err)
		}
		again, err := json.Marshal(back)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, data) {
			t.Fatalf("manifest differs after a round trip:\n%s\n%s", data, again)
		}
	})
}

// FuzzGraphBlob: a graph blob is rejected, or decodes into a graph with
// one key per node that re-encodes to a blob decoding to the same.
func FuzzGraphBlob(f *testing.F) {
	g := vector.NewHNSW(3, vector.HNSWOptions{})
	var keys []uint64
	rows := map[uint64][]float32{}
	for i := range 12 {
		rows[uint64(i)] = []float32{float32(i), float32(i % 3), 1}
		if err := g.Add(uint64(i), rows[uint64(i)]); err != nil {
			f.Fatal(err)
		}
		keys = append(keys, uint64(100+i))
	}
	// The live vectors a version-2 blob leaves to the segments.
	rowOf := func(id uint64) ([]float32, bool) { v, ok := rows[id]; return v, ok }
	g.Delete(3) // a tombstone, whose vector the blob keeps
	good, err := encodeGraphBlob(g, keys)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte("FDGR\x01\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\x7f"))
	f.Add([]byte("FDGR\x02\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\x7f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		g, keys, err := decodeGraphBlob(b, rowOf)
		if err != nil {
			return
		}
		again, err := encodeGraphBlob(g, keys)
		if err != nil {
			t.Fatalf("re-encoding a decoded graph: %v", err)
		}
		g2, keys2, err := decodeGraphBlob(again, rowOf)
		if err != nil {
			t.Fatalf("decoding a re-encoded graph: %v", err)
		}
		if !slices.Equal(keys, keys2) || g.Len() != g2.Len() || g.Dim() != g2.Dim() {
			t.Fatalf("round trip: %d keys, %d nodes, dim %d; then %d, %d, %d", len(keys), g.Len(), g.Dim(), len(keys2), g2.Len(), g2.Dim())
		}
		again2, _ := encodeGraphBlob(g2, keys2)
		if !bytes.Equal(again, again2) {
			t.Fatal("encoding is not stable across a round trip")
		}
	})
}
