package ingest

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/ingest/pdf"
	"github.com/go-pdf/fpdf"
)

// TestPDFRefusalsSayWhatToDo: a password-protected PDF and a scanned
// (image-only) one are refused by pdf.ParsePDF with reasons that say what
// they need, not "broken PDF" or "empty"; a PDF encrypted with AES-256
// and an empty user password (permissions only) opens, as in any viewer.
func TestPDFRefusalsSayWhatToDo(t *testing.T) {
	// A page that is only a picture, as a scanner makes.
	scan := fpdf.New("P", "mm", "A4", "")
	scan.AddPage()
	scan.RegisterImageOptionsReader("scan", fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(pngPage(t)))
	scan.ImageOptions("scan", 10, 10, 190, 95, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
	var scanPDF bytes.Buffer
	if err := scan.Output(&scanPDF); err != nil {
		t.Fatal(err)
	}
	// A page of text behind a user password.
	locked := fpdf.New("P", "mm", "A4", "")
	locked.SetProtection(fpdf.CnProtectPrint, "secret", "owner")
	locked.AddPage()
	locked.SetFont("Helvetica", "", 12)
	locked.Cell(40, 10, "Expense claims are filed within 30 days.")
	var lockedPDF bytes.Buffer
	if err := locked.Output(&lockedPDF); err != nil {
		t.Fatal(err)
	}
	aes, err := os.ReadFile("testdata/pdf/aes256-permissions-only.pdf")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		raw    []byte
		reason Reason
		says   string
	}{
		{"scan.pdf", scanPDF.Bytes(), ReasonImageOnly, "need OCR"},
		{"locked.pdf", lockedPDF.Bytes(), ReasonEncrypted, "needs a password"},
	} {
		_, err := pdf.ParsePDF(c.name, c.raw)
		var r *Refusal
		if !errors.As(err, &r) || r.Reason != c.reason || !strings.Contains(r.Detail, c.says) {
			t.Errorf("%s: %v, want %s saying %q", c.name, err, c.reason, c.says)
		}
	}
	p, err := pdf.ParsePDF("aes256-permissions-only.pdf", aes)
	if err != nil {
		t.Fatalf("AES-256 with an empty user password: %v", err)
	}
	if p.Doc.Text != "Expense claims are filed within 30 days of the trip." {
		t.Errorf("AES-256 text %q", p.Doc.Text)
	}
	// The native reader cannot decrypt AES-256 and says what to do.
	_, err = pdf.ParsePDFNative("aes256-permissions-only.pdf", aes)
	if r := wantRefusal(t, err, ReasonEncrypted); !strings.Contains(r.Detail, "qpdf --decrypt") {
		t.Errorf("native: %v", err)
	}
}
