// Package pdf reads PDF files, and by OCR (Tesseract) the pages that are
// only images: a scanned PDF, or a page image (PNG, JPEG, TIFF). Images
// live here too because they share the OCR run with scanned PDFs, and a
// PDF falls back to OCR when it has no text layer (ParseOrScan), so the
// two cannot be split without exporting the OCR run's internals.
// ingest.Parse is the entry point: it sends .pdf and image files here and
// runs the quality check on what comes back.
package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/ingest/parse"
)

// maxPDFPages bounds the page count a PDF may claim; a larger count is
// taken as corruption rather than looped over.
const maxPDFPages = 100000

// pdfEncryptRE finds an encryption dictionary in a trailer; pdfImageRE an
// image XObject (never inside a compressed object stream, since it is a
// stream itself).
var (
	pdfEncryptRE = regexp.MustCompile(`/Encrypt\s*(?:\d+\s+\d+\s+R|<<)`)
	pdfImageRE   = regexp.MustCompile(`/Subtype\s*/Image\b`)
)

// ParsePDF extracts the text of a PDF page by page; every block carries
// its 1-based page number.
//
// By default the text comes from PDFium (Chrome's PDF engine, run as
// WebAssembly inside the process; see pdfium.go), which decodes fonts
// without Unicode maps, ligatures and encrypted files that fonte's own
// reader could not. Setting FONTE_PDF_READER=native selects fonte's own
// content-stream reader instead (ParsePDFNative). Either way the lines
// go through the same layout logic (pdfBlocks): running headers, footers
// and page numbers are removed, lines form paragraphs until the vertical
// gap exceeds 1.6 times the font size, the font size changes, or the page
// ends; words hyphenated across lines are joined; a paragraph of at most
// three lines set at least 1.2 times larger than the body text is a
// heading, levelled by size.
//
// The title is the document's Info title, else the first heading, else the
// file name. A broken PDF is refused with a *parse.Refusal naming the
// file, and so is a file the reader has not finished within a time limit (see
// pdfTimeout). A page that fails alone is skipped with a warning; pages
// without a text layer are flagged, and a file of only such pages is
// refused as image only.
func ParsePDF(name string, raw []byte) (*parse.Parsed, error) {
	if pdfNative {
		return pdfWithTimeout(name, raw, parsePDFNative)
	}
	return parsePDFium(name, raw)
}

// pdfNative selects fonte's own reader (FONTE_PDF_READER=native).
var pdfNative = os.Getenv("FONTE_PDF_READER") == "native"

// pdfWithTimeout runs extract on raw, giving up after pdfTimeout. The
// native reader cannot be stopped: its goroutine is abandoned and ends,
// if ever, on its own. (PDFium is stopped instead; see readPDFium.)
func pdfWithTimeout(name string, raw []byte, extract func(string, []byte) (*parse.Parsed, error)) (*parse.Parsed, error) {
	type result struct {
		p   *parse.Parsed
		err error
	}
	done := make(chan result, 1)
	go func() {
		p, err := extract(name, raw)
		done <- result{p, err}
	}()
	limit := pdfTimeout(len(raw))
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.p, r.err
	case <-timer.C:
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable,
			Detail: fmt.Sprintf("gave up after %v: the PDF library did not finish (malformed file?)", limit)}
	}
}

// ParsePDFNative is ParsePDF on fonte's own content-stream reader (on
// github.com/ledongthuc/pdf) rather than PDFium, kept for comparison
// (bench/pdfcompare) and as a fallback (FONTE_PDF_READER=native).
func ParsePDFNative(name string, raw []byte) (*parse.Parsed, error) {
	return pdfWithTimeout(name, raw, parsePDFNative)
}

// pdfTimeout is how long one PDF may take once the native reader has it,
// or PDFium may take to open it or to read any one of its pages: 30
// seconds plus one second per 100 KiB, far above what well-formed files
// need, because some malformed ones (a cross-reference stream claiming
// 10^18 objects) send a PDF library into a loop it never leaves.
var pdfTimeout = func(size int) time.Duration {
	return 30*time.Second + time.Duration(size/(100<<10))*time.Second
}

// pdfDoc is what a PDF reader takes from a document: its lines in reading
// order, page by page, and what the refusals and flags need.
type pdfDoc struct {
	pages     int
	lines     []pdfLine
	title     string
	imageOnly []int    // 1-based pages with images and no text layer
	warnings  []string // pages that failed alone
}

func hasPDFHeader(raw []byte) bool {
	return bytes.Contains(raw[:min(len(raw), 1024)], []byte("%PDF-"))
}

// pdfParsed lays out the lines of doc (either reader's) as blocks and
// fills in what ParsePDF returns.
func pdfParsed(name string, raw []byte, doc *pdfDoc) (*parse.Parsed, error) {
	for i := range doc.lines {
		doc.lines[i].text = joinAccents(doc.lines[i].text)
	}
	var b parse.Builder
	pdfBlocks(&b, dropRunningLines(doc.lines, doc.pages))
	out := b.Finish(name, "pdf", raw)
	if s := parse.Stats(out.Doc.Text); s.Letters+s.Digits == 0 && (len(doc.imageOnly) > 0 || pdfImageRE.Match(raw)) {
		return nil, imageOnlyRefusal(name, doc.pages)
	}
	damaged, err := checkPDFPages(name, out.Blocks)
	if err != nil {
		return nil, err
	}
	out.Pages = doc.pages
	out.Warnings = append(doc.warnings, imageOnlyWarnings(doc.imageOnly)...)
	out.ImageOnlyPages = doc.imageOnly
	out.Warnings = append(out.Warnings, damaged...)
	out.Doc.Title = cleanPDFTitle(doc.title)
	if out.Doc.Title == "" {
		out.Doc.Title = parse.FirstHeading(out.Blocks, 0)
	}
	if out.Doc.Title == "" {
		out.Doc.Title = parse.TitleFromName(name)
	}
	out.Doc.Language = analysis.DetectLanguage(out.Doc.Text)
	return out, nil
}

// imageOnlyRefusal is the refusal of a PDF whose pages are all images
// without a text layer (a scan): it says what the file needs rather than
// "empty". Parse answers it by reading the pages with OCR
// (ParseOrScan); a caller of ParsePDF alone gets the refusal.
func imageOnlyRefusal(name string, pages int) error {
	return &parse.Refusal{Path: name, Reason: parse.ReasonImageOnly,
		Detail: fmt.Sprintf("%d pages of images without a text layer (a scan?): they need OCR (fonte's Parse runs it with tesseract-ocr installed), "+
			"or make a text layer first (e.g. ocrmypdf -l eng+ita in.pdf out.pdf, with tesseract-ocr installed) and index that", pages)}
}

// imageOnlyWarning is the warning of one image-only page of a PDF.
const imageOnlyWarning = "page %d: image only, no text layer: its text is not indexed (needs OCR)"

// imageOnlyWarningPage returns the page an imageOnlyWarning names.
func imageOnlyWarningPage(w string) (int, bool) {
	var page int
	if n, err := fmt.Sscanf(w, imageOnlyWarning, &page); n != 1 || err != nil {
		return 0, false
	}
	return page, true
}

// imageOnlyWarnings flags the pages of a PDF that are images without a
// text layer while other pages have text: their content is missing from
// the index until OCR reads them (OCRMissingPages, which drops the
// warning of each page it reads).
func imageOnlyWarnings(pages []int) []string {
	var out []string
	for _, p := range pages {
		out = append(out, fmt.Sprintf(imageOnlyWarning, p))
	}
	return out
}

func parsePDFNative(name string, raw []byte) (p *parse.Parsed, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: fmt.Sprintf("broken PDF: %v", r)}
		}
	}()
	if !hasPDFHeader(raw) {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: "not a PDF (no %PDF- header)"}
	}
	r, err := pdf.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if errors.Is(err, pdf.ErrInvalidPassword) {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonEncrypted, Detail: pdfNeedsPassword}
	}
	if err != nil && pdfEncryptRE.Match(raw) {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonEncrypted,
			Detail: "fonte's PDF reader cannot decrypt this encryption (such as AES-256, even when only permissions are set and any viewer opens it): save an unencrypted copy (qpdf --decrypt in.pdf out.pdf) and index that", Err: err}
	}
	if err != nil {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: "broken PDF", Err: err}
	}
	pages, err := pageTree(r.Trailer().Key("Root").Key("Pages"), treeBudget(len(raw)))
	if err != nil {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: "broken PDF", Err: err}
	}
	if len(pages) == 0 {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: "broken PDF: no pages"}
	}

	doc := &pdfDoc{pages: len(pages), title: r.Trailer().Key("Info").Key("Title").Text()}
	failed := 0
	for i, pg := range pages {
		pl, err := pageLines(pg, i+1)
		if err != nil {
			failed++
			doc.warnings = append(doc.warnings, fmt.Sprintf("page %d skipped: %v", i+1, err))
			continue
		}
		doc.lines = append(doc.lines, pl...)
	}
	if failed == len(pages) {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable,
			Detail: fmt.Sprintf("broken PDF: no page could be read (%s)", doc.warnings[0])}
	}
	return pdfParsed(name, raw, doc)
}

// maxTreeDepth bounds the page tree and the parent chain followed for
// inherited attributes: real trees are a few levels deep, and a cycle
// (a node listed as its own kid or parent) must not loop forever.
const maxTreeDepth = 64

// treeBudget is how many page tree nodes a file of size bytes may make
// pageTree visit: one per byte, at least 4096, at most two per allowed
// page. A well-formed tree visits each node once, and every node takes
// bytes; a tree whose nodes list the same kid twice, level after level,
// would otherwise make a 1 KB file cost 2^64 visits.
func treeBudget(size int) int {
	return min(2*maxPDFPages, max(4096, size))
}

// pageTree lists the page objects of the tree under root in order,
// visiting at most budget nodes. It walks the tree itself rather than
// through the library's Page(i), which loops forever on a cyclic tree and
// costs a walk per page.
func pageTree(root pdf.Value, budget int) ([]pdf.Value, error) {
	var pages []pdf.Value
	var walk func(n pdf.Value, depth int) error
	walk = func(n pdf.Value, depth int) error {
		if depth > maxTreeDepth {
			return fmt.Errorf("page tree deeper than %d levels (a cycle?)", maxTreeDepth)
		}
		if budget--; budget < 0 {
			return errors.New("page tree has more nodes than the file has bytes (kids listed more than once?)")
		}
		if n.Key("Type").Name() == "Pages" || n.Key("Kids").Kind() == pdf.Array {
			kids := n.Key("Kids")
			for i := 0; i < kids.Len(); i++ {
				if err := walk(kids.Index(i), depth+1); err != nil {
					return err
				}
			}
			return nil
		}
		if n.Kind() == pdf.Dict {
			if len(pages) >= maxPDFPages {
				return fmt.Errorf("more than %d pages", maxPDFPages)
			}
			pages = append(pages, n)
		}
		return nil
	}
	err := walk(root, 0)
	return pages, err
}

// inherited looks key up on a page and then on its ancestors, as the PDF
// inheritance rules for Resources require.
func inherited(v pdf.Value, key string) pdf.Value {
	for i := 0; i < maxTreeDepth && !v.IsNull(); i++ {
		if x := v.Key(key); !x.IsNull() {
			return x
		}
		v = v.Key("Parent")
	}
	return pdf.Value{}
}

// cleanPDFTitle returns the Info dictionary's title unless it is a
// placeholder.
func cleanPDFTitle(title string) string {
	t := parse.CleanTitle(title)
	low := strings.ToLower(t)
	if low == "untitled" || strings.HasSuffix(low, ".doc") || strings.HasSuffix(low, ".docx") {
		return ""
	}
	return t
}

// pdfLine is one line of text on a page.
type pdfLine struct {
	page int
	y    float64 // baseline, growing up the page
	size float64 // font size in user space
	text string
}

// pdfRun is the text drawn by one show operator.
type pdfRun struct {
	x, y, endX, size float64
	text             string
}

// mat is a PDF transformation matrix [a b c d e f], applied to row
// vectors: [x y 1] × M.
type mat [6]float64

var identity = mat{1, 0, 0, 1, 0, 0}

func (m mat) mul(n mat) mat {
	return mat{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func translate(tx, ty float64) mat { return mat{1, 0, 0, 1, tx, ty} }

// pdfFont caches what the interpreter needs from a font dictionary.
type pdfFont struct {
	font    *pdf.Font
	first   int
	widths  []float64
	twoByte bool       // composite (Type0) font: two bytes per code
	uni     *toUnicode // the font's ToUnicode map, preferred when present
}

// width returns the advance of code in glyph space (1/1000 of the font
// size). Fonts without width tables (the standard 14 fonts need none)
// get an average width, which only affects where spaces are inferred.
func (f *pdfFont) width(code int) float64 {
	if i := code - f.first; f.widths != nil && i >= 0 && i < len(f.widths) && f.widths[i] > 0 {
		return f.widths[i]
	}
	if f.twoByte {
		return 1000
	}
	return 500
}

// textState is the part of the PDF graphics and text state that places
// text.
type textState struct {
	ctm, tm, tlm        mat
	tfs, th, tc, tw, tl float64
	trise               float64
	font                *pdfFont
	stack               []mat
	runs                []pdfRun
	resources           pdf.Value
	fonts               map[string]*pdfFont
	pendingSpace        bool
}

// pageLines interprets the content stream of page number i and returns its
// lines. A panic inside the PDF library on this page becomes the returned
// error.
func pageLines(pg pdf.Value, i int) (lines []pdfLine, err error) {
	defer func() {
		if rec := recover(); rec != nil {
			lines, err = nil, fmt.Errorf("%v", rec)
		}
	}()
	contents := pg.Key("Contents")
	if contents.IsNull() {
		return nil, nil // a blank page
	}
	if unclosedHexString(contentBytes(contents)) {
		// The library's lexer reads past the end as white space and
		// would wait for the ">" forever.
		return nil, errors.New("content stream ends inside a hex string")
	}
	st := &textState{ctm: identity, tm: identity, tlm: identity, th: 1,
		resources: inherited(pg, "Resources"), fonts: map[string]*pdfFont{}}
	pdf.Interpret(contents, st.op)
	return linesOf(st.runs, i), nil
}

func (st *textState) op(stk *pdf.Stack, op string) {
	args := make([]pdf.Value, stk.Len())
	for i := len(args) - 1; i >= 0; i-- {
		args[i] = stk.Pop()
	}
	num := func(i int) float64 { return args[i].Float64() }
	switch op {
	case "q":
		st.stack = append(st.stack, st.ctm)
	case "Q":
		if n := len(st.stack); n > 0 {
			st.ctm = st.stack[n-1]
			st.stack = st.stack[:n-1]
		}
	case "cm":
		if len(args) == 6 {
			st.ctm = mat{num(0), num(1), num(2), num(3), num(4), num(5)}.mul(st.ctm)
		}
	case "BT":
		st.tm, st.tlm = identity, identity
	case "Td", "TD":
		if len(args) == 2 {
			if op == "TD" {
				st.tl = -num(1)
			}
			st.tlm = translate(num(0), num(1)).mul(st.tlm)
			st.tm = st.tlm
		}
	case "Tm":
		if len(args) == 6 {
			st.tm = mat{num(0), num(1), num(2), num(3), num(4), num(5)}
			st.tlm = st.tm
		}
	case "T*":
		st.nextLine()
	case "TL":
		if len(args) == 1 {
			st.tl = num(0)
		}
	case "Tc":
		if len(args) == 1 {
			st.tc = num(0)
		}
	case "Tw":
		if len(args) == 1 {
			st.tw = num(0)
		}
	case "Tz":
		if len(args) == 1 {
			st.th = num(0) / 100
		}
	case "Ts":
		if len(args) == 1 {
			st.trise = num(0)
		}
	case "Tf":
		if len(args) == 2 {
			st.font = st.fontNamed(args[0].Name())
			st.tfs = num(1)
		}
	case "Tj":
		if len(args) == 1 {
			st.show(args[0].RawString())
		}
	case "'":
		if len(args) == 1 {
			st.nextLine()
			st.show(args[0].RawString())
		}
	case "\"":
		if len(args) == 3 {
			st.tw, st.tc = num(0), num(1)
			st.nextLine()
			st.show(args[2].RawString())
		}
	case "TJ":
		if len(args) == 1 {
			arr := args[0]
			for i := 0; i < arr.Len(); i++ {
				v := arr.Index(i)
				if v.Kind() == pdf.String {
					st.show(v.RawString())
					continue
				}
				// A negative adjustment moves right; more than a
				// fifth of an em is a word space set by kerning.
				adj := v.Float64()
				st.tm = translate(-adj/1000*st.tfs*st.th, 0).mul(st.tm)
				if adj < -200 {
					st.pendingSpace = true
				}
			}
		}
	}
}

func (st *textState) nextLine() {
	st.tlm = translate(0, -st.tl).mul(st.tlm)
	st.tm = st.tlm
}

func (st *textState) fontNamed(name string) *pdfFont {
	if f, ok := st.fonts[name]; ok {
		return f
	}
	font := pdf.Font{V: st.resources.Key("Font").Key(name)}
	f := &pdfFont{
		font:    &font,
		first:   font.FirstChar(),
		twoByte: font.V.Key("Subtype").Name() == "Type0",
	}
	f.uni = readToUnicode(font.V.Key("ToUnicode"), f.twoByte)
	if w := font.V.Key("Widths"); w.Len() > 0 {
		f.widths = make([]float64, w.Len())
		for i := range f.widths {
			f.widths[i] = w.Index(i).Float64()
		}
	}
	st.fonts[name] = f
	return f
}

// show places one string: it decodes the text, records where it starts
// and ends, and advances the text matrix.
func (st *textState) show(raw string) {
	f := st.font
	if f == nil {
		f = &pdfFont{font: &pdf.Font{}}
		st.font = f
	}
	var text string
	if f.uni != nil {
		text = f.uni.Decode(raw)
	} else {
		text = f.font.Encoder().Decode(raw)
	}
	if st.pendingSpace {
		text = " " + text
		st.pendingSpace = false
	}
	trm := mat{st.tfs * st.th, 0, 0, st.tfs, 0, st.trise}.mul(st.tm).mul(st.ctm)
	x, y := trm[4], trm[5]
	size := math.Hypot(trm[2], trm[3])

	adv := 0.0
	step := 1
	if f.twoByte {
		step = 2
	}
	for i := 0; i+step <= len(raw); i += step {
		code := int(raw[i])
		if step == 2 {
			code = code<<8 | int(raw[i+1])
		}
		w := f.width(code)/1000*st.tfs + st.tc
		if step == 1 && code == ' ' {
			w += st.tw
		}
		adv += w * st.th
	}
	st.tm = translate(adv, 0).mul(st.tm)
	end := mat{st.tfs * st.th, 0, 0, st.tfs, 0, st.trise}.mul(st.tm).mul(st.ctm)
	st.runs = append(st.runs, pdfRun{x: x, y: y, endX: end[4], size: size, text: text})
}

// linesOf groups runs, in drawing order, into lines: a run whose baseline
// is within half a font size of the current line's joins it.
func linesOf(runs []pdfRun, page int) []pdfLine {
	var lines []pdfLine
	var cur strings.Builder
	var line pdfLine
	endX := 0.0
	flush := func() {
		if t := strings.TrimSpace(cur.String()); t != "" {
			line.text = t
			lines = append(lines, line)
		}
		cur.Reset()
	}
	for i, r := range runs {
		r.text = strings.Map(func(c rune) rune {
			if c == '\n' || c == '\r' || c == '\t' {
				return ' '
			}
			return c
		}, r.text)
		tol := 0.5 * max(r.size, line.size, 1)
		if i == 0 || math.Abs(r.y-line.y) > tol {
			flush()
			line = pdfLine{page: page, y: r.y, size: r.size}
		} else {
			gap := r.x - endX
			s := cur.String()
			if gap > 0.2*max(r.size, 1) && s != "" && !strings.HasSuffix(s, " ") && !strings.HasPrefix(r.text, " ") {
				cur.WriteByte(' ')
			}
			line.size = max(line.size, r.size)
		}
		cur.WriteString(r.text)
		endX = r.endX
	}
	flush()
	return lines
}

// pdfBlocks groups lines into paragraphs and headings and adds them to b.
func pdfBlocks(b *parse.Builder, lines []pdfLine) {
	if len(lines) == 0 {
		return
	}
	body := bodySize(lines)

	type para struct {
		page  int
		size  float64
		lines []string
	}
	var paras []para
	for i, l := range lines {
		if i > 0 {
			prev := lines[i-1]
			p := &paras[len(paras)-1]
			gap := prev.y - l.y
			sameSize := math.Abs(l.size-p.size) <= 0.1*max(p.size, 1)
			if l.page == p.page && sameSize && gap > 0 && gap <= 1.6*max(l.size, prev.size) {
				p.lines = append(p.lines, l.text)
				continue
			}
		}
		paras = append(paras, para{page: l.page, size: l.size, lines: []string{l.text}})
	}

	// Heading sizes, largest first, give heading levels.
	var sizes []float64
	isHeading := func(p para) bool {
		n := 0
		for _, l := range p.lines {
			n += utf8.RuneCountInString(l)
		}
		return p.size >= 1.2*body && len(p.lines) <= 3 && n <= 200
	}
	for _, p := range paras {
		if isHeading(p) {
			s := math.Round(p.size*2) / 2
			if !containsFloat(sizes, s) {
				sizes = append(sizes, s)
			}
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(sizes)))

	for _, p := range paras {
		b.Page = p.page
		text := joinLines(p.lines)
		if isHeading(p) {
			level := 1
			for i, s := range sizes {
				if s == math.Round(p.size*2)/2 {
					level = min(i+1, 6)
				}
			}
			b.Add(parse.KindHeading, level, text)
			continue
		}
		b.Add(parse.KindParagraph, 0, text)
	}
	b.Page = 0
}

func containsFloat(xs []float64, x float64) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// bodySize is the font size that sets the most characters.
func bodySize(lines []pdfLine) float64 {
	weight := map[float64]int{}
	for _, l := range lines {
		weight[math.Round(l.size*2)/2] += utf8.RuneCountInString(l.text)
	}
	best, bestW := 0.0, -1
	for s, w := range weight {
		if w > bestW || (w == bestW && s < best) {
			best, bestW = s, w
		}
	}
	return best
}

// joinLines joins the lines of a paragraph with spaces, rejoining words
// hyphenated at a line end ("infor-" + "mation").
func joinLines(lines []string) string {
	var sb strings.Builder
	for i, l := range lines {
		if i > 0 {
			prev := lines[i-1]
			first, _ := utf8.DecodeRuneInString(l)
			last, size := utf8.DecodeLastRuneInString(prev)
			before, _ := utf8.DecodeLastRuneInString(prev[:len(prev)-size])
			if last == '-' && unicode.IsLetter(before) && unicode.IsLower(first) {
				s := sb.String()
				sb.Reset()
				sb.WriteString(s[:len(s)-1])
			} else {
				sb.WriteByte(' ')
			}
		}
		sb.WriteString(l)
	}
	return sb.String()
}

// contentBytes reads a page's content: one stream or an array of them,
// concatenated as pdf.Interpret reads them.
func contentBytes(v pdf.Value) []byte {
	var rd io.Reader
	if v.Kind() == pdf.Array {
		readers := make([]io.Reader, 0, v.Len())
		for i := 0; i < v.Len(); i++ {
			readers = append(readers, v.Index(i).Reader())
		}
		rd = io.MultiReader(readers...)
	} else {
		rd = v.Reader()
	}
	data, _ := io.ReadAll(rd)
	return data
}

// unclosedHexString reports whether content, tokenized as the PDF
// library does (comments to the end of the line, literal strings with
// nesting and escapes), has a hex string "<…" with no ">" after it.
func unclosedHexString(content []byte) bool {
	for i := 0; i < len(content); i++ {
		switch content[i] {
		case '%':
			for i < len(content) && content[i] != '\r' && content[i] != '\n' {
				i++
			}
		case '(':
			for depth := 1; depth > 0 && i+1 < len(content); {
				i++
				switch content[i] {
				case '\\':
					i++
				case '(':
					depth++
				case ')':
					depth--
				}
			}
		case '<':
			if i+1 < len(content) && content[i+1] == '<' {
				i++
				continue
			}
			end := bytes.IndexByte(content[i+1:], '>')
			if end < 0 {
				return true
			}
			i += 1 + end
		}
	}
	return false
}
