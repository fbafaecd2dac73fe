//go:build ignore

// generate makes the scanned pages of fonte's OCR tests from real text:
// about 200 words of a public-domain handbook page (English) and of the
// Debian New Maintainers' Guide in Italian (GPL-2+, in evalsets/), typeset
// on an A4 page with fpdf, rasterised with poppler's pdftoppm, and wrapped
// back into image-only PDFs, plus a PNG, a TIFF, the English page at 50
// DPI (too coarse to read well), a page of noise, and mixed.pdf: the
// Italian text typed on page 1 (a text layer) and the English scan as
// page 2 (an image only).
//
// Run from ingest/: go run ./testdata/ocr/generate.go [FILE…]
// (needs pdftoppm from poppler-utils and ../shared/data beside the repo);
// with FILE names it writes only those.
package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/go-pdf/fpdf"

	"github.com/fonte-rag/fonte/ingest"
)

const (
	out   = "testdata/ocr"
	words = 200 // about a page's worth at 12 points, and small files
	dpi   = 150
	// coarse is the resolution of blurred.png: Tesseract reads the page
	// at a mean confidence near 50 and gets about a third of the words.
	coarse = 50
)

func main() {
	en := source("../../shared/data/handbook/pages/about-us/tts-history.md")
	it := source("../evalsets/debian-reference-it/docs/maint-guide/start.it.html")
	write("en.txt", []byte(en))
	write("it.txt", []byte(it))

	enPNG := rasterise(typeset(en), "png", dpi)
	itPNG := rasterise(typeset(it), "png", dpi)
	write("en-scan.pdf", wrap(enPNG))
	write("it-scan.pdf", wrap(itPNG))
	write("en-page.png", enPNG)
	write("it-page.tiff", rasterise(typeset(it), "tiff", dpi))
	write("blurred.png", rasterise(typeset(en), "png", coarse))
	write("noise.png", noise())
	write("mixed.pdf", mixed(it, enPNG))
}

// mixed is a two-page PDF: text typed on page 1, a scanned page 2.
func mixed(text string, scan []byte) []byte {
	pdf := fpdf.New("P", "mm", "A4", "")
	textPage(pdf, text)
	imagePage(pdf, scan)
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		log.Fatal(err)
	}
	return buf.Bytes()
}

// textPage adds a page of text in 12-point Helvetica.
func textPage(pdf *fpdf.Fpdf, text string) {
	tr := pdf.UnicodeTranslatorFromDescriptor("") // UTF-8 to the core fonts' cp1252
	pdf.SetMargins(20, 20, 20)
	pdf.AddPage()
	pdf.SetFont("Helvetica", "", 12)
	for _, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		pdf.MultiCell(0, 6, tr(para), "", "L", false)
		pdf.Ln(3)
	}
}

// imagePage adds a page covered by a PNG image, no text layer.
func imagePage(pdf *fpdf.Fpdf, pngBytes []byte) {
	pdf.AddPage()
	name := fmt.Sprintf("page%d", pdf.PageNo())
	pdf.RegisterImageOptionsReader(name, fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(pngBytes))
	pdf.ImageOptions(name, 0, 0, 210, 297, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
}

// source returns the first paragraphs of a file, as fonte extracts them,
// up to about words words.
func source(path string) string {
	raw, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	p, err := ingest.Parse(path, raw)
	if err != nil {
		log.Fatal(err)
	}
	var paras []string
	n := 0
	for _, b := range p.Blocks {
		if b.Kind != ingest.KindParagraph || n >= words {
			continue
		}
		paras = append(paras, b.Text)
		n += len(strings.Fields(b.Text))
	}
	return strings.Join(paras, "\n\n") + "\n"
}

// typeset lays text out on an A4 page in 12-point Helvetica.
func typeset(text string) []byte {
	pdf := fpdf.New("P", "mm", "A4", "")
	textPage(pdf, text)
	if pdf.PageCount() != 1 {
		log.Fatalf("text takes %d pages, want 1", pdf.PageCount())
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		log.Fatal(err)
	}
	return buf.Bytes()
}

// rasterise renders a one-page PDF in grey at res DPI as PNG or TIFF.
func rasterise(pdfBytes []byte, format string, res int) []byte {
	dir, err := os.MkdirTemp("", "ocrgen")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, pdfBytes, 0o644); err != nil {
		log.Fatal(err)
	}
	args := []string{"-r", strconv.Itoa(res), "-gray", "-singlefile", "-" + format}
	if format == "tiff" {
		args = append(args, "-tiffcompression", "lzw")
	}
	cmd := exec.Command("pdftoppm", append(args, in, filepath.Join(dir, "page"))...)
	if b, err := cmd.CombinedOutput(); err != nil {
		log.Fatalf("pdftoppm: %v: %s", err, b)
	}
	ext := map[string]string{"png": ".png", "tiff": ".tif"}[format]
	b, err := os.ReadFile(filepath.Join(dir, "page"+ext))
	if err != nil {
		log.Fatal(err)
	}
	return b
}

// wrap places a page image over a whole A4 page of a new PDF: a scan,
// images and no text layer.
func wrap(pngBytes []byte) []byte {
	pdf := fpdf.New("P", "mm", "A4", "")
	imagePage(pdf, pngBytes)
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		log.Fatal(err)
	}
	return buf.Bytes()
}

// noise is a page-sized grey image of random speckles, a seeded source so
// the file is the same on every run.
func noise() []byte {
	rng := rand.New(rand.NewPCG(12, 3))
	img := image.NewGray(image.Rect(0, 0, 600, 800))
	for i := range img.Pix {
		img.Pix[i] = 255
		if rng.IntN(4) == 0 {
			img.Pix[i] = uint8(rng.IntN(128))
		}
	}
	img.Set(0, 0, color.Gray{255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		log.Fatal(err)
	}
	return buf.Bytes()
}

func write(name string, b []byte) {
	if len(os.Args) > 1 && !slices.Contains(os.Args[1:], name) {
		return
	}
	if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\t%d bytes\n", name, len(b))
}
