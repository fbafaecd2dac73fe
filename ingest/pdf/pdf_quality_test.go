package pdf

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/ingest/internal/ingesttest"
	"github.com/fonte-rag/fonte/ingest/parse"
)

func pageBlocks(texts ...string) []parse.Block {
	var out []parse.Block
	for i, t := range texts {
		out = append(out, parse.Block{Kind: parse.KindParagraph, Text: t, Page: i + 1})
	}
	return out
}

// TestPDFPageCheck: a page with U+FFFD, one with words run together and
// one of letters that are not words are each flagged with what is wrong
// and what to do; good pages, short pages and number tables are not.
func TestPDFPageCheck(t *testing.T) {
	glued := strings.Repeat("thefilegeneratedbythedepmodcommand lists modules and their aliases ", 6)
	fffd := strings.ReplaceAll(ingesttest.Prose, "fi", "\uFFFD") + " " + strings.ReplaceAll(ingesttest.Prose, "fi", "\uFFFD")
	garbled := strings.Repeat("Ì¿Ý×Ì ßþÐ ÞÐ× Ì¿ ÝÌ×ß þÐÞ ", 6)
	numbers := strings.Repeat("12 34,5 678 9.01 2345 ", 10) + " Table 1 totals"
	warnings, err := checkPDFPages("x.pdf", pageBlocks(ingesttest.Prose, fffd, glued, garbled, "Figure 3", numbers, ingesttest.Prose, ingesttest.Prose))
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
	_, err = checkPDFPages("bad.pdf", pageBlocks(fffd, glued, garbled, ingesttest.Prose))
	r := ingesttest.WantRefusal(t, err, parse.ReasonGarbled)
	if !strings.Contains(r.Detail, "3 of 4 pages extracted badly (first: page 1") {
		t.Errorf("detail %q", r.Detail)
	}
}
