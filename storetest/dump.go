package storetest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/retrieve"
)

// testDumpRestore: an index dumped from the store and restored into a
// new one of the same kind, or into the embedded store, and one copied
// from the embedded store into this kind, answer exactly as the original;
// a damaged dump is refused whole.
func testDumpRestore(t *testing.T, b Backend) {
	ctx := context.Background()
	dir := corpus(t)
	src := b.New(t)
	e := open(t, src, engine.Settings{}, engine.OpenOptions{})
	index(t, e, dir)
	var dump bytes.Buffer
	stats, err := engine.Dump(ctx, e.Store(), src, &dump)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Documents < 10 || stats.Chunks < stats.Documents {
		t.Fatalf("dumped %+v", stats)
	}
	same := b.New(t)
	if _, err := engine.Restore(ctx, bytes.NewReader(dump.Bytes()), "dump", same, false); err != nil {
		t.Fatalf("restore into %s: %v", b.Name, err)
	}
	folder := filepath.Join(t.TempDir(), "restored")
	if _, err := engine.Restore(ctx, bytes.NewReader(dump.Bytes()), "dump", folder, false); err != nil {
		t.Fatalf("restore into a folder: %v", err)
	}
	// And the other way: the embedded store copied into this kind.
	ref := filepath.Join(t.TempDir(), "reference")
	index(t, open(t, ref, engine.Settings{}, engine.OpenOptions{}), dir)
	copied := b.New(t)
	if _, err := engine.Copy(ctx, ref, copied, false); err != nil {
		t.Fatalf("copy from the embedded store: %v", err)
	}
	// A second restore into a store that holds an index is refused.
	if _, err := engine.Restore(ctx, bytes.NewReader(dump.Bytes()), "dump", same, false); err == nil {
		t.Fatal("restoring over an index without --replace was accepted")
	}
	for _, loc := range []string{same, folder, copied} {
		r := open(t, loc, engine.Settings{}, engine.OpenOptions{ReadOnly: true})
		for _, q := range questions(t) {
			for _, mode := range []retrieve.Mode{retrieve.Hybrid, retrieve.BM25} {
				o := engine.SearchOptions{K: 10, Mode: mode}
				want, err := e.Search(ctx, q.Question, o)
				if err != nil {
					t.Fatal(err)
				}
				got, err := r.Search(ctx, q.Question, o)
				if err != nil {
					t.Fatal(err)
				}
				if loc == folder || loc == copied {
					if b.LexicalTolerance != "" {
						continue // fonte's BM25 on one side, the database's on the other
					}
				}
				if d := sameRanking(got, want, -1); d != "" {
					t.Errorf("restored into %s, %s %q: %s", loc, mode, q.Question, d)
				}
			}
		}
	}
	// Damage: one flipped byte, or a cut, refuses the whole file.
	bad := bytes.Clone(dump.Bytes())
	bad[len(bad)/2] ^= 0x40
	cut := dump.Bytes()[:len(dump.Bytes())-20]
	for name, data := range map[string][]byte{"flipped": bad, "truncated": cut} {
		loc := b.New(t)
		if _, err := engine.Restore(ctx, bytes.NewReader(data), name, loc, false); !errors.Is(err, engine.ErrBadDump) {
			t.Errorf("%s dump: %v; want ErrBadDump", name, err)
		}
		if isFolderLoc(loc) {
			if _, err := os.Stat(filepath.Join(loc, "manifest")); err == nil {
				r := open(t, loc, engine.Settings{}, engine.OpenOptions{ReadOnly: true})
				if st, _ := r.Status(ctx); st.Documents != 0 {
					t.Errorf("%s dump left %d documents", name, st.Documents)
				}
			}
			continue
		}
		r, err := engine.Open(ctx, engine.Settings{Store: loc}, engine.OpenOptions{ReadOnly: true})
		if err == nil {
			st, _ := r.Status(ctx)
			r.Close()
			if st != nil && st.Documents != 0 {
				t.Errorf("%s dump left %d documents", name, st.Documents)
			}
		}
	}
}

func isFolderLoc(loc string) bool { return !bytes.Contains([]byte(loc), []byte("://")) }
