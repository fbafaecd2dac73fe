package ingest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/ingest/internal/ingesttest"
	"github.com/fonte-rag/fonte/ingest/pdf"
)

func parsePDFFile(t *testing.T, name string, raw []byte) *Parsed {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(path, back)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	checkInvariants(t, p)
	return p
}

func TestPDFPages(t *testing.T) {
	raw := ingesttest.MakePDF(t, "Manuale del dipendente", []ingesttest.PDFPage{
		{Heading: "Ferie e permessi", Paras: []string{
			"Il dipendente ha diritto a ventisei giorni di ferie all'anno, che devono essere richiesti al responsabile con almeno due settimane di anticipo. Questa frase è lunga abbastanza da andare a capo più volte nella pagina.",
			"Le ferie non godute entro l'anno possono essere usate fino a giugno.",
		}},
		{Paras: []string{"Il rimborso delle spese di viaggio avviene entro trenta giorni dalla presentazione della nota spese."}},
		{Heading: "Malattia", Paras: []string{"In caso di malattia il dipendente avvisa il responsabile entro le nove del mattino."}},
	})
	p := parsePDFFile(t, "manuale.pdf", raw)

	if p.Pages != 3 || p.Format != "pdf" {
		t.Errorf("Pages %d Format %q", p.Pages, p.Format)
	}
	if p.Doc.Title != "Manuale del dipendente" {
		t.Errorf("title %q, want the Info title", p.Doc.Title)
	}
	if p.Doc.Language != "it" {
		t.Errorf("language %q, want it", p.Doc.Language)
	}
	want := []struct {
		kind     Kind
		page     int
		headings string
		text     string
	}{
		{KindHeading, 1, "", "Ferie e permessi"},
		{KindParagraph, 1, "Ferie e permessi", "Il dipendente ha diritto a ventisei giorni di ferie all'anno, che devono essere richiesti al responsabile con almeno due settimane di anticipo. Questa frase è lunga abbastanza da andare a capo più volte nella pagina."},
		{KindParagraph, 1, "Ferie e permessi", "Le ferie non godute entro l'anno possono essere usate fino a giugno."},
		{KindParagraph, 2, "Ferie e permessi", "Il rimborso delle spese di viaggio avviene entro trenta giorni dalla presentazione della nota spese."},
		{KindHeading, 3, "", "Malattia"},
		{KindParagraph, 3, "Malattia", "In caso di malattia il dipendente avvisa il responsabile entro le nove del mattino."},
	}
	if len(p.Blocks) != len(want) {
		for _, b := range p.Blocks {
			t.Logf("%s p%d %q", b.Kind, b.Page, b.Text)
		}
		t.Fatalf("%d blocks, want %d", len(p.Blocks), len(want))
	}
	for i, w := range want {
		b := p.Blocks[i]
		if b.Kind != w.kind || b.Page != w.page || strings.Join(b.Headings, " > ") != w.headings || b.Text != w.text {
			t.Errorf("block %d = %s p%d %q %q\nwant %s p%d %q %q", i, b.Kind, b.Page, b.Headings, b.Text, w.kind, w.page, w.headings, w.text)
		}
	}
}

func TestPDFTitleFallsBackToHeading(t *testing.T) {
	raw := ingesttest.MakePDF(t, "", []ingesttest.PDFPage{{Heading: "Expense policy", Paras: []string{"Every expense needs a receipt and the approval of your manager before it is paid."}}})
	p := parsePDFFile(t, "x.pdf", raw)
	if p.Doc.Title != "Expense policy" {
		t.Errorf("title %q", p.Doc.Title)
	}
}

func TestPDFOperators(t *testing.T) {
	raw := ingesttest.RawPDF(
		// TJ kerning wider than a fifth of an em is a word space; T* and '
		// move to the next line; Tm places text absolutely.
		"BT /F1 12 Tf 14 TL 72 700 Td [(Kerned)-400(words)-20(x)] TJ T* (next line of the paragraph) Tj ET\n"+
			"BT /F1 12 Tf 1 0 0 1 72 600 Tm (Placed) Tj ( apart) Tj ET",
		// A composite font with a ToUnicode range wider than 256 codes.
		"BT /F2 12 Tf 72 700 Td <0043006100660066002020AC00200033002C00350030> Tj ET",
	)
	p := parsePDFFile(t, "ops.pdf", raw)
	got := blockTexts(p, KindParagraph)
	want := []string{"Kerned wordsx next line of the paragraph", "Placed apart", "Caff € 3,50"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("paragraphs %q, want %q", got, want)
	}
	if p.Blocks[len(p.Blocks)-1].Page != 2 {
		t.Errorf("last block on page %d, want 2", p.Blocks[len(p.Blocks)-1].Page)
	}
}

func TestPDFPanickingPageIsSkipped(t *testing.T) {
	// "1 begin" makes the native reader's content-stream interpreter
	// panic: that page is skipped with a warning.
	raw := ingesttest.RawPDF(
		"BT /F1 12 Tf 72 700 Td (The first page reads fine and has enough words to keep.) Tj ET",
		"BT /F1 12 Tf 72 700 Td (lost) Tj ET 1 begin",
	)
	p, err := pdf.ParsePDFNative("half.pdf", raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "page 2") {
		t.Errorf("warnings %q, want one naming page 2", p.Warnings)
	}
	if len(p.Blocks) != 1 || p.Blocks[0].Page != 1 {
		t.Errorf("blocks %+v", p.Blocks)
	}
	_, err = pdf.ParsePDFNative("allbad.pdf", ingesttest.RawPDF("1 begin"))
	wantRefusal(t, err, ReasonUnreadable)

	// PDFium reads the text before the stray operator, as viewers show it.
	p = parsePDFFile(t, "half.pdf", raw)
	if got := blockTexts(p, KindParagraph); len(got) != 2 || got[1] != "lost" || p.Blocks[1].Page != 2 {
		t.Errorf("PDFium: paragraphs %q", got)
	}
}

func TestBrokenPDFRefused(t *testing.T) {
	good := ingesttest.MakePDF(t, "T", []ingesttest.PDFPage{{Paras: []string{"Some text on the only page of this document."}}})
	garbage := []byte("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\ntrailer << /Root 1 0 R >>\nstartxref\n12345\n%%EOF\n")
	cases := map[string][]byte{
		"truncated.pdf":     good[:len(good)/2],
		"garbage.pdf":       garbage,
		"not-a-pdf.pdf":     []byte("this is plain text saved with a .pdf extension"),
		"empty.pdf":         nil,
		"random.pdf":        bytes.Repeat([]byte{0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a, 0xde, 0xad, 0xbe, 0xef}, 50),
		"no-pages.pdf":      ingesttest.RawPDF(),
		"graphics-only.pdf": ingesttest.RawPDF("0 0 m 100 100 l S"),
	}
	for name, raw := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Parse(path, raw)
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("err = %v, want a refusal", err)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name %s", err, path)
			}
			if name == "graphics-only.pdf" && r.Reason != ReasonEmpty {
				t.Errorf("reason %s, want empty", r.Reason)
			}
		})
	}
}

func TestPDFCyclicPageTreeRefused(t *testing.T) {
	raw := ingesttest.RawPDF("BT /F1 12 Tf 72 700 Td (Some words on the page.) Tj ET")
	// The Pages node lists itself as its kid; same length keeps the
	// cross-reference offsets valid.
	cyclic := bytes.Replace(raw, []byte("/Kids [6 0 R]"), []byte("/Kids [2 0 R]"), 1)
	if bytes.Equal(raw, cyclic) {
		t.Fatal("fixture did not change")
	}
	_, err := Parse("cyclic.pdf", cyclic)
	r := wantRefusal(t, err, ReasonUnreadable)
	if !strings.Contains(r.Error(), "cycle") {
		t.Errorf("refusal %q does not mention the cycle", r.Error())
	}
}
