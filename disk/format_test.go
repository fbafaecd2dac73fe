package disk

import (
	"bytes"
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/vector"
)

var update = flag.Bool("update", false, "rewrite testdata/v3 from goldenRecords")

var goldenCfg = Config{Analyzer: "fonte-analysis/v1 en", Chunker: "structure/v1 size=220 overlap=40", Embedder: "golden/4", Dim: 4}

// goldenRecords are the content of testdata/v1, v2 and v3, with hand-written vectors
// so the files do not depend on a random generator's stability.
func goldenRecords() []Record {
	text := "# Refunds\n\nAn approved refund is returned within 5 working days.\n\n# Returns\n\nItems may be returned within 30 days."
	doc := fonte.Document{
		ID: "handbook.md", Title: "Support handbook", Source: "docs/handbook.md", Language: "en",
		SHA256:  "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		Updated: time.Date(2025, 1, 2, 3, 4, 5, 6, time.FixedZone("", 3600)),
		Text:    text, Tags: []string{"support", "policy"},
	}
	a := Record{
		Doc: doc,
		Chunks: []fonte.Chunk{
			{ID: "handbook.md#0", DocID: doc.ID, Title: doc.Title, Headings: []string{"Refunds"}, Text: text[11:65], Start: 11, End: 65, Position: 0},
			{ID: "handbook.md#1", DocID: doc.ID, Title: doc.Title, Headings: []string{"Returns"}, Text: "Returns. Items may be returned within 30 days.", Start: 78, End: 115, Page: 2, Position: 1},
		},
		TextHashes: []string{"h0", ""},
		Vectors:    [][]float32{{0.5, -0.25, 1, 0}, {0, 3.4028235e38, 1e-45, -1}},
		Meta:       map[string]string{"language-from": "detector"},
	}
	b := Record{
		Doc: fonte.Document{ID: "empty.txt", Title: "Empty", Text: ""},
	}
	return []Record{a, b}
}

// TestFormatV3 pins the version 3 encoding: the encoder must still produce
// the committed segment byte for byte, and the committed folder must still
// read back as goldenRecords. A deliberate format change bumps the version
// and adds testdata/v4 beside v3.
func TestFormatV3(t *testing.T) {
	golden := filepath.Join("testdata", "v3")
	if *update {
		os.RemoveAll(golden)
		s, err := Open(golden, goldenCfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Write(context.Background(), func(tx *Tx) error {
			for _, r := range goldenRecords() {
				if err := tx.Put(r); err != nil {
					return err
				}
			}
			tx.SetBlob("bm25", []byte("opaque index bytes"))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		os.Remove(filepath.Join(golden, lockName))
	}

	var docs []*docData
	for _, r := range goldenRecords() {
		d, err := newDocData(r, goldenCfg.Dim)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	docs[0], docs[1] = docs[1], docs[0] // ID order
	var buf bytes.Buffer
	if _, _, err := encodeSegment(&buf, goldenCfg.Dim, docs, true); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(golden, "seg-1-0.fseg"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("the encoder no longer writes format v3 byte for byte (%d bytes, golden %d); run with -update only for a deliberate change", buf.Len(), len(want))
	}
	if v := binary.LittleEndian.Uint32(want[8:]); v != segmentVersion {
		t.Errorf("golden segment version %d", v)
	}
	metaLen, dirLen := binary.LittleEndian.Uint64(want[28:]), binary.LittleEndian.Uint64(want[36:])
	lay := layoutV3(int(metaLen), int(dirLen), 2, goldenCfg.Dim, int8Len(goldenCfg.Dim, 2))
	if lay.vecs%vecAlign != 0 || lay.int8%vecAlign != 0 || lay.dir%8 != 0 || int(lay.end)+trailerLen != len(want) {
		t.Errorf("directory at %d, vector block at %d of %d bytes: not aligned, or not where the sizes put them", lay.dir, lay.vecs, len(want))
	}
	checkGolden(t, golden)
}

// TestFormatV2 keeps indexes written before version 3 readable: their
// meta sections are parsed at open and their directories built in memory.
func TestFormatV2(t *testing.T) {
	checkGolden(t, filepath.Join("testdata", "v2"))
}

// TestFormatV1 keeps indexes written before version 2 readable: their
// segments are read into memory and verified at once.
func TestFormatV1(t *testing.T) {
	checkGolden(t, filepath.Join("testdata", "v1"))
}

// checkGolden opens a copy of a golden folder and checks it reads back as
// goldenRecords.
func checkGolden(t *testing.T, golden string) {
	t.Helper()
	s := mustOpen(t, copyDir(t, golden), Config{}, Options{ReadOnly: true})
	snap := mustSnapshot(t, s)
	if err := snap.Verify(); err != nil {
		t.Fatal(err)
	}
	if snap.Config() != goldenCfg || snap.Generation() != 1 {
		t.Errorf("config %+v generation %d", snap.Config(), snap.Generation())
	}
	for _, r := range goldenRecords() {
		got, ok := snap.Doc(r.Doc.ID)
		if !ok {
			t.Fatalf("%s missing", r.Doc.ID)
		}
		checkRecord(t, got, r)
	}
	if b, _ := snap.Blob("bm25"); string(b) != "opaque index bytes" {
		t.Errorf("blob %q", b)
	}
}

// FuzzParseMeta feeds arbitrary bytes to the meta-section parser, which
// must return an error and never panic or allocate without bound. (On
// disk a checksum guards it too; this covers a file whose checksum was
// recomputed over bad content.)
func FuzzParseMeta(f *testing.F) {
	var docs []*docData
	for _, r := range goldenRecords() {
		d, _ := newDocData(r, goldenCfg.Dim)
		docs = append(docs, d)
	}
	docs[0], docs[1] = docs[1], docs[0]
	var meta []byte
	for _, d := range docs {
		meta = appendDoc(meta, d, nil)
	}
	f.Add(meta, uint32(2), uint64(2))
	f.Add(meta[:len(meta)/2], uint32(2), uint64(2))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, uint32(1), uint64(1))
	f.Fuzz(func(t *testing.T, b []byte, ndocs uint32, nchunks uint64) {
		got, err := parseMeta(b, int(ndocs), nchunks, true)
		if err != nil {
			return
		}
		total := 0
		for _, d := range got {
			total += len(d.chunks)
			for _, c := range d.chunks {
				if c.DocID != d.doc.ID {
					t.Fatalf("chunk %q of %q", c.ID, d.doc.ID)
				}
			}
		}
		if len(got) != int(ndocs) || uint64(total) != nchunks {
			t.Fatalf("%d docs and %d chunks parsed, %d and %d announced", len(got), total, ndocs, nchunks)
		}
	})
}

// TestInt8Section: a segment written for exact search carries the int8
// copy vector.Flat would make of its rows, read back in place; one
// written without it has none.
func TestInt8Section(t *testing.T) {
	var docs []*docData
	var data []float32
	for i := range 5 {
		d, err := newDocData(makeRecord(fmt.Sprintf("d%d", i), 1, 1+i%3, 8), 8)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
		data = append(data, d.vecs...)
	}
	want := vector.QuantizeBlock(8, data)
	for _, with := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "seg-1-0.fseg")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		size, sum, err := encodeSegment(f, 8, docs, with)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		sf, err := openSegment(path, segmentEntry{File: "seg-1-0.fseg", Size: size, CRC32C: sum, Docs: len(docs), Chunks: len(data) / 8}, 8)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case !with && sf.int8 != nil:
			t.Fatal("an int8 section written without asking")
		case with && sf.int8 == nil:
			t.Fatal("no int8 section")
		case with && (!slices.Equal(sf.int8.Codes, want.Codes) || !slices.Equal(sf.int8.Scale, want.Scale) ||
			!slices.Equal(sf.int8.Sum, want.Sum) || sf.int8.MaxErr != want.MaxErr || sf.int8.MaxNorm != want.MaxNorm):
			t.Fatal("the int8 section read back differs from vector.QuantizeBlock's")
		}
		if err := sf.verify(); err != nil {
			t.Fatal(err)
		}
	}
}
