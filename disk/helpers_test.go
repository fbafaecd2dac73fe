package disk

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
)

var testCfg = Config{
	Analyzer: "fonte-analysis/v1 en+it",
	Chunker:  "structure/v1 size=220 overlap=40",
	Embedder: "test/hash-8",
	Dim:      8,
}

// makeRecord builds a deterministic record for id at version v with n
// chunks: most chunk texts are exact spans of the document text, one is
// normalized (stored explicitly), one has its own title, headings nest,
// pages vary, and every vector depends on (id, v, chunk).
func makeRecord(id string, v, n, dim int) Record {
	var text strings.Builder
	var spans [][2]int
	for i := range n {
		start := text.Len()
		fmt.Fprintf(&text, "Paragraph %d of %s, version %d:  lorem ipsum dolor sit amet.", i, id, v)
		spans = append(spans, [2]int{start, text.Len()})
		text.WriteString("\n\n")
	}
	doc := fonte.Document{
		ID:       id,
		Title:    "Title of " + id,
		Source:   "file:///docs/" + id,
		Language: "en",
		SHA256:   hashHex(fmt.Sprint(id, v)),
		Updated:  time.Date(2025, 3, 1+v%27, 10, 30, 15, 123456789, time.UTC),
		Text:     text.String(),
		Tags:     []string{"tag-" + id, "v" + fmt.Sprint(v)},
	}
	r := Record{Doc: doc, Meta: map[string]string{"version": fmt.Sprint(v), "lang-from": "detector"}}
	for i := range n {
		c := fonte.Chunk{
			ID:       fmt.Sprintf("%s#%d", id, i),
			DocID:    id,
			Title:    doc.Title,
			Headings: []string{"Top", fmt.Sprintf("Section %d", i/2)},
			Text:     doc.Text[spans[i][0]:spans[i][1]],
			Start:    spans[i][0],
			End:      spans[i][1],
			Page:     1 + i/3,
			Position: i,
		}
		if i == 1 {
			c.Text = strings.Join(strings.Fields(c.Text), " ") // normalized: not the span
		}
		if i == 2 {
			c.Title = "Other title"
			c.Headings = nil
		}
		r.Chunks = append(r.Chunks, c)
		r.TextHashes = append(r.TextHashes, hashHex(c.Text))
		r.Vectors = append(r.Vectors, makeVector(id, v, i, dim))
	}
	return r
}

func makeVector(id string, v, chunk, dim int) []float32 {
	h := fnv.New64a()
	fmt.Fprint(h, id, "/", v, "/", chunk)
	rng := rand.New(rand.NewPCG(h.Sum64(), 7))
	out := make([]float32, dim)
	for j := range out {
		out[j] = float32(rng.NormFloat64())
	}
	return out
}

func hashHex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func mustOpen(t testing.TB, dir string, cfg Config, opts Options) *Store {
	t.Helper()
	s, err := Open(dir, cfg, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func mustSnapshot(t testing.TB, s *Store) *Snapshot {
	t.Helper()
	snap, err := s.Snapshot()
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	return snap
}

func putAll(t testing.TB, s *Store, recs ...Record) {
	t.Helper()
	err := s.Write(context.Background(), func(tx *Tx) error {
		for _, r := range recs {
			if err := tx.Put(r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
}

// fingerprint is a digest of everything a snapshot holds, bit for bit, so
// two snapshots can be compared whole.
func fingerprint(s *Snapshot) string {
	h := sha256.New()
	w := func(args ...any) { fmt.Fprintln(h, args...) }
	w("gen", s.Generation(), s.Config())
	for _, info := range s.Docs() {
		r, _ := s.Doc(info.ID)
		d := r.Doc
		w("doc", d.ID, d.Title, d.Source, d.Language, d.SHA256, d.Updated.UnixNano(), d.Text, d.Tags)
		keys := slices.Sorted(maps.Keys(r.Meta))
		for _, k := range keys {
			w("meta", k, r.Meta[k])
		}
		for i, c := range r.Chunks {
			w("chunk", c.ID, c.DocID, c.Title, c.Headings, c.Text, c.Start, c.End, c.Page, c.Position, r.TextHashes[i])
			for _, x := range r.Vectors[i] {
				binary.Write(h, binary.LittleEndian, math.Float32bits(x))
			}
		}
	}
	for _, name := range s.BlobNames() {
		b, _ := s.Blob(name)
		w("blob", name, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// checkRecord compares a stored record with the one put, vectors bit for
// bit.
func checkRecord(t *testing.T, got, want Record) {
	t.Helper()
	if !got.Doc.Updated.Equal(want.Doc.Updated) {
		t.Errorf("%s: Updated %v, want %v", want.Doc.ID, got.Doc.Updated, want.Doc.Updated)
	}
	_, gotOff := got.Doc.Updated.Zone()
	_, wantOff := want.Doc.Updated.Zone()
	if gotOff != wantOff {
		t.Errorf("%s: zone offset %d, want %d", want.Doc.ID, gotOff, wantOff)
	}
	g, w := got.Doc, want.Doc
	g.Updated, w.Updated = time.Time{}, time.Time{}
	if !equalJSONish(g, w) {
		t.Errorf("%s: document\n got %#v\nwant %#v", want.Doc.ID, g, w)
	}
	if len(got.Chunks) != len(want.Chunks) {
		t.Fatalf("%s: %d chunks, want %d", want.Doc.ID, len(got.Chunks), len(want.Chunks))
	}
	for i := range want.Chunks {
		if !equalJSONish(got.Chunks[i], want.Chunks[i]) {
			t.Errorf("%s chunk %d:\n got %#v\nwant %#v", want.Doc.ID, i, got.Chunks[i], want.Chunks[i])
		}
		if want.TextHashes != nil && got.TextHashes[i] != want.TextHashes[i] {
			t.Errorf("%s chunk %d: hash %q, want %q", want.Doc.ID, i, got.TextHashes[i], want.TextHashes[i])
		}
		if !sameBits(got.Vectors[i], want.Vectors[i]) {
			t.Errorf("%s chunk %d: vector %v, want %v", want.Doc.ID, i, got.Vectors[i], want.Vectors[i])
		}
	}
	if !maps.Equal(got.Meta, want.Meta) && (len(got.Meta) != 0 || len(want.Meta) != 0) {
		t.Errorf("%s: meta %v, want %v", want.Doc.ID, got.Meta, want.Meta)
	}
}

// equalJSONish compares with fmt's %#v, which treats nil and empty slices
// alike only when both print the same; the store keeps nil as nil.
func equalJSONish(a, b any) bool {
	return normalize(fmt.Sprintf("%#v", a)) == normalize(fmt.Sprintf("%#v", b))
}

func normalize(s string) string {
	return strings.ReplaceAll(s, "[]string(nil)", "[]string{}")
}

func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// listFiles returns the names of the files in dir, sorted.
func listFiles(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// copyDir copies the files of src into a new temporary folder.
func copyDir(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	for _, name := range listFiles(t, src) {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// errInjected is what faultFS returns.
var errInjected = errors.New("injected failure: no space left on device")

// faultFS is the real file system with failures on demand: once armed, it
// counts every operation and fails the failAt-th (and, when sticky, every
// later one, like a full disk). block, when set, is called before each
// counted operation (the crash test uses it to stop the process there).
type faultFS struct {
	osFS
	mu     sync.Mutex
	armed  bool
	n      int
	failAt int
	sticky bool
	failed string // path of the first injected failure
	ops    []string
	block  func(n int, op, path string)
}

func (f *faultFS) arm(failAt int, sticky bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.armed, f.n, f.failAt, f.sticky, f.failed, f.ops = true, 0, failAt, sticky, "", nil
}

func (f *faultFS) disarm() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.armed = false
}

func (f *faultFS) check(op, path string) error {
	f.mu.Lock()
	if !f.armed {
		f.mu.Unlock()
		return nil
	}
	f.n++
	n := f.n
	f.ops = append(f.ops, opName(op, path))
	fail := n == f.failAt || f.sticky && f.failAt > 0 && n > f.failAt
	if fail && f.failed == "" {
		f.failed = path
	}
	block := f.block
	f.mu.Unlock()
	if block != nil {
		block(n, op, path)
	}
	if fail {
		return &fs.PathError{Op: op, Path: path, Err: errInjected}
	}
	return nil
}

// opName names an operation the same way whatever the temporary folder.
func opName(op, path string) string {
	if op == "syncdir" || op == "mkdir" {
		return op
	}
	return op + " " + filepath.Base(path)
}

func (f *faultFS) MkdirAll(dir string) error {
	if err := f.check("mkdir", dir); err != nil {
		return err
	}
	return f.osFS.MkdirAll(dir)
}

func (f *faultFS) OpenLock(name string) (*os.File, error) {
	if err := f.check("openlock", name); err != nil {
		return nil, err
	}
	return f.osFS.OpenLock(name)
}

func (f *faultFS) Create(name string) (writeFile, error) {
	if err := f.check("create", name); err != nil {
		return nil, err
	}
	w, err := f.osFS.Create(name)
	if err != nil {
		return nil, err
	}
	return &faultFile{w: w, fs: f, name: name}, nil
}

func (f *faultFS) Rename(from, to string) error {
	if err := f.check("rename", from); err != nil {
		return err
	}
	return f.osFS.Rename(from, to)
}

func (f *faultFS) Remove(name string) error {
	if err := f.check("remove", name); err != nil {
		return err
	}
	return f.osFS.Remove(name)
}

func (f *faultFS) SyncDir(dir string) error {
	if err := f.check("syncdir", dir); err != nil {
		return err
	}
	return f.osFS.SyncDir(dir)
}

type faultFile struct {
	w    writeFile
	fs   *faultFS
	name string
}

func (f *faultFile) Write(p []byte) (int, error) {
	if err := f.fs.check("write", f.name); err != nil {
		// A full disk may take part of a write.
		n, _ := f.w.Write(p[:len(p)/2])
		return n, err
	}
	return f.w.Write(p)
}

func (f *faultFile) Sync() error {
	if err := f.fs.check("sync", f.name); err != nil {
		return err
	}
	return f.w.Sync()
}

func (f *faultFile) Close() error {
	err := f.fs.check("close", f.name)
	if cerr := f.w.Close(); err == nil {
		err = cerr
	}
	return err
}

var _ io.Writer = (*faultFile)(nil)
