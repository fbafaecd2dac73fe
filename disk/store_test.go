package disk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/fonte-rag/fonte"
)

func TestRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".fonte")
	s := mustOpen(t, dir, testCfg, Options{})
	if snap := mustSnapshot(t, s); snap.Generation() != 0 || snap.NumDocs() != 0 || len(snap.Rows()) != 0 {
		t.Fatalf("new store: generation %d, %d docs", snap.Generation(), snap.NumDocs())
	}

	recs := []Record{makeRecord("b/two.md", 1, 4, 8), makeRecord("a/one.md", 1, 3, 8), makeRecord("c.html", 2, 5, 8)}
	// Edge cases the encoding must carry bit for bit.
	odd := &recs[1]
	odd.Doc.Updated = time.Date(2024, 12, 31, 23, 59, 59, 999999999, time.FixedZone("CET", 3600))
	odd.Doc.Text = "Ünïcödé — ✓ text\x00with a NUL and \xff invalid UTF-8" + odd.Doc.Text
	for i := range odd.Chunks {
		odd.Chunks[i].Start += len("Ünïcödé — ✓ text\x00with a NUL and \xff invalid UTF-8")
		odd.Chunks[i].End += len("Ünïcödé — ✓ text\x00with a NUL and \xff invalid UTF-8")
	}
	odd.Vectors[0] = []float32{float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32, 1e-42, 1, -1, 0.1}
	odd.TextHashes[2] = ""
	odd.Meta = nil
	odd.Doc.Tags = nil
	odd.Chunks[0].Page, odd.Chunks[0].Headings = 0, []string{"Only"}
	recs[2].Doc.Updated = time.Time{}

	start := time.Now()
	err := s.Write(context.Background(), func(tx *Tx) error {
		for _, r := range recs {
			if err := tx.Put(r); err != nil {
				return err
			}
		}
		tx.SetBlob("hnsw", []byte("graph bytes"))
		tx.SetBlob("empty", []byte{})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Put copied the records: changing them now must not reach the store.
	recs[0].Vectors[0][0] = 42
	recs[0] = makeRecord("b/two.md", 1, 4, 8)

	written := mustSnapshot(t, s)
	// A fresh Store loads everything from the files.
	loaded := mustSnapshot(t, mustOpen(t, dir, Config{}, Options{ReadOnly: true}))
	if fingerprint(written) != fingerprint(loaded) {
		t.Fatal("the snapshot loaded from disk differs from the one committed")
	}
	for name, snap := range map[string]*Snapshot{"written": written, "loaded": loaded} {
		t.Run(name, func(t *testing.T) {
			if snap.Generation() != 1 || snap.Config() != testCfg || snap.Dim() != 8 {
				t.Errorf("generation %d config %+v", snap.Generation(), snap.Config())
			}
			if c := snap.Committed(); c.Before(start.Add(-time.Second)) || c.After(time.Now().Add(time.Second)) {
				t.Errorf("committed %v", c)
			}
			byID := map[string]Record{}
			for _, r := range recs {
				byID[r.Doc.ID] = r
				got, ok := snap.Doc(r.Doc.ID)
				if !ok {
					t.Fatalf("%s missing", r.Doc.ID)
				}
				checkRecord(t, got, r)
			}
			docs := snap.Docs()
			ids := []string{docs[0].ID, docs[1].ID, docs[2].ID}
			if !slices.Equal(ids, []string{"a/one.md", "b/two.md", "c.html"}) {
				t.Errorf("Docs order %v", ids)
			}
			// Global numbering: documents in ID order, chunks in Position order.
			i := 0
			for _, info := range docs {
				r := byID[info.ID]
				if info.Chunks != len(r.Chunks) || info.Bytes != len(r.Doc.Text) || info.SHA256 != r.Doc.SHA256 || info.Title != r.Doc.Title {
					t.Errorf("info %+v", info)
				}
				start, end, ok := snap.ChunkRange(info.ID)
				if !ok || start != i || end != i+len(r.Chunks) {
					t.Errorf("ChunkRange(%s) = %d, %d, %v; want %d, %d", info.ID, start, end, ok, i, i+len(r.Chunks))
				}
				for j, c := range r.Chunks {
					if got := snap.Chunk(i); got.ID != c.ID || got.Text != c.Text || got.DocID != info.ID {
						t.Errorf("Chunk(%d) = %q, want %q", i, got.ID, c.ID)
					}
					if !sameBits(snap.Vector(i), r.Vectors[j]) || !sameBits(snap.Rows()[i], r.Vectors[j]) {
						t.Errorf("Vector(%d) differs", i)
					}
					if snap.TextHash(i) != r.TextHashes[j] {
						t.Errorf("TextHash(%d)", i)
					}
					i++
				}
			}
			if snap.NumChunks() != i || len(snap.Rows()) != i {
				t.Errorf("NumChunks %d, vectors %d, want %d", snap.NumChunks(), len(snap.Rows()), i)
			}
			want := byID["c.html"]
			if v, ok := snap.VectorForText(want.TextHashes[3]); !ok || !sameBits(v, want.Vectors[3]) {
				t.Error("VectorForText misses a stored hash")
			}
			if _, ok := snap.VectorForText(""); ok {
				t.Error("VectorForText found the empty hash")
			}
			if _, ok := snap.VectorForText(hashHex("never stored")); ok {
				t.Error("VectorForText found an unknown hash")
			}
			if b, ok := snap.Blob("hnsw"); !ok || string(b) != "graph bytes" {
				t.Errorf("blob %q %v", b, ok)
			}
			if b, ok := snap.Blob("empty"); !ok || len(b) != 0 {
				t.Errorf("empty blob %q %v", b, ok)
			}
			if info, ok := snap.Info("b/two.md"); !ok || info.Chunks != 4 || !slices.Equal(info.Tags, byID["b/two.md"].Doc.Tags) || info.Meta["version"] != "1" {
				t.Errorf("Info = %+v, %v", info, ok)
			}
			if _, ok := snap.Info("nope"); ok {
				t.Error("Info(nope) found")
			}
			if _, ok := snap.Doc("nope"); ok {
				t.Error("Doc(nope) found")
			}
			if _, _, ok := snap.ChunkRange("nope"); ok {
				t.Error("ChunkRange(nope) found")
			}
		})
	}
}

func TestConfigMismatch(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{})
	putAll(t, s, makeRecord("a", 1, 2, 8))
	s.Close()

	other := testCfg
	other.Embedder, other.Dim = "ollama/nomic-embed-text", 768
	_, err := Open(dir, other, Options{})
	if !errors.Is(err, ErrConfigMismatch) {
		t.Fatalf("err = %v, want ErrConfigMismatch", err)
	}
	var me *MismatchError
	if !errors.As(err, &me) || me.Stored != testCfg || me.Requested != other {
		t.Fatalf("err = %#v", err)
	}
	msg := err.Error()
	for _, want := range []string{
		`embedder: stored "test/hash-8", requested "ollama/nomic-embed-text"`,
		"dim: stored 8, requested 768",
		"delete the folder " + dir,
		"`fonte index --rebuild`",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "analyzer") || strings.Contains(msg, "chunker") {
		t.Errorf("message names unchanged fields:\n%s", msg)
	}
	t.Log(msg)

	// A zero Config accepts whatever is stored, read-only or not.
	for _, ro := range []bool{true, false} {
		s := mustOpen(t, dir, Config{}, Options{ReadOnly: ro})
		if s.Config() != testCfg || mustSnapshot(t, s).NumDocs() != 1 {
			t.Errorf("ReadOnly=%v: config %+v", ro, s.Config())
		}
		s.Close()
	}
}

func TestRebuild(t *testing.T) {
	dir := t.TempDir()
	old := mustOpen(t, dir, testCfg, Options{})
	putAll(t, old, makeRecord("a", 1, 2, 8), makeRecord("b", 1, 2, 8))
	reader := mustOpen(t, dir, testCfg, Options{ReadOnly: true})
	mustSnapshot(t, reader)

	next := testCfg
	next.Dim = 4
	s := mustOpen(t, dir, next, Options{Rebuild: true})
	if _, err := s.Snapshot(); !errors.Is(err, ErrConfigMismatch) {
		t.Errorf("Snapshot before the rebuild commits: %v", err)
	}
	err := s.Write(context.Background(), func(tx *Tx) error {
		if tx.Base().NumDocs() != 0 || tx.Base().Config() != next {
			t.Errorf("rebuild base: %d docs, %+v", tx.Base().NumDocs(), tx.Base().Config())
		}
		return tx.Put(makeRecord("c", 1, 3, 4))
	})
	if err != nil {
		t.Fatal(err)
	}
	snap := mustSnapshot(t, s)
	if snap.Generation() != 2 || snap.NumDocs() != 1 || snap.Config() != next {
		t.Errorf("after rebuild: generation %d, %d docs", snap.Generation(), snap.NumDocs())
	}
	// A reader of the old configuration is told, not fed mixed vectors.
	if _, err := reader.Snapshot(); !errors.Is(err, ErrConfigMismatch) {
		t.Errorf("old reader: %v", err)
	}
	if _, err := Open(dir, testCfg, Options{}); !errors.Is(err, ErrConfigMismatch) {
		t.Errorf("old config opens: %v", err)
	}
	// The second commit of the rebuilt store works from its first.
	putAll(t, s, makeRecord("d", 1, 1, 4))
	if n := mustSnapshot(t, s).NumDocs(); n != 2 {
		t.Errorf("%d docs", n)
	}
	if err := s.Purge(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := len(listFiles(t, dir)); got != 4 { // manifest, lock, two segments
		t.Errorf("files after purge: %v", listFiles(t, dir))
	}
}

func TestIncrementalCommitWritesOnlyNewDocuments(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{})
	reader := mustOpen(t, dir, Config{}, Options{ReadOnly: true})
	putAll(t, s, makeRecord("a", 1, 3, 8), makeRecord("b", 1, 3, 8))
	mustSnapshot(t, reader)
	before := statAll(t, dir)
	readsBefore := reader.segmentsRead.Load()

	putAll(t, s, makeRecord("c", 1, 3, 8))
	after := statAll(t, dir)
	var added []string
	for name, st := range after {
		old, ok := before[name]
		switch {
		case !ok:
			added = append(added, name)
		case name != manifestName && (!old.mod.Equal(st.mod) || old.sum != st.sum):
			t.Errorf("%s was rewritten", name)
		}
	}
	slices.Sort(added)
	if !slices.Equal(added, []string{"seg-2-0.fseg"}) {
		t.Errorf("commit of one document added %v", added)
	}
	m := readManifestT(t, dir)
	if len(m.Segments) != 2 || m.Segments[1].Docs != 1 || m.Segments[0].File != "seg-1-0.fseg" {
		t.Errorf("segments %+v", m.Segments)
	}
	// A reader moving to the new generation reads only the new segment.
	if snap := mustSnapshot(t, reader); snap.NumDocs() != 3 || reader.segmentsRead.Load()-readsBefore != 1 {
		t.Errorf("reader: %d docs after reading %d segments", snap.NumDocs(), reader.segmentsRead.Load()-readsBefore)
	}
	first := mustSnapshot(t, reader)
	if again := mustSnapshot(t, reader); again != first {
		t.Error("Snapshot reloaded an unchanged manifest")
	}

	// Replacing a: its segment is rewritten with the survivor b, the
	// segment of c is kept, and the old file stays one generation.
	putAll(t, s, makeRecord("a", 2, 3, 8))
	m = readManifestT(t, dir)
	files := []string{}
	for _, e := range m.Segments {
		files = append(files, fmt.Sprintf("%s:%d", e.File, e.Docs))
	}
	if !slices.Equal(files, []string{"seg-2-0.fseg:1", "seg-3-0.fseg:2"}) || !slices.Equal(m.Retained, []string{"seg-1-0.fseg"}) {
		t.Errorf("segments %v, retained %v", files, m.Retained)
	}
	if _, err := os.Stat(filepath.Join(dir, "seg-1-0.fseg")); err != nil {
		t.Errorf("previous generation's file removed too early: %v", err)
	}
	putAll(t, s, makeRecord("d", 1, 1, 8))
	if _, err := os.Stat(filepath.Join(dir, "seg-1-0.fseg")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("file two generations old still there: %v", err)
	}
	snap := mustSnapshot(t, s)
	if r, _ := snap.Doc("a"); r.Meta["version"] != "2" || snap.NumDocs() != 4 {
		t.Errorf("a is version %s, %d docs", r.Meta["version"], snap.NumDocs())
	}
	if fingerprint(snap) != fingerprint(mustSnapshot(t, reader)) {
		t.Error("reader and writer disagree")
	}
}

type fileState struct {
	mod time.Time
	sum string
}

func statAll(t *testing.T, dir string) map[string]fileState {
	out := map[string]fileState{}
	for _, name := range listFiles(t, dir) {
		p := filepath.Join(dir, name)
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(p)
		out[name] = fileState{st.ModTime(), hashHex(string(data))}
	}
	return out
}

func readManifestT(t *testing.T, dir string) *manifest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := parseManifest(manifestName, raw)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDeleteAndPurgeLeaveNoBytes(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{})
	const secret = "zanzibar-quokka-7731"
	x := makeRecord("private/x.md", 1, 3, 8)
	x.Doc.Text += " The launch code is " + secret + "."
	x.Chunks[1].Text = "explicit chunk text with " + secret
	pattern := []float32{1234.5677, -8765.4321, 3.25, 1e-3, 77, -0.5, 2.0625, 99.5}
	x.Vectors[0] = pattern
	var vecBytes bytes.Buffer
	for _, f := range pattern {
		vecBytes.Write(appendF32(nil, f))
	}
	putAll(t, s, x, makeRecord("y", 1, 2, 8), makeRecord("z", 1, 2, 8))
	putAll(t, s, makeRecord("w", 1, 2, 8))

	if !tx(t, s, func(tx *Tx) error {
		if !tx.Delete("private/x.md") || tx.Delete("never-there") {
			t.Error("Delete reported wrongly")
		}
		return nil
	}) {
		return
	}
	snap := mustSnapshot(t, s)
	if _, ok := snap.Doc("private/x.md"); ok || snap.NumDocs() != 3 {
		t.Fatalf("after delete: %d docs", snap.NumDocs())
	}
	needles := map[string][]byte{"text": []byte(secret), "vector": vecBytes.Bytes(), "id": []byte("private/x.md")}
	// The live files never hold the deleted document...
	live := keepSet(readManifestT(t, dir).files())
	live[manifestName] = true
	scan := func(only map[string]bool) []string {
		var found []string
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || only != nil && !only[d.Name()] {
				return err
			}
			data, _ := os.ReadFile(p)
			for what, n := range needles {
				if bytes.Contains(data, n) {
					found = append(found, d.Name()+" has the "+what)
				}
			}
			return nil
		})
		return found
	}
	if found := scan(live); len(found) > 0 {
		t.Errorf("live files hold the deleted document: %v", found)
	}
	// ...the previous generation's file still does, for readers loading it...
	if found := scan(nil); len(found) == 0 {
		t.Error("the retained previous generation is gone already")
	}
	// ...and after Purge no byte of any file under DIR does.
	if err := s.Purge(context.Background()); err != nil {
		t.Fatal(err)
	}
	if found := scan(nil); len(found) > 0 {
		t.Errorf("after Purge: %v", found)
	}
	if got := mustSnapshot(t, mustOpen(t, dir, testCfg, Options{ReadOnly: true})); fingerprint(got) != fingerprint(snap) {
		t.Error("Purge changed the current generation")
	}
}

func appendF32(b []byte, f float32) []byte {
	u := math.Float32bits(f)
	return append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
}

// tx runs an Update that must succeed.
func tx(t *testing.T, s *Store, fn func(*Tx) error) bool {
	t.Helper()
	if err := s.Write(context.Background(), fn); err != nil {
		t.Fatalf("Update: %v", err)
		return false
	}
	return true
}

func TestPutValidation(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{})
	good := func() Record { return makeRecord("doc.md", 1, 3, 8) }
	cases := []struct {
		name  string
		edit  func(r *Record)
		wants []string
	}{
		{"wrong dimension", func(r *Record) { r.Vectors[1] = make([]float32, 5) }, []string{`"doc.md"`, "chunk 1", `"doc.md#1"`, "5 entries", "dimension 8"}},
		{"fewer vectors", func(r *Record) { r.Vectors = r.Vectors[:2] }, []string{`"doc.md"`, "3 chunks but 2 vectors"}},
		{"NaN", func(r *Record) { r.Vectors[2][3] = float32(math.NaN()) }, []string{"chunk 2", "NaN", "entry 3"}},
		{"infinity", func(r *Record) { r.Vectors[0][0] = float32(math.Inf(1)) }, []string{"chunk 0", "+Inf"}},
		{"hashes", func(r *Record) { r.TextHashes = r.TextHashes[:1] }, []string{"3 chunks but 1 text hashes"}},
		{"order", func(r *Record) { r.Chunks[2].Position = 1 }, []string{"chunk 2", "Position 1 after 1"}},
		{"other document's chunk", func(r *Record) { r.Chunks[0].DocID = "other.md" }, []string{"chunk 0", `"other.md"`}},
		{"no ID", func(r *Record) { r.Doc.ID = "" }, []string{"needs an ID"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := good()
			tc.edit(&r)
			err := s.Write(context.Background(), func(tx *Tx) error {
				if err := tx.Put(good()); err != nil {
					t.Fatal(err)
				}
				return tx.Put(r)
			})
			if !errors.Is(err, ErrInvalidRecord) {
				t.Fatalf("err = %v", err)
			}
			for _, w := range tc.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
		})
	}
	if snap := mustSnapshot(t, s); snap.Generation() != 0 || snap.NumDocs() != 0 {
		t.Errorf("failed transactions committed: generation %d", snap.Generation())
	}
	// A chunk with no DocID is given the document's.
	r := good()
	for i := range r.Chunks {
		r.Chunks[i].DocID = ""
	}
	putAll(t, s, r)
	if got := mustSnapshot(t, s).Chunk(0).DocID; got != "doc.md" {
		t.Errorf("DocID %q", got)
	}
}

func TestFailedOrCancelledUpdateChangesNothing(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{})
	putAll(t, s, makeRecord("a", 1, 2, 8))
	files := listFiles(t, dir)
	want := fingerprint(mustSnapshot(t, s))
	var leaked *Tx

	boom := errors.New("boom")
	err := s.Write(context.Background(), func(tx *Tx) error {
		leaked = tx
		tx.Put(makeRecord("b", 1, 2, 8))
		tx.Delete("a")
		tx.SetBlob("x", []byte("y"))
		return boom
	})
	if err != boom {
		t.Errorf("err = %v, want the function's error", err)
	}
	if err := leaked.Put(makeRecord("c", 1, 1, 8)); !errors.Is(err, ErrTxDone) {
		t.Errorf("Put after the end: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	err = s.Write(ctx, func(tx *Tx) error {
		tx.Put(makeRecord("b", 1, 2, 8))
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if err := s.Write(ctx, func(*Tx) error { t.Error("fn ran with a cancelled context"); return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: %v", err)
	}
	// A transaction with no changes commits nothing.
	if err := s.Write(context.Background(), func(tx *Tx) error { tx.Delete("nothing"); return nil }); err != nil {
		t.Fatal(err)
	}
	for _, st := range []*Store{s, mustOpen(t, dir, testCfg, Options{ReadOnly: true})} {
		if got := fingerprint(mustSnapshot(t, st)); got != want {
			t.Error("a failed update changed the store")
		}
	}
	if got := listFiles(t, dir); !slices.Equal(got, files) {
		t.Errorf("files %v, want %v", got, files)
	}
}

func TestReadOnly(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(filepath.Join(dir, "missing"), Config{}, Options{ReadOnly: true}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("read-only open of a missing index: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a read-only open created the folder")
	}
	if _, err := Open(filepath.Join(dir, "missing"), Config{}, Options{}); err == nil || !strings.Contains(err.Error(), "no configuration") {
		t.Errorf("creating without a config: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "bad"), Config{Embedder: "x"}, Options{}); err == nil || !strings.Contains(err.Error(), "dimension is 0") {
		t.Errorf("creating with Dim 0: %v", err)
	}

	idx := filepath.Join(dir, "idx")
	w := mustOpen(t, idx, testCfg, Options{})
	putAll(t, w, makeRecord("a", 1, 2, 8))
	w.Close()

	if err := os.Chmod(idx, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(idx, 0o755) })
	ro := mustOpen(t, idx, testCfg, Options{ReadOnly: true})
	if mustSnapshot(t, ro).NumDocs() != 1 {
		t.Error("read-only store lost a document")
	}
	if err := ro.Write(context.Background(), func(*Tx) error { return nil }); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Update: %v", err)
	}
	if err := ro.Purge(context.Background()); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Purge: %v", err)
	}
	if os.Geteuid() != 0 { // root writes anywhere
		if _, err := Open(idx, testCfg, Options{}); err == nil || !strings.Contains(err.Error(), "ReadOnly") {
			t.Errorf("writable open of a read-only folder: %v", err)
		}
	}
	// The same failure, injected, so it is checked when running as root.
	f := &faultFS{}
	f.arm(2, true) // mkdir succeeds, opening the lock fails
	if _, err := Open(idx, testCfg, Options{fs: f}); err == nil || !strings.Contains(err.Error(), filepath.Join(idx, lockName)) || !strings.Contains(err.Error(), "ReadOnly") {
		t.Errorf("open with an unwritable lock: %v", err)
	}
}

func TestNewerFormat(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{})
	putAll(t, s, makeRecord("a", 1, 2, 8))
	s.Close()
	p := filepath.Join(dir, manifestName)
	raw, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(raw, []byte(`"format": 1`), []byte(`"format": 7`), 1), 0o644)
	_, err := Open(dir, testCfg, Options{ReadOnly: true})
	if !errors.Is(err, ErrFormatVersion) || !strings.Contains(err.Error(), "version 7") || !strings.Contains(err.Error(), "upgrade fonte") {
		t.Errorf("err = %v", err)
	}
}

func TestMergePolicy(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{})
	maxSegs := 0
	for i := range 40 {
		putAll(t, s, makeRecord(fmt.Sprintf("doc-%02d", i), 1, 2, 8))
		maxSegs = max(maxSegs, mustSnapshot(t, s).Segments())
	}
	if maxSegs > maxSmallSegments+1 {
		t.Errorf("%d small segments at most, want <= %d", maxSegs, maxSmallSegments+1)
	}
	snap := mustSnapshot(t, s)
	if snap.NumDocs() != 40 {
		t.Errorf("%d docs", snap.NumDocs())
	}
	if fingerprint(snap) != fingerprint(mustSnapshot(t, mustOpen(t, dir, testCfg, Options{ReadOnly: true}))) {
		t.Error("merged store reads back differently")
	}
}

func TestSegmentsAreCut(t *testing.T) {
	dir := t.TempDir()
	// About three documents per segment.
	s := mustOpen(t, dir, testCfg, Options{SegmentBytes: 3 * (makeRecordSize() + 10)})
	var recs []Record
	for i := range 12 {
		recs = append(recs, makeRecord(fmt.Sprintf("d%02d", i), 1, 4, 8))
	}
	putAll(t, s, recs...)
	m := readManifestT(t, dir)
	if len(m.Segments) < 3 {
		t.Fatalf("%d segments for 12 documents", len(m.Segments))
	}
	// Replacing one document rewrites its segment only.
	putAll(t, s, makeRecord("d05", 2, 4, 8))
	m2 := readManifestT(t, dir)
	if len(m2.Retained) != 1 || len(m2.Segments) != len(m.Segments) {
		t.Errorf("before %d segments, after %d, retained %v", len(m.Segments), len(m2.Segments), m2.Retained)
	}
	if fingerprint(mustSnapshot(t, s)) != fingerprint(mustSnapshot(t, mustOpen(t, dir, testCfg, Options{ReadOnly: true}))) {
		t.Error("reads back differently")
	}
}

func makeRecordSize() int64 {
	d, _ := newDocData(makeRecord("d00", 1, 4, 8), 8)
	return d.estimate(8)
}

func TestTxDeleteThenPut(t *testing.T) {
	s := mustOpen(t, t.TempDir(), testCfg, Options{})
	putAll(t, s, makeRecord("a", 1, 2, 8), makeRecord("b", 1, 2, 8))
	tx(t, s, func(tx *Tx) error {
		if !tx.Delete("a") || tx.Delete("a") {
			t.Error("Delete twice")
		}
		if err := tx.Put(makeRecord("a", 3, 1, 8)); err != nil {
			return err
		}
		if err := tx.Put(makeRecord("n", 1, 1, 8)); err != nil {
			return err
		}
		if !tx.Delete("n") {
			t.Error("Delete of a put document")
		}
		if tx.Base().NumDocs() != 2 {
			t.Error("Base changed inside the transaction")
		}
		tx.SetBlob("gone", nil)
		return nil
	})
	snap := mustSnapshot(t, s)
	if r, ok := snap.Doc("a"); !ok || r.Meta["version"] != "3" || len(r.Chunks) != 1 {
		t.Errorf("a = %+v", r.Meta)
	}
	if _, ok := snap.Doc("n"); ok || snap.NumDocs() != 2 {
		t.Error("n was committed")
	}
	// Blobs: replace and delete.
	tx(t, s, func(tx *Tx) error { tx.SetBlob("k", []byte("v1")); tx.SetBlob("j", []byte("j")); return nil })
	tx(t, s, func(tx *Tx) error { tx.SetBlob("k", []byte("v2")); tx.SetBlob("j", nil); return nil })
	snap = mustSnapshot(t, s)
	if b, _ := snap.Blob("k"); string(b) != "v2" || !slices.Equal(snap.BlobNames(), []string{"k"}) {
		t.Errorf("blobs %v, k=%q", snap.BlobNames(), b)
	}
}

func TestClose(t *testing.T) {
	s := mustOpen(t, t.TempDir(), testCfg, Options{})
	putAll(t, s, makeRecord("a", 1, 2, 8))
	snap := mustSnapshot(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Snapshot(); !errors.Is(err, ErrClosed) {
		t.Errorf("Snapshot: %v", err)
	}
	if err := s.Write(context.Background(), func(*Tx) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Errorf("Update: %v", err)
	}
	if snap.NumDocs() != 1 {
		t.Error("a snapshot stopped working after Close")
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// The segment encoding lists fonte.Chunk's and fonte.Document's fields one
// by one; this catches a field added to either and forgotten by it.
func TestEncodingCoversEveryField(t *testing.T) {
	if n := reflect.TypeFor[fonte.Chunk]().NumField(); n != 9 {
		t.Errorf("fonte.Chunk has %d fields; the segment encoding stores 9: update segment.go", n)
	}
	if n := reflect.TypeFor[fonte.Document]().NumField(); n != 8 {
		t.Errorf("fonte.Document has %d fields; the segment encoding stores 8: update segment.go", n)
	}
}

// TestLargeBlobsAreReadOnDemand: a blob of a megabyte or more is not kept
// in the snapshot's memory but read, and checked, from its file on each
// ReadBlob, in the writer's snapshot and in another process's.
func TestLargeBlobsAreReadOnDemand(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{})
	big := make([]byte, lazyBlobBytes+123)
	for i := range big {
		big[i] = byte(i*31 + i/7)
	}
	tx(t, s, func(tx *Tx) error { tx.SetBlob("graph", big); tx.SetBlob("small", []byte("s")); return nil })
	for _, snap := range []*Snapshot{mustSnapshot(t, s), mustSnapshot(t, mustOpen(t, dir, Config{}, Options{ReadOnly: true}))} {
		if snap.blobs["graph"].data != nil {
			t.Fatal("the snapshot holds the large blob in memory")
		}
		if snap.blobs["small"].data == nil {
			t.Fatal("the snapshot does not hold the small blob")
		}
		got, err := snap.ReadBlob("graph")
		if err != nil || !bytes.Equal(got, big) {
			t.Fatalf("ReadBlob: %d bytes, %v", len(got), err)
		}
		if _, err := snap.ReadBlob("none"); !errors.Is(err, ErrNoBlob) {
			t.Fatalf("missing blob: %v", err)
		}
	}
	// MapBlob hands out the mapped bytes, 64-byte aligned.
	snap := mustSnapshot(t, s)
	mapped, err := snap.MapBlob("graph")
	if err != nil || !bytes.Equal(mapped, big) {
		t.Fatalf("MapBlob: %d bytes, %v", len(mapped), err)
	}
	if mmapSupported && uintptr(unsafe.Pointer(unsafe.SliceData(mapped)))%64 != 0 {
		t.Error("the mapped blob's bytes are not 64-byte aligned")
	}
	if small, err := snap.MapBlob("small"); err != nil || string(small) != "s" {
		t.Fatalf("MapBlob(small) = %q, %v", small, err)
	}
	// A damaged file is refused when read, and found by Verify when
	// mapped (in place: a rewrite would truncate a mapped file).
	path := snap.blobs["graph"].file.path
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{^big[len(big)/2]}, blobDataOff+int64(len(big)/2)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := snap.ReadBlob("graph"); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("damaged blob: %v", err)
	}
	if _, ok := snap.Blob("graph"); ok {
		t.Fatal("Blob returned a damaged blob")
	}
	// A store opened now maps the blob, checking only its size and
	// trailer, and verifies its checksum in the background: a Snapshot
	// taken after that pass has ended refuses the damaged store, which is
	// right too (it races with the pass on a fast machine).
	fresh, err := mustOpen(t, dir, Config{}, Options{ReadOnly: true}).Snapshot()
	if err != nil {
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
			t.Fatalf("Snapshot of a store with a damaged blob: %v", err)
		}
		return
	}
	if _, err := fresh.MapBlob("graph"); err != nil {
		t.Fatalf("MapBlob checks only the size and trailer at open: %v", err)
	}
	if err := fresh.Verify(); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Verify of a damaged mapped blob: %v", err)
	}
}
