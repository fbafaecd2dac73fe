package engine

import (
	"os"
	"path/filepath"
	"testing"
)

// ingestTestdata copies the named files of ingest/testdata/folder into a
// new temporary folder and returns it: a folder to index.
func ingestTestdata(t *testing.T, folder string, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range names {
		raw, err := os.ReadFile(filepath.Join("..", "ingest", "testdata", folder, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
