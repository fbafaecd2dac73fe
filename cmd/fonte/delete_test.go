package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeleteTakesTheIndexAsItIs: `fonte delete` makes no chunks, so it
// deletes from an index built with another chunker (a collection set to
// `chunker: window`) without asking for the flags it was built with, and
// without advising to delete the folder; and on a folder that holds no
// index it says so, leaving no empty index behind.
func TestDeleteTakesTheIndexAsItIs(t *testing.T) {
	docs, idx := t.TempDir(), filepath.Join(t.TempDir(), "idx")
	writeFile(t, filepath.Join(docs, "a.md"), []byte("# A\n\nThe first note.\n"))
	writeFile(t, filepath.Join(docs, "b.md"), []byte("# B\n\nThe second note.\n"))
	if code, _, stderr := runCLI(t, "index", docs, "--index", idx, "--chunker", "window", "--chunk-size", "50"); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	code, out, stderr := runCLI(t, "delete", "a.md", "--index", idx)
	if code != exitOK || !strings.Contains(out, "deleted a.md") {
		t.Errorf("delete from a window-chunked index: exit %d: %s%s", code, out, stderr)
	}
	if _, n := statusOf(t, idx); n != 1 {
		t.Errorf("%d documents after the delete, want 1 (delete: exit %d: %s%s)", n, code, out, stderr)
	}

	// A configuration whose embedder is a model server that is down (the
	// index was built with another) does not stop a deletion, which
	// embeds nothing.
	cfg := filepath.Join(t.TempDir(), "fonte.yaml")
	writeFile(t, cfg, []byte("embedder: ollama:nomic-embed-text\nembed-url: http://127.0.0.1:1\n"))
	code, out, stderr = runCLI(t, "delete", "b.md", "--index", idx, "--config", cfg)
	if code != exitOK || !strings.Contains(out, "deleted b.md") {
		t.Errorf("delete with a configured embedding server down: exit %d: %s%s", code, out, stderr)
	}

	missing := filepath.Join(t.TempDir(), "typo")
	code, _, stderr = runCLI(t, "delete", "a.md", "--index", missing)
	if code != exitFailure || !strings.Contains(stderr, "no index in "+missing) {
		t.Errorf("delete with no index: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("delete made the folder %s", missing)
	}
}

// TestDeleteSaysWhenTheFileIsStillThere: deleting a document whose file
// is still in the folder it was indexed from says that the next run over
// the folder brings it back; a document whose file is gone gets no note.
func TestDeleteSaysWhenTheFileIsStillThere(t *testing.T) {
	docs, idx := t.TempDir(), filepath.Join(t.TempDir(), "idx")
	writeFile(t, filepath.Join(docs, "a.md"), []byte("# A\n\nThe first note.\n"))
	writeFile(t, filepath.Join(docs, "b.md"), []byte("# B\n\nThe second note.\n"))
	if code, _, stderr := runCLI(t, "index", docs, "--index", idx); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "delete", "a.md", "--index", idx); code != exitOK || !strings.Contains(stderr, "a.md is still in its folder") {
		t.Errorf("delete of a document whose file is still in the folder: exit %d: %s", code, stderr)
	}
	if err := os.Remove(filepath.Join(docs, "b.md")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "delete", "b.md", "--index", idx); code != exitOK || strings.Contains(stderr, "still") {
		t.Errorf("delete of a document whose file is gone: exit %d: %s", code, stderr)
	}
}
