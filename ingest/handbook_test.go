package ingest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// handbookDir is the real 18F/TTS handbook (246 Markdown files) in the
// shared data folder beside the repository.
const handbookDir = "../../shared/data/handbook/pages"

// TestHandbook runs the Markdown parser over every file of a real handbook:
// each must either parse to non-empty text with a title (and valid block
// offsets) or be refused with a reason. The handbook is English, so no
// page may be detected as Italian; its only refusable pages are redirect
// stubs with front matter and no body, so every refusal must be "empty".
func TestHandbook(t *testing.T) {
	if _, err := os.Stat(handbookDir); err != nil {
		// A test whose data is missing fails; it does not skip.
		t.Fatalf("handbook data missing: %v\n"+
			"this test needs the 18F/TTS handbook (246 Markdown files) at %s, relative to ingest/;\n"+
			"check out the shared data folder beside the repository (shared/data/handbook, see shared/README.md)", err, handbookDir)
	}
	onDisk := 0
	_ = filepath.WalkDir(handbookDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			onDisk++
		}
		return nil
	})

	var parsed, refused, blocks int
	reasons := map[Reason]int{}
	kinds := map[Kind]int{}
	langs := map[string]int{}
	err := Walk(handbookDir, WalkOptions{Include: []string{"**/*.md"}}, func(e Entry) error {
		switch {
		case e.Parsed != nil:
			parsed++
			p := e.Parsed
			if strings.TrimSpace(p.Doc.Text) == "" || p.Doc.Title == "" {
				t.Errorf("%s: parsed with empty text or title (title %q)", e.Path, p.Doc.Title)
			}
			if p.Format != "markdown" {
				t.Errorf("%s: format %q", e.Path, p.Format)
			}
			checkInvariants(t, p)
			for _, b := range p.Blocks {
				kinds[b.Kind]++
				if b.Kind == KindHeading && strings.ContainsAny(b.Text, "{}") {
					t.Errorf("%s: markup left in heading %q", e.Path, b.Text)
				}
			}
			blocks += len(p.Blocks)
			langs[p.Doc.Language]++
			if p.Doc.Language == "it" {
				t.Errorf("%s: detected as Italian", e.Path)
			}
		case e.Refusal != nil:
			refused++
			reasons[e.Refusal.Reason]++
			if e.Refusal.Reason == "" || e.Refusal.Error() == "" {
				t.Errorf("%s: refusal without a reason", e.Path)
			}
			if e.Refusal.Reason != ReasonEmpty {
				t.Errorf("%s: unexpected refusal: %v", e.Path, e.Refusal)
			}
		default:
			t.Errorf("%s: skipped (%s)", e.Path, e.Skipped)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if parsed+refused != onDisk || onDisk == 0 {
		t.Errorf("%d parsed + %d refused, but %d Markdown files on disk", parsed, refused, onDisk)
	}
	t.Logf("handbook: %d files, %d parsed, %d refused %v; %d blocks %v; languages %v",
		onDisk, parsed, refused, reasons, blocks, kinds, langs)
}
