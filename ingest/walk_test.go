package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// writeTree creates files (slash paths relative to root) with the given
// contents and a fixed modification time.
func writeTree(t *testing.T, files map[string]string) (string, time.Time) {
	t.Helper()
	root := t.TempDir()
	mtime := time.Date(2024, 3, 15, 10, 30, 0, 0, time.UTC)
	for rel, content := range files {
		path := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	return root, mtime
}

var walkTree = map[string]string{
	"a.md":               "# Alpha\n\nThe first document of the tree.\n",
	"b.txt":              "Beta notes\n\nPlain text body of the second file.\n",
	"docs/c.html":        "<html><head><title>Gamma</title></head><body><p>An HTML page in docs.</p></body></html>",
	"docs/deep/d.md":     "# Delta\n\nA Markdown file two folders down.\n",
	"docs/deep/e.MD":     "# Epsilon\n\nUpper-case extension.\n",
	"docs/img.gif":       "GIF89a",
	"drafts/f.md":        "# Draft\n\nNot ready.\n",
	"NOTES":              "no extension",
	"empty.txt":          "",
	"bin.txt":            "abc\x00\x01\x02def",
	"broken.pdf":         "%PDF-1.4\nnot really a pdf\n",
	".git/config.md":     "# Hidden folder\n\nMust not be read.\n",
	".fonte/manifest.md": "# Index folder\n\nMust not be read.\n",
	".hidden.md":         "# Hidden file\n\nMust not be read.\n",
	"docs/.cache/x.md":   "# Nested hidden folder\n\nMust not be read.\n",
	"zeta/last.markdown": "# Zeta\n\nLast in sorted order.\n",
}

func TestWalk(t *testing.T) {
	root, mtime := writeTree(t, walkTree)
	var paths []string
	outcome := map[string]string{}
	err := Walk(root, WalkOptions{}, func(e Entry) error {
		paths = append(paths, e.Path)
		switch {
		case e.Parsed != nil:
			outcome[e.Path] = "parsed"
			d := e.Parsed.Doc
			if d.ID != e.Path {
				t.Errorf("%s: ID %q", e.Path, d.ID)
			}
			if d.Source != filepath.Join(root, filepath.FromSlash(e.Path)) {
				t.Errorf("%s: Source %q", e.Path, d.Source)
			}
			sum := sha256.Sum256([]byte(walkTree[e.Path]))
			if d.SHA256 != hex.EncodeToString(sum[:]) {
				t.Errorf("%s: SHA256 %q", e.Path, d.SHA256)
			}
			if !d.Updated.Equal(mtime) {
				t.Errorf("%s: Updated %v, want %v", e.Path, d.Updated, mtime)
			}
		case e.Refusal != nil:
			outcome[e.Path] = "refused " + string(e.Refusal.Reason)
			if !strings.Contains(e.Refusal.Error(), filepath.FromSlash(e.Path)) {
				t.Errorf("refusal %q does not name the file", e.Refusal.Error())
			}
		default:
			outcome[e.Path] = "skipped"
			if e.Skipped == "" {
				t.Errorf("%s: no skip reason", e.Path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	wantPaths := []string{"NOTES", "a.md", "b.txt", "bin.txt", "broken.pdf", "docs/c.html", "docs/deep/d.md",
		"docs/deep/e.MD", "docs/img.gif", "drafts/f.md", "empty.txt", "zeta/last.markdown"}
	if !reflect.DeepEqual(paths, wantPaths) {
		t.Errorf("visited %q\nwant    %q", paths, wantPaths)
	}
	wantOutcome := map[string]string{
		"NOTES": "skipped", "a.md": "parsed", "b.txt": "parsed", "bin.txt": "refused binary",
		"broken.pdf": "refused unreadable", "docs/c.html": "parsed", "docs/deep/d.md": "parsed",
		"docs/deep/e.MD": "parsed", "docs/img.gif": "skipped", "drafts/f.md": "parsed",
		"empty.txt": "refused empty", "zeta/last.markdown": "parsed",
	}
	if !reflect.DeepEqual(outcome, wantOutcome) {
		t.Errorf("outcomes %v\nwant %v", outcome, wantOutcome)
	}
}

func TestWalkGlobs(t *testing.T) {
	root, _ := writeTree(t, walkTree)
	cases := []struct {
		name string
		opts WalkOptions
		want []string
	}{
		{"all markdown", WalkOptions{Include: []string{"**/*.md"}}, []string{"a.md", "docs/deep/d.md", "drafts/f.md"}},
		{"top-level only", WalkOptions{Include: []string{"*.md", "*.txt"}}, []string{"a.md", "b.txt", "bin.txt", "empty.txt"}},
		{"exclude folder", WalkOptions{Include: []string{"**/*.md"}, Exclude: []string{"drafts/**"}}, []string{"a.md", "docs/deep/d.md"}},
		{"exclude nested folder by name", WalkOptions{Include: []string{"**/*.md", "**/*.MD"}, Exclude: []string{"**/deep"}}, []string{"a.md", "drafts/f.md"}},
		{"under a folder", WalkOptions{Include: []string{"docs/**"}}, []string{"docs/c.html", "docs/deep/d.md", "docs/deep/e.MD", "docs/img.gif"}},
		{"exclude by extension", WalkOptions{Include: []string{"docs/**"}, Exclude: []string{"**/*.gif"}}, []string{"docs/c.html", "docs/deep/d.md", "docs/deep/e.MD"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := Load(root, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range rep.Parsed {
				got = append(got, p.Doc.ID)
			}
			for _, r := range rep.Refused {
				rel, _ := filepath.Rel(root, r.Path)
				got = append(got, filepath.ToSlash(rel))
			}
			for _, s := range rep.Skipped {
				got = append(got, s.Path)
			}
			slices.Sort(got)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestWalkErrors(t *testing.T) {
	root, _ := writeTree(t, walkTree)
	if err := Walk(root, WalkOptions{Include: []string{"[a-"}}, func(Entry) error { return nil }); err == nil {
		t.Error("no error for a malformed pattern")
	}
	if err := Walk(filepath.Join(root, "missing"), WalkOptions{}, func(Entry) error { return nil }); err == nil {
		t.Error("no error for a missing root")
	}
	if err := Walk(filepath.Join(root, "a.md"), WalkOptions{}, func(Entry) error { return nil }); err == nil {
		t.Error("no error for a root that is a file")
	}
	stop := errors.New("stop")
	n := 0
	err := Walk(root, WalkOptions{}, func(Entry) error {
		n++
		return stop
	})
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("err %v after %d calls, want stop after 1", err, n)
	}
	rep, err := Load(root, WalkOptions{Include: []string{"a.md", "b.txt"}, MaxSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Refused) != 2 || rep.Refused[0].Reason != ReasonTooLarge {
		t.Errorf("refused %v, want two too-large", rep.Refused)
	}
}

func TestMatch(t *testing.T) {
	cases := []struct {
		pattern, name string
		want          bool
	}{
		{"*.md", "a.md", true},
		{"*.md", "docs/a.md", false},
		{"**/*.md", "a.md", true},
		{"**/*.md", "docs/deep/a.md", true},
		{"docs/**", "docs", true},
		{"docs/**", "docs/a/b.txt", true},
		{"docs/**", "other/docs/a", false},
		{"**/deep/**", "x/deep/y/z.md", true},
		{"**/deep/**", "x/deeper/y.md", false},
		{"a/**/b/*.md", "a/b/c.md", true},
		{"a/**/b/*.md", "a/x/y/b/c.md", true},
		{"a/**/**/b", "a/b", true},
		{"doc?/[a-c].md", "docs/b.md", true},
		{"doc?/[a-c].md", "docs/d.md", false},
		{"[", "[", false},
		{"**", "anything/at/all", true},
	}
	for _, c := range cases {
		if got := Match(c.pattern, c.name); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}
