package ingest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/ingest/internal/ingesttest"
	"github.com/go-pdf/fpdf"
)

// TestPDFGluedPagesRefused: a real PDF whose text lost the spaces
// between words on most pages is refused by Parse with the reason; one
// such page among good ones is a warning.
func TestPDFGluedPagesRefused(t *testing.T) {
	glued := strings.Repeat("Thefilegeneratedbythedepmodcommand listsallmodulesandtheiraliases in order. ", 8)
	build := func(pages ...string) []byte {
		f := fpdf.New("P", "mm", "A4", "")
		for _, p := range pages {
			f.AddPage()
			f.SetFont("Helvetica", "", 11)
			f.MultiCell(0, 5.5, p, "", "L", false)
		}
		var buf bytes.Buffer
		if err := f.Output(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	_, err := Parse("glued.pdf", build(glued, glued, ingesttest.Prose))
	r := wantRefusal(t, err, ReasonGarbled)
	if !strings.Contains(r.Detail, "2 of 3 pages extracted badly") || !strings.Contains(r.Detail, "run together") {
		t.Errorf("detail %q", r.Detail)
	}

	p, err := Parse("one-glued.pdf", build(ingesttest.Prose, glued, ingesttest.Prose, ingesttest.Prose))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 1 || !strings.HasPrefix(p.Warnings[0], "page 2: ") || !strings.Contains(p.Warnings[0], "run together") {
		t.Errorf("warnings %q", p.Warnings)
	}
}
