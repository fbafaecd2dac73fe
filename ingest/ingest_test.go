package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/fonte-rag/fonte/ingest/parse"
)

var update = flag.Bool("update", false, "rewrite testdata/*/want.json from the parser's output")

// golden is the expected outcome of one testdata case.
type golden struct {
	Title     string        `json:"title"`
	Language  string        `json:"language"`
	Tags      []string      `json:"tags,omitempty"`
	Hidden    int           `json:"hidden"`
	Invisible int           `json:"invisible"`
	Blocks    []goldenBlock `json:"blocks"`
}

type goldenBlock struct {
	Kind     Kind     `json:"kind"`
	Level    int      `json:"level,omitempty"`
	Headings []string `json:"headings,omitempty"`
	Text     string   `json:"text"`
}

func toGolden(p *Parsed) golden {
	g := golden{Title: p.Doc.Title, Language: p.Doc.Language, Tags: p.Doc.Tags,
		Hidden: p.Hidden, Invisible: p.Invisible, Blocks: []goldenBlock{}}
	for _, b := range p.Blocks {
		g.Blocks = append(g.Blocks, goldenBlock{Kind: b.Kind, Level: b.Level, Headings: b.Headings, Text: b.Text})
	}
	return g
}

// TestCases parses every testdata/<case>/input.* and compares title,
// language, tags, removal counts and every block (kind, level, heading
// path, text) with testdata/<case>/want.json. Run with -update to rewrite
// the expectations, then review the diff.
func TestCases(t *testing.T) {
	inputs, err := filepath.Glob("testdata/*/input.*")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no test cases: %v", err)
	}
	for _, in := range inputs {
		dir := filepath.Dir(in)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			raw, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Parse(in, raw)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			checkInvariants(t, p)
			got, err := json.MarshalIndent(toGolden(p), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			wantPath := filepath.Join(dir, "want.json")
			if *update {
				if err := os.WriteFile(wantPath, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(wantPath)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s mismatch\n--- got\n%s\n--- want\n%s", wantPath, got, want)
			}
		})
	}
}

// checkInvariants verifies what every parser promises: blocks in order,
// each block's text is exactly its span of Doc.Text, blocks are joined by
// blank lines and nothing else, and the text is valid UTF-8 without
// invisible characters.
func checkInvariants(t testing.TB, p *Parsed) {
	t.Helper()
	text := p.Doc.Text
	if !utf8.ValidString(text) {
		t.Errorf("Doc.Text is not valid UTF-8")
	}
	var rebuilt strings.Builder
	prevEnd := 0
	for i, b := range p.Blocks {
		if b.Start < 0 || b.End > len(text) || b.Start >= b.End {
			t.Fatalf("block %d: bad span [%d,%d) for text of %d bytes", i, b.Start, b.End, len(text))
		}
		if text[b.Start:b.End] != b.Text {
			t.Errorf("block %d: Doc.Text[%d:%d] = %q, block text %q", i, b.Start, b.End, text[b.Start:b.End], b.Text)
		}
		if i > 0 {
			if b.Start != prevEnd+2 || text[prevEnd:b.Start] != "\n\n" {
				t.Errorf("block %d: not separated from block %d by one blank line", i, i-1)
			}
			rebuilt.WriteString("\n\n")
		} else if b.Start != 0 {
			t.Errorf("block 0 starts at %d", b.Start)
		}
		rebuilt.WriteString(b.Text)
		prevEnd = b.End
		if (b.Kind == KindHeading) != (b.Level >= 1 && b.Level <= 6) {
			t.Errorf("block %d: kind %s with level %d", i, b.Kind, b.Level)
		}
		if strings.TrimSpace(b.Text) != b.Text && b.Kind != KindCode && b.Kind != KindList {
			t.Errorf("block %d: untrimmed text %q", i, b.Text)
		}
		for _, r := range b.Text {
			if parse.IsInvisible(r) {
				t.Errorf("block %d: invisible character %U left in text", i, r)
				break
			}
		}
	}
	if rebuilt.String() != text {
		t.Errorf("Doc.Text is not the blocks joined by blank lines")
	}
}

func parseString(t *testing.T, name, src string) *Parsed {
	t.Helper()
	p, err := Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	checkInvariants(t, p)
	return p
}

func blockTexts(p *Parsed, kind Kind) []string {
	var out []string
	for _, b := range p.Blocks {
		if b.Kind == kind {
			out = append(out, b.Text)
		}
	}
	return out
}

// kindTexts lists a document's blocks as "kind: text".
func kindTexts(p *Parsed) string {
	var out []string
	for _, b := range p.Blocks {
		out = append(out, string(b.Kind)+": "+b.Text)
	}
	return strings.Join(out, "\n|\n")
}

func TestMarkdownTitleFallbacks(t *testing.T) {
	p := parseString(t, "docs/first-h1.md", "Intro line.\n\n## Second level\n\nText here.\n\n# The H1\n\nMore text.\n")
	if p.Doc.Title != "The H1" {
		t.Errorf("title = %q, want the first H1", p.Doc.Title)
	}
	p = parseString(t, "docs/paid-parental_leave.md", "## Only level two\n\nSome words here.\n")
	if p.Doc.Title != "paid parental leave" {
		t.Errorf("title = %q, want the file name", p.Doc.Title)
	}
}

func TestMarkdownBadFrontMatterWarns(t *testing.T) {
	p := parseString(t, "bad.md", "---\ntitle: [unclosed\n---\n\n# Heading\n\nBody text stays.\n")
	if len(p.Warnings) == 0 {
		t.Errorf("no warning for invalid YAML front matter")
	}
	if p.Doc.Title != "Heading" {
		t.Errorf("title = %q, want fallback to first H1", p.Doc.Title)
	}
}

func TestMarkdownTOMLFrontMatter(t *testing.T) {
	p := parseString(t, "toml.md", "+++\ntitle = \"From TOML\"\ntags = [\"a\", \"b\"]\n+++\n\nBody text of the page.\n")
	if p.Doc.Title != "From TOML" || strings.Join(p.Doc.Tags, ",") != "a,b" {
		t.Errorf("title %q tags %q", p.Doc.Title, p.Doc.Tags)
	}
}

func TestDocumentFields(t *testing.T) {
	raw := []byte("Title line\n\nBody of the note.\n")
	p, err := Parse("notes/a.txt", raw)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	if p.Doc.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("SHA256 = %q, want the hex digest of the raw bytes", p.Doc.SHA256)
	}
	if p.Doc.ID != "notes/a.txt" || p.Doc.Source != "notes/a.txt" || p.Format != "text" {
		t.Errorf("ID %q Source %q Format %q", p.Doc.ID, p.Doc.Source, p.Format)
	}
}

func TestUnsupportedExtension(t *testing.T) {
	_, err := Parse("image.gif", []byte("GIF89a"))
	var r *Refusal
	if !errors.As(err, &r) || r.Reason != ReasonUnsupported {
		t.Fatalf("err = %v, want unsupported refusal", err)
	}
}

func TestParserFor(t *testing.T) {
	for name, want := range map[string]bool{
		"a.md": true, "a.MARKDOWN": true, "a.txt": true, "a.text": true, "a.html": true,
		"a.HTM": true, "a.pdf": true, "a.docx": true, "a.ODT": true, "a.pptx": true, "a.png": true, "a.JPG": true, "a.jpeg": true, "a.tif": true, "a.TIFF": true, "a.gif": false, "a.doc": false,
		"a.xlsx": false, "README": false, "dir.md/x": false,
	} {
		if got := ParserFor(name) != nil; got != want {
			t.Errorf("ParserFor(%q) != nil is %v, want %v", name, got, want)
		}
	}
}

// TestConcurrentParse parses the test cases from several goroutines at
// once: the shared goldmark instance and the package's tables must be
// safe for concurrent use (run with -race).
func TestConcurrentParse(t *testing.T) {
	inputs, _ := filepath.Glob("testdata/*/input.*")
	want := map[string]string{}
	raws := map[string][]byte{}
	for _, in := range inputs {
		raw, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(in, raw)
		if err != nil {
			t.Fatal(err)
		}
		raws[in], want[in] = raw, p.Doc.Text
	}
	errs := make(chan error, 4*len(inputs))
	var wg sync.WaitGroup
	for range 4 {
		for _, in := range inputs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p, err := Parse(in, raws[in])
				if err == nil && p.Doc.Text != want[in] {
					err = fmt.Errorf("%s: text differs when parsed concurrently", in)
				}
				errs <- err
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}
