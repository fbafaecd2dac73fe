package pdf

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/ingest/internal/ingesttest"
)

// sharedKidsPDF is a PDF whose page tree is depth levels of nodes each
// listing the next one twice, ending in a node with no page: 2^depth
// paths through a file of about 50*depth bytes.
func sharedKidsPDF(depth int) []byte {
	var b bytes.Buffer
	var offsets []int
	obj := func(s string) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offsets), s)
	}
	b.WriteString("%PDF-1.4\n")
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	for i := range depth {
		obj(fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R %d 0 R] >>", i+3, i+3))
	}
	obj("<< /Type /Pages /Kids [null] >>")
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}

// TestPDFSharedKids: a page tree whose nodes list the same kid twice made
// a 1 KB file take 2^depth visits (minutes at depth 22; the 30-second
// limit then abandoned a goroutine that never ended). The walk has a
// budget of nodes proportional to the file's size.
func TestPDFSharedKids(t *testing.T) {
	raw := sharedKidsPDF(60)
	_, err := ParsePDF("dag.pdf", raw)
	if err == nil || !strings.Contains(err.Error(), "page tree has more nodes") {
		t.Fatalf("a page tree of 2^60 paths in %d bytes: %v", len(raw), err)
	}
}

// TestPDFUnclosedHexString: a content stream ending inside a hex string
// ("<0043" and no ">") sent the PDF library's lexer into an endless loop
// (found by FuzzPDF; the 30-second limit then abandoned a goroutine that
// spun forever). The native reader skips the page with a warning
// instead; PDFium reads what the page shows.
func TestPDFUnclosedHexString(t *testing.T) {
	raw := ingesttest.RawPDF("BT /F1 12 Tf 72 700 Td (Readable page one.) Tj ET", "BT /F2 12 Tf 72 700 Td <00430061")
	if _, err := ParsePDF("hex.pdf", raw); err != nil {
		t.Errorf("PDFium: %v", err)
	}
	p, err := ParsePDFNative("hex.pdf", raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "page 2 skipped: content stream ends inside a hex string") {
		t.Errorf("warnings %q", p.Warnings)
	}
	for _, c := range []struct {
		content string
		open    bool
	}{
		{"<0043", true},
		{"<< /A 1 >> <00>", false},
		{"(a < b) Tj", false},
		{"(a \\) < b) Tj", false},
		{"(a \\) b) <0", true},
		{"% <comment\n<00>", false},
		{"((nested) <) <", true},
		{"<<", false},
	} {
		if got := unclosedHexString([]byte(c.content)); got != c.open {
			t.Errorf("unclosedHexString(%q) = %v", c.content, got)
		}
	}
}
