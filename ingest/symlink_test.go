package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// symlink makes a symbolic link at root/rel pointing to target, skipping
// the test where the system cannot.
func symlink(t *testing.T, target, root, rel string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// walkOutcomes walks root and returns each entry's outcome by path:
// "parsed", "skipped: <reason>" or "refused <reason>: <detail>".
func walkOutcomes(t *testing.T, root string, opts WalkOptions) map[string]string {
	t.Helper()
	out := map[string]string{}
	done := make(chan error, 1)
	go func() {
		done <- Walk(root, opts, func(e Entry) error {
			if _, dup := out[e.Path]; dup {
				t.Errorf("%s visited twice", e.Path)
			}
			switch {
			case e.Parsed != nil:
				out[e.Path] = "parsed"
				if e.Parsed.Doc.ID != e.Path {
					t.Errorf("%s: id %q", e.Path, e.Parsed.Doc.ID)
				}
			case e.Refusal != nil:
				out[e.Path] = "refused " + string(e.Refusal.Reason) + ": " + e.Refusal.Detail
			default:
				out[e.Path] = "skipped: " + e.Skipped
			}
			return nil
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Walk did not finish: a link cycle?")
	}
	return out
}

func TestWalkSymlinkOutsideFile(t *testing.T) {
	outside, _ := writeTree(t, map[string]string{"secret.txt": "Secret outside notes\n\nNot part of the indexed folder.\n"})
	root, _ := writeTree(t, map[string]string{"a.md": "# Alpha\n\nInside the folder.\n"})
	target := filepath.Join(outside, "secret.txt")
	symlink(t, target, root, "secret.txt")

	got := walkOutcomes(t, root, WalkOptions{})
	r := got["secret.txt"]
	real, _ := filepath.EvalSymlinks(target)
	if !strings.HasPrefix(r, "refused symlink: ") || !strings.Contains(r, real) ||
		!strings.Contains(r, "outside the indexed folder") || !strings.Contains(r, "--follow-symlinks") {
		t.Errorf("secret.txt: %q, want refused as a symlink naming %s and --follow-symlinks", r, real)
	}
	if got["a.md"] != "parsed" {
		t.Errorf("a.md: %q", got["a.md"])
	}

	got = walkOutcomes(t, root, WalkOptions{FollowSymlinks: true})
	if got["secret.txt"] != "parsed" {
		t.Errorf("with FollowSymlinks, secret.txt: %q, want parsed", got["secret.txt"])
	}
	rep, err := Load(root, WalkOptions{FollowSymlinks: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Parsed {
		if p.Doc.ID == "secret.txt" && p.Doc.Source != filepath.Join(root, "secret.txt") {
			t.Errorf("Source %q, want the link's path", p.Doc.Source)
		}
	}
}

func TestWalkSymlinkInside(t *testing.T) {
	root, _ := writeTree(t, map[string]string{
		"a.md":              "# Alpha\n\nInside the folder.\n",
		"docs/b.md":         "# Beta\n\nIn docs.\n",
		".drafts/hidden.md": "# Hidden\n\nOnly reached through a link.\n",
	})
	symlink(t, "a.md", root, "alias.md")                                  // to a file walked directly
	symlink(t, filepath.Join("..", "docs"), root, "more/docs-link")       // to a folder walked directly
	symlink(t, filepath.Join(".drafts", "hidden.md"), root, "visible.md") // to a file not walked directly
	symlink(t, filepath.Join("..", "a.md"), root, "docs/up.md")           // a second link to a.md

	got := walkOutcomes(t, root, WalkOptions{})
	want := map[string]string{
		"a.md":       "parsed",
		"docs/b.md":  "parsed",
		"visible.md": "parsed",
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: %q, want %q", p, got[p], w)
		}
	}
	for _, p := range []string{"alias.md", "docs/up.md"} {
		if !strings.HasPrefix(got[p], "skipped: symbolic link to the file ") || !strings.HasSuffix(got[p], "indexed already as a.md") {
			t.Errorf("%s: %q, want skipped as a duplicate of a.md", p, got[p])
		}
	}
	if r := got["more/docs-link"]; !strings.HasPrefix(r, "skipped: symbolic link to the folder ") || !strings.HasSuffix(r, "indexed already as docs") {
		t.Errorf("more/docs-link: %q, want skipped as the folder docs", r)
	}
	if _, ok := got["more/docs-link/b.md"]; ok {
		t.Error("docs/b.md reached twice")
	}
}

func TestWalkSymlinkFolderOutside(t *testing.T) {
	outside, _ := writeTree(t, map[string]string{
		"guide.md":     "# Guide\n\nOutside the folder.\n",
		"sub/notes.md": "# Notes\n\nFurther down.\n",
	})
	root, _ := writeTree(t, map[string]string{"a.md": "# Alpha\n\nInside the folder.\n"})
	symlink(t, outside, root, "ext")

	got := walkOutcomes(t, root, WalkOptions{})
	if r := got["ext"]; !strings.HasPrefix(r, "refused symlink: is a link to the folder ") || !strings.Contains(r, "--follow-symlinks") {
		t.Errorf("ext: %q, want refused as a symlink", r)
	}
	if len(got) != 2 {
		t.Errorf("got %v, want a.md and the refused link only", got)
	}

	got = walkOutcomes(t, root, WalkOptions{FollowSymlinks: true})
	for _, p := range []string{"a.md", "ext/guide.md", "ext/sub/notes.md"} {
		if got[p] != "parsed" {
			t.Errorf("with FollowSymlinks, %s: %q, want parsed", p, got[p])
		}
	}
	// Include and Exclude apply to the paths through the link.
	got = walkOutcomes(t, root, WalkOptions{FollowSymlinks: true, Exclude: []string{"ext/sub/**"}})
	if _, ok := got["ext/sub/notes.md"]; ok {
		t.Errorf("excluded ext/sub visited: %v", got)
	}
}

func TestWalkSymlinkCycle(t *testing.T) {
	outside, _ := writeTree(t, map[string]string{"o.md": "# Outside\n\nText.\n"})
	root, _ := writeTree(t, map[string]string{"a/b.md": "# B\n\nText.\n"})
	symlink(t, "..", root, "a/up")              // to the root
	symlink(t, ".", root, "a/self")             // to its own folder
	symlink(t, root, outside, "back")           // outside -> root
	symlink(t, outside, root, "a/out")          // root -> outside, which links back
	symlink(t, "loop2", root, "loop1")          // a link to a link to itself
	symlink(t, "loop1", root, "loop2")          //
	symlink(t, "missing.md", root, "broken.md") // nothing there

	for _, follow := range []bool{false, true} {
		got := walkOutcomes(t, root, WalkOptions{FollowSymlinks: follow})
		if got["a/b.md"] != "parsed" {
			t.Errorf("follow=%v: a/b.md: %q", follow, got["a/b.md"])
		}
		for _, p := range []string{"a/up", "a/self"} {
			if !strings.HasPrefix(got[p], "skipped: symbolic link to the folder ") {
				t.Errorf("follow=%v: %s: %q, want skipped", follow, p, got[p])
			}
		}
		if !strings.HasPrefix(got["broken.md"], "refused unreadable: broken symbolic link") ||
			!strings.Contains(got["broken.md"], "missing.md") {
			t.Errorf("follow=%v: broken.md: %q", follow, got["broken.md"])
		}
		if !strings.HasPrefix(got["loop1"], "refused unreadable: broken symbolic link") {
			t.Errorf("follow=%v: loop1: %q", follow, got["loop1"])
		}
		if follow {
			if got["a/out/o.md"] != "parsed" || !strings.HasPrefix(got["a/out/back"], "skipped: symbolic link to the folder ") {
				t.Errorf("follow: a/out: %v", got)
			}
		} else if !strings.HasPrefix(got["a/out"], "refused symlink: ") {
			t.Errorf("a/out: %q", got["a/out"])
		}
	}
}

// TestWalkSymlinkRoot checks that a root reached through a link (as /tmp
// is on macOS) does not make every file look outside it.
func TestWalkSymlinkRoot(t *testing.T) {
	real, _ := writeTree(t, map[string]string{"a.md": "# Alpha\n\nText.\n"})
	symlink(t, "a.md", real, "alias.md")
	link := filepath.Join(t.TempDir(), "root")
	symlink(t, real, filepath.Dir(link), "root")
	got := walkOutcomes(t, link, WalkOptions{})
	if got["a.md"] != "parsed" || !strings.HasPrefix(got["alias.md"], "skipped: ") {
		t.Errorf("got %v", got)
	}
}
