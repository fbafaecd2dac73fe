package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestIndexSymlinkOutside runs `fonte index` in-process over a folder
// holding a link to a file outside it: the link is refused with a reason
// that names its target and --follow-symlinks, and indexed with the flag.
func TestIndexSymlinkOutside(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.md")
	if err := os.WriteFile(secret, []byte("# Outside\n\nNotes kept outside the indexed folder, about the boiler room.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	docs := t.TempDir()
	if err := os.WriteFile(filepath.Join(docs, "a.md"), []byte("# Alpha\n\nThe first document, about the garden.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(docs, "secret.md")); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(secret)
	if err != nil {
		t.Fatal(err)
	}
	idx := filepath.Join(t.TempDir(), "index")
	index := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		args = append(append([]string{"index", "--index", idx}, args...), docs)
		if code := Main(context.Background(), args, &out, &errb); code != 0 {
			t.Fatalf("fonte %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
		return out.String()
	}

	out := index()
	want := "refused secret.md: symlink: links to " + real + " outside the indexed folder; not followed (use --follow-symlinks to index it)"
	if !strings.Contains(out, want) {
		t.Errorf("index output:\n%s\nwant a line %q", out, want)
	}
	if !strings.Contains(out, "indexed 1 file;") {
		t.Errorf("index output:\n%s\nwant a.md alone indexed", out)
	}

	var rep struct {
		IndexedPaths []string `json:"indexed_paths"`
		Refused      []struct {
			Path string `json:"path"`
		} `json:"refused"`
	}
	if err := json.Unmarshal([]byte(index("--follow-symlinks", "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(rep.IndexedPaths, "secret.md") || len(rep.Refused) != 0 {
		t.Errorf("with --follow-symlinks: %+v, want secret.md indexed", rep)
	}
}
