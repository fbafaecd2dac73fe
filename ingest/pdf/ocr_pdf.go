package pdf

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/ingest/parse"
)

// PageRenderer turns the pages of a PDF file into images for OCR. fonte
// renders with poppler's pdftoppm ([Pdftoppm]); another engine (PDFium)
// can stand in.
type PageRenderer interface {
	// PageCount returns the number of pages of the PDF at pdfPath.
	PageCount(ctx context.Context, pdfPath string) (int, error)
	// RenderPage writes 1-based page of the PDF at pdfPath as a PNG image
	// at dpi to pngPath.
	RenderPage(ctx context.Context, pdfPath string, page, dpi int, pngPath string) error
}

// Pdftoppm renders with poppler-utils' pdfinfo and pdftoppm, found on PATH
// when called.
type Pdftoppm struct{}

// errNoPoppler is returned when pdftoppm or pdfinfo is not on PATH.
var errNoPoppler = errors.New("rendering pages needs pdftoppm and pdfinfo (install poppler-utils)")

// PageCount implements PageRenderer with pdfinfo's "Pages:" line.
func (Pdftoppm) PageCount(ctx context.Context, pdfPath string) (int, error) {
	bin, err := exec.LookPath("pdfinfo")
	if err != nil {
		return 0, errNoPoppler
	}
	out, err := exec.CommandContext(ctx, bin, pdfPath).Output()
	if err != nil {
		return 0, fmt.Errorf("pdfinfo: %w", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Pages:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 {
				return 0, fmt.Errorf("pdfinfo: page count %q", strings.TrimSpace(v))
			}
			return n, nil
		}
	}
	return 0, errors.New("pdfinfo: no page count")
}

// RenderPage implements PageRenderer: pdftoppm -r DPI -png -f N -l N
// -singlefile, in grey (colour adds nothing for OCR and triples the
// bytes).
func (Pdftoppm) RenderPage(ctx context.Context, pdfPath string, page, dpi int, pngPath string) error {
	bin, err := exec.LookPath("pdftoppm")
	if err != nil {
		return errNoPoppler
	}
	n := strconv.Itoa(page)
	root := strings.TrimSuffix(pngPath, ".png")
	cmd := exec.CommandContext(ctx, bin, "-r", strconv.Itoa(dpi), "-png", "-gray", "-f", n, "-l", n, "-singlefile", pdfPath, root)
	if out, err := cmd.CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("pdftoppm page %d: %v: %s", page, err, strings.TrimSpace(string(out)))
	}
	if root+".png" != pngPath {
		return os.Rename(root+".png", pngPath)
	}
	return nil
}

// ParseOrScan is the parser ingest.Parse uses for .pdf: ParsePDF, and for a
// PDF it refuses as image only (no text layer: a scan), OCR with
// DefaultOCR. OCR runs after ParsePDF returns, so outside its time limit,
// which is sized for reading text, not for reading pages by OCR.
func ParseOrScan(name string, raw []byte) (*parse.Parsed, error) {
	p, err := ParsePDF(name, raw)
	var r *parse.Refusal
	if errors.As(err, &r) && r.Reason == parse.ReasonImageOnly {
		return OCRPDF(context.Background(), name, raw, DefaultOCR)
	}
	if err != nil || len(p.ImageOnlyPages) == 0 {
		return p, err
	}
	return OCRMissingPages(context.Background(), p, raw, DefaultOCR), nil
}

// renderFrom renders pages of the PDF at path in into the run's folder.
func (r *ocrRun) renderFrom(in string) func(ctx context.Context, page int) (string, error) {
	return func(ctx context.Context, page int) (string, error) {
		png := filepath.Join(r.dir, fmt.Sprintf("page-%d.png", page))
		return png, r.opts.Renderer.RenderPage(ctx, in, page, r.opts.DPI, png)
	}
}

// OCRMissingPages reads by OCR the pages of a parsed PDF that are images
// without a text layer while other pages have text (a signed page or a
// scanned appendix in a typed document), and puts their text in page
// order among the others. Without Tesseract, or for a page OCR cannot
// read with confidence, the page stays out with a warning saying why; p
// is never refused for it. The result records the OCR pages as a scan's
// do (parse.Parsed.OCR, the "ocr" tag).
func OCRMissingPages(ctx context.Context, p *parse.Parsed, raw []byte, opts OCROptions) *parse.Parsed {
	run, err := newOCRRun(ctx, p.Doc.ID, opts, "some of its pages are images without a text layer")
	if err != nil {
		p.Warnings = append(p.Warnings, "OCR of the image-only pages: "+err.Error())
		return p
	}
	defer run.close()
	in := filepath.Join(run.dir, "in.pdf")
	if err := os.WriteFile(in, raw, 0o600); err != nil {
		p.Warnings = append(p.Warnings, "OCR of the image-only pages: writing a temporary copy: "+err.Error())
		return p
	}
	read := run.readPages(ctx, p.ImageOnlyPages, run.renderFrom(in))
	var kept []pageText
	var ocr []parse.OCRPage
	warnings := slices.Clone(run.warns)
	for _, pt := range read {
		if why, isLow := judgePage(pt); why != "" {
			if isLow {
				why += ": left out (too uncertain to index)"
			}
			warnings = append(warnings, why)
			continue
		}
		kept = append(kept, pt)
		ocr = append(ocr, parse.OCRPage{Page: pt.page, Confidence: round1(pt.conf), Words: pt.words, Language: run.lang})
	}
	if len(kept) == 0 {
		p.Warnings = append(p.Warnings, warnings...)
		return p
	}
	// Rebuild the text in page order: the typed pages' blocks as they
	// were, each OCR page's paragraphs before the first block of a later
	// page.
	var b parse.Builder
	next := 0
	flush := func(before int) {
		for ; next < len(kept) && (before == 0 || kept[next].page < before); next++ {
			b.Page = kept[next].page
			for _, para := range kept[next].paras {
				b.Add(parse.KindParagraph, 0, para)
			}
		}
	}
	for _, bl := range p.Blocks {
		flush(bl.Page)
		b.Page = bl.Page
		b.Add(bl.Kind, bl.Level, bl.Text)
	}
	flush(0)
	out := b.Finish(p.Doc.ID, p.Format, raw)
	out.Doc.ID, out.Doc.Source, out.Doc.Title, out.Doc.Tags = p.Doc.ID, p.Doc.Source, p.Doc.Title, append(slices.Clone(p.Doc.Tags), OCRTag)
	out.Doc.Language = analysis.DetectLanguage(out.Doc.Text)
	out.Pages, out.OCR = p.Pages, ocr
	out.Hidden, out.Invisible, out.Control = p.Hidden, p.Invisible, p.Control
	read1 := map[int]bool{}
	for _, pt := range kept {
		read1[pt.page] = true
	}
	for _, w := range p.Warnings {
		if pg, ok := imageOnlyWarningPage(w); ok && read1[pg] {
			continue // read by OCR now
		}
		out.Warnings = append(out.Warnings, w)
	}
	out.Warnings = append(out.Warnings, warnings...)
	return out
}

// OCRPDF reads a PDF without a text layer by OCR: each page is rendered
// (opts.Renderer at opts.DPI) and read by Tesseract, a few pages at once.
// Blocks are Tesseract's paragraphs with their page; parse.Parsed.OCR records
// each page's mean confidence, and pages under OCRFloor are left out
// with a warning. Without tesseract the *parse.Refusal names the packages to
// install.
func OCRPDF(ctx context.Context, name string, raw []byte, opts OCROptions) (*parse.Parsed, error) {
	run, err := newOCRRun(ctx, name, opts, "its pages are images without a text layer (a scan?)")
	if err != nil {
		return nil, err
	}
	defer run.close()
	in := filepath.Join(run.dir, "in.pdf")
	if err := os.WriteFile(in, raw, 0o600); err != nil {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: "OCR: writing a temporary copy", Err: err}
	}
	n, err := run.opts.Renderer.PageCount(ctx, in)
	if err != nil {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonImageOnly, Detail: "needs OCR: its pages are images without a text layer", Err: err}
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i + 1
	}
	pages := run.readPages(ctx, all, run.renderFrom(in))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return run.assemble(raw, "pdf", pages)
}
