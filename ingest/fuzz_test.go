package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/fonte-rag/fonte/ingest/internal/ingesttest"
	"github.com/fonte-rag/fonte/ingest/pdf"
)

// addSeeds adds the files matching pattern to the fuzz corpus.
func addSeeds(f *testing.F, pattern string) {
	files, _ := filepath.Glob(pattern)
	for _, name := range files {
		if raw, err := os.ReadFile(name); err == nil {
			f.Add(raw)
		}
	}
}

// fuzzParse checks the parser contract on arbitrary input: no panic, a
// *Refusal as the only kind of error, and valid offsets on success.
func fuzzParse(t *testing.T, parse ParseFunc, name string, raw []byte) {
	p, err := parse(name, raw)
	if err != nil {
		var r *Refusal
		if !errors.As(err, &r) {
			t.Fatalf("error is not a *Refusal: %v", err)
		}
		return
	}
	checkInvariants(t, p)
	_ = Check(p)
}

func FuzzMarkdown(f *testing.F) {
	addSeeds(f, "testdata/*/input.md")
	for _, s := range []string{
		"---\ntitle: x\n---\n# h\n",
		"{% raw %}{{ x }}{% endraw %} `{% y %}` {% comment %}z{% endcomment %}",
		"<%= warning_text('a \\' b') %> <% if x %>\n\n<%= t \"#{y}\" <%% `<%= z %>` <%",
		"- a\n  ```\n  code\n  ```\n  | a | b |\n  |---|---|\n  | 1 | 2 |\n",
		"<div hidden>x</div>\n\n<table><tr><td>a\n\n</td></tr></table>",
		"## h {#id}\n\nSetext\n===\n\n> quote\n> - list\n",
		"\xef\xbb\xbf\u200bzero\u00adwidth\r\nline\x01",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		fuzzParse(t, ParseMarkdown, "fuzz.md", raw)
	})
}

func FuzzHTML(f *testing.F) {
	addSeeds(f, "testdata/*/input.html")
	for _, s := range []string{
		"<main><ul><li>a<ul><li>b</li></ul></li></ul></main>",
		"<table><tr><td><table><tr><td>x</td></tr></table></td></tr></table>",
		"<p style='display:none'>h</p><pre>a\n\n b</pre><br><img alt=x>",
		"<article><header><h1>t</h1></header></article><article>2</article>",
		"<ol start=x><li hidden>a</li>text<b>bold</b><dl><dt>t<dd>d</dl></ol>",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		fuzzParse(t, ParseHTML, "fuzz.html", raw)
	})
}

// FuzzPDF feeds mutated PDFs to the extractor: whatever the library does
// with them, pdf.ParsePDF must return a result or a refusal, never panic.
func FuzzPDF(f *testing.F) {
	f.Add(ingesttest.MakePDF(f, "T", []ingesttest.PDFPage{{Heading: "H", Paras: []string{"Some words here."}}, {Paras: []string{"Page two words."}}}))
	f.Add(ingesttest.RawPDF("BT /F1 12 Tf 72 700 Td [(Kerned)-400(words)] TJ ET", "BT /F2 12 Tf 72 700 Td <00430061> Tj ET"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		fuzzParse(t, pdf.ParsePDF, "fuzz.pdf", raw)
	})
}
