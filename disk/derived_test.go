package disk

import (
	"fmt"
	"slices"
	"testing"
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
	bad := slices.Clone(b)
	bad[len(bad)-10] ^= 0xff
	if _, err := decodeLexicalBlob(bad, corpusFingerprint(snap, an), an); err == nil {
		t.Fatal("damaged blob accepted")
	}
	for _, v := range []string{"\x01", "\x02"} {
		if _, _, err := decodeGraphBlob([]byte("FDGR"+v+"\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\x7f"), nil); err == nil {
			t.Fatalf("graph blob version %q with an impossible key count accepted", v)
		}
	}
}
