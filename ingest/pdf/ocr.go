package pdf

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/ingest/parse"
)

// ReasonLowConfidence refuses a scan whose OCR text is too uncertain to
// index: every page fell below OCRFloor.
const ReasonLowConfidence parse.Reason = "low OCR confidence"

// OCRMeta is the document metadata key (fonte.Record.Meta) under which the
// engine records the pages whose text came from OCR: compact JSON, a list
// of parse.OCRPage. A chunk's page (fonte.Chunk.Page) finds its
// confidence there.
const OCRMeta = "ocr"

// OCRTag is the tag a document read by OCR carries, so a search can
// filter on it.
const OCRTag = "ocr"

// OCRFloor is the mean word confidence (Tesseract's 0–100) under which an
// OCR page is left out. Measured on the English test page rendered at
// falling resolutions (confidence → word recall against the source text):
// 150 DPI 96 → 0.99, 75 DPI 94 → 0.99, 60 DPI 74 → 0.91, 58 DPI 71 →
// 0.83, 55 DPI 64 → 0.70, 50 DPI 52 → 0.36, 40 DPI 43 → 0.01. At 70 a
// kept page has about five words in six right; below it recall falls
// fast, and indexing the page would put invented words in the index.
const OCRFloor = 70.0

// ocrPackages is what a Debian machine needs installed for OCR; the
// refusal without Tesseract names them.
const ocrPackages = "tesseract-ocr tesseract-ocr-eng tesseract-ocr-ita"

// EncodeOCR returns pages as the compact JSON kept under OCRMeta, or ""
// when there are none.
func EncodeOCR(pages []parse.OCRPage) string {
	if len(pages) == 0 {
		return ""
	}
	b, err := json.Marshal(pages)
	if err != nil {
		return "" // a parse.OCRPage always marshals
	}
	return string(b)
}

// DecodeOCR reads the value kept under OCRMeta; "" is no pages.
func DecodeOCR(s string) ([]parse.OCRPage, error) {
	if s == "" {
		return nil, nil
	}
	var out []parse.OCRPage
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, fmt.Errorf("ingest: reading the %q metadata: %w", OCRMeta, err)
	}
	return out, nil
}

// OCROptions tune how scans are read. The zero value is the default.
type OCROptions struct {
	// Language is the document's language as a fonte code ("en", "it"),
	// or "" when it is not known before reading, which reads with English
	// and Italian together (see tessLanguages).
	Language string
	// Concurrency is how many pages are read at once; 0 is the number of
	// CPUs.
	Concurrency int
	// PageTimeout bounds rendering and reading one page; 0 is 2 minutes.
	PageTimeout time.Duration
	// Renderer turns PDF pages into images; nil is poppler's pdftoppm.
	Renderer PageRenderer
	// DPI is the rendering resolution; 0 is 300, Tesseract's recommended
	// resolution for body text.
	DPI int
}

// DefaultOCR is the setting the format parsers (ingest.Parse, ParsePDF,
// ParseImage) read scans with.
var DefaultOCR OCROptions

func (o OCROptions) withDefaults() OCROptions {
	if o.Concurrency <= 0 {
		o.Concurrency = runtime.NumCPU()
	}
	if o.PageTimeout <= 0 {
		o.PageTimeout = 2 * time.Minute
	}
	if o.Renderer == nil {
		o.Renderer = Pdftoppm{}
	}
	if o.DPI <= 0 {
		o.DPI = 300
	}
	return o
}

// tessLanguages maps a fonte language code to Tesseract's: "en" → eng,
// "it" → ita. A scan's language is not known before OCR (there is no text
// to detect it from), so "" reads with eng+ita in one pass: Tesseract
// tries both models on every word and keeps the likelier. On the test
// pages that reads each language as well as its own model (word recall
// 1.000 on both), where eng alone reads the Italian page at 0.919 (its
// accents lost); a second pass with the detected language would double
// the time for nothing. A language fonte has no OCR model for reads as
// English, with a warning.
func tessLanguages(code string) (lang, warning string) {
	switch code {
	case "":
		return "eng+ita", ""
	case "en":
		return "eng", ""
	case "it":
		return "ita", ""
	}
	return "eng", fmt.Sprintf("OCR: fonte has no Tesseract model for language %q; read as English (eng)", code)
}

// tesseractMissing is the refusal of a scan on a machine without
// Tesseract: it names the packages to install.
func tesseractMissing(name, what string) error {
	return &parse.Refusal{Path: name, Reason: parse.ReasonImageOnly,
		Detail: fmt.Sprintf("needs OCR (install %s): %s, and tesseract is not on PATH", ocrPackages, what)}
}

// installedLanguages lists the Tesseract models present, or nil when
// tesseract cannot say.
func installedLanguages(ctx context.Context, tess string) map[string]bool {
	out, err := exec.CommandContext(ctx, tess, "--list-langs").Output()
	if err != nil {
		return nil
	}
	langs := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n")[1:] { // line 1 is a header
		if l := strings.TrimSpace(line); l != "" {
			langs[l] = true
		}
	}
	return langs
}

// usableLanguages keeps the models of want ("eng+ita") that are installed,
// with a warning naming the package of each missing one; it fails when
// none is.
func usableLanguages(name, want string, installed map[string]bool) (string, []string, error) {
	if installed == nil {
		return want, nil, nil // tesseract will say what is wrong
	}
	var keep []string
	var warnings []string
	for _, l := range strings.Split(want, "+") {
		if installed[l] {
			keep = append(keep, l)
			continue
		}
		warnings = append(warnings, fmt.Sprintf("OCR: Tesseract's %s model is not installed (install tesseract-ocr-%s)", l, l))
	}
	if len(keep) == 0 {
		return "", nil, &parse.Refusal{Path: name, Reason: parse.ReasonImageOnly,
			Detail: fmt.Sprintf("needs OCR (install %s): no Tesseract model for %s is installed", ocrPackages, want)}
	}
	return strings.Join(keep, "+"), warnings, nil
}

// ocrRun is one scan being read: the temporary folder its files go in and
// the settings.
type ocrRun struct {
	name  string
	opts  OCROptions
	tess  string // path of the tesseract command
	lang  string // Tesseract's -l value
	dir   string
	warns []string
}

// newOCRRun finds tesseract and the language models, and makes the
// temporary folder the caller must remove (run.close).
func newOCRRun(ctx context.Context, name string, opts OCROptions, what string) (*ocrRun, error) {
	opts = opts.withDefaults()
	tess, err := exec.LookPath("tesseract")
	if err != nil {
		return nil, tesseractMissing(name, what)
	}
	want, warn := tessLanguages(opts.Language)
	lang, warns, err := usableLanguages(name, want, installedLanguages(ctx, tess))
	if err != nil {
		return nil, err
	}
	if warn != "" {
		warns = append([]string{warn}, warns...)
	}
	dir, err := os.MkdirTemp("", "fonte-ocr-")
	if err != nil {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: "OCR: no temporary folder", Err: err}
	}
	return &ocrRun{name: name, opts: opts, tess: tess, lang: lang, dir: dir, warns: warns}, nil
}

func (r *ocrRun) close() { os.RemoveAll(r.dir) }

// pageText is what OCR read on one page.
type pageText struct {
	page  int
	paras []string
	conf  float64
	words int
	err   error
}

// read runs Tesseract on an image file and returns its pages (a TIFF may
// hold several; first is the page number of the first).
func (r *ocrRun) read(ctx context.Context, image string, first int) ([]pageText, error) {
	// TSV by its variables rather than the "tsv" config file, which lives
	// in the model folder and is missing from one set by TESSDATA_PREFIX.
	cmd := exec.CommandContext(ctx, r.tess, image, "stdout", "-l", r.lang,
		"-c", "tessedit_create_tsv=1", "-c", "tessedit_create_txt=0")
	// One OpenMP thread: pages already run in parallel, and Tesseract's
	// own threads spin for CPU when the machine is busy (a page took 12 s
	// instead of 2.5 s on a loaded two-core machine).
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("tesseract: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	pages, err := parseTSV(string(out))
	if err != nil {
		return nil, err
	}
	for i := range pages {
		pages[i].page += first - 1
	}
	return pages, nil
}

// readPages reads n pages with at most opts.Concurrency at once, each
// under opts.PageTimeout: image(ctx, page) makes page's image file and
// returns its path. The results are in page order; a page that failed
// carries its error.
func (r *ocrRun) readPages(ctx context.Context, pages []int, image func(ctx context.Context, page int) (string, error)) []pageText {
	out := make([]pageText, len(pages))
	sem := make(chan struct{}, r.opts.Concurrency)
	var wg sync.WaitGroup
	for i, page := range pages {
		out[i].page = page
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				out[i].err = ctx.Err()
				return
			}
			defer func() { <-sem }()
			pctx, cancel := context.WithTimeout(ctx, r.opts.PageTimeout)
			defer cancel()
			path, err := image(pctx, page)
			var pts []pageText
			if err == nil {
				pts, err = r.read(pctx, path, page)
				os.Remove(path) // page images are large; do not keep them until the end
			}
			switch {
			case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
				out[i].err = fmt.Errorf("OCR took longer than %v", r.opts.PageTimeout)
			case err != nil:
				out[i].err = err
			case len(pts) > 0:
				out[i] = pts[0]
				out[i].page = page
			}
		}()
	}
	wg.Wait()
	return out
}

// assemble builds the parse.Parsed value of a scan from its pages: pages under
// OCRFloor or that failed are left out with a warning; when none is left
// the scan is refused, saying why.
func (r *ocrRun) assemble(raw []byte, format string, pages []pageText) (*parse.Parsed, error) {
	var b parse.Builder
	var ocr []parse.OCRPage
	warnings := slices.Clone(r.warns)
	var low []string
	for _, pt := range pages {
		if skip, isLow := judgePage(pt); isLow {
			low = append(low, skip)
			continue
		} else if skip != "" {
			warnings = append(warnings, skip)
			continue
		}
		b.Page = pt.page
		for _, para := range pt.paras {
			b.Add(parse.KindParagraph, 0, para)
		}
		ocr = append(ocr, parse.OCRPage{Page: pt.page, Confidence: round1(pt.conf), Words: pt.words, Language: r.lang})
	}
	for _, l := range low {
		warnings = append(warnings, l+": left out (too uncertain to index)")
	}
	if len(ocr) == 0 {
		if len(low) > 0 {
			return nil, &parse.Refusal{Path: r.name, Reason: ReasonLowConfidence,
				Detail: strings.Join(low, "; ") + ": not text, or too blurred or noisy to read; scan again at 300 DPI or better"}
		}
		return nil, &parse.Refusal{Path: r.name, Reason: parse.ReasonUnreadable, Detail: "OCR failed on every page: " + warnings[len(warnings)-1]}
	}
	out := b.Finish(r.name, format, raw)
	out.Pages = len(pages)
	out.OCR = ocr
	out.Warnings = warnings
	out.Doc.Title = parse.TitleFromName(r.name)
	out.Doc.Language = analysis.DetectLanguage(out.Doc.Text)
	if l := out.Doc.Language; l != "" && l != "en" && l != "it" {
		out.Warnings = append(out.Warnings, fmt.Sprintf("OCR: the text reads as language %q, which fonte has no Tesseract model for; it was read as %s", l, r.lang))
	}
	out.Doc.Tags = append(out.Doc.Tags, OCRTag)
	return out, nil
}

// judgePage says why an OCR page is not indexed: a failure (isLow
// false) or text too uncertain to trust (isLow true); "" when it is kept.
func judgePage(pt pageText) (why string, isLow bool) {
	switch {
	case pt.err != nil:
		return fmt.Sprintf("page %d skipped: %v", pt.page, pt.err), false
	case pt.words == 0:
		return fmt.Sprintf("page %d: no words recognised", pt.page), true
	case pt.conf < OCRFloor:
		return fmt.Sprintf("page %d: mean word confidence %.0f (floor %.0f)", pt.page, pt.conf, OCRFloor), true
	}
	return "", false
}

func round1(x float64) float64 { return float64(int(x*10+0.5)) / 10 }
