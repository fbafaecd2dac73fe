package ingest

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/ingest/internal/ingesttest"
	"github.com/fonte-rag/fonte/ingest/pdf"
	"github.com/go-pdf/fpdf"
)

// TestPDFRunningHeadersRemoved: a header and a "Pagina N di M" footer on
// every page are not text of the document; the body paragraph that runs
// on to the next page is not cut by them.
func TestPDFRunningHeadersRemoved(t *testing.T) {
	f := fpdf.New("P", "mm", "A4", "")
	tr := f.UnicodeTranslatorFromDescriptor("")
	f.SetHeaderFunc(func() {
		f.SetFont("Helvetica", "", 9)
		f.CellFormat(0, 8, tr("Manuale del dipendente — Acme S.p.A."), "", 1, "C", false, 0, "")
	})
	f.SetFooterFunc(func() {
		f.SetY(-15)
		f.SetFont("Helvetica", "", 9)
		f.CellFormat(0, 8, fmt.Sprintf("Pagina %d di 4", f.PageNo()), "", 0, "C", false, 0, "")
	})
	for i := 1; i <= 4; i++ {
		f.AddPage()
		f.SetFont("Helvetica", "", 11)
		f.MultiCell(0, 5.5, tr(fmt.Sprintf("Il capitolo %d spiega come si chiedono le ferie e i permessi, chi li approva e in quanti giorni.", i)), "", "L", false)
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	p := parsePDFFile(t, "manuale.pdf", buf.Bytes())
	if strings.Contains(p.Doc.Text, "Acme") || strings.Contains(p.Doc.Text, "Pagina") {
		t.Errorf("running header or footer left in:\n%s", p.Doc.Text)
	}
	got := blockTexts(p, KindParagraph)
	if len(got) != 4 || !strings.HasPrefix(got[3], "Il capitolo 4") || p.Blocks[3].Page != 4 {
		t.Errorf("paragraphs %q", got)
	}
}

// TestPDFHyphenationAndAccents: a word hyphenated at a line end is
// joined; accents that TeX's OT1 fonts draw as separate glyphs are put
// back on their letters (each such accent: TestJoinAccents in ingest/pdf).
func TestPDFHyphenationAndAccents(t *testing.T) {
	raw := ingesttest.RawPDF("BT /F1 12 Tf 14 TL 72 700 Td (Le ferie non godute sono un'infor-) Tj T* (mazione che il responsabile sar\\140a felice di avere, perch\\264e serve.) Tj ET")
	p := parsePDFFile(t, "ferie.pdf", raw)
	want := "Le ferie non godute sono un'informazione che il responsabile sarà felice di avere, perché serve."
	if p.Doc.Text != want {
		t.Errorf("text %q\nwant %q", p.Doc.Text, want)
	}
}

// pngPage is a small grey image, as a scanned page.
func pngPage(t *testing.T) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 200, 100))
	for x := range 200 {
		img.Set(x, 50, color.Gray{Y: 0})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestPDFImageOnlyPageFlagged: a scanned page among text pages is
// flagged by page; the text pages are read.
func TestPDFImageOnlyPageFlagged(t *testing.T) {
	f := fpdf.New("P", "mm", "A4", "")
	f.AddPage()
	f.SetFont("Helvetica", "", 11)
	f.MultiCell(0, 5.5, "The travel policy covers trains, flights and hotels booked through the agency.", "", "L", false)
	f.AddPage()
	f.RegisterImageOptionsReader("scan", fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(pngPage(t)))
	f.ImageOptions("scan", 10, 10, 190, 95, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	p, err := pdf.ParsePDF("mixed.pdf", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 1 || !strings.HasPrefix(p.Warnings[0], "page 2: image only") || !strings.Contains(p.Warnings[0], "needs OCR") {
		t.Errorf("warnings %q, want page 2 flagged as image only", p.Warnings)
	}
	if p.Pages != 2 || len(p.Blocks) != 1 || p.Blocks[0].Page != 1 {
		t.Errorf("pages %d blocks %+v", p.Pages, p.Blocks)
	}
}
