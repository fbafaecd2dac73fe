package office

import (
	"strings"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/ingest/parse"
)

// PresentationML and DrawingML namespaces.
const (
	nsP = "http://schemas.openxmlformats.org/presentationml/2006/main"
	nsA = "http://schemas.openxmlformats.org/drawingml/2006/main"
)

// ParsePPTX extracts a PowerPoint presentation (.pptx) with the standard
// library, one page per slide: every block of a slide carries the slide's
// 1-based number as its Page, and Pages is the slide count.
//
// A slide's title placeholder is a level-1 heading, so every block of the
// slide has the title as its heading path (a slide without a title has
// none). Text boxes become paragraphs; bulleted or numbered paragraphs
// (explicit bullets, or the paragraphs of a body placeholder unless
// bullets are turned off) become list blocks, nested by level; tables
// become table blocks, one row per line, cells joined by " | ". Speaker
// notes follow the slide's content as paragraphs on the same page. Hidden
// slides and hidden shapes are dropped and counted in Hidden; slide
// numbers, dates, headers and footers are left out.
//
// The title is the core properties' dc:title, else the first slide title,
// else the file name; the language is the one the runs declare (a:rPr
// lang), weighted by characters, else detected.
func ParsePPTX(name string, raw []byte) (*parse.Parsed, error) {
	return parseOffice(nil, name, raw, "PPTX", parsePPTX)
}

func parsePPTX(name string, raw []byte, pkg *officePkg) (*parse.Parsed, error) {
	main := "ppt/presentation.xml"
	if root, err := pkg.rels(""); err == nil {
		if t := relOfType(root, "/officeDocument"); t != "" && pkg.has(t) {
			main = t
		}
	}
	pres, err := pkg.xml(main, nil)
	if err != nil {
		return nil, err
	}
	if pres == nil {
		return nil, &officeError{"no ppt/presentation.xml"}
	}
	if !pres.is(nsP, "presentation") {
		return nil, &officeError{"the main part " + main + " is not a presentation"}
	}
	rels, err := pkg.rels(main)
	if err != nil {
		return nil, err
	}
	var slides []string
	for _, s := range pres.child(nsP, "sldIdLst").children() {
		if s.is(nsP, "sldId") {
			if r, ok := rels[s.get(nsOfficeR, "id")]; ok {
				slides = append(slides, r.target)
			}
		}
	}
	if len(slides) > maxOfficeParts {
		return nil, &officeError{"too many slides"}
	}
	x := &pptxParser{b: &parse.Builder{}, langs: langCounter{}}
	for i, part := range slides {
		slide, err := pkg.xml(part, nil)
		if err != nil {
			return nil, err
		}
		if slide == nil {
			continue
		}
		x.b.Page = i + 1
		x.b.ClearHeadings()
		tree := slide.path(nsP, "cSld", "spTree")
		if s := slide.get("", "show"); s == "0" || s == "false" {
			x.b.Hidden += nonSpace(tree.allText())
			continue
		}
		x.shapes(tree, true)
		x.flushList()
		srels, err := pkg.rels(part)
		if err != nil {
			return nil, err
		}
		if np := relOfType(srels, "/notesSlide"); np != "" {
			notes, err := pkg.xml(np, nil)
			if err != nil {
				return nil, err
			}
			if notes != nil {
				x.notes = true
				x.shapes(notes.path(nsP, "cSld", "spTree"), false)
				x.notes = false
				x.flushList()
			}
		}
	}
	out := x.b.Finish(name, "pptx", raw)
	out.Pages = len(slides)
	out.Doc.Title = coreTitle(pkg)
	if out.Doc.Title == "" {
		out.Doc.Title = parse.FirstHeading(out.Blocks, 1)
	}
	if out.Doc.Title == "" {
		out.Doc.Title = parse.TitleFromName(name)
	}
	out.Doc.Language = x.langs.best()
	if out.Doc.Language == "" {
		out.Doc.Language = analysis.DetectLanguage(out.Doc.Text)
	}
	return out, nil
}

type pptxParser struct {
	b        *parse.Builder
	langs    langCounter
	list     []string
	counters [9]int
	notes    bool // reading speaker notes
}

func (x *pptxParser) flushList() {
	if len(x.list) > 0 {
		x.b.Add(parse.KindList, 0, strings.Join(x.list, "\n"))
		x.list = x.list[:0]
	}
	x.counters = [9]int{}
}

// shapes reads the shapes of a shape tree or group in order.
func (x *pptxParser) shapes(tree *xnode, slide bool) {
	if tree == nil {
		return
	}
	for _, sh := range tree.kids {
		switch {
		case sh.is(nsP, "sp"):
			nv := sh.child(nsP, "nvSpPr")
			if onOff2(nv.child(nsP, "cNvPr").get("", "hidden")) {
				x.b.Hidden += nonSpace(sh.allText())
				continue
			}
			ph := nv.path(nsP, "nvPr", "ph")
			typ := ph.get("", "type")
			switch typ {
			case "sldNum", "dt", "ftr", "hdr", "sldImg":
				continue
			}
			body := sh.child(nsP, "txBody")
			if slide && (typ == "title" || typ == "ctrTitle") {
				x.flushList()
				var parts []string
				for _, p := range body.children() {
					if p.is(nsA, "p") {
						parts = append(parts, x.runs(p))
					}
				}
				x.b.ClearHeadings()
				x.b.Add(parse.KindHeading, 1, strings.Join(parts, " "))
				continue
			}
			bulleted := ph != nil && (typ == "" || typ == "body" || typ == "obj") && !x.notes
			x.text(body, bulleted)
		case sh.is(nsP, "grpSp"):
			x.shapes(sh, slide)
		case sh.is(nsP, "graphicFrame"):
			if tbl := sh.find(nsA, "tbl"); tbl != nil {
				x.flushList()
				x.b.Add(parse.KindTable, 0, x.table(tbl))
			}
		case sh.is(nsMC, "AlternateContent"):
			if len(sh.kids) > 0 {
				x.shapes(sh.kids[0], slide)
			}
		}
	}
}

// text reads a text body: bulleted paragraphs gather into a list, others
// are paragraphs.
func (x *pptxParser) text(body *xnode, bulleted bool) {
	if body == nil {
		return
	}
	for _, p := range body.kids {
		if !p.is(nsA, "p") {
			continue
		}
		t := x.runs(p)
		if strings.TrimSpace(t) == "" {
			continue
		}
		ppr := p.child(nsA, "pPr")
		bullet, ordered := bulleted, false
		switch {
		case ppr.child(nsA, "buNone") != nil:
			bullet = false
		case ppr.child(nsA, "buAutoNum") != nil:
			bullet, ordered = true, true
		case ppr.child(nsA, "buChar") != nil, ppr.child(nsA, "buBlip") != nil:
			bullet = true
		}
		if !bullet {
			x.flushList()
			x.b.Add(parse.KindParagraph, 0, t)
			continue
		}
		lvl := min(max(atoi(ppr.get("", "lvl")), 0), 8)
		if x.counters[lvl] == 0 {
			x.counters[lvl] = atoiOr(ppr.child(nsA, "buAutoNum").get("", "startAt"), 1)
		} else {
			x.counters[lvl]++
		}
		for i := lvl + 1; i < len(x.counters); i++ {
			x.counters[i] = 0
		}
		x.list = append(x.list, strings.Repeat("  ", lvl)+listMarker(ordered, x.counters[lvl])+strings.ReplaceAll(t, "\n", " "))
	}
	x.flushList()
}

// runs returns the text of a DrawingML paragraph.
func (x *pptxParser) runs(p *xnode) string {
	var sb strings.Builder
	for _, r := range p.kids {
		switch {
		case r.is(nsA, "r"), r.is(nsA, "fld"):
			t := r.child(nsA, "t").allText()
			x.langs.add(r.child(nsA, "rPr").get("", "lang"), t)
			sb.WriteString(t)
		case r.is(nsA, "br"):
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

func (x *pptxParser) table(t *xnode) string {
	var lines []string
	for _, tr := range t.kids {
		if !tr.is(nsA, "tr") {
			continue
		}
		var cells []string
		empty := true
		for _, tc := range tr.kids {
			if !tc.is(nsA, "tc") {
				continue
			}
			var parts []string
			for _, p := range tc.child(nsA, "txBody").children() {
				if p.is(nsA, "p") {
					parts = append(parts, x.runs(p))
				}
			}
			cell := parse.CollapseSpaces(strings.Join(parts, " "))
			if cell != "" {
				empty = false
			}
			if onOff2(tc.get("", "hMerge")) || onOff2(tc.get("", "vMerge")) {
				cell = ""
			}
			cells = append(cells, cell)
		}
		if !empty {
			lines = append(lines, strings.Join(cells, " | "))
		}
	}
	return strings.Join(lines, "\n")
}
