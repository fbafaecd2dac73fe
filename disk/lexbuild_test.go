package disk

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"testing"

	"github.com/fonte-rag/fonte/retrieve"
)

// TestBuildLexicalWithinBudget: a writer's lexical index built from
// sorted runs on disk, the budget forcing many of them, is byte for byte
// the blob the in-memory index encodes, searches alike, and leaves no
// file behind.
func TestBuildLexicalWithinBudget(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{TxMemory: 2 << 10, SegmentBytes: 2 << 10})
	var recs []Record
	for i := range 60 {
		recs = append(recs, makeRecord(fmt.Sprintf("doc%02d", i), i%3, 1+i%4, testCfg.Dim))
	}
	putAll(t, s, recs...)
	snap := mustSnapshot(t, s)
	if snap.Segments() < 2 {
		t.Fatalf("%d segments, want several for the test", snap.Segments())
	}
	lex, err := s.buildLexical(snap, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if lex.runs < 2 {
		t.Fatalf("%d runs spilled, want several", lex.runs)
	}
	an := s.analyzers()
	idx, err := retrieve.New(retrieve.Corpus{Source: chunkSource{snap}}, an)
	if err != nil {
		t.Fatal(err)
	}
	want := encodeLexicalBlob(idx.BM25(), corpusFingerprint(snap, an))
	if !bytes.Equal(lex.blob, want) {
		t.Fatalf("built blob of %d bytes differs from the in-memory index's %d", len(lex.blob), len(want))
	}
	for _, q := range []string{"paragraph 3 doc07", "lorem ipsum version 2", "nothing like it"} {
		toks := an.Default.Analyze(q)
		a, b := lex.m.TopK(toks, 10, nil), idx.BM25().TopK(toks, 10, nil)
		if q != "nothing like it" && len(a) == 0 {
			t.Fatalf("%q found nothing", q)
		}
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("%q: %v, in memory %v", q, a, b)
		}
	}
	if _, err := os.Stat(s.path(buildDirName)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the build folder is still there (%v)", err)
	}
}
