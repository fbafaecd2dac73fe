package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeWatchNamesTheCollectionOfAMissingFolder: `fonte serve --watch`
// over a collection whose folder does not exist fails at start naming the
// collection and its folder, not with a bare stat error, and without
// having said it was listening (an operator or a supervisor reading the
// output would take the server for up).
func TestServeWatchNamesTheCollectionOfAMissingFolder(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope")
	cfg := filepath.Join(dir, "fonte.yaml")
	if err := os.WriteFile(cfg, []byte("collections:\n  ghost:\n    folder: "+missing+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FONTE_ADMIN_TOKEN", "the-admin")
	code, stdout, stderr := runCLI(t, "serve", "--config", cfg, "--watch", "--addr", "127.0.0.1:0", "--index", filepath.Join(dir, "index"))
	if code == exitOK || !strings.Contains(stderr, "collection ghost") || !strings.Contains(stderr, missing) {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stdout, "listening") {
		t.Errorf("said it was listening before it failed: %q", stdout)
	}
}
