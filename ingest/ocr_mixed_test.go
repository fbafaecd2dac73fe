package ingest

import (
	"slices"
	"strings"
	"testing"
)

// TestOCRMixedPDF: a typed document with a scanned page (mixed.pdf: the
// Italian text typed on page 1, the English scan as page 2) keeps its
// text layer as it is and gets the scanned page's text by OCR, in page
// order, with the page's confidence recorded and its "needs OCR" warning
// gone.
func TestOCRMixedPDF(t *testing.T) {
	p, err := Parse("mixed.pdf", ocrFile(t, "mixed.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.OCR) != 1 || p.OCR[0].Page != 2 {
		t.Fatalf("OCR pages = %+v, want page 2 alone", p.OCR)
	}
	var typed, scanned strings.Builder
	for _, b := range p.Blocks {
		if p.Doc.Text[b.Start:b.End] != b.Text {
			t.Fatalf("block %q does not slice the text", b.Text)
		}
		switch b.Page {
		case 1:
			typed.WriteString(b.Text + "\n")
		case 2:
			scanned.WriteString(b.Text + "\n")
		default:
			t.Fatalf("block on page %d", b.Page)
		}
	}
	if r := wordRecall(string(ocrFile(t, "it.txt")), typed.String()); r < 0.98 {
		t.Errorf("typed page 1: word recall %.3f", r)
	}
	r := wordRecall(string(ocrFile(t, "en.txt")), scanned.String())
	t.Logf("scanned page 2: word recall %.3f, confidence %.1f", r, p.OCR[0].Confidence)
	if r < 0.95 {
		t.Errorf("scanned page 2: word recall %.3f", r)
	}
	if i, j := strings.Index(p.Doc.Text, strings.Fields(typed.String())[0]), strings.Index(p.Doc.Text, strings.Fields(scanned.String())[0]); i > j {
		t.Errorf("page 2's text comes before page 1's")
	}
	for _, w := range p.Warnings {
		if strings.Contains(w, "image only") {
			t.Errorf("warning left for a page OCR read: %q", w)
		}
	}
	if !slices.Contains(p.Doc.Tags, OCRTag) {
		t.Errorf("tags %v lack %q", p.Doc.Tags, OCRTag)
	}
}

// TestOCRMixedPDFWithoutTesseract: without Tesseract the typed page is
// indexed and the scanned page's warning says what to install.
func TestOCRMixedPDFWithoutTesseract(t *testing.T) {
	pathWith(t, "pdftoppm", "pdfinfo")
	p, err := Parse("mixed.pdf", ocrFile(t, "mixed.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.OCR) != 0 || p.Pages != 2 {
		t.Fatalf("OCR %+v, pages %d", p.OCR, p.Pages)
	}
	all := strings.Join(p.Warnings, "\n")
	if !strings.Contains(all, "page 2: image only") || !strings.Contains(all, "tesseract-ocr") {
		t.Errorf("warnings %q should name page 2 and the package to install", all)
	}
}
