package ingest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"
)

// prose is a paragraph of ordinary English, long enough to judge a page.
const prose = "The expense policy explains which costs the company pays back, how to file a claim, " +
	"who approves it and how long the payment takes. Keep every receipt and file the claim within thirty days of the trip."

func pageBlocks(texts ...string) []Block {
	var out []Block
	for i, t := range texts {
		out = append(out, Block{Kind: KindParagraph, Text: t, Page: i + 1})
	}
	return out
}

// TestPDFPageCheck: a page with U+FFFD, one with words run together and
// one of letters that are not words are each flagged with what is wrong
// and what to do; good pages, short pages and number tables are not.
func TestPDFPageCheck(t *testing.T) {
	glued := strings.Repeat("thefilegeneratedbythedepmodcommand lists modules and their aliases ", 6)
	fffd := strings.ReplaceAll(prose, "fi", "\uFFFD") + " " + strings.ReplaceAll(prose, "fi", "\uFFFD")
	garbled := strings.Repeat("Ì¿Ý×Ì ßþÐ ÞÐ× Ì¿ ÝÌ×ß þÐÞ ", 6)
	numbers := strings.Repeat("12 34,5 678 9.01 2345 ", 10) + " Table 1 totals"
	warnings, err := checkPDFPages("x.pdf", pageBlocks(prose, fffd, glued, garbled, "Figure 3", numbers, prose, prose))
	if err != nil {
		t.Fatalf("3 damaged pages of 6 judged: %v", err)
	}
	want := []string{
		"page 2: 4 characters its fonts do not map to Unicode (U+FFFD)",
		"page 3: 6 of 36 words look run together (21+ letters, such as \"thefilegeneratedbythedepmodcommand\")",
		"page 4: only 0% of its tokens read as words",
	}
	if len(warnings) != len(want) {
		t.Fatalf("warnings %q", warnings)
	}
	for i, w := range want {
		if !strings.HasPrefix(warnings[i], w) {
			t.Errorf("warning %q\nwant prefix %q", warnings[i], w)
		}
	}
	for _, w := range warnings {
		if !strings.Contains(w, "re-export") && !strings.Contains(w, "OCR") {
			t.Errorf("warning %q does not say what to do", w)
		}
	}

	// Most judged pages damaged: the document is refused.
	_, err = checkPDFPages("bad.pdf", pageBlocks(fffd, glued, garbled, prose))
	r := wantRefusal(t, err, ReasonGarbled)
	if !strings.Contains(r.Detail, "3 of 4 pages extracted badly (first: page 1") {
		t.Errorf("detail %q", r.Detail)
	}
}

// TestPDFGluedPagesRefused: a real PDF whose text lost the spaces
// between words on most pages is refused by Parse with the reason; one
// such page among good ones is a warning.
func TestPDFGluedPagesRefused(t *testing.T) {
	glued := strings.Repeat("Thefilegeneratedbythedepmodcommand listsallmodulesandtheiraliases in order. ", 8)
	build := func(pages ...string) []byte {
		f := fpdf.New("P", "mm", "A4", "")
		for _, p := range pages {
			f.AddPage()
			f.SetFont("Helvetica", "", 11)
			f.MultiCell(0, 5.5, p, "", "L", false)
		}
		var buf bytes.Buffer
		if err := f.Output(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	_, err := Parse("glued.pdf", build(glued, glued, prose))
	r := wantRefusal(t, err, ReasonGarbled)
	if !strings.Contains(r.Detail, "2 of 3 pages extracted badly") || !strings.Contains(r.Detail, "run together") {
		t.Errorf("detail %q", r.Detail)
	}

	p, err := Parse("one-glued.pdf", build(prose, glued, prose, prose))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 1 || !strings.HasPrefix(p.Warnings[0], "page 2: ") || !strings.Contains(p.Warnings[0], "run together") {
		t.Errorf("warnings %q", p.Warnings)
	}
}
