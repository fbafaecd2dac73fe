package disk

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// faultBase builds a store whose next transaction exercises every write
// path: several segments, one rewritten (a replaced and a deleted
// document), one kept, new documents, blobs written and deleted, and a
// file two generations old to remove.
func faultBase(t *testing.T) (dir string, opts Options) {
	dir = t.TempDir()
	opts = Options{SegmentBytes: 3 * (makeRecordSize() + 10)}
	s := mustOpen(t, dir, testCfg, opts)
	var recs []Record
	for i := range 6 {
		recs = append(recs, makeRecord(fmt.Sprintf("d%d", i), 1, 4, 8))
	}
	putAll(t, s, recs...)
	tx(t, s, func(tx *Tx) error {
		tx.SetBlob("index", []byte("old index"))
		tx.SetBlob("embedder", []byte("frozen"))
		return nil
	})
	// A replaced document leaves a retained file, which the next commit
	// removes: that removal is a failure point too.
	putAll(t, s, makeRecord("d4", 2, 4, 8))
	s.Close()
	return dir, opts
}

// faultChange is the transaction the failure tests interrupt.
func faultChange(tx *Tx) error {
	if err := tx.Put(makeRecord("d1", 2, 3, 8)); err != nil {
		return err
	}
	tx.Delete("d2")
	for _, id := range []string{"n1", "n2", "n3", "n4"} {
		if err := tx.Put(makeRecord(id, 1, 4, 8)); err != nil {
			return err
		}
	}
	// With a small Options.TxMemory the first puts were spilled: replace
	// and delete one of them.
	if err := tx.Put(makeRecord("n1", 2, 2, 8)); err != nil {
		return err
	}
	tx.Delete("n3")
	tx.SetBlob("index", []byte("new index"))
	tx.SetBlob("embedder", nil)
	tx.SetBlob("extra", []byte("extra"))
	return nil
}

// TestFailureAtEveryWritePoint fails the 1st, 2nd, ... file-system
// operation of a commit until the commit gets through, once with transient
// errors and once with a disk that stays full. Every failed Update must
// name the file, leave the previous generation intact and readable, and be
// repaired by the next writer.
func TestFailureAtEveryWritePoint(t *testing.T) {
	t.Run("in memory", func(t *testing.T) { failEveryWritePoint(t, 0) })
	// A transaction that spills its puts to segment files before the
	// commit: a failure while spilling fails the Update the same way.
	t.Run("spilling", func(t *testing.T) { failEveryWritePoint(t, 1) })
}

func failEveryWritePoint(t *testing.T, txMemory int64) {
	pristine, opts := faultBase(t)
	opts.TxMemory = txMemory
	before := fingerprint(mustSnapshot(t, mustOpen(t, pristine, testCfg, Options{ReadOnly: true})))
	ref := copyDir(t, pristine)
	rs := mustOpen(t, ref, testCfg, opts)
	tx(t, rs, faultChange)
	after := fingerprint(mustSnapshot(t, rs))

	for _, sticky := range []bool{false, true} {
		t.Run(fmt.Sprintf("sticky=%v", sticky), func(t *testing.T) {
			points := 0
			for n := 1; ; n++ {
				dir := copyDir(t, pristine)
				f := &faultFS{}
				o := opts
				o.fs = f
				s := mustOpen(t, dir, testCfg, o)
				f.arm(n, sticky)
				err := s.Write(context.Background(), faultChange)
				f.disarm()
				ops := f.ops
				if f.failed == "" {
					if err != nil {
						t.Fatalf("no failure injected, yet: %v", err)
					}
					t.Logf("%d operations, every one failed in turn: %s", len(ops), strings.Join(ops, ", "))
					break
				}
				points++
				cur := fingerprint(mustSnapshot(t, s))
				disk := fingerprint(mustSnapshot(t, mustOpen(t, dir, testCfg, Options{ReadOnly: true})))
				switch {
				case err == nil:
					// Only tidying after the commit may fail silently.
					if !slices.Contains(ops[:n-1], "rename "+manifestTmp) || ops[n-1] == "syncdir" && ops[n-2] == "rename "+manifestTmp {
						t.Fatalf("failure at %q was ignored", ops[n-1])
					}
					if cur != after || disk != after {
						t.Fatalf("failure at %q: Update succeeded but the new generation is not there", ops[n-1])
					}
				case errors.Is(err, ErrNotDurable):
					if cur != after || disk != after {
						t.Fatalf("%v: but the new generation is not visible", err)
					}
				default:
					if !strings.Contains(err.Error(), f.failed) || !errors.Is(err, errInjected) {
						t.Fatalf("failure at %q: the error does not name %s: %v", ops[n-1], f.failed, err)
					}
					if cur != before || disk != before {
						t.Fatalf("failure at %q (%v) changed the current generation", ops[n-1], err)
					}
				}
				s.Close()
				// The next writer, on a healthy disk, commits and tidies.
				s2 := mustOpen(t, dir, testCfg, opts)
				if err == nil || errors.Is(err, ErrNotDurable) {
					putAll(t, s2, makeRecord("again", 1, 1, 8))
				} else {
					tx(t, s2, faultChange)
					if fingerprint(mustSnapshot(t, s2)) != after {
						t.Fatalf("after a failure at %q the retry committed something else", ops[n-1])
					}
				}
				checkNoStrays(t, dir)
				s2.Close()
			}
			if points < 20 {
				t.Errorf("only %d failure points exercised", points)
			}
		})
	}
}

// checkNoStrays asserts DIR holds only the manifest, the lock and the
// files of the current and retained generations.
func checkNoStrays(t *testing.T, dir string) {
	t.Helper()
	m := readManifestT(t, dir)
	keep := keepSet(m.files(), m.Retained, []string{manifestName, lockName})
	for _, name := range listFiles(t, dir) {
		if !keep[name] {
			t.Errorf("stray file %s after a successful commit", name)
		}
	}
}

// TestCrashLeftovers simulates a writer that died mid-commit: a partial
// segment and blob with the next generation's names, and half a manifest.
func TestCrashLeftovers(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{})
	putAll(t, s, makeRecord("a", 1, 3, 8))
	want := fingerprint(mustSnapshot(t, s))
	s.Close()
	for name, data := range map[string]string{
		"seg-2-0.fseg":   "FONTESEG\x01\x00\x00\x00 partial",
		"blob-2-0.fblob": "FONTEBL",
		manifestTmp:      `{"format": 1, "generation": 2, "segm`,
		"seg-9-9.fseg":   "garbage from an older crash",
		"notes.txt":      "not ours: left alone",
	} {
		os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644)
	}
	// Readers see the previous generation, whole.
	r := mustOpen(t, dir, testCfg, Options{ReadOnly: true})
	if got := fingerprint(mustSnapshot(t, r)); got != want {
		t.Fatal("the previous generation is damaged")
	}
	// The next writer removes the leftovers and commits over their names.
	w := mustOpen(t, dir, testCfg, Options{})
	putAll(t, w, makeRecord("b", 1, 2, 8))
	files := listFiles(t, dir)
	if !slices.Equal(files, []string{lockName, manifestName, "notes.txt", "seg-1-0.fseg", "seg-2-0.fseg"}) {
		t.Errorf("files %v", files)
	}
	if got := mustSnapshot(t, r); got.NumDocs() != 2 {
		t.Errorf("reader sees %d docs", got.NumDocs())
	}
}

func TestCorruptedFiles(t *testing.T) {
	pristine := t.TempDir()
	s := mustOpen(t, pristine, testCfg, Options{})
	putAll(t, s, makeRecord("a", 1, 3, 8), makeRecord("b", 1, 2, 8))
	tx(t, s, func(tx *Tx) error { tx.SetBlob("idx", []byte("some index bytes")); return nil })
	s.Close()
	seg := "seg-1-0.fseg"
	segSize := func(dir string) int {
		st, _ := os.Stat(filepath.Join(dir, seg))
		return int(st.Size())
	}
	flip := func(file string, at func(size int) int) func(dir string) {
		return func(dir string) {
			p := filepath.Join(dir, file)
			data, _ := os.ReadFile(p)
			data[at(len(data))] ^= 0x40
			os.WriteFile(p, data, 0o644)
		}
	}
	cases := []struct {
		name, file string
		damage     func(dir string)
		is         error
		lazy       bool // found by Snapshot.Verify, not at open
	}{
		// The meta section is read only when a chunk is decoded, and
		// checked by the whole file's checksum after opening.
		{"meta byte", seg, flip(seg, func(int) int { return segHeaderLen + 10 }), ErrCorrupt, true},
		{"meta length", seg, flip(seg, func(int) int { return 28 }), ErrCorrupt, false},
		{"directory byte", seg, func(dir string) {
			data, _ := os.ReadFile(filepath.Join(dir, seg))
			metaLen := int(binary.LittleEndian.Uint64(data[28:]))
			flip(seg, func(int) int { return pad8(segHeaderLen+metaLen) + 3 })(dir)
		}, ErrCorrupt, false},
		{"vector byte", seg, flip(seg, func(n int) int { return n - 10 }), ErrCorrupt, true},
		{"checksum", seg, flip(seg, func(n int) int { return n - 1 }), ErrCorrupt, false},
		{"magic", seg, flip(seg, func(int) int { return 0 }), ErrCorrupt, false},
		{"header count", seg, flip(seg, func(int) int { return 20 }), ErrCorrupt, false},
		{"truncated", seg, func(dir string) { os.Truncate(filepath.Join(dir, seg), int64(segSize(dir)-7)) }, ErrCorrupt, false},
		{"emptied", seg, func(dir string) { os.Truncate(filepath.Join(dir, seg), 0) }, ErrCorrupt, false},
		{"grown", seg, func(dir string) {
			f, _ := os.OpenFile(filepath.Join(dir, seg), os.O_APPEND|os.O_WRONLY, 0)
			f.Write([]byte("tail"))
			f.Close()
		}, ErrCorrupt, false},
		{"missing", seg, func(dir string) { os.Remove(filepath.Join(dir, seg)) }, fs.ErrNotExist, false},
		{"blob byte", "blob-2-0.fblob", flip("blob-2-0.fblob", func(n int) int { return n - 6 }), ErrCorrupt, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyDir(t, pristine)
			tc.damage(dir)
			s, err := Open(dir, testCfg, Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			snap, err := s.Snapshot()
			if err == nil && tc.lazy {
				// Damage inside the vector block is found by the check of
				// the whole file that runs after opening; from then on
				// the store refuses readers.
				if verr := snap.Verify(); !errors.Is(verr, tc.is) {
					t.Fatalf("Verify = %v, want %v", verr, tc.is)
				}
				_, err = s.Snapshot()
			}
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), filepath.Join(dir, tc.file)) {
				t.Errorf("err = %v, want %v naming %s", err, tc.is, tc.file)
			}
			// A writer refuses to build on a damaged generation too.
			w := mustOpen(t, dir, testCfg, Options{})
			if err := w.Write(context.Background(), faultChange); err == nil {
				t.Error("Update on a damaged store succeeded")
			}
		})
	}
	t.Run("manifest", func(t *testing.T) {
		dir := copyDir(t, pristine)
		os.WriteFile(filepath.Join(dir, manifestName), []byte(`{"format": 1, "generat`), 0o644)
		_, err := Open(dir, testCfg, Options{ReadOnly: true})
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), filepath.Join(dir, manifestName)) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("manifest names a path outside", func(t *testing.T) {
		dir := copyDir(t, pristine)
		p := filepath.Join(dir, manifestName)
		raw, _ := os.ReadFile(p)
		os.WriteFile(p, []byte(strings.Replace(string(raw), seg, "../seg-1-0.fseg", 1)), 0o644)
		if _, err := Open(dir, testCfg, Options{ReadOnly: true}); !errors.Is(err, ErrCorrupt) {
			t.Errorf("err = %v", err)
		}
	})
}

// TestReaderRetriesVanishedSegment: a reader holding a manifest whose
// files were removed by two later commits retries with the new one.
func TestReaderRetriesVanishedSegment(t *testing.T) {
	dir := t.TempDir()
	w := mustOpen(t, dir, testCfg, Options{})
	putAll(t, w, makeRecord("a", 1, 2, 8))
	raw, m, err := w.readManifest()
	if err != nil {
		t.Fatal(err)
	}
	putAll(t, w, makeRecord("a", 2, 2, 8))
	putAll(t, w, makeRecord("a", 3, 2, 8))
	if _, err := os.Stat(filepath.Join(dir, m.Segments[0].File)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("the old segment is still there")
	}
	r := mustOpen(t, dir, testCfg, Options{ReadOnly: true})
	snap, err := r.loadLatest(raw, m) // as if the manifest had been read just before the commits
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := snap.Doc("a"); d.Meta["version"] != "3" {
		t.Errorf("version %s", d.Meta["version"])
	}
}

// TestVerifyDocumentsChecksTheirFiles: a byte flipped in a segment's
// records passes the checks made when the segment is opened (header and
// directory), so a snapshot taken at once decodes the damaged text;
// VerifyDocuments checks the files of the documents asked for before
// their text leaves, and the store's Document refuses a document whose
// file fails, naming it.
func TestVerifyDocumentsChecksTheirFiles(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{})
	putAll(t, s, makeRecord("a", 1, 3, 8))
	putAll(t, s, makeRecord("b", 1, 2, 8))
	s.Close()
	segA := filepath.Join(dir, "seg-1-0.fseg")
	data, err := os.ReadFile(segA)
	if err != nil {
		t.Fatal(err)
	}
	data[segHeaderLen+10] ^= 0x40 // in a's records
	if err := os.WriteFile(segA, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustOpen(t, dir, testCfg, Options{ReadOnly: true})
	snap := mustSnapshot(t, r)
	if err := snap.VerifyDocuments("b", "not-there"); err != nil {
		t.Errorf("VerifyDocuments of the intact document: %v", err)
	}
	if err := snap.VerifyDocuments("b", "a"); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), segA) {
		t.Errorf("VerifyDocuments of the damaged one: %v, want ErrCorrupt naming %s", err, segA)
	}
	if _, err := r.Document(context.Background(), "a"); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Document of the damaged one: %v, want ErrCorrupt", err)
	}
}
