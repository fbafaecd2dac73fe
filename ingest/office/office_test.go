package office

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/ingest/parse"
)

// parseFile parses a committed test document of ../testdata/office and
// checks the block invariants (engine's TestIndexOfficeDocuments indexes the same files
// through ingest's entry point, quality check included).
func parseFile(t *testing.T, name string) *parse.Parsed {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "office", name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseWithin(nil, name, raw)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	checkBlocks(t, p)
	return p
}

func checkBlocks(t *testing.T, p *parse.Parsed) {
	t.Helper()
	for _, b := range p.Blocks {
		if p.Doc.Text[b.Start:b.End] != b.Text {
			t.Errorf("%s: block %q does not match its span", p.Doc.ID, b.Text)
		}
	}
}

// block finds the first block of kind whose text contains s.
func block(p *parse.Parsed, kind parse.Kind, s string) *parse.Block {
	for i, b := range p.Blocks {
		if b.Kind == kind && strings.Contains(b.Text, s) {
			return &p.Blocks[i]
		}
	}
	return nil
}

func wantBlock(t *testing.T, p *parse.Parsed, kind parse.Kind, s string, path ...string) *parse.Block {
	t.Helper()
	b := block(p, kind, s)
	if b == nil {
		t.Errorf("%s: no %s block containing %q; text:\n%s", p.Doc.ID, kind, s, p.Doc.Text)
		return nil
	}
	if path != nil && !slices.Equal(b.Headings, path) {
		t.Errorf("%s: %s block %q has heading path %q, want %q", p.Doc.ID, kind, s, b.Headings, path)
	}
	return b
}

// TestOfficeDocuments reads the files pandoc and LibreOffice made from the
// Markdown and HTML sources in testdata/office.
func TestOfficeDocuments(t *testing.T) {
	for _, name := range []string{"guide-en.docx", "guide-en.odt", "lo-guide-en.docx"} {
		t.Run(name, func(t *testing.T) {
			p := parseFile(t, name)
			if p.Doc.Title != "Warehouse Operations Guide" || p.Doc.Language != "en" {
				t.Errorf("title %q language %q", p.Doc.Title, p.Doc.Language)
			}
			if h := wantBlock(t, p, parse.KindHeading, "Carrier cutoff", "Shipping"); h != nil && h.Level != 3 {
				t.Errorf("Carrier cutoff is level %d, want 3", h.Level)
			}
			wantBlock(t, p, parse.KindHeading, "Inspection steps", "Receiving")
			wantBlock(t, p, parse.KindList, "1. Count the boxes on the pallet.\n2. Open one box in ten and check the contents.\n  - Look for crushed corners.\n  - Look for water damage.\n3. Sign the delivery note.", "Receiving", "Inspection steps")
			wantBlock(t, p, parse.KindList, "- Standard parcels go with the morning carrier.", "Shipping", "Carrier cutoff")
			wantBlock(t, p, parse.KindTable, "Zone | Temperature | Goods\nA | ambient | dry groceries\nB | chilled | dairy and fresh juice\nC | frozen | ice cream and frozen peas", "Receiving", "Storage zones")
			wantBlock(t, p, parse.KindParagraph, "signed for.[1]", "Receiving")
			note := wantBlock(t, p, parse.KindParagraph, "[1] Deliveries without a note are refused at the gate", "Receiving")
			ref := block(p, parse.KindParagraph, "signed for.[1]")
			if note != nil && ref != nil && note.Start < ref.End {
				t.Error("the footnote comes before the paragraph citing it")
			}
		})
	}
	for _, name := range []string{"guida-it.docx", "guida-it.odt"} {
		t.Run(name, func(t *testing.T) {
			p := parseFile(t, name)
			if p.Doc.Title != "Manuale del personale" || p.Doc.Language != "it" {
				t.Errorf("title %q language %q", p.Doc.Title, p.Doc.Language)
			}
			wantBlock(t, p, parse.KindHeading, "Rimborsi chilometrici", "Trasferte")
			wantBlock(t, p, parse.KindList, "- Compilare il modulo sul portale interno.\n- Allegare", "Ferie e permessi", "Come chiedere un permesso")
			wantBlock(t, p, parse.KindTable, "Anzianità | Giorni di ferie | Permessi retribuiti\nmeno di cinque anni | ventidue | trentadue ore", "Ferie e permessi", "Giorni spettanti")
			wantBlock(t, p, parse.KindParagraph, "[1] Le ferie non godute si conservano fino al trenta giugno", "Ferie e permessi")
		})
	}
	// LibreOffice declares its locale (en-US) as the default language
	// and writes the first heading as a text:p with an automatic style.
	for _, name := range []string{"lo-guida-it.odt", "lo-guida-it.docx"} {
		t.Run(name, func(t *testing.T) {
			p := parseFile(t, name)
			if p.Doc.Title != "Regolamento della biblioteca" || p.Doc.Language != "it" {
				t.Errorf("title %q language %q", p.Doc.Title, p.Doc.Language)
			}
			if h := wantBlock(t, p, parse.KindHeading, "Prestiti"); h != nil && h.Level != 1 {
				t.Errorf("Prestiti is level %d, want 1", h.Level)
			}
			wantBlock(t, p, parse.KindList, "1. I libri si tengono per trenta giorni.\n2. Il prestito si rinnova", "Prestiti", "Durata del prestito")
			wantBlock(t, p, parse.KindTable, "Giorno | Mattina | Pomeriggio\nLunedì | chiuso | dalle quattordici alle diciannove", "Prestiti", "Orari di apertura")
			wantBlock(t, p, parse.KindList, "- Il silenzio è obbligatorio.", "Sala studio")
		})
	}
}

func TestPPTXSlides(t *testing.T) {
	for _, name := range []string{"slides-en.pptx", "lo-slides-en.pptx"} {
		t.Run(name, func(t *testing.T) {
			p := parseFile(t, name)
			if p.Pages != 4 || p.Format != "pptx" || p.Doc.Title != "Quarterly Safety Review" || p.Doc.Language != "en" {
				t.Errorf("pages %d format %q title %q language %q", p.Pages, p.Format, p.Doc.Title, p.Doc.Language)
			}
			for _, c := range []struct {
				kind parse.Kind
				text string
				page int
				path []string
			}{
				{parse.KindHeading, "Quarterly Safety Review", 1, nil},
				{parse.KindHeading, "Forklift incidents", 2, nil},
				{parse.KindList, "- Two minor collisions in the loading bay\n- No injuries reported this quarter", 2, []string{"Forklift incidents"}},
				{parse.KindList, "1. Refresher course for all forklift drivers\n2. New signage", 3, []string{"Training plan"}},
				{parse.KindTable, "Item | Cost\nTraining | 4000 euro\nSignage | 1200 euro", 4, []string{"Budget"}},
			} {
				if b := wantBlock(t, p, c.kind, c.text, c.path...); b != nil && b.Page != c.page {
					t.Errorf("%q on page %d, want %d", c.text, b.Page, c.page)
				}
			}
		})
	}
	p := parseFile(t, "slides-it.pptx")
	if p.Pages != 3 || p.Doc.Language != "it" {
		t.Errorf("slides-it: pages %d language %q", p.Pages, p.Doc.Language)
	}
	// Speaker notes follow the slide's content on its page.
	if b := wantBlock(t, p, parse.KindParagraph, "corso di aggiornamento è obbligatorio", "Carrelli elevatori"); b != nil && b.Page != 2 {
		t.Errorf("notes on page %d, want 2", b.Page)
	}
	if b := wantBlock(t, p, parse.KindList, "1. Scarpe antinfortunistiche\n2. Guanti da lavoro", "Dispositivi di protezione"); b != nil && b.Page != 3 {
		t.Errorf("list on page %d, want 3", b.Page)
	}
}

// zipOf builds a zip package from name/content pairs.
func zipOf(t testing.TB, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		// Stored, not deflated: a deflate writer costs more than the
		// parse, which matters to the fuzzers.
		w, err := zw.CreateHeader(&zip.FileHeader{Name: files[i], Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(files[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const wNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`

// Styles as an Italian Word writes them: localized style ids, English
// built-in names; a custom style is a heading only by its outline level.
const craftedStyles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles ` + wNS + `>
<w:docDefaults><w:rPrDefault><w:rPr><w:lang w:val="en-US"/></w:rPr></w:rPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normale"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Titolo1"><w:name w:val="heading 1"/><w:basedOn w:val="Normale"/></w:style>
<w:style w:type="paragraph" w:styleId="Titolo2"><w:name w:val="heading 2"/><w:basedOn w:val="Normale"/></w:style>
<w:style w:type="paragraph" w:styleId="Capitolo"><w:name w:val="Capitolo personale"/><w:basedOn w:val="Normale"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Paragrafoelenco"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normale"/></w:style>
<w:style w:type="character" w:styleId="Nascosto"><w:name w:val="Nascosto"/><w:rPr><w:vanish/></w:rPr></w:style>
</w:styles>`

const craftedNumbering = `<w:numbering ` + wNS + `>
<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
</w:numbering>`

func craftedDOCX(t testing.TB, body string) []byte {
	return zipOf(t,
		"[Content_Types].xml", `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
		"_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"docProps/core.xml", `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Regolamento interno</dc:title></cp:coreProperties>`,
		"word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>
<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/>
<Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="comments.xml"/>
</Relationships>`,
		"word/styles.xml", craftedStyles,
		"word/numbering.xml", craftedNumbering,
		"word/footnotes.xml", `<w:footnotes `+wNS+`><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>
<w:footnote w:id="7"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Il badge smarrito si paga dieci euro.</w:t></w:r></w:p></w:footnote></w:footnotes>`,
		"word/comments.xml", `<w:comments `+wNS+`><w:comment w:id="0" w:author="Revisore"><w:p><w:r><w:t>COMMENTOSEGRETO da rivedere</w:t></w:r></w:p></w:comment></w:comments>`,
		"word/document.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document `+wNS+`><w:body>`+body+`<w:sectPr/></w:body></w:document>`)
}

// TestDOCXCrafted covers what pandoc cannot make: tracked changes,
// comments, hidden text, localized heading styles and outline levels.
func TestDOCXCrafted(t *testing.T) {
	const it = `<w:rPr><w:lang w:val="it-IT"/></w:rPr>`
	raw := craftedDOCX(t, `
<w:p><w:pPr><w:pStyle w:val="Capitolo"/></w:pPr><w:r>`+it+`<w:t>Accesso agli uffici</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Titolo2"/></w:pPr><w:r>`+it+`<w:t>Badge</w:t></w:r></w:p>
<w:p><w:commentRangeStart w:id="0"/><w:r>`+it+`<w:t xml:space="preserve">Il badge va mostrato </w:t></w:r>
<w:del w:id="1" w:author="A"><w:r>`+it+`<w:delText>TESTOCANCELLATO </w:delText></w:r></w:del>
<w:ins w:id="2" w:author="A"><w:r>`+it+`<w:t xml:space="preserve">sempre </w:t></w:r></w:ins>
<w:r>`+it+`<w:t>all'ingresso</w:t></w:r><w:commentRangeEnd w:id="0"/>
<w:r><w:rPr><w:vanish/></w:rPr><w:t>TESTONASCOSTO</w:t></w:r>
<w:r><w:rPr><w:rStyle w:val="Nascosto"/></w:rPr><w:t>ANCORANASCOSTO</w:t></w:r>
<w:r>`+it+`<w:t>.</w:t></w:r><w:r><w:footnoteReference w:id="7"/></w:r>
<w:r><w:commentReference w:id="0"/></w:r>
<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGEREF _Toc1 \h</w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Paragrafoelenco"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r>`+it+`<w:t>Timbrare in entrata</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Paragrafoelenco"/><w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r>`+it+`<w:t>anche il sabato</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Paragrafoelenco"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r>`+it+`<w:t>Timbrare in uscita</w:t></w:r></w:p>
<w:p><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:r>`+it+`<w:t>Parcheggio</w:t></w:r></w:p>
<w:tbl><w:tr><w:trPr><w:tblHeader/></w:trPr><w:tc><w:p><w:r><w:t>Piano</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Posti</w:t></w:r></w:p></w:tc></w:tr>
<w:tr><w:tc><w:p><w:r><w:t>interrato</w:t></w:r></w:p></w:tc><w:tc><w:p><w:ins w:id="3" w:author="A"><w:r><w:t>quaranta</w:t></w:r></w:ins><w:del w:id="4" w:author="A"><w:r><w:delText>trenta</w:delText></w:r></w:del></w:p></w:tc></w:tr>
<w:tr><w:trPr><w:del w:id="5" w:author="A"/></w:trPr><w:tc><w:p><w:del w:id="6" w:author="A"><w:r><w:delText>RIGACANCELLATA</w:delText></w:r></w:del></w:p></w:tc><w:tc><w:p/></w:tc></w:tr></w:tbl>
<w:sdt><w:sdtPr><w:showingPlcHdr/></w:sdtPr><w:sdtContent><w:p><w:r><w:t>SEGNAPOSTO fare clic qui</w:t></w:r></w:p></w:sdtContent></w:sdt>
<w:sdt><w:sdtPr/><w:sdtContent><w:p><w:r>`+it+`<w:t>Le auto dei visitatori restano fuori dal cancello principale.</w:t></w:r></w:p></w:sdtContent></w:sdt>`)
	p, err := ParseWithin(nil, "regolamento.docx", raw)
	if err != nil {
		t.Fatal(err)
	}
	checkBlocks(t, p)
	if p.Doc.Title != "Regolamento interno" || p.Doc.Language != "it" || p.Format != "docx" {
		t.Errorf("title %q language %q format %q", p.Doc.Title, p.Doc.Language, p.Format)
	}
	for _, bad := range []string{"TESTOCANCELLATO", "COMMENTOSEGRETO", "TESTONASCOSTO", "ANCORANASCOSTO", "RIGACANCELLATA", "trenta", "PAGEREF", "SEGNAPOSTO"} {
		if strings.Contains(p.Doc.Text, bad) {
			t.Errorf("%s in the text:\n%s", bad, p.Doc.Text)
		}
	}
	if p.Hidden != len("TESTONASCOSTO")+len("ANCORANASCOSTO") {
		t.Errorf("Hidden = %d", p.Hidden)
	}
	if h := wantBlock(t, p, parse.KindHeading, "Accesso agli uffici"); h != nil && h.Level != 1 {
		t.Errorf("outline-level style gives level %d, want 1", h.Level)
	}
	wantBlock(t, p, parse.KindHeading, "Badge", "Accesso agli uffici")
	wantBlock(t, p, parse.KindParagraph, "Il badge va mostrato sempre all'ingresso.[1]", "Accesso agli uffici", "Badge")
	wantBlock(t, p, parse.KindParagraph, "[1] Il badge smarrito si paga dieci euro.", "Accesso agli uffici", "Badge")
	wantBlock(t, p, parse.KindList, "1. Timbrare in entrata\n  - anche il sabato\n2. Timbrare in uscita", "Accesso agli uffici", "Badge")
	wantBlock(t, p, parse.KindHeading, "Parcheggio", "Accesso agli uffici")
	if tb := wantBlock(t, p, parse.KindTable, "Piano | Posti", "Accesso agli uffici", "Parcheggio"); tb != nil && tb.Text != "Piano | Posti\ninterrato | quaranta" {
		t.Errorf("table %q", tb.Text)
	}
	wantBlock(t, p, parse.KindParagraph, "Le auto dei visitatori", "Accesso agli uffici", "Parcheggio")
}

const odtNS = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"`

func craftedODT(t testing.TB, manifest, body string) []byte {
	return zipOf(t,
		"mimetype", "application/vnd.oasis.opendocument.text",
		"META-INF/manifest.xml", manifest,
		"meta.xml", `<office:document-meta `+odtNS+`><office:meta><dc:title>Regolamento interno</dc:title></office:meta></office:document-meta>`,
		"styles.xml", `<office:document-styles `+odtNS+`><office:styles><style:default-style style:family="paragraph"><style:text-properties fo:language="en" fo:country="US"/></style:default-style></office:styles></office:document-styles>`,
		"content.xml", `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content `+odtNS+`><office:automatic-styles>
<style:style style:name="T1" style:family="text"><style:text-properties text:display="none"/></style:style>
<text:list-style style:name="L1"><text:list-level-style-number text:level="1" style:num-format="1"/><text:list-level-style-bullet text:level="2" text:bullet-char="•"/></text:list-style>
</office:automatic-styles><office:body><office:text>`+body+`</office:text></office:body></office:document-content>`)
}

func TestODTCrafted(t *testing.T) {
	raw := craftedODT(t, `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>`, `
<text:tracked-changes>
<text:changed-region text:id="ct1"><text:deletion><office:change-info><dc:creator>A</dc:creator></office:change-info><text:p>TESTOCANCELLATO</text:p></text:deletion></text:changed-region>
<text:changed-region text:id="ct2"><text:insertion><office:change-info><dc:creator>A</dc:creator></office:change-info></text:insertion></text:changed-region>
</text:tracked-changes>
<text:h text:outline-level="1">Accesso agli uffici</text:h>
<text:h text:outline-level="2">Badge</text:h>
<text:p>Il badge va mostrato <text:change text:change-id="ct1"/><text:change-start text:change-id="ct2"/>sempre<text:change-end text:change-id="ct2"/> all'ingresso<office:annotation><dc:creator>Revisore</dc:creator><text:p>COMMENTOSEGRETO</text:p></office:annotation><text:span text:style-name="T1">TESTONASCOSTO</text:span><text:hidden-text text:condition="true" text:string-value="ANCORANASCOSTO" text:is-hidden="true"/>.<text:note text:id="n1" text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>Il badge smarrito si paga dieci euro.</text:p></text:note-body></text:note></text:p>
<text:list text:style-name="L1"><text:list-item><text:p>Timbrare in entrata</text:p><text:list><text:list-item><text:p>anche il sabato</text:p></text:list-item></text:list></text:list-item><text:list-item><text:p>Timbrare in uscita</text:p></text:list-item></text:list>
<text:h text:outline-level="2">Parcheggio</text:h>
<table:table><table:table-header-rows><table:table-row><table:table-cell><text:p>Piano</text:p></table:table-cell><table:table-cell><text:p>Posti</text:p></table:table-cell></table:table-row></table:table-header-rows>
<table:table-row><table:table-cell><text:p>interrato</text:p></table:table-cell><table:table-cell><text:p>quaranta</text:p></table:table-cell><table:table-cell table:number-columns-repeated="1000"/></table:table-row>
<table:table-row table:number-rows-repeated="100000"><table:table-cell/></table:table-row></table:table>
<text:p>Le auto dei visitatori restano fuori dal cancello principale.</text:p>`)
	p, err := ParseWithin(nil, "regolamento.odt", raw)
	if err != nil {
		t.Fatal(err)
	}
	checkBlocks(t, p)
	// The default style says English (the installation's locale); the
	// text is Italian.
	if p.Doc.Title != "Regolamento interno" || p.Doc.Language != "it" || p.Format != "odt" {
		t.Errorf("title %q language %q format %q", p.Doc.Title, p.Doc.Language, p.Format)
	}
	for _, bad := range []string{"TESTOCANCELLATO", "COMMENTOSEGRETO", "TESTONASCOSTO", "ANCORANASCOSTO", "Revisore"} {
		if strings.Contains(p.Doc.Text, bad) {
			t.Errorf("%s in the text:\n%s", bad, p.Doc.Text)
		}
	}
	if p.Hidden != len("TESTONASCOSTO")+len("ANCORANASCOSTO") {
		t.Errorf("Hidden = %d", p.Hidden)
	}
	wantBlock(t, p, parse.KindParagraph, "Il badge va mostrato sempre all'ingresso.[1]", "Accesso agli uffici", "Badge")
	wantBlock(t, p, parse.KindParagraph, "[1] Il badge smarrito si paga dieci euro.", "Accesso agli uffici", "Badge")
	wantBlock(t, p, parse.KindList, "1. Timbrare in entrata\n  - anche il sabato\n2. Timbrare in uscita", "Accesso agli uffici", "Badge")
	if tb := wantBlock(t, p, parse.KindTable, "Piano | Posti", "Accesso agli uffici", "Parcheggio"); tb != nil && tb.Text != "Piano | Posti\ninterrato | quaranta" {
		t.Errorf("table %q", tb.Text)
	}
}

func TestOfficeRefusals(t *testing.T) {
	refusal := func(name string, raw []byte) *parse.Refusal {
		t.Helper()
		_, err := ParseWithin(nil, name, raw)
		var r *parse.Refusal
		if !errors.As(err, &r) {
			t.Fatalf("%s: got %v, want a refusal", name, err)
		}
		return r
	}
	// An encrypted OOXML file is an OLE compound file holding an
	// EncryptedPackage stream (its name in UTF-16 in the directory).
	cfb := append(append([]byte{}, cfbMagic...), make([]byte, 504)...)
	enc := append(append([]byte{}, cfb...), utf16le("EncryptedPackage")...)
	for _, name := range []string{"secret.docx", "secret.pptx"} {
		if r := refusal(name, enc); r.Reason != parse.ReasonEncrypted || r.Detail != "needs a password" {
			t.Errorf("%s: %v", name, r)
		}
	}
	if r := refusal("old.docx", cfb); r.Reason != parse.ReasonUnreadable || !strings.HasPrefix(r.Detail, "not a valid DOCX (") {
		t.Errorf("legacy .doc renamed: %v", r)
	}
	if r := refusal("text.docx", []byte("just some text, not a zip")); r.Reason != parse.ReasonUnreadable || !strings.HasPrefix(r.Detail, "not a valid DOCX (") {
		t.Errorf("not a zip: %v", r)
	}
	if r := refusal("empty.odt", zipOf(t, "mimetype", "application/vnd.oasis.opendocument.text")); r.Reason != parse.ReasonUnreadable || !strings.Contains(r.Detail, "not a valid ODT (no content.xml)") {
		t.Errorf("no content: %v", r)
	}
	if r := refusal("nodoc.docx", zipOf(t, "[Content_Types].xml", "<Types/>")); r.Reason != parse.ReasonUnreadable || !strings.Contains(r.Detail, "no word/document.xml") {
		t.Errorf("no document: %v", r)
	}
	encODT := craftedODT(t, `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/></manifest:file-entry></manifest:manifest>`, "")
	if r := refusal("secret.odt", encODT); r.Reason != parse.ReasonEncrypted {
		t.Errorf("encrypted ODT: %v", r)
	}
	if r := refusal("broken.docx", craftedDOCX(t, "<w:p><w:r><w:t>unclosed")); r.Reason != parse.ReasonUnreadable || !strings.HasPrefix(r.Detail, "not a valid DOCX (word/document.xml: ") {
		t.Errorf("broken XML: %v", r)
	}

	// A zip bomb: a part that inflates past the per-part limit from a
	// few dozen kilobytes.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("word/document.xml")
	w.Write([]byte("<w:document " + wNS + "><w:body><w:p><w:r><w:t>"))
	zeros := make([]byte, 1<<20)
	for range maxOfficeEntry>>20 + 1 {
		w.Write(zeros)
	}
	zw.Close()
	if buf.Len() > 1<<20 {
		t.Fatalf("bomb is %d bytes", buf.Len())
	}
	r := refusal("bomb.docx", buf.Bytes())
	if r.Reason != parse.ReasonUnreadable || !strings.Contains(r.Detail, "zip bomb") || !strings.HasPrefix(r.Detail, "not a valid DOCX (") {
		t.Errorf("bomb: %v", r)
	}

	// The total limit: several parts each under the per-part limit (both
	// limits scaled down 64 times).
	defer func(total, entry int64) { maxOfficeTotal, maxOfficeEntry = total, entry }(maxOfficeTotal, maxOfficeEntry)
	maxOfficeTotal, maxOfficeEntry = maxOfficeTotal/64, maxOfficeEntry/64
	pkg := &officePkg{files: map[string]*zip.File{}}
	buf.Reset()
	zw = zip.NewWriter(&buf)
	for i := range 4 {
		w, _ := zw.Create("part" + string(rune('0'+i)))
		w.Write(zeros[:maxOfficeEntry-1])
	}
	zw.Close()
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		pkg.files[f.Name] = f
	}
	var last error
	for i := range 4 {
		if _, last = pkg.bytes("part" + string(rune('0'+i))); last != nil {
			break
		}
	}
	if last == nil || !strings.Contains(last.Error(), "in total") {
		t.Errorf("total limit: %v", last)
	}
}

// checkOffice parses raw with read (without ingest.Parse's panic
// recovery) and checks the result is a refusal or keeps the block
// invariants.
func checkOffice(t *testing.T, read func(name string, raw []byte) (*parse.Parsed, error), name string, raw []byte) {
	p, err := read(name, raw)
	if err != nil {
		var r *parse.Refusal
		if !errors.As(err, &r) {
			t.Fatalf("%s: error %v is not a refusal", name, err)
		}
		return
	}
	for _, b := range p.Blocks {
		if b.End > len(p.Doc.Text) || p.Doc.Text[b.Start:b.End] != b.Text {
			t.Fatalf("%s: block %q does not match its span", name, b.Text)
		}
	}
}

// FuzzOfficeBody wraps fuzzed markup in a DOCX and an ODT package (the
// zip layer would otherwise absorb nearly every mutation) and checks the
// parsers neither panic nor break the block invariants.
func FuzzOfficeBody(f *testing.F) {
	f.Add(`<w:p><w:pPr><w:pStyle w:val="Titolo1"/><w:numPr><w:ilvl w:val="9"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>a</w:t><w:footnoteReference w:id="7"/></w:r></w:p><w:tbl><w:tr><w:tc><w:tbl><w:tr><w:tc><w:p><w:r><w:t>x</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:tc></w:tr></w:tbl>`)
	f.Add(`<text:h text:outline-level="99">T</text:h><text:list><text:list-item><text:h>H</text:h><text:list><text:list-item><text:p>a<text:note><text:note-body><text:p>n<text:note><text:note-body><text:p>m</text:p></text:note-body></text:note></text:p></text:note-body></text:note></text:p></text:list-item></text:list></text:list-item></text:list><table:table><table:table-row table:number-rows-repeated="-5"><table:table-cell table:number-columns-repeated="999999999999"><text:p>c</text:p></table:table-cell></table:table-row></table:table>`)
	f.Fuzz(func(t *testing.T, body string) {
		checkOffice(t, ParseDOCX, "f.docx", craftedDOCX(t, body))
		checkOffice(t, ParseODT, "f.odt", craftedODT(t, "<m/>", body))
	})
}

// FuzzOfficePackage mutates whole packages: the committed files and a
// crafted one.
func FuzzOfficePackage(f *testing.F) {
	for _, name := range []string{"guide-en.docx", "guida-it.odt", "slides-it.pptx"} {
		raw, err := os.ReadFile(filepath.Join("..", "testdata", "office", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkOffice(t, ParseDOCX, "f.docx", raw)
		checkOffice(t, ParseODT, "f.odt", raw)
		checkOffice(t, ParsePPTX, "f.pptx", raw)
	})
}
