package ingest

import (
	"strings"
	"testing"
)

// TestRST: reStructuredText is indexed as its rendered page reads.
func TestRST(t *testing.T) {
	raw := strings.Join([]string{
		"Guida al rimborso",
		"=================",
		"",
		".. note::",
		"   Questa guida vale dal 1 marzo 2024.",
		"",
		".. toctree::",
		"   :maxdepth: 2",
		"",
		"   premessa.rst",
		"",
		"Il modulo **DEVE** essere inviato entro *trenta giorni* con il comando",
		"``rimborso invia``, come spiega la :ref:`sezione sui moduli <moduli>` e",
		"la `pagina del portale <https://example.org/portale>`__.",
		"",
		"|figura-1|",
		"",
		".. |figura-1| image:: figura.png",
		"",
		".. _moduli:",
		"",
		".. this is a comment",
		"   that goes on",
		"",
		"Esempio::",
		"",
		"    rimborso invia --mese 3",
		"",
		".. only:: html",
		"",
		"   .. include:: allegati.rst",
		"",
		"   Testo visibile solo in HTML.",
	}, "\n")
	p, err := ParserFor("guida.rst")("guida.rst", []byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range p.Blocks {
		got = append(got, b.Text)
	}
	want := []string{
		"Guida al rimborso",
		"Questa guida vale dal 1 marzo 2024.",
		"Il modulo DEVE essere inviato entro trenta giorni con il comando rimborso invia, come spiega la sezione sui moduli e la pagina del portale.",
		"Esempio:",
		"rimborso invia --mese 3",
		"Testo visibile solo in HTML.",
	}
	if strings.Join(got, "\n|\n") != strings.Join(want, "\n|\n") {
		t.Errorf("blocks:\n%s\nwant:\n%s", strings.Join(got, "\n|\n"), strings.Join(want, "\n|\n"))
	}
	if p.Blocks[0].Kind != KindHeading || p.Doc.Title != "Guida al rimborso" {
		t.Errorf("first block %v, title %q", p.Blocks[0].Kind, p.Doc.Title)
	}
}

// TestTextLooksRST: a .txt file is read as reStructuredText only when it
// carries reStructuredText's own marks; other text keeps its asterisks.
func TestTextLooksRST(t *testing.T) {
	for _, c := range []struct {
		text string
		rst  bool
	}{
		{"Title\n=====\n\n.. note:: Read me.\n", true},
		{"See :doc:`the guide`.\n", true},
		{".. _target:\n\nText.\n", true},
		{"Multiply 5 * 3 * 2 and list *.txt files.\n", false},
		{"A line\n\n.. and dots\n", false},
	} {
		if got := looksRST(c.text); got != c.rst {
			t.Errorf("looksRST(%q) = %v, want %v", c.text, got, c.rst)
		}
	}
	p, err := ParseText("a.txt", []byte("Multiply 5 * 3 * 2 and list *.txt and *.md files.\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Doc.Text != "Multiply 5 * 3 * 2 and list *.txt and *.md files." {
		t.Errorf("text %q", p.Doc.Text)
	}
	p, err = ParseText("b.txt", []byte("You **must** file the *original* form with ``claim send``.\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Doc.Text != "You must file the original form with claim send." {
		t.Errorf("text %q: emphasis marks kept", p.Doc.Text)
	}
}
