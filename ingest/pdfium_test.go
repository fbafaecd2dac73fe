package ingest

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

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
// back on their letters.
func TestPDFHyphenationAndAccents(t *testing.T) {
	raw := rawPDF("BT /F1 12 Tf 14 TL 72 700 Td (Le ferie non godute sono un'infor-) Tj T* (mazione che il responsabile sar\\140a felice di avere, perch\\264e serve.) Tj ET")
	p := parsePDFFile(t, "ferie.pdf", raw)
	want := "Le ferie non godute sono un'informazione che il responsabile sarà felice di avere, perché serve."
	if p.Doc.Text != want {
		t.Errorf("text %q\nwant %q", p.Doc.Text, want)
	}
	for in, want := range map[string]string{
		"pu`o":          "può",
		"cos`ı":         "così",
		"`E vero":       "È vero",
		"na¨ıve":        "naïve",
		"`ls -l` files": "`ls -l` files", // code keeps its backquotes
		"fran¸cais":     "français",
	} {
		if got := joinAccents(in); got != want {
			t.Errorf("joinAccents(%q) = %q, want %q", in, got, want)
		}
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
	p, err := ParsePDF("mixed.pdf", buf.Bytes())
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

// TestPDFiumConcurrent: Parse calls from many goroutines share the pool
// (at most pdfiumInstances engines at once) and get their own text; no
// goroutine is left behind once they are done.
func TestPDFiumConcurrent(t *testing.T) {
	if _, err := PDFiumStartup(); err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			want := fmt.Sprintf("Document number %d describes the expense policy of office %d in detail.", i, i)
			p, err := ParsePDF(fmt.Sprintf("doc%d.pdf", i), makePDF(t, "", []pdfPage{{paras: []string{want}}}))
			switch {
			case err != nil:
				errs <- err
			case p.Doc.Text != want:
				errs <- fmt.Errorf("doc %d: %q", i, p.Doc.Text)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	waitGoroutines(t, before)
}

// waitGoroutines fails unless the goroutine count comes back to at most
// want within a few seconds.
func waitGoroutines(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > want {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, want at most %d:\n%s", runtime.NumGoroutine(), want, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPDFiumTimeoutStopsEngine: a document that runs past the time limit
// (per page, and for opening it) is refused, its engine instance is stopped (no goroutine keeps running
// it) and the pool goes on serving.
func TestPDFiumTimeoutStopsEngine(t *testing.T) {
	if _, err := PDFiumStartup(); err != nil {
		t.Fatal(err)
	}
	var pages []pdfPage
	for i := range 300 {
		pages = append(pages, pdfPage{paras: []string{strings.Repeat(fmt.Sprintf("Line %d of a long manual with many pages. ", i), 30)}})
	}
	big := makePDF(t, "", pages)
	before := runtime.NumGoroutine()
	old := pdfTimeout
	pdfTimeout = func(int) time.Duration { return time.Microsecond }
	start := time.Now()
	_, err := ParsePDF("big.pdf", big)
	pdfTimeout = old
	r := wantRefusal(t, err, ReasonUnreadable)
	if !strings.Contains(r.Detail, "gave up") {
		t.Errorf("detail %q", r.Detail)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to give up after 1µs", d)
	}
	waitGoroutines(t, before)
	p, err := ParsePDF("small.pdf", makePDF(t, "", []pdfPage{{paras: []string{"After a stopped engine the pool still reads files."}}}))
	if err != nil || p.Doc.Text != "After a stopped engine the pool still reads files." {
		t.Errorf("after the timeout: %v %+v", err, p)
	}
}
