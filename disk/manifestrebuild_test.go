package disk

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRebuildOverAnUnreadableManifest: an index whose manifest cannot be
// read is refused with the way out (--rebuild, or a copy), and opening it
// with Rebuild starts it over, as a damaged segment's index is rebuilt,
// rather than leaving the operator to delete the folder by hand; the next
// commit leaves none of the old files behind.
func TestRebuildOverAnUnreadableManifest(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{})
	putAll(t, s, makeRecord("a.md", 1, 3, testCfg.Dim))
	s.Close()
	if err := os.WriteFile(filepath.Join(dir, manifestName), []byte(`{"format": 1, "generation": 1x}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir, testCfg, Options{})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "--rebuild") {
		t.Errorf("open of an index with a broken manifest: %v, want ErrCorrupt saying how to rebuild", err)
	}
	s = mustOpen(t, dir, testCfg, Options{Rebuild: true})
	putAll(t, s, makeRecord("b.md", 2, 2, testCfg.Dim))
	snap := mustSnapshot(t, s)
	if docs := snap.Docs(); len(docs) != 1 || docs[0].ID != "b.md" {
		t.Errorf("documents after the rebuild: %+v", docs)
	}
	for _, f := range listFiles(t, dir) {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "a.md") {
			t.Errorf("%s still holds the old index's document", f)
		}
	}
}
