package pdf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/enums"
	pdfiumerr "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"

	"github.com/fonte-rag/fonte/ingest/parse"
)

// errPDFiumKilled is returned when a document ran past its time limit and
// its PDFium instance was stopped.
var errPDFiumKilled = errors.New("PDFium stopped after the time limit")

// parsePDFium is ParsePDF on PDFium: the engine decodes the fonts and
// orders the characters into lines; fonte's own logic groups the lines
// into paragraphs and headings, removes running headers and footers and
// joins hyphenated words (pdfBlocks, as for the native reader).
func parsePDFium(name string, raw []byte) (*parse.Parsed, error) {
	if !hasPDFHeader(raw) {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: "not a PDF (no %PDF- header)"}
	}
	if err := pdfTreeCheck(raw); err != nil {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: "broken PDF", Err: err}
	}
	doc, err := readPDFium(raw, pdfTimeout(len(raw)), pdfiumLinesOf)
	if err != nil {
		return nil, pdfiumRefusal(name, raw, err)
	}
	return pdfParsed(name, raw, doc)
}

// pdfiumRefusal turns an error from the engine into the refusal a person
// can act on.
func pdfiumRefusal(name string, raw []byte, err error) error {
	switch {
	case errors.Is(err, pdfiumerr.ErrPassword):
		return &parse.Refusal{Path: name, Reason: parse.ReasonEncrypted, Detail: pdfNeedsPassword}
	case errors.Is(err, pdfiumerr.ErrSecurity):
		return &parse.Refusal{Path: name, Reason: parse.ReasonEncrypted,
			Detail: "an encryption PDFium does not support: save an unencrypted copy (qpdf --decrypt in.pdf out.pdf) and index that", Err: err}
	case errors.Is(err, errPDFiumKilled):
		return &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable,
			Detail: fmt.Sprintf("gave up after %v on one page: PDFium did not finish it (malformed file?)", pdfTimeout(len(raw)))}
	case errors.Is(err, errNoPages):
		return &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: "broken PDF: no pages"}
	}
	var tooMany *tooManyPages
	if errors.As(err, &tooMany) {
		return &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: tooMany.Error()}
	}
	return &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: "broken PDF", Err: err}
}

// pdfNeedsPassword is the detail of a PDF that opens only with a password.
const pdfNeedsPassword = "needs a password: save a copy without it (e.g. qpdf --password=PASSWORD --decrypt in.pdf out.pdf) and index that"

var errNoPages = errors.New("no pages")

type tooManyPages struct{ n int }

func (e *tooManyPages) Error() string {
	return fmt.Sprintf("broken PDF: claims %d pages (more than %d)", e.n, maxPDFPages)
}

// pageReader reads one page's text page into doc; pdfiumLinesOf is the
// one ParsePDF uses, PDFPageTexts has its own.
type pageReader func(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, n, page int) ([]pdfLine, error)

// readPDFium opens raw in a pooled PDFium instance and reads every page
// with read. The instance is stopped if opening the document, or reading
// any one page, takes longer than limit, so no engine call outlives the
// caller. The limit is per page rather than per document: a long manual
// on a loaded machine is slow, not stuck, and every page makes progress.
func readPDFium(raw []byte, limit time.Duration, read pageReader) (*pdfDoc, error) {
	// Waiting for a free instance is not timed: under load documents
	// queue for the pool rather than time out.
	inst, err := pdfiumInstance(context.Background())
	if err != nil {
		return nil, err
	}
	// The timer and the reader agree under mu on who ends the instance:
	// Kill interrupts a call in progress, Close returns it to the pool.
	var mu sync.Mutex
	finished, killed := false, false
	timer := time.AfterFunc(limit, func() {
		mu.Lock()
		defer mu.Unlock()
		if !finished {
			killed = true
			_ = inst.Kill()
		}
	})
	defer func() {
		timer.Stop()
		mu.Lock()
		defer mu.Unlock()
		finished = true
		if !killed {
			_ = inst.Close()
		}
	}()
	// tick gives the next page a full limit.
	tick := func() {
		mu.Lock()
		defer mu.Unlock()
		if !killed {
			timer.Reset(limit)
		}
	}
	doc, err := readPDFiumDoc(inst, raw, read, tick)
	mu.Lock()
	wasKilled := killed
	mu.Unlock()
	if wasKilled {
		return nil, errPDFiumKilled
	}
	return doc, err
}

func readPDFiumDoc(inst pdfium.Pdfium, raw []byte, read pageReader, tick func()) (*pdfDoc, error) {
	empty := ""
	// An empty user password opens files encrypted only to restrict
	// permissions (any viewer opens them); a real one fails with
	// ErrPassword.
	opened, err := inst.FPDF_LoadMemDocument(&requests.FPDF_LoadMemDocument{Data: &raw, Password: &empty})
	if err != nil {
		return nil, err
	}
	d := opened.Document
	defer func() { _, _ = inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: d}) }()

	count, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: d})
	if err != nil {
		return nil, err
	}
	switch {
	case count.PageCount <= 0:
		return nil, errNoPages
	case count.PageCount > maxPDFPages:
		return nil, &tooManyPages{count.PageCount}
	}
	doc := &pdfDoc{pages: count.PageCount}
	if t, err := inst.FPDF_GetMetaText(&requests.FPDF_GetMetaText{Document: d, Tag: "Title"}); err == nil {
		doc.title = t.Value
	}
	failed := 0
	for i := range count.PageCount {
		tick()
		lines, images, err := readPDFiumPage(inst, d, i, read)
		if err != nil {
			if errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "closed") {
				return nil, err // the instance was stopped: no page will read
			}
			failed++
			doc.warnings = append(doc.warnings, fmt.Sprintf("page %d skipped: %v", i+1, err))
			continue
		}
		if len(lines) == 0 && images {
			doc.imageOnly = append(doc.imageOnly, i+1)
		}
		doc.lines = append(doc.lines, lines...)
	}
	if failed == count.PageCount {
		return nil, fmt.Errorf("no page could be read (%s)", doc.warnings[0])
	}
	return doc, nil
}

// readPDFiumPage loads page i (0-based) and its text page, reads it, and
// reports whether a page without text shows images (a scan).
func readPDFiumPage(inst pdfium.Pdfium, d references.FPDF_DOCUMENT, i int, read pageReader) ([]pdfLine, bool, error) {
	pg, err := inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: d, Index: i})
	if err != nil {
		return nil, false, err
	}
	page := requests.Page{ByReference: &pg.Page}
	defer func() { _, _ = inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: pg.Page}) }()
	tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: page})
	if err != nil {
		return nil, false, err
	}
	defer func() { _, _ = inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage}) }()
	n, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
	if err != nil {
		return nil, false, err
	}
	lines, err := read(inst, tp.TextPage, n.Count, i+1)
	if err != nil {
		return nil, false, err
	}
	if len(lines) > 0 {
		return lines, false, nil
	}
	images, err := pageHasImage(inst, page)
	return nil, images, err
}

// pageHasImage reports whether a page draws an image object (directly;
// a scan's page is one image).
func pageHasImage(inst pdfium.Pdfium, page requests.Page) (bool, error) {
	objs, err := inst.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: page})
	if err != nil {
		return false, err
	}
	for j := range objs.Count {
		o, err := inst.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: page, Index: j})
		if err != nil {
			return false, err
		}
		t, err := inst.FPDFPageObj_GetType(&requests.FPDFPageObj_GetType{PageObject: o.PageObject})
		if err != nil {
			return false, err
		}
		if t.Type == enums.FPDF_PAGEOBJ_IMAGE {
			return true, nil
		}
	}
	return false, nil
}

// pdfiumLinesOf splits the page text PDFium orders (FPDFText_GetText,
// lines ended by generated "\r\n") into lines and asks the engine for
// where each line sits and how large it is set, from its first visible
// character: a few calls per line rather than per character.
func pdfiumLinesOf(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, n, page int) ([]pdfLine, error) {
	text, err := pdfiumPageText(inst, tp, n)
	if err != nil || text == "" {
		return nil, err
	}
	runes := []rune(text)
	// Character indexes match runes only when every character is in the
	// Basic Multilingual Plane (GetText counts UTF-16 units); otherwise
	// positions come from the nearest index, which can only blur a
	// line's size, never lose text.
	var lines []pdfLine
	start := 0
	flush := func(end int) error {
		seg := runes[start:end]
		first := -1
		for k, r := range seg {
			if !isPDFiumSpace(r) {
				first = start + k
				break
			}
		}
		start = end
		if first < 0 {
			return nil
		}
		idx := min(first, n-1)
		origin, err := inst.FPDFText_GetCharOrigin(&requests.FPDFText_GetCharOrigin{TextPage: tp, Index: idx})
		if err != nil {
			return err
		}
		size, err := inst.FPDFText_GetFontSize(&requests.FPDFText_GetFontSize{TextPage: tp, Index: idx})
		if err != nil {
			return err
		}
		scale := 1.0
		if m, err := inst.FPDFText_GetMatrix(&requests.FPDFText_GetMatrix{TextPage: tp, Index: idx}); err == nil {
			// The font size is the Tf operand; the text matrix scales it
			// (producers that set "1 Tf" and scale with Tm).
			if s := math.Hypot(float64(m.Matrix.C), float64(m.Matrix.D)); s > 0 {
				scale = s
			}
		}
		lines = append(lines, pdfLine{page: page, y: origin.Y, size: size.FontSize * scale, text: pdfiumLineText(seg)})
		return nil
	}
	for k, r := range runes {
		if r == '\n' {
			if err := flush(k + 1); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(len(runes)); err != nil {
		return nil, err
	}
	return lines, nil
}

// isPDFiumSpace reports the characters that carry no text of a line.
func isPDFiumSpace(r rune) bool {
	return r == ' ' || r == '\r' || r == '\n' || r == '\t' || r == 0 || r == 0xA0
}

// pdfiumLineText cleans one line of PDFium's text. PDFium writes U+0002
// or U+FFFE for a hyphen it recognised at a line end and then goes on
// with the rest of the word without a line break: the mark is dropped
// there, joining the word; at the end of a line it becomes "-" again so
// joinLines can join the word across lines.
func pdfiumLineText(seg []rune) string {
	var b strings.Builder
	for k, r := range seg {
		switch r {
		case 0x02, 0xFFFE:
			if k+1 < len(seg) && unicode.IsLetter(seg[k+1]) {
				continue
			}
			r = '-'
		case '\r', '\n', '\t', 0:
			r = ' '
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// PDFPageTexts returns PDFium's own plain text of every page of a PDF, as
// FPDFText_GetText orders it, without fonte's layout logic (paragraphs,
// running headers, hyphenation): what bench/pdfcompare measures as
// "PDFium alone".
func PDFPageTexts(raw []byte) ([]string, error) {
	doc, err := readPDFium(raw, pdfTimeout(len(raw)), pdfiumPlainText)
	if err != nil {
		return nil, err
	}
	texts := make([]string, doc.pages)
	for _, l := range doc.lines {
		texts[l.page-1] = l.text
	}
	return texts, nil
}

// pdfiumPlainText reads a page as one line holding its whole text.
func pdfiumPlainText(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, n, page int) ([]pdfLine, error) {
	text, err := pdfiumPageText(inst, tp, n)
	if err != nil || text == "" {
		return nil, err
	}
	return []pdfLine{{page: page, text: text}}, nil
}

// pdfiumPageText is the text of a text page's n characters, in PDFium's order.
func pdfiumPageText(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, n int) (string, error) {
	if n <= 0 {
		return "", nil
	}
	text, err := inst.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: tp, StartIndex: 0, Count: n})
	if err != nil {
		return "", err
	}
	return strings.TrimRight(text.Text, "\x00"), nil
}

// PDFiumStartup starts the process's PDFium pool if it is not running
// and returns how long starting it took (compiling the engine, or loading
// it from the compilation cache).
func PDFiumStartup() (time.Duration, error) {
	_, err := pdfiumPool()
	return pdfiumPoolState.ready, err
}
