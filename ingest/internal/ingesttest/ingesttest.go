// Package ingesttest holds the test helpers that ingest and its format
// packages (ingest/pdf) share: generated PDFs and the check of a refusal.
package ingesttest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/ingest/parse"
	"github.com/go-pdf/fpdf"
)

// PDFPage is what one generated page holds: an optional heading set large
// and paragraphs set at body size.
type PDFPage struct {
	Heading string
	Paras   []string
}

// MakePDF writes a PDF with the given title and pages using fpdf's core
// Helvetica font (text is converted to Windows-1252, its encoding).
func MakePDF(t testing.TB, title string, pages []PDFPage) []byte {
	t.Helper()
	f := fpdf.New("P", "mm", "A4", "")
	if title != "" {
		f.SetTitle(title, true)
	}
	tr := f.UnicodeTranslatorFromDescriptor("")
	for _, pg := range pages {
		f.AddPage()
		if pg.Heading != "" {
			f.SetFont("Helvetica", "B", 18)
			f.MultiCell(0, 9, tr(pg.Heading), "", "L", false)
			f.Ln(4)
		}
		f.SetFont("Helvetica", "", 11)
		for _, p := range pg.Paras {
			f.MultiCell(0, 5.5, tr(p), "", "L", false)
			f.Ln(4)
		}
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// RawPDF assembles a minimal PDF by hand, one content stream per page,
// so tests can feed the extractor operators fpdf never writes. Font F1 is
// Helvetica; F2 is a composite font (no embedded program) whose ToUnicode
// map is one range <0000> <FFFF> -> U+0000, as fpdf writes for UTF-8
// fonts.
func RawPDF(pages ...string) []byte {
	var b bytes.Buffer
	var offsets []int
	obj := func(s string) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offsets), s)
	}
	cmap := "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n1 beginbfrange\n<0000> <FFFF> <0000>\nendbfrange\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend"
	const first = 6 // objects 1–5 are shared, pages start at 6
	var kids []string
	for i := range pages {
		kids = append(kids, fmt.Sprintf("%d 0 R", first+2*i))
	}
	b.WriteString("%PDF-1.4\n")
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages)))
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	obj("<< /Type /Font /Subtype /Type0 /BaseFont /Test /Encoding /Identity-H /ToUnicode 5 0 R /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Test /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor << /Type /FontDescriptor /FontName /Test /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >> /DW 500 >>] >>")
	obj(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(cmap), cmap))
	for i, c := range pages {
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents %d 0 R >>", first+2*i+1))
		obj(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(c), c))
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}

// WantRefusal fails t unless err is a *parse.Refusal for reason that
// names its file, and returns it.
func WantRefusal(t *testing.T, err error, reason parse.Reason) *parse.Refusal {
	t.Helper()
	var r *parse.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("err = %v, want a *Refusal with reason %s", err, reason)
	}
	if r.Reason != reason {
		t.Fatalf("reason = %s (%v), want %s", r.Reason, err, reason)
	}
	if r.Path == "" || !strings.Contains(r.Error(), r.Path) {
		t.Errorf("refusal %q does not name the file", r.Error())
	}
	return r
}

// Prose is a paragraph of ordinary English, long enough to judge a page.
const Prose = "The expense policy explains which costs the company pays back, how to file a claim, " +
	"who approves it and how long the payment takes. Keep every receipt and file the claim within thirty days of the trip."
