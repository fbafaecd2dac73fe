package disk

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte/lexical"
)

// TestDerivedBlobsRejectedWhenStale: a lexical blob built for other data,
// or damaged, is not used, and a graph blob with an impossible key count
// is refused.
func TestDerivedBlobsRejectedWhenStale(t *testing.T) {
	old := PersistMinChunks
	PersistMinChunks = 5
	t.Cleanup(func() { PersistMinChunks = old })
	ctx := t.Context()
	s := mustOpen(t, t.TempDir(), Config{Analyzer: "a", Chunker: "c", Embedder: "e", Dim: 8}, Options{})
	var recs []Record
	for i := range 4 {
		recs = append(recs, makeRecord(fmt.Sprintf("doc%d", i), 1, 3, 8))
	}
	putAll(t, s, recs...)
	if err := s.PersistDerived(ctx, false); err != nil {
		t.Fatal(err)
	}
	snap := mustSnapshot(t, s)
	b, ok := snap.Blob(BlobLexical)
	if !ok {
		t.Fatalf("no lexical blob; blobs %v", snap.BlobNames())
	}
	an := s.analyzers()
	fp := corpusFingerprint(snap, an)
	if _, err := decodeLexicalBlob(b, fp, an); err != nil {
		t.Fatalf("own blob refused: %v", err)
	}
	fp[0] ^= 1
	if _, err := decodeLexicalBlob(b, fp, an); err == nil {
		t.Fatal("blob accepted for other data")
	}
	// Damage inside the in-place form is not read at open (nothing of the
	// postings is): the blob file's checksum, verified by the background
	// pass, and the form's own, which lexical.VerifyInPlace checks, find
	// it; damage to the fingerprint is refused at once.
	bad := slices.Clone(b)
	bad[len(bad)-10] ^= 0xff
	if err := lexical.VerifyInPlace(bad[lexicalFormOff:]); err == nil {
		t.Fatal("damaged in-place form passes its checksum")
	}
	if err := lexical.VerifyInPlace(b[lexicalFormOff:]); err != nil {
		t.Fatalf("sound form: %v", err)
	}
	bad = slices.Clone(b)
	bad[len(lexicalMagic)+3] ^= 0xff
	if _, err := decodeLexicalBlob(bad, corpusFingerprint(snap, an), an); err == nil {
		t.Fatal("blob with a damaged fingerprint accepted")
	}
	for _, v := range []string{"\x01", "\x02"} {
		if _, _, err := decodeGraphBlob([]byte("FDGR"+v+"\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\x7f"), nil); err == nil {
			t.Fatalf("graph blob version %q with an impossible key count accepted", v)
		}
	}
}

// TestBlobCommitKeepsSegments: a commit that only sets blobs does not
// merge small segments, so the derived indexes it writes still describe
// the chunk numbering of the segments they were built over.
func TestBlobCommitKeepsSegments(t *testing.T) {
	s := mustOpen(t, t.TempDir(), testCfg, Options{})
	for i := range maxSmallSegments + 1 {
		putAll(t, s, makeRecord(fmt.Sprintf("doc%02d", i), 1, 1, testCfg.Dim))
	}
	before := mustSnapshot(t, s)
	if before.Segments() != maxSmallSegments+1 {
		t.Fatalf("%d segments, want %d small ones for the test", before.Segments(), maxSmallSegments+1)
	}
	an := s.analyzers()
	tx(t, s, func(tx *Tx) error { tx.SetBlob("idx", []byte("derived")); return nil })
	after := mustSnapshot(t, s)
	if after.Segments() != before.Segments() || corpusFingerprint(after, an) != corpusFingerprint(before, an) {
		t.Fatalf("a blob-only commit went from %d to %d segments", before.Segments(), after.Segments())
	}
	// A commit that changes a document merges them.
	putAll(t, s, makeRecord("doc99", 1, 1, testCfg.Dim))
	if n := mustSnapshot(t, s).Segments(); n > maxSmallSegments {
		t.Fatalf("%d segments after a data commit, want them merged", n)
	}
}
