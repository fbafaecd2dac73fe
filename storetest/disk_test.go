package storetest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestDisk runs the suite against the embedded store.
func TestDisk(t *testing.T) {
	Run(t, Backend{
		Name:        "disk",
		AccessSeeds: 12,
		New:         func(t *testing.T) string { return filepath.Join(t.TempDir(), "index") },
		Holds: func(t *testing.T, location, word string) bool {
			found := false
			err := filepath.WalkDir(location, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				found = found || bytes.Contains(b, []byte(word)) || bytes.Contains(b, []byte(word[:len(word)-1]))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			return found
		},
	})
}
