package office

import (
	"bytes"
	"strings"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/ingest/parse"
)

// OpenDocument namespaces.
const (
	nsText   = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
	nsTable  = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
	nsOffice = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
	nsStyle  = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
	nsFO     = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
	nsDraw   = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
	nsSVG    = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
)

// odtSkip lists the elements never read: the tracked-changes region
// (which holds deleted text; inserted text stays in place, between change
// marks), comments, declarations, forms and generated indexes (a table of
// contents repeats the headings).
var odtSkip = map[string]bool{
	nsText + " tracked-changes":    true,
	nsOffice + " annotation":       true,
	nsOffice + " annotation-end":   true,
	nsText + " sequence-decls":     true,
	nsText + " variable-decls":     true,
	nsText + " user-field-decls":   true,
	nsOffice + " forms":            true,
	nsText + " table-of-content":   true,
	nsText + " alphabetical-index": true,
	nsText + " illustration-index": true,
	nsText + " table-index":        true,
	nsText + " object-index":       true,
	nsText + " user-index":         true,
	nsText + " bibliography":       true,
	nsSVG + " title":               true,
	nsSVG + " desc":                true,
}

// maxODTRepeat bounds how often a repeated table cell or row is written:
// spreadsheets-turned-documents repeat empty cells thousands of times.
const maxODTRepeat = 32

// ParseODT extracts an OpenDocument text (.odt) with the standard library.
//
// text:h elements are headings at their text:outline-level; text:list
// becomes a list block (numbered or bulleted as its list style says,
// nested levels indented); table:table a table block, one row per line,
// cells joined by " | ". A footnote or endnote (text:note) leaves a marker
// [N] where it is referenced and follows the block holding it as a
// paragraph starting with the same marker. Tracked changes resolve to the
// accepted text: the text:tracked-changes region, which keeps deleted
// text, is dropped and inserted text stays. Comments (office:annotation)
// and generated indexes are left out; hidden text (text:hidden-text,
// hidden paragraphs, sections and styles with text:display="none") is
// dropped and counted in Hidden.
//
// The title is meta.xml's dc:title, else the Title-styled paragraph, else
// the first heading, else the file name. The language is the one the
// paragraph and span styles declare (fo:language), weighted by
// characters, else meta.xml's dc:language, else detected, else the
// default style's (which comes from the installation's locale, not the
// author). An encrypted package is refused as parse.ReasonEncrypted.
func ParseODT(name string, raw []byte) (*parse.Parsed, error) {
	return parseOffice(nil, name, raw, "ODT", parseODT)
}

func parseODT(name string, raw []byte, pkg *officePkg) (*parse.Parsed, error) {
	manifest, err := pkg.bytes("META-INF/manifest.xml")
	if err != nil {
		return nil, err
	}
	if bytes.Contains(manifest, []byte("encryption-data")) {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonEncrypted, Detail: "needs a password"}
	}
	if !pkg.has("content.xml") {
		return nil, &officeError{"no content.xml"}
	}
	o := &odtParser{b: &parse.Builder{}, styles: map[string]*odtStyle{}, lists: map[string]map[int]docxLevel{}, langs: langCounter{}, defLangs: langCounter{}}
	styles, err := pkg.xml("styles.xml", odtSkip)
	if err != nil {
		return nil, err
	}
	o.readStyles(styles)
	content, err := pkg.xml("content.xml", odtSkip)
	if err != nil {
		return nil, err
	}
	o.readStyles(content)
	text := content.path(nsOffice, "body", "text")
	if text == nil {
		return nil, &officeError{"no office:text in content.xml (not a text document?)"}
	}
	o.blocks(text)
	o.flushList()

	out := o.b.Finish(name, "odt", raw)
	meta, err := pkg.xml("meta.xml", nil)
	if err != nil {
		return nil, err
	}
	m := meta.child(nsOffice, "meta")
	out.Doc.Title = parse.CleanTitle(m.child(nsDC, "title").allText())
	if out.Doc.Title == "" {
		out.Doc.Title = parse.CleanTitle(o.titlePara)
	}
	if out.Doc.Title == "" {
		out.Doc.Title = parse.FirstHeading(out.Blocks, 0)
	}
	if out.Doc.Title == "" {
		out.Doc.Title = parse.TitleFromName(name)
	}
	out.Doc.Language = o.langs.best()
	if out.Doc.Language == "" {
		out.Doc.Language = analysis.NormalizeLanguage(m.child(nsDC, "language").allText())
	}
	if out.Doc.Language == "" {
		out.Doc.Language = analysis.DetectLanguage(out.Doc.Text)
	}
	if out.Doc.Language == "" {
		out.Doc.Language = o.defLangs.best()
	}
	return out, nil
}

// odtStyle is what the parser needs of a style.
type odtStyle struct {
	name, display, parent string
	lang                  string
	hidden                *bool
	outline               int // style:default-outline-level, 0 when unset
}

type odtParser struct {
	b         *parse.Builder
	styles    map[string]*odtStyle // family + " " + name
	defLang   string               // the default paragraph style's language
	lists     map[string]map[int]docxLevel
	langs     langCounter // languages the author set
	defLangs  langCounter // the default style's language
	noteN     int
	inNote    bool
	pending   []string
	list      []string
	titlePara string
}

func (o *odtParser) readStyles(root *xnode) {
	if root == nil {
		return
	}
	for _, sec := range root.kids {
		if !sec.is(nsOffice, "styles") && !sec.is(nsOffice, "automatic-styles") {
			continue
		}
		for _, s := range sec.kids {
			switch {
			case s.is(nsStyle, "style"):
				st := &odtStyle{
					name:    s.get(nsStyle, "name"),
					display: s.get(nsStyle, "display-name"),
					parent:  s.get(nsStyle, "parent-style-name"),
				}
				st.outline = atoi(s.get(nsStyle, "default-outline-level"))
				tp := s.child(nsStyle, "text-properties")
				st.lang = tp.get(nsFO, "language")
				if tp.has(nsText, "display") {
					h := tp.get(nsText, "display") == "none"
					st.hidden = &h
				}
				o.styles[s.get(nsStyle, "family")+" "+st.name] = st
			case s.is(nsStyle, "default-style") && s.get(nsStyle, "family") == "paragraph":
				o.defLang = s.child(nsStyle, "text-properties").get(nsFO, "language")
			case s.is(nsText, "list-style"):
				levels := map[int]docxLevel{}
				for _, l := range s.kids {
					if l.space != nsText || !strings.HasPrefix(l.local, "list-level-style-") {
						continue
					}
					levels[atoiOr(l.get(nsText, "level"), 1)] = docxLevel{
						ordered: l.local == "list-level-style-number" && l.get(nsStyle, "num-format") != "",
						start:   atoiOr(l.get(nsText, "start-value"), 1),
					}
				}
				o.lists[s.get(nsStyle, "name")] = levels
			}
		}
	}
}

// chain walks a style and its parents, stopping at cycles.
func (o *odtParser) chain(family, name string, f func(*odtStyle) bool) {
	seen := map[string]bool{}
	for name != "" && !seen[name] && len(seen) < 32 {
		seen[name] = true
		st := o.styles[family+" "+name]
		if st == nil || f(st) {
			return
		}
		name = st.parent
	}
}

func (o *odtParser) styleLang(family, name string) string {
	lang := ""
	o.chain(family, name, func(st *odtStyle) bool {
		lang = st.lang
		return lang != ""
	})
	return lang
}

func (o *odtParser) styleHidden(family, name string) bool {
	h := false
	o.chain(family, name, func(st *odtStyle) bool {
		if st.hidden != nil {
			h = *st.hidden
			return true
		}
		return false
	})
	return h
}

// headingLevel is the heading level a paragraph style gives a text:p: its
// (inherited) default outline level, or a "Heading N" / "Titolo N" name.
// LibreOffice writes a heading that starts a page as a text:p with an
// automatic style derived from the heading style.
func (o *odtParser) headingLevel(name string) int {
	level := 0
	o.chain("paragraph", name, func(st *odtStyle) bool {
		if st.outline > 0 {
			level = st.outline
			return true
		}
		for _, n := range []string{st.display, strings.ReplaceAll(st.name, "_20_", " ")} {
			if m := headingName.FindStringSubmatch(n); m != nil {
				level = atoi(m[1])
				return true
			}
		}
		return false
	})
	return level
}

// isTitleStyle reports a paragraph style that is, or derives from, Title.
func (o *odtParser) isTitleStyle(name string) bool {
	is := false
	o.chain("paragraph", name, func(st *odtStyle) bool {
		is = st.name == "Title" || st.display == "Title" || st.display == "Titolo"
		return is
	})
	return is || name == "Title"
}

func (o *odtParser) blocks(n *xnode) {
	for _, k := range n.kids {
		switch {
		case k.is(nsText, "p") && o.headingLevel(k.get(nsText, "style-name")) > 0:
			o.heading(k, o.headingLevel(k.get(nsText, "style-name")))
		case k.is(nsText, "p"):
			before := len(o.pending)
			text, ok := o.para(k)
			mine := o.takeNotes(before)
			if !ok || strings.TrimSpace(text) == "" {
				o.pending = append(o.pending, mine...)
				continue
			}
			if o.titlePara == "" && o.isTitleStyle(k.get(nsText, "style-name")) {
				o.titlePara = text
			}
			o.flushList()
			o.pending = append(o.pending, mine...)
			o.add(parse.KindParagraph, 0, text)
		case k.is(nsText, "h"):
			o.heading(k, atoiOr(k.get(nsText, "outline-level"), 1))
		case k.is(nsText, "list"):
			o.listLines(k, 0, k.get(nsText, "style-name"))
			o.flushList()
		case k.is(nsText, "numbered-paragraph"):
			lvl := min(max(atoiOr(k.get(nsText, "level"), 1)-1, 0), 9)
			for _, p := range k.kids {
				if p.is(nsText, "p") || p.is(nsText, "h") {
					if t, ok := o.para(p); ok && strings.TrimSpace(t) != "" {
						o.list = append(o.list, strings.Repeat("  ", lvl)+"- "+strings.ReplaceAll(t, "\n", " "))
					}
				}
			}
		case k.is(nsTable, "table"):
			o.flushList()
			o.add(parse.KindTable, 0, o.table(k))
		case k.is(nsText, "section"):
			if k.get(nsText, "display") == "none" {
				o.b.Hidden += nonSpace(k.allText())
				continue
			}
			o.blocks(k)
		case k.is(nsText, "index-body"), k.is(nsText, "change-start"):
			o.blocks(k)
		}
	}
}

func (o *odtParser) heading(h *xnode, level int) {
	before := len(o.pending)
	text, ok := o.para(h)
	mine := o.takeNotes(before)
	defer func() { o.pending = append(o.pending, mine...) }()
	if !ok || strings.TrimSpace(text) == "" {
		return
	}
	o.flushList()
	o.pending, mine = append(o.pending, mine...), nil
	o.add(parse.KindHeading, level, text)
}

// takeNotes removes and returns the notes queued since before, so they
// can follow the block that references them rather than a list it closes.
func (o *odtParser) takeNotes(before int) []string {
	mine := append([]string(nil), o.pending[before:]...)
	o.pending = o.pending[:before]
	return mine
}

func (o *odtParser) add(kind parse.Kind, level int, text string) {
	o.b.Add(kind, level, text)
	o.flushNotes()
}

func (o *odtParser) flushNotes() {
	for _, n := range o.pending {
		o.b.Add(parse.KindParagraph, 0, n)
	}
	o.pending = o.pending[:0]
}

func (o *odtParser) flushList() {
	if len(o.list) > 0 {
		o.b.Add(parse.KindList, 0, strings.Join(o.list, "\n"))
		o.list = o.list[:0]
	}
	o.flushNotes()
}

// listLines gathers a list's items into o.list, one line each, nested lists
// indented. A heading inside a list (numbered headings) ends the list and
// is emitted as a heading.
func (o *odtParser) listLines(l *xnode, depth int, style string) {
	if s := l.get(nsText, "style-name"); s != "" {
		style = s
	}
	def := o.lists[style][depth+1]
	num := def.start
	indent := strings.Repeat("  ", depth)
	for _, item := range l.kids {
		isHeader := item.is(nsText, "list-header")
		if !item.is(nsText, "list-item") && !isHeader {
			continue
		}
		if s := item.get(nsText, "start-value"); s != "" {
			num = atoiOr(s, num)
		}
		marker := listMarker(def.ordered, num)
		if isHeader {
			marker = ""
		} else {
			num++
		}
		emitted := false
		for _, c := range item.kids {
			switch {
			case c.is(nsText, "p"):
				t, ok := o.para(c)
				t = parse.CollapseSpaces(strings.ReplaceAll(t, "\n", " "))
				if !ok || t == "" {
					continue
				}
				if !emitted {
					o.list = append(o.list, indent+marker+t)
					emitted = true
				} else {
					o.list = append(o.list, indent+"  "+t)
				}
			case c.is(nsText, "h"):
				o.heading(c, atoiOr(c.get(nsText, "outline-level"), 1))
				emitted = true
			case c.is(nsText, "list"):
				emitted = true
				o.listLines(c, depth+1, style)
			case c.is(nsTable, "table"):
				emitted = true
				for line := range strings.SplitSeq(o.table(c), "\n") {
					if line != "" {
						o.list = append(o.list, indent+"  "+line)
					}
				}
			}
		}
	}
}

// para returns the text of a paragraph or heading; ok is false when the
// paragraph is hidden.
func (o *odtParser) para(p *xnode) (string, bool) {
	style := p.get(nsText, "style-name")
	if o.styleHidden("paragraph", style) || p.find(nsText, "hidden-paragraph") != nil &&
		p.find(nsText, "hidden-paragraph").get(nsText, "is-hidden") != "false" {
		o.b.Hidden += nonSpace(p.allText())
		return "", false
	}
	lang := o.styleLang("paragraph", style)
	var sb strings.Builder
	o.inline(p, &sb, lang)
	return sb.String(), true
}

func (o *odtParser) inline(n *xnode, sb *strings.Builder, lang string) {
	for _, k := range n.kids {
		if k.local == "" {
			t := strings.NewReplacer("\n", " ", "\r", " ", "\t", " ").Replace(k.text)
			if lang != "" {
				o.langs.add(lang, t)
			} else {
				o.defLangs.add(o.defLang, t)
			}
			sb.WriteString(t)
			continue
		}
		switch k.space {
		case nsText:
			switch k.local {
			case "s":
				sb.WriteString(strings.Repeat(" ", min(max(atoiOr(k.get(nsText, "c"), 1), 1), 100)))
			case "tab":
				sb.WriteByte('\t')
			case "line-break":
				sb.WriteByte('\n')
			case "note":
				o.note(k, sb)
			case "hidden-text", "hidden-paragraph":
				if k.get(nsText, "is-hidden") != "false" {
					o.b.Hidden += nonSpace(k.get(nsText, "string-value"))
				}
			case "span":
				style := k.get(nsText, "style-name")
				if o.styleHidden("text", style) {
					o.b.Hidden += nonSpace(k.allText())
					continue
				}
				l := o.styleLang("text", style)
				if l == "" {
					l = lang
				}
				o.inline(k, sb, l)
			case "note-citation", "note-body", "bookmark-ref-end", "change", "change-start", "change-end":
				// Citations are replaced by our marker; change marks hold
				// no text.
			default:
				o.inline(k, sb, lang)
			}
		case nsDraw:
			if k.local == "text-box" {
				for _, p := range k.kids {
					if p.is(nsText, "p") || p.is(nsText, "h") {
						if t, ok := o.para(p); ok {
							sb.WriteByte(' ')
							sb.WriteString(t)
						}
					}
				}
				continue
			}
			o.inline(k, sb, lang)
		}
	}
}

// note leaves a note's marker in the text and queues its paragraph.
func (o *odtParser) note(n *xnode, sb *strings.Builder) {
	body := n.child(nsText, "note-body")
	if body == nil || o.inNote {
		return
	}
	o.inNote = true
	var nb strings.Builder
	for _, p := range body.kids {
		switch {
		case p.is(nsText, "p"), p.is(nsText, "h"):
			if t, ok := o.para(p); ok {
				nb.WriteByte(' ')
				nb.WriteString(t)
			}
		case p.is(nsText, "list"):
			nb.WriteByte(' ')
			nb.WriteString(p.allText())
		}
	}
	o.inNote = false
	text := parse.CollapseSpaces(nb.String())
	if text == "" {
		return
	}
	o.noteN++
	sb.WriteString(noteMark(o.noteN))
	o.pending = append(o.pending, noteMark(o.noteN)+" "+text)
}

// table renders a table one row per line, cells joined by " | "; a nested
// table is flattened into its cell.
func (o *odtParser) table(t *xnode) string {
	var lines []string
	var rows func(n *xnode)
	rows = func(n *xnode) {
		for _, k := range n.kids {
			switch {
			case k.is(nsTable, "table-row"):
				row := o.row(k)
				if row == "" {
					continue
				}
				rep := min(max(atoiOr(k.get(nsTable, "number-rows-repeated"), 1), 1), maxODTRepeat)
				for range rep {
					lines = append(lines, row)
				}
			case k.is(nsTable, "table-header-rows"), k.is(nsTable, "table-rows"),
				k.is(nsTable, "table-row-group"):
				rows(k)
			}
		}
	}
	rows(t)
	return strings.Join(lines, "\n")
}

func (o *odtParser) row(tr *xnode) string {
	var cells []string
	empty := true
	for _, c := range tr.kids {
		if !c.is(nsTable, "table-cell") && !c.is(nsTable, "covered-table-cell") {
			continue
		}
		var sb strings.Builder
		for _, k := range c.kids {
			switch {
			case k.is(nsText, "p"), k.is(nsText, "h"):
				if t, ok := o.para(k); ok {
					sb.WriteByte(' ')
					sb.WriteString(t)
				}
			case k.is(nsText, "list"):
				sb.WriteByte(' ')
				sb.WriteString(k.allText())
			case k.is(nsTable, "table"):
				sb.WriteByte(' ')
				sb.WriteString(strings.ReplaceAll(o.table(k), "\n", " "))
			}
		}
		cell := parse.CollapseSpaces(sb.String())
		if cell != "" {
			empty = false
		}
		rep := min(max(atoiOr(c.get(nsTable, "number-columns-repeated"), 1), 1), maxODTRepeat)
		for range rep {
			cells = append(cells, cell)
		}
	}
	if empty {
		return ""
	}
	for len(cells) > 0 && cells[len(cells)-1] == "" {
		cells = cells[:len(cells)-1]
	}
	return strings.Join(cells, " | ")
}
