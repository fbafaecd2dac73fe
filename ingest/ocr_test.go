package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/fonte-rag/fonte/ingest/pdf"
	"github.com/go-pdf/fpdf"
)

// The scans under testdata/ocr are real text pages (a public-domain
// handbook page in English, the Debian New Maintainers' Guide in Italian)
// typeset, rasterised at 150 DPI and wrapped back into image-only PDFs by
// testdata/ocr/generate.go; en.txt and it.txt are the text they show.

// ocrFile reads a file of testdata/ocr.
func ocrFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "ocr", name))
	if err != nil {
		t.Fatalf("OCR test data (regenerate with go run ./testdata/ocr/generate.go): %v", err)
	}
	return b
}

// wordRecall is the share of ref's words (lower-cased runs of letters and
// digits, counted with multiplicity) that got has too.
func wordRecall(ref, got string) float64 {
	words := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	have := map[string]int{}
	for _, w := range words(got) {
		have[w]++
	}
	want := words(ref)
	found := 0
	for _, w := range want {
		if have[w] > 0 {
			have[w]--
			found++
		}
	}
	return float64(found) / float64(len(want))
}

func TestOCRScans(t *testing.T) {
	// Word recall measured with eng+ita (Tesseract 5.3.0, Debian 12):
	// en-scan.pdf 0.992, it-scan.pdf 1.000, en-page.png 1.000, it-page.tiff
	// 1.000 (go test -run TestOCRScans -v ./ingest prints them); 0.95
	// leaves a little room for another Tesseract build.
	cases := []struct {
		file, text, lang, format string
		pages                    int
	}{
		{"en-scan.pdf", "en.txt", "en", "pdf", 1},
		{"it-scan.pdf", "it.txt", "it", "pdf", 1},
		{"en-page.png", "en.txt", "en", "image", 1},
		{"it-page.tiff", "it.txt", "it", "image", 1},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			p, err := Parse(filepath.Join("testdata", "ocr", c.file), ocrFile(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			if p.Format != c.format || p.Pages != c.pages {
				t.Errorf("format %q, %d pages; want %q, %d", p.Format, p.Pages, c.format, c.pages)
			}
			if len(p.OCR) != 1 || p.OCR[0].Page != 1 || p.OCR[0].Language != "eng+ita" {
				t.Fatalf("OCR pages %+v, want page 1 read with eng+ita", p.OCR)
			}
			if conf := p.OCR[0].Confidence; conf < OCRFloor || conf > 100 {
				t.Errorf("confidence %.1f, want between the floor %.0f and 100", conf, OCRFloor)
			}
			if p.Doc.Language != c.lang {
				t.Errorf("language %q, want %q", p.Doc.Language, c.lang)
			}
			if !slices.Contains(p.Doc.Tags, OCRTag) {
				t.Errorf("tags %v lack %q", p.Doc.Tags, OCRTag)
			}
			recall := wordRecall(string(ocrFile(t, c.text)), p.Doc.Text)
			t.Logf("%s: word recall %.3f, confidence %.1f, %d words", c.file, recall, p.OCR[0].Confidence, p.OCR[0].Words)
			if recall < 0.95 {
				t.Errorf("word recall %.3f, want ≥ 0.95; text:\n%s", recall, p.Doc.Text)
			}
			if len(p.Blocks) < 3 {
				t.Errorf("%d blocks, want the page's paragraphs", len(p.Blocks))
			}
			for _, b := range p.Blocks {
				if b.Page != 1 || p.Doc.Text[b.Start:b.End] != b.Text {
					t.Errorf("block %q: page %d, span %d..%d", b.Text, b.Page, b.Start, b.End)
				}
			}
		})
	}
}

// A page too coarse to read (confidence near 55) and a page of noise (no
// words) are refused, saying which page and why.
func TestOCRLowConfidenceRefused(t *testing.T) {
	for file, why := range map[string]string{"blurred.png": "mean word confidence", "noise.png": "no words recognised"} {
		_, err := Parse(file, ocrFile(t, file))
		var r *Refusal
		if !errors.As(err, &r) || r.Reason != ReasonLowConfidence {
			t.Errorf("%s: err = %v, want a %q refusal", file, err, ReasonLowConfidence)
			continue
		}
		if !strings.Contains(r.Error(), file) || !strings.Contains(r.Detail, "page 1: "+why) {
			t.Errorf("refusal %q should name the file, the page and say %q", r.Error(), why)
		}
	}
}

// pathWith sets PATH to a fresh folder holding links to the named
// commands only.
func pathWith(t *testing.T, commands ...string) {
	t.Helper()
	dir := t.TempDir()
	for _, c := range commands {
		bin, err := exec.LookPath(c)
		if err != nil {
			t.Fatalf("%s is not installed (scripts/test installs it): %v", c, err)
		}
		if err := os.Symlink(bin, filepath.Join(dir, c)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
}

func TestOCRWithoutTesseract(t *testing.T) {
	pathWith(t, "pdftoppm", "pdfinfo")
	want := "image only: needs OCR (install tesseract-ocr tesseract-ocr-eng tesseract-ocr-ita)"
	for _, f := range []string{"en-scan.pdf", "en-page.png", "it-page.tiff"} {
		_, err := Parse(f, ocrFile(t, f))
		var r *Refusal
		if !errors.As(err, &r) || r.Reason != ReasonImageOnly || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want one saying %q", f, err, want)
		}
	}
}

func TestOCRWithoutPoppler(t *testing.T) {
	pathWith(t, "tesseract")
	_, err := Parse("en-scan.pdf", ocrFile(t, "en-scan.pdf"))
	if err == nil || !strings.Contains(err.Error(), "install poppler-utils") {
		t.Fatalf("err = %v, want one naming poppler-utils", err)
	}
}

func TestOCRUnknownLanguage(t *testing.T) {
	p, err := pdf.ParseImageContext(context.Background(), "en-page.png", ocrFile(t, "en-page.png"), pdf.OCROptions{Language: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if p.OCR[0].Language != "eng" || len(p.Warnings) == 0 || !strings.Contains(p.Warnings[0], `"de"`) {
		t.Errorf("read with %q, warnings %q; want eng and a warning naming de", p.OCR[0].Language, p.Warnings)
	}
}

func TestOCRCancelAndTimeout(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	raw := ocrFile(t, "en-scan.pdf")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := pdf.OCRPDF(ctx, "en-scan.pdf", raw, pdf.OCROptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}

	start := time.Now()
	_, err := pdf.OCRPDF(context.Background(), "en-scan.pdf", raw, pdf.OCROptions{PageTimeout: 50 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "longer than 50ms") {
		t.Errorf("timeout: err = %v, want one saying the page took longer than 50ms", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a 50ms page timeout took %v", d)
	}
	left, err := os.ReadDir(tmp)
	if err != nil || len(left) != 0 {
		t.Errorf("temporary files left behind: %v %v", left, err)
	}
}

func TestImageNotAnImage(t *testing.T) {
	for _, name := range []string{"a.png", "a.jpg", "a.tiff"} {
		_, err := Parse(name, []byte("hello, not an image"))
		var r *Refusal
		if !errors.As(err, &r) || r.Reason != ReasonUnreadable || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: err = %v, want an unreadable refusal naming it", name, err)
		}
	}
}

// A two-page scan whose first page is noise: the pages are read at once,
// the noise page (rendered at 300 DPI Tesseract finds "words" in it at a
// mean confidence near 27) is left out with a warning naming it, and the
// text page keeps its page number. The page timeout is raised: the noise
// page alone took over the default two minutes on a loaded CI machine, and
// the test is about what is left out, not about the timeout.
func TestOCRPagesLeftOut(t *testing.T) {
	scan := fpdf.New("P", "mm", "A4", "")
	for i, img := range []string{"noise.png", "en-page.png"} {
		name := fmt.Sprintf("page%d", i)
		scan.AddPage()
		scan.RegisterImageOptionsReader(name, fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(ocrFile(t, img)))
		scan.ImageOptions(name, 0, 0, 210, 297, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
	}
	var raw bytes.Buffer
	if err := scan.Output(&raw); err != nil {
		t.Fatal(err)
	}
	p, err := pdf.OCRPDF(context.Background(), "two.pdf", raw.Bytes(), pdf.OCROptions{Concurrency: 2, PageTimeout: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if p.Pages != 2 || len(p.OCR) != 1 || p.OCR[0].Page != 2 {
		t.Fatalf("%d pages, OCR %+v; want page 2 of 2 only", p.Pages, p.OCR)
	}
	if !slices.ContainsFunc(p.Warnings, func(w string) bool {
		return strings.HasPrefix(w, "page 1: ") && strings.HasSuffix(w, "left out (too uncertain to index)")
	}) {
		t.Errorf("warnings %q do not name page 1", p.Warnings)
	}
	for _, b := range p.Blocks {
		if b.Page != 2 {
			t.Errorf("block %q on page %d, want 2", b.Text, b.Page)
		}
	}
	if r := wordRecall(string(ocrFile(t, "en.txt")), p.Doc.Text); r < 0.95 {
		t.Errorf("word recall %.3f", r)
	}
}

// tessdataWith points Tesseract at a fresh model folder holding only the
// named models of the installed ones.
func tessdataWith(t *testing.T, langs ...string) {
	t.Helper()
	dir := t.TempDir()
	for _, l := range langs {
		src := filepath.Join("/usr/share/tesseract-ocr/5/tessdata", l+".traineddata")
		if _, err := os.Stat(src); err != nil {
			t.Fatalf("Tesseract's %s model (scripts/test installs tesseract-ocr-%s): %v", l, l, err)
		}
		if err := os.Symlink(src, filepath.Join(dir, l+".traineddata")); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("TESSDATA_PREFIX", dir)
}

// Without the Italian model the page is read in English with a warning
// naming the package; without any model the refusal names them all.
func TestOCRMissingModels(t *testing.T) {
	tessdataWith(t, "eng")
	p, err := Parse("en-page.png", ocrFile(t, "en-page.png"))
	if err != nil {
		t.Fatal(err)
	}
	if p.OCR[0].Language != "eng" || !slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.Contains(w, "install tesseract-ocr-ita") }) {
		t.Errorf("read with %q, warnings %q; want eng and a warning naming tesseract-ocr-ita", p.OCR[0].Language, p.Warnings)
	}
	tessdataWith(t)
	_, err = Parse("en-page.png", ocrFile(t, "en-page.png"))
	want := "image only: needs OCR (install tesseract-ocr tesseract-ocr-eng tesseract-ocr-ita)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("no models: err = %v, want one saying %q", err, want)
	}
}
