package disk

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
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
	if _, _, err := encodeSegment(&buf, 3, docs, true); err != nil {
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
		size, sum2, err := encodeSegment(&again, dim, got, true)
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

// fuzzGraph is a small External graph with a tombstone, over rows.
func fuzzGraph(f testing.TB) (*vector.HNSW, [][]float32, []uint64) {
	g := vector.NewHNSW(3, vector.HNSWOptions{External: true})
	var rows [][]float32
	var keys []uint64
	for i := range 12 {
		rows = append(rows, []float32{float32(i), float32(i % 3), 1})
		keys = append(keys, uint64(100+i))
		if err := g.Add(keys[i], rows[i]); err != nil {
			f.Fatal(err)
		}
	}
	g.Delete(keys[3]) // a tombstone, whose vector the blob keeps
	return g, rows, keys
}

// FuzzGraphBlob: a version-3 graph blob is rejected, or opens into a
// graph that searches without panicking and writes a blob that opens to
// the same keys and positions.
func FuzzGraphBlob(f *testing.F) {
	g, rows, keys := fuzzGraph(f)
	fp := [32]byte{1, 2, 3}
	good := encodeGraphBlob(g, keys, fp)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte("FDGR\x03\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\x7f"))
	rowAt := func(i int) []float32 { return rows[i] }
	byKey := func() func(uint64) ([]float32, bool) {
		return func(k uint64) ([]float32, bool) {
			if k < 100 || k >= 100+uint64(len(rows)) {
				return nil, false
			}
			return rows[k-100], true
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		b = append(make([]byte, 0, len(b)+64), b...) // 8-aligned, as a mapped blob is
		g, _, pos, current, err := openGraphBlob(b, fp, len(rows), rowAt, byKey)
		if err != nil {
			return
		}
		g.SearchNodes([]float32{1, 0, 0}, 5, 10, nil)
		g.SearchNodes([]float32{0, 1, 0}, 5, 10, func(n uint32) bool { return n%2 == 0 })
		if current && len(pos) > len(b)/4 {
			t.Fatalf("%d node positions from %d bytes", len(pos), len(b))
		}
	})
}

// TestGraphBlobRoundTrip: a graph written as a version-3 blob opens for
// the numbering it was written for with every live node at its chunk,
// searches as the graph did, and for another numbering finds its rows by
// key.
func TestGraphBlobRoundTrip(t *testing.T) {
	g, rows, keys := fuzzGraph(t)
	fp := [32]byte{9}
	b := append(make([]byte, 0, 1<<16), encodeGraphBlob(g, keys, fp)...)
	rowAt := func(i int) []float32 { return rows[i] }
	byKey := func() func(uint64) ([]float32, bool) {
		return func(k uint64) ([]float32, bool) { return rows[k-100], k >= 100 && k < 112 }
	}
	g2, nodeKeys, pos, current, err := openGraphBlob(b, fp, len(rows), rowAt, byKey)
	if err != nil || !current {
		t.Fatalf("current %v, err %v", current, err)
	}
	for node, k := range nodeKeys {
		if k != keys[3] && (int(pos[node]) >= len(keys) || keys[pos[node]] != k) {
			t.Fatalf("node %d (key %d) at chunk %d", node, k, pos[node])
		}
	}
	q := []float32{5, 1, 1}
	want, got := g.SearchNodes(q, 4, 20, nil), g2.SearchNodes(q, 4, 20, nil)
	if fmt.Sprint(want) != fmt.Sprint(got) || len(got) != 4 {
		t.Fatalf("in place %v, the graph %v", got, want)
	}
	_, _, pos, current, err = openGraphBlob(b, [32]byte{8}, len(rows), rowAt, byKey)
	if err != nil || current || pos != nil {
		t.Fatalf("for another numbering: current %v, positions %v, err %v", current, pos, err)
	}
}

// FuzzGraphBlobV2 feeds the decoder of version 1 and 2 blobs (still
// read): it rejects a blob or decodes one, and never panics.
func FuzzGraphBlobV2(f *testing.F) {
	g, rows, keys := fuzzGraph(f)
	var buf bytes.Buffer
	buf.Write(graphMagicV2)
	buf.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(keys))))
	for _, k := range keys {
		buf.Write(binary.LittleEndian.AppendUint64(nil, k))
	}
	if err := g.EncodeLinks(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add(buf.Bytes()[:buf.Len()/2])
	f.Add([]byte("FDGR\x01\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\x7f"))
	rowOf := func(k uint64) ([]float32, bool) {
		if k < 100 || k >= 100+uint64(len(rows)) {
			return nil, false
		}
		return rows[k-100], true
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, keys, err := decodeGraphBlob(b, rowOf)
		if err != nil {
			return
		}
		if g.Dim() < 1 || len(keys) > len(b)/8 {
			t.Fatalf("decoded a graph of dimension %d with %d keys from %d bytes", g.Dim(), len(keys), len(b))
		}
		if g.Dim() == 3 {
			g.Search([]float32{1, 0, 0}, 5)
		}
	})
}
