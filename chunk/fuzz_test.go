package chunk

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/ingest"
)

// checkOrdered checks what every chunker promises: spans inside the text,
// in document order, positions and ids numbered from 0, no blank chunk;
// with exact, text that is its span, or a table row's pairs over the row.
func checkOrdered(t *testing.T, doc fonte.Document, cs []fonte.Chunk, exact bool) {
	t.Helper()
	prev := 0
	for i, c := range cs {
		if c.Start < 0 || c.Start > c.End || c.End > len(doc.Text) {
			t.Fatalf("chunk %d: span [%d,%d) outside text of %d bytes", i, c.Start, c.End, len(doc.Text))
		}
		if c.Start < prev {
			t.Fatalf("chunk %d starts at %d, before chunk %d's start %d", i, c.Start, i-1, prev)
		}
		prev = c.Start
		if span := doc.Text[c.Start:c.End]; exact && span != c.Text && !tableRowChunk(span, c.Text) {
			t.Fatalf("chunk %d: text %q is not its span %q", i, c.Text, doc.Text[c.Start:c.End])
		}
		if strings.TrimSpace(c.Text) == "" {
			t.Fatalf("chunk %d is blank", i)
		}
		if c.Position != i || c.ID != ID(doc.ID, i) || c.DocID != doc.ID {
			t.Fatalf("chunk %d: position %d, id %q", i, c.Position, c.ID)
		}
	}
}

// tableRowChunk reports whether text is the "Column: value" form of the
// table row line span: one line, every cell of the row in it, in order.
func tableRowChunk(span, text string) bool {
	if strings.Contains(span, "\n") {
		return false
	}
	rest := text
	for _, cell := range splitCells(span) {
		i := strings.Index(rest, cell)
		if i < 0 {
			return false
		}
		rest = rest[i+len(cell):]
	}
	return true
}

// FuzzByHeading chunks arbitrary Markdown by heading, bare and within a
// window: spans in order inside the text, holding the chunk's words, and
// windows no longer than their size.
func FuzzByHeading(f *testing.F) {
	f.Add("# A\ntext\n## B\nmore words here\n```\n# x\n```\n", uint8(3), uint8(1))
	f.Add("#\n#\t#\n   ### c ###\r\nbody\r\n", uint8(1), uint8(0))
	f.Add("~~~~\n# in code\n~~~\n```\n~~~~\nafter", uint8(2), uint8(1))
	f.Add("a\u00a0b\u2003c\xffd  e\n# h\n", uint8(1), uint8(0))
	f.Fuzz(func(t *testing.T, md string, size, overlap uint8) {
		doc := fonte.Document{ID: "d.md", Title: "T", Text: md}
		cs := ByHeading{}.Chunk(doc)
		checkOrdered(t, doc, cs, false)
		for _, c := range cs {
			checkSpan(t, md, c)
		}
		w := Window{Size: 1 + int(size)%30}
		w.Overlap = int(overlap) % w.Size
		ws := Within(ByHeading{}, w).Chunk(doc)
		checkOrdered(t, doc, ws, false)
		for i, c := range ws {
			checkSpan(t, md, c)
			if n := len(strings.Fields(c.Text)); n > w.Size {
				t.Fatalf("window %d has %d words, size %d", i, n, w.Size)
			}
		}
	})
}

// FuzzSentenceSpans: spans are non-empty, trimmed, in order, disjoint,
// start and end on rune boundaries, and together hold every non-space
// character of the text.
func FuzzSentenceSpans(f *testing.F) {
	for _, s := range []string{
		"Dr. Rossi arrived. He left at 3.30 p.m. and said “Fine!” Then: (a) one; (b) two.",
		"- item one\n- item two\n\n1. first\n2) second",
		"Il sig. Bianchi, ecc. ecc. È arrivato… «Bene?» Sì.",
		"\xff. A\u00a0B.\u2003C",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var covered strings.Builder
		prev := 0
		for i, sp := range SentenceSpans(text) {
			if sp[0] < prev || sp[0] >= sp[1] || sp[1] > len(text) {
				t.Fatalf("span %d %v after %d in text of %d bytes", i, sp, prev, len(text))
			}
			s := text[sp[0]:sp[1]]
			if utf8.ValidString(text) && (!utf8.ValidString(s)) {
				t.Fatalf("span %d %v cuts a character", i, sp)
			}
			if strings.TrimFunc(s, unicode.IsSpace) != s {
				t.Fatalf("span %d %q is not trimmed", i, s)
			}
			// Each span's invalid bytes are marked apart: pieces of a
			// broken character on two lines must not join into a valid
			// one ("\xe2\x80" + "\x82" is U+2002, a space).
			covered.WriteString(strings.ToValidUTF8(s, "\uFFFD"))
			prev = sp[1]
		}
		nonSpace := func(s string) string {
			return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), "")
		}
		if got, want := nonSpace(covered.String()), nonSpace(strings.ToValidUTF8(text, "\uFFFD")); got != want {
			t.Fatalf("spans hold %q, text %q", got, want)
		}
	})
}

// FuzzIngestStructure runs the indexing path on arbitrary Markdown: the
// blocks ingest extracts, cut by Structure at random sizes, give chunks
// whose text is exactly their span (a table row's, its pairs), in
// document order.
func FuzzIngestStructure(f *testing.F) {
	files, _ := filepath.Glob("../examples/handbook/*/*.md")
	for _, name := range files {
		if raw, err := os.ReadFile(name); err == nil {
			f.Add(raw, uint8(40), uint8(8), uint8(5))
		}
	}
	f.Add([]byte("# A\n\nOne. Two three.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```\n\n## B\n\n- x\n- y\n"), uint8(3), uint8(1), uint8(2))
	f.Fuzz(func(t *testing.T, raw []byte, size, overlap, minw uint8) {
		p, err := ingest.ParseMarkdown("fuzz.md", raw)
		if err != nil {
			return
		}
		s := Structure{MaxWords: 1 + int(size)%200}
		s.OverlapWords = int(overlap) % s.MaxWords
		s.MinWords = int(minw) % (s.MaxWords + 1)
		if s.Validate() != nil {
			return
		}
		blocks := make([]Block, len(p.Blocks))
		for i, b := range p.Blocks {
			blocks[i] = Block{Kind: BlockKind(b.Kind), Level: b.Level, Text: b.Text, Headings: b.Headings, Start: b.Start, End: b.End, Page: b.Page}
		}
		cs := s.Split(p.Doc, blocks)
		checkOrdered(t, p.Doc, cs, true)
		// Every word of the body (headings alone make no passage, a table's
		// header is in its rows' text) is in a chunk.
		covered := make([]bool, len(p.Doc.Text))
		for _, c := range cs {
			for i := c.Start; i < c.End; i++ {
				covered[i] = true
			}
		}
		for _, b := range blocks {
			if b.Kind == Heading {
				continue
			}
			from := b.Start
			if rows, ok := tableRows(b.Text); ok && b.Kind == Table {
				from += rows[0].start // the header is in every row's text instead
			}
			for i := from; i < b.End; i++ {
				if !covered[i] && !unicode.IsSpace(rune(p.Doc.Text[i])) {
					t.Fatalf("%s block %q: byte %d is in no chunk", b.Kind, b.Text, i)
				}
			}
		}
	})
}
