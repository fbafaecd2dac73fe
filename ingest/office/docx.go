package office

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/ingest/parse"
)

// nsW is the WordprocessingML main namespace.
const nsW = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"

// docxSkip lists the elements never read: deleted and moved-away text
// (tracked changes resolve to the accepted text), field instructions,
// comment marks and section properties.
var docxSkip = map[string]bool{
	nsW + " del":               true,
	nsW + " moveFrom":          true,
	nsW + " delText":           true,
	nsW + " delInstrText":      true,
	nsW + " instrText":         true,
	nsW + " commentReference":  true,
	nsW + " commentRangeStart": true,
	nsW + " commentRangeEnd":   true,
	nsW + " sectPr":            true,
	nsW + " rPrChange":         true,
	nsW + " pPrChange":         true,
	nsW + " tblPrChange":       true,
	nsW + " trPrChange":        true,
	nsW + " tcPrChange":        true,
	nsW + " numberingChange":   true,
}

// ParseDOCX extracts a Word document (Office Open XML, .docx) with the
// standard library: the package is read with archive/zip and its parts
// with encoding/xml.
//
// Paragraph styles make headings: a style named "heading N" (Word stores
// built-in names in English whatever the interface language) or "Titolo
// N", a style id HeadingN/TitoloN, or an outline level on the paragraph or
// its style (followed through basedOn). Numbered and bulleted paragraphs
// (w:numPr, direct or from the style, with numbering.xml telling bullets
// from numbers) become list blocks, one item per line, nested levels
// indented; tables become table blocks, one row per line, cells joined by
// " | ". A footnote or endnote leaves a marker [N] where it is referenced
// and follows the block holding the reference as a paragraph starting
// with the same marker.
//
// Tracked changes resolve to the accepted text (insertions kept,
// deletions dropped); comments, field instructions, headers and footers
// are left out; hidden text (w:vanish) is dropped and counted in Hidden;
// table-of-contents paragraphs are skipped. The title is the core
// properties' dc:title, else the Title-styled paragraph, else the first
// heading, else the file name. The language is the one the text's runs
// declare (w:lang on the run, its character style or its paragraph style),
// weighted by characters, else detected, else the document defaults' (the
// default paragraph style's or docDefaults'): those come from the template
// or the installation's locale, so an Italian text written with an
// English template would otherwise be read as English.
//
// Encrypted documents (an OLE compound file holding an EncryptedPackage)
// are refused as parse.ReasonEncrypted; archives that expand past the limits
// (maxOfficeTotal, maxOfficeEntry) are refused as unreadable.
func ParseDOCX(name string, raw []byte) (*parse.Parsed, error) {
	return parseOffice(nil, name, raw, "DOCX", parseDOCX)
}

func parseDOCX(name string, raw []byte, pkg *officePkg) (*parse.Parsed, error) {
	main := "word/document.xml"
	if root, err := pkg.rels(""); err == nil {
		if t := relOfType(root, "/officeDocument"); t != "" && pkg.has(t) {
			main = t
		}
	}
	if !pkg.has(main) {
		return nil, &officeError{"no word/document.xml"}
	}
	rels, err := pkg.rels(main)
	if err != nil {
		return nil, err
	}
	part := func(suffix, fallback string) string {
		if t := relOfType(rels, suffix); t != "" {
			return t
		}
		return fallback
	}
	d := &docxParser{b: &parse.Builder{}, langs: langCounter{}, defLangs: langCounter{}, counters: map[string][]int{}}
	styles, err := pkg.xml(part("/styles", "word/styles.xml"), nil)
	if err != nil {
		return nil, err
	}
	d.readStyles(styles)
	numbering, err := pkg.xml(part("/numbering", "word/numbering.xml"), nil)
	if err != nil {
		return nil, err
	}
	d.readNumbering(numbering)
	for _, n := range []struct{ suffix, fallback, elem string }{
		{"/footnotes", "word/footnotes.xml", "footnote"},
		{"/endnotes", "word/endnotes.xml", "endnote"},
	} {
		notes, err := pkg.xml(part(n.suffix, n.fallback), docxSkip)
		if err != nil {
			return nil, err
		}
		if notes == nil {
			continue
		}
		if d.notes == nil {
			d.notes = map[string]*xnode{}
		}
		for _, k := range notes.kids {
			if k.is(nsW, n.elem) {
				d.notes[n.elem+" "+k.get(nsW, "id")] = k
			}
		}
	}
	doc, err := pkg.xml(main, docxSkip)
	if err != nil {
		return nil, err
	}
	body := doc.child(nsW, "body")
	if !doc.is(nsW, "document") || body == nil {
		return nil, &officeError{"no w:body in " + main}
	}
	d.blocks(body)
	d.flushList()

	out := d.b.Finish(name, "docx", raw)
	out.Doc.Title = coreTitle(pkg)
	if out.Doc.Title == "" {
		out.Doc.Title = parse.CleanTitle(d.titlePara)
	}
	if out.Doc.Title == "" {
		out.Doc.Title = parse.FirstHeading(out.Blocks, 0)
	}
	if out.Doc.Title == "" {
		out.Doc.Title = parse.TitleFromName(name)
	}
	out.Doc.Language = d.langs.best()
	if out.Doc.Language == "" {
		out.Doc.Language = analysis.DetectLanguage(out.Doc.Text)
	}
	if out.Doc.Language == "" {
		out.Doc.Language = d.defLangs.best()
	}
	return out, nil
}

// docxStyle is what the parser needs of a style in styles.xml.
type docxStyle struct {
	id, name, basedOn string
	outline           int // w:outlineLvl + 1, 0 when not set, -1 for body text
	vanish            *bool
	lang              string
	numID, ilvl       string
}

// docxLevel is one level of a numbering definition.
type docxLevel struct {
	ordered bool
	start   int
}

type docxParser struct {
	b          *parse.Builder
	styles     map[string]*docxStyle
	defPara    string // id of the default paragraph style
	defLang    string
	nums       map[string]map[int]docxLevel // numId → level → format
	counters   map[string][]int
	notes      map[string]*xnode // "footnote id" / "endnote id" → note
	noteN      int
	inNote     bool
	pending    []string    // note paragraphs waiting for their block to end
	list       []string    // lines of the list being gathered
	langs      langCounter // languages the author set
	defLangs   langCounter // languages from the document defaults
	titlePara  string
	paraHidden bool   // the paragraph style hides its runs
	paraLang   string // the paragraph style's language
}

var headingName = regexp.MustCompile(`(?i)^(?:heading|titolo|berschrift|titre|t[ií]tulo|kop)\s*([1-9])$`)

func (d *docxParser) readStyles(root *xnode) {
	d.styles = map[string]*docxStyle{}
	if root == nil {
		return
	}
	if l := root.path(nsW, "docDefaults", "rPrDefault", "rPr", "lang"); l != nil {
		d.defLang = l.get(nsW, "val")
	}
	for _, s := range root.kids {
		if !s.is(nsW, "style") {
			continue
		}
		st := &docxStyle{
			id:      s.get(nsW, "styleId"),
			name:    strings.TrimSpace(s.child(nsW, "name").get(nsW, "val")),
			basedOn: s.child(nsW, "basedOn").get(nsW, "val"),
		}
		ppr := s.child(nsW, "pPr")
		if o := ppr.child(nsW, "outlineLvl"); o != nil {
			if v, err := strconv.Atoi(o.get(nsW, "val")); err == nil {
				st.outline = -1
				if v >= 0 && v < 9 {
					st.outline = v + 1
				}
			}
		}
		if np := ppr.child(nsW, "numPr"); np != nil {
			st.numID = np.child(nsW, "numId").get(nsW, "val")
			st.ilvl = np.child(nsW, "ilvl").get(nsW, "val")
		}
		rpr := s.child(nsW, "rPr")
		if v := rpr.child(nsW, "vanish"); v != nil {
			on := onOff(v)
			st.vanish = &on
		}
		st.lang = rpr.child(nsW, "lang").get(nsW, "val")
		d.styles[st.id] = st
		if s.get(nsW, "type") == "paragraph" && onOff2(s.get(nsW, "default")) {
			d.defPara = st.id
		}
	}
	if d.defPara == "" && d.styles["Normal"] != nil {
		// LibreOffice does not mark its default paragraph style.
		d.defPara = "Normal"
	}
}

// onOff reads a WordprocessingML toggle property: present means on unless
// its value says otherwise.
func onOff(n *xnode) bool {
	if n == nil {
		return false
	}
	if !n.has(nsW, "val") {
		return true
	}
	return onOff2(n.get(nsW, "val"))
}

func onOff2(v string) bool {
	switch strings.ToLower(v) {
	case "0", "false", "off", "":
		return false
	}
	return true
}

// chain walks a style and the styles it is based on, stopping at cycles.
func (d *docxParser) chain(id string, f func(*docxStyle) bool) {
	seen := map[string]bool{}
	for id != "" && !seen[id] && len(seen) < 32 {
		seen[id] = true
		st := d.styles[id]
		if st == nil || f(st) {
			return
		}
		id = st.basedOn
	}
}

// headingLevel is the heading level a paragraph style gives, 0 for none.
func (d *docxParser) headingLevel(id string) int {
	level := 0
	if m := headingName.FindStringSubmatch(id); m != nil && d.styles[id] == nil {
		level, _ = strconv.Atoi(m[1])
		return level
	}
	d.chain(id, func(st *docxStyle) bool {
		if m := headingName.FindStringSubmatch(st.name); m != nil {
			level, _ = strconv.Atoi(m[1])
			return true
		}
		if m := headingName.FindStringSubmatch(st.id); m != nil && st.name == "" {
			level, _ = strconv.Atoi(m[1])
			return true
		}
		if st.outline != 0 {
			level = max(st.outline, 0)
			return true
		}
		return false
	})
	return level
}

func (d *docxParser) styleName(id string) string {
	if st := d.styles[id]; st != nil && st.name != "" {
		return strings.ToLower(st.name)
	}
	return strings.ToLower(id)
}

func (d *docxParser) styleVanish(id string) bool {
	on := false
	d.chain(id, func(st *docxStyle) bool {
		if st.vanish != nil {
			on = *st.vanish
			return true
		}
		return false
	})
	return on
}

// styleLang is the language a style declares, itself or through the
// styles it is based on, short of the default paragraph style: the
// default style's language, like the document defaults', comes from the
// template or the installation rather than from the author.
func (d *docxParser) styleLang(id string) string {
	lang := ""
	d.chain(id, func(st *docxStyle) bool {
		if st.id == d.defPara {
			return true
		}
		lang = st.lang
		return lang != ""
	})
	return lang
}

func (d *docxParser) styleNum(id string) (numID, ilvl string) {
	d.chain(id, func(st *docxStyle) bool {
		numID, ilvl = st.numID, st.ilvl
		return numID != ""
	})
	return numID, ilvl
}

func (d *docxParser) readNumbering(root *xnode) {
	d.nums = map[string]map[int]docxLevel{}
	if root == nil {
		return
	}
	abstract := map[string]map[int]docxLevel{}
	for _, a := range root.kids {
		if !a.is(nsW, "abstractNum") {
			continue
		}
		levels := map[int]docxLevel{}
		for _, l := range a.kids {
			if l.is(nsW, "lvl") {
				levels[atoi(l.get(nsW, "ilvl"))] = docxLevel{
					ordered: isOrderedFormat(l.child(nsW, "numFmt").get(nsW, "val")),
					start:   atoiOr(l.child(nsW, "start").get(nsW, "val"), 1),
				}
			}
		}
		abstract[a.get(nsW, "abstractNumId")] = levels
	}
	for _, n := range root.kids {
		if !n.is(nsW, "num") {
			continue
		}
		base := abstract[n.child(nsW, "abstractNumId").get(nsW, "val")]
		levels := make(map[int]docxLevel, len(base))
		for k, v := range base {
			levels[k] = v
		}
		for _, o := range n.kids {
			if o.is(nsW, "lvlOverride") {
				i := atoi(o.get(nsW, "ilvl"))
				l := levels[i]
				if s := o.child(nsW, "startOverride"); s != nil {
					l.start = atoiOr(s.get(nsW, "val"), 1)
				}
				if ol := o.child(nsW, "lvl"); ol != nil {
					if f := ol.child(nsW, "numFmt"); f != nil {
						l.ordered = isOrderedFormat(f.get(nsW, "val"))
					}
				}
				levels[i] = l
			}
		}
		d.nums[n.get(nsW, "numId")] = levels
	}
}

func isOrderedFormat(f string) bool {
	switch f {
	case "", "bullet", "none":
		return false
	}
	return true
}

func atoi(s string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(s))
	return n
}

func atoiOr(s string, def int) int {
	if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
		return n
	}
	return def
}

// blocks reads the block-level content of the body, a table cell's
// container or a content control.
func (d *docxParser) blocks(n *xnode) {
	for _, k := range n.kids {
		switch {
		case k.is(nsW, "p"):
			d.paragraph(k)
		case k.is(nsW, "tbl"):
			d.flushList()
			d.add(parse.KindTable, 0, d.table(k))
		case k.is(nsW, "sdt"):
			if c := k.child(nsW, "sdtContent"); c != nil && !placeholder(k) {
				d.blocks(c)
			}
		case k.is(nsW, "ins"), k.is(nsW, "moveTo"), k.is(nsW, "customXml"),
			k.is(nsW, "smartTag"), k.is(nsW, "sdtContent"):
			d.blocks(k)
		case k.is(nsMC, "AlternateContent"):
			if len(k.kids) > 0 {
				d.blocks(k.kids[0])
			}
		}
	}
}

// placeholder reports a content control still showing its placeholder
// ("Click or tap here to enter text"), which is not the author's text.
func placeholder(sdt *xnode) bool {
	return onOff(sdt.path(nsW, "sdtPr", "showingPlcHdr"))
}

// add emits a block and then the notes its text referenced.
func (d *docxParser) add(kind parse.Kind, level int, text string) {
	d.b.Add(kind, level, text)
	d.flushNotes()
}

func (d *docxParser) flushNotes() {
	for _, n := range d.pending {
		d.b.Add(parse.KindParagraph, 0, n)
	}
	d.pending = d.pending[:0]
}

func (d *docxParser) flushList() {
	if len(d.list) > 0 {
		d.b.Add(parse.KindList, 0, strings.Join(d.list, "\n"))
		d.list = d.list[:0]
	}
	d.flushNotes()
}

func (d *docxParser) paragraph(p *xnode) {
	ppr := p.child(nsW, "pPr")
	style := ppr.child(nsW, "pStyle").get(nsW, "val")
	if style == "" {
		style = d.defPara
	}
	sname := d.styleName(style)
	if strings.HasPrefix(sname, "toc") || strings.HasPrefix(sname, "table of") {
		return // a table of contents repeats the headings
	}
	var sb strings.Builder
	before := len(d.pending)
	d.paraText(p, &sb)
	text := sb.String()
	// The paragraph's own notes follow it, after any list it closes.
	mine := append([]string(nil), d.pending[before:]...)
	d.pending = d.pending[:before]
	defer func() { d.pending = append(d.pending, mine...) }()

	level := d.headingLevel(style)
	if o := ppr.child(nsW, "outlineLvl"); o != nil {
		if v, err := strconv.Atoi(o.get(nsW, "val")); err == nil {
			level = 0
			if v >= 0 && v < 9 {
				level = v + 1
			}
		}
	}
	numID, ilvl := d.styleNum(style)
	if np := ppr.child(nsW, "numPr"); np != nil {
		if id := np.child(nsW, "numId"); id != nil {
			numID = id.get(nsW, "val")
		}
		if l := np.child(nsW, "ilvl"); l != nil {
			ilvl = l.get(nsW, "val")
		}
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	switch {
	case level > 0:
		d.flushList()
		d.b.Add(parse.KindHeading, level, text)
		d.pending = append(d.pending, mine...)
		mine = nil
		d.flushNotes()
	case numID != "" && numID != "0" && d.nums[numID] != nil:
		lvl := min(max(atoi(ilvl), 0), 8)
		c := d.counters[numID]
		if c == nil {
			c = make([]int, 9)
			d.counters[numID] = c
		}
		def := d.nums[numID][lvl]
		if c[lvl] == 0 {
			c[lvl] = def.start
		} else {
			c[lvl]++
		}
		for i := lvl + 1; i < len(c); i++ {
			c[i] = 0
		}
		line := strings.Repeat("  ", lvl) + listMarker(def.ordered, c[lvl]) + strings.ReplaceAll(text, "\n", " ")
		d.list = append(d.list, line)
	default:
		if (sname == "title" || sname == "titolo") && d.titlePara == "" {
			d.titlePara = text
		}
		d.flushList()
		d.b.Add(parse.KindParagraph, 0, text)
		d.pending = append(d.pending, mine...)
		mine = nil
		d.flushNotes()
	}
}

// paraText writes the text of a paragraph, whose style may hide its runs
// or set their language.
func (d *docxParser) paraText(p *xnode, sb *strings.Builder) {
	style := p.path(nsW, "pPr", "pStyle").get(nsW, "val")
	if style == "" {
		style = d.defPara
	}
	hidden, lang := d.paraHidden, d.paraLang
	d.paraHidden, d.paraLang = d.styleVanish(style), d.styleLang(style)
	d.inline(p, sb, false)
	d.paraHidden, d.paraLang = hidden, lang
}

// inline writes the text of a paragraph's runs.
func (d *docxParser) inline(n *xnode, sb *strings.Builder, hidden bool) {
	for _, k := range n.kids {
		if k.space == nsMC && k.local == "AlternateContent" {
			if len(k.kids) > 0 {
				d.inline(k.kids[0], sb, hidden)
			}
			continue
		}
		if k.space == "http://schemas.openxmlformats.org/officeDocument/2006/math" {
			if k.local == "oMath" || k.local == "oMathPara" {
				sb.WriteString(k.allText())
			}
			continue
		}
		if k.space != nsW {
			continue
		}
		switch k.local {
		case "r":
			d.run(k, sb, hidden)
		case "hyperlink", "ins", "moveTo", "smartTag", "customXml", "fldSimple",
			"sdtContent", "dir", "bdo":
			d.inline(k, sb, hidden)
		case "sdt":
			if c := k.child(nsW, "sdtContent"); c != nil && !placeholder(k) {
				d.inline(c, sb, hidden)
			}
		}
	}
}

func (d *docxParser) run(r *xnode, sb *strings.Builder, hidden bool) {
	rpr := r.child(nsW, "rPr")
	rstyle := rpr.child(nsW, "rStyle").get(nsW, "val")
	if v := rpr.child(nsW, "vanish"); v != nil {
		hidden = hidden || onOff(v)
	} else if d.styleVanish(rstyle) || d.paraHidden {
		hidden = true
	}
	lang := rpr.child(nsW, "lang").get(nsW, "val")
	if lang == "" {
		lang = d.styleLang(rstyle)
	}
	if lang == "" {
		lang = d.paraLang
	}
	defaults := false
	if lang == "" {
		lang, defaults = d.defLang, true
		if st := d.styles[d.defPara]; st != nil && st.lang != "" {
			lang = st.lang
		}
	}
	var rb strings.Builder
	for _, k := range r.kids {
		if k.space == nsMC && k.local == "AlternateContent" {
			if len(k.kids) > 0 {
				d.textBoxes(k.kids[0], &rb)
			}
			continue
		}
		if k.space != nsW {
			continue
		}
		switch k.local {
		case "t":
			rb.WriteString(k.allText())
		case "tab", "ptab":
			rb.WriteByte('\t')
		case "br":
			if t := k.get(nsW, "type"); t == "page" || t == "column" {
				rb.WriteByte(' ')
			} else {
				rb.WriteByte('\n')
			}
		case "cr":
			rb.WriteByte('\n')
		case "noBreakHyphen":
			rb.WriteByte('-')
		case "footnoteReference", "endnoteReference":
			if hidden {
				continue
			}
			d.noteRef(strings.TrimSuffix(k.local, "Reference")+" "+k.get(nsW, "id"), &rb)
		case "drawing", "pict", "object":
			d.textBoxes(k, &rb)
		}
	}
	if hidden {
		d.b.Hidden += nonSpace(rb.String())
		return
	}
	if defaults {
		d.defLangs.add(lang, rb.String())
	} else {
		d.langs.add(lang, rb.String())
	}
	sb.WriteString(rb.String())
}

// textBoxes writes the paragraphs of text boxes inside a drawing.
func (d *docxParser) textBoxes(n *xnode, sb *strings.Builder) {
	for _, k := range n.kids {
		if k.is(nsW, "txbxContent") {
			for _, p := range k.kids {
				if p.is(nsW, "p") {
					sb.WriteByte(' ')
					d.paraText(p, sb)
				}
			}
			continue
		}
		d.textBoxes(k, sb)
	}
}

// noteRef leaves a note's marker in the text and queues its paragraph.
func (d *docxParser) noteRef(key string, sb *strings.Builder) {
	note := d.notes[key]
	if note == nil || d.inNote {
		return
	}
	d.inNote = true
	var nb strings.Builder
	for _, p := range note.kids {
		if p.is(nsW, "p") {
			nb.WriteByte(' ')
			d.paraText(p, &nb)
		} else if p.is(nsW, "tbl") {
			nb.WriteByte(' ')
			nb.WriteString(strings.ReplaceAll(d.table(p), "\n", " "))
		}
	}
	d.inNote = false
	text := parse.CollapseSpaces(nb.String())
	if text == "" {
		return
	}
	d.noteN++
	sb.WriteString(noteMark(d.noteN))
	d.pending = append(d.pending, noteMark(d.noteN)+" "+text)
}

// table renders a table one row per line, cells joined by " | "; a table
// inside a cell is flattened into the cell.
func (d *docxParser) table(t *xnode) string {
	var lines []string
	var rows func(n *xnode)
	rows = func(n *xnode) {
		for _, k := range n.kids {
			switch {
			case k.is(nsW, "tr"):
				if row := d.row(k); row != "" {
					lines = append(lines, row)
				}
			case k.is(nsW, "sdt"), k.is(nsW, "sdtContent"), k.is(nsW, "ins"),
				k.is(nsW, "moveTo"), k.is(nsW, "customXml"):
				rows(k)
			}
		}
	}
	rows(t)
	return strings.Join(lines, "\n")
}

func (d *docxParser) row(tr *xnode) string {
	var cells []string
	empty := true
	var walk func(n *xnode)
	walk = func(n *xnode) {
		for _, c := range n.kids {
			switch {
			case c.is(nsW, "tc"):
				var sb strings.Builder
				d.cell(c, &sb)
				cell := parse.CollapseSpaces(sb.String())
				if cell != "" {
					empty = false
				}
				cells = append(cells, cell)
			case c.is(nsW, "sdt"), c.is(nsW, "sdtContent"), c.is(nsW, "customXml"):
				walk(c)
			}
		}
	}
	walk(tr)
	if empty {
		return ""
	}
	return strings.Join(cells, " | ")
}

func (d *docxParser) cell(n *xnode, sb *strings.Builder) {
	for _, k := range n.kids {
		switch {
		case k.is(nsW, "p"):
			sb.WriteByte(' ')
			d.paraText(k, sb)
		case k.is(nsW, "tbl"):
			sb.WriteByte(' ')
			sb.WriteString(strings.ReplaceAll(d.table(k), "\n", " "))
		case k.is(nsW, "sdt"), k.is(nsW, "sdtContent"), k.is(nsW, "ins"),
			k.is(nsW, "moveTo"), k.is(nsW, "customXml"):
			d.cell(k, sb)
		}
	}
}
