package office

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/ingest/parse"
)

// Limits on what an office package (a zip archive) may expand to. A zip
// bomb compresses gigabytes of repeated bytes into kilobytes; reading is
// stopped at these sizes rather than trusting the sizes the archive
// declares.
var (
	// maxOfficeTotal bounds the uncompressed bytes read from one package.
	maxOfficeTotal int64 = 200 << 20
	// maxOfficeEntry bounds the uncompressed bytes of one part.
	maxOfficeEntry int64 = 64 << 20
)

const (
	// maxOfficeNodes bounds the XML elements and text runs kept in memory
	// for one part.
	maxOfficeNodes = 4_000_000
	// maxOfficeDepth bounds XML nesting; real documents nest a few dozen
	// levels.
	maxOfficeDepth = 512
	// maxOfficeParts bounds the parts (slides, footnote files) read.
	maxOfficeParts = 10000
)

// cfbMagic starts an OLE compound file: an encrypted OOXML document, or a
// legacy binary .doc/.ppt given a new extension.
var cfbMagic = []byte{0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1}

// officeError is a problem reading a package; the parsers turn it into a
// refusal naming the format.
type officeError struct{ msg string }

func (e *officeError) Error() string { return e.msg }

// officePkg reads the parts of an office package within the size limits.
type officePkg struct {
	zr     *zip.Reader
	files  map[string]*zip.File
	read   int64 // uncompressed bytes read so far
	parts  int
	name   string
	budget *parse.Budget // the run's, charged with every byte inflated; nil for none
}

// formats are the office formats' parsers over an opened package, by
// file extension.
var formats = map[string]struct {
	format string
	read   func(name string, raw []byte, pkg *officePkg) (*parse.Parsed, error)
}{
	".docx": {"DOCX", parseDOCX},
	".odt":  {"ODT", parseODT},
	".pptx": {"PPTX", parsePPTX},
}

// Handles reports whether name's extension (case insensitive) is an
// office format's: .docx, .odt or .pptx.
func Handles(name string) bool {
	_, ok := formats[strings.ToLower(path.Ext(filepath.ToSlash(name)))]
	return ok
}

// ParseWithin parses an office file with every part it inflates charged
// to budget as it is read (nil: none), so a package stops inflating as
// soon as the run is over its limit; Parsed.Expanded records the bytes
// inflated. It does not run ingest's quality check.
func ParseWithin(budget *parse.Budget, name string, raw []byte) (*parse.Parsed, error) {
	f, ok := formats[strings.ToLower(path.Ext(filepath.ToSlash(name)))]
	if !ok {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnsupported,
			Detail: fmt.Sprintf("no office parser for extension %q", path.Ext(name))}
	}
	return parseOffice(budget, name, raw, f.format, f.read)
}

// parseOffice opens raw as a package of format and parses it with read,
// every part read charged to budget (nil: none).
func parseOffice(budget *parse.Budget, name string, raw []byte, format string, read func(string, []byte, *officePkg) (*parse.Parsed, error)) (*parse.Parsed, error) {
	pkg, err := openOffice(name, format, raw)
	if err != nil {
		return nil, err
	}
	pkg.name, pkg.budget = name, budget
	out, err := read(name, raw, pkg)
	if err != nil {
		return nil, officeRefusal(name, format, err)
	}
	out.Expanded = pkg.read
	return out, nil
}

// openOffice opens raw as a zip package. format ("DOCX", "ODT", "PPTX")
// names the refusal. A compound file is refused as encrypted when it
// holds an EncryptedPackage stream, else as a legacy binary file.
func openOffice(name, format string, raw []byte) (*officePkg, error) {
	if bytes.HasPrefix(raw, cfbMagic) {
		if bytes.Contains(raw, utf16le("EncryptedPackage")) {
			return nil, &parse.Refusal{Path: name, Reason: parse.ReasonEncrypted, Detail: "needs a password"}
		}
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable,
			Detail: fmt.Sprintf("not a valid %s (an OLE compound file: a legacy binary Office file?)", format)}
	}
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable,
			Detail: fmt.Sprintf("not a valid %s (%v)", format, err)}
	}
	p := &officePkg{zr: zr, files: make(map[string]*zip.File, len(zr.File))}
	for _, f := range zr.File {
		n := strings.TrimPrefix(f.Name, "/")
		if _, dup := p.files[n]; !dup {
			p.files[n] = f
		}
		// Part names are case-insensitive in OPC.
		if low := strings.ToLower(n); low != n {
			if _, dup := p.files[low]; !dup {
				p.files[low] = f
			}
		}
	}
	return p, nil
}

func utf16le(s string) []byte {
	out := make([]byte, 0, 2*len(s))
	for _, r := range s {
		out = append(out, byte(r), byte(r>>8))
	}
	return out
}

// has reports whether the package holds the part.
func (p *officePkg) has(part string) bool { return p.file(part) != nil }

func (p *officePkg) file(part string) *zip.File {
	part = strings.TrimPrefix(part, "/")
	if f := p.files[part]; f != nil {
		return f
	}
	return p.files[strings.ToLower(part)]
}

// bytes reads a part, nil without error when the package lacks it. Reading
// stops with an error past the per-part or total limit.
func (p *officePkg) bytes(part string) ([]byte, error) {
	f := p.file(part)
	if f == nil {
		return nil, nil
	}
	p.parts++
	if p.parts > maxOfficeParts {
		return nil, &officeError{fmt.Sprintf("more than %d parts read", maxOfficeParts)}
	}
	rc, err := f.Open()
	if err != nil {
		return nil, &officeError{fmt.Sprintf("%s: %v", part, err)}
	}
	defer rc.Close()
	limit := min(maxOfficeEntry, maxOfficeTotal-p.read)
	// The declared size only sizes the buffer (no larger than deflate's
	// best ratio, about 1032:1, allows); the limit is enforced on the bytes
	// actually inflated.
	var buf bytes.Buffer
	grow := min(f.UncompressedSize64, f.CompressedSize64*1032+4096, uint64(limit))
	buf.Grow(int(grow) + 1)
	_, err = buf.ReadFrom(p.budget.Reader(p.name, io.LimitReader(rc, limit+1)))
	data := buf.Bytes()
	p.read += int64(len(data))
	if parse.Stops(err) {
		return nil, err // the run's limit or its end, not this file's fault
	}
	if int64(len(data)) > limit {
		if limit < maxOfficeEntry {
			return nil, &officeError{fmt.Sprintf("expands past %d MB in total (a zip bomb?)", maxOfficeTotal>>20)}
		}
		return nil, &officeError{fmt.Sprintf("%s expands past %d MB (a zip bomb?)", part, maxOfficeEntry>>20)}
	}
	if err != nil {
		return nil, &officeError{fmt.Sprintf("%s: %v", part, err)}
	}
	return data, nil
}

// xnode is an element of a parsed XML part, or (with an empty local name)
// a run of character data.
type xnode struct {
	space, local string // namespace URL and local name; "" for text
	attr         []xml.Attr
	kids         []*xnode
	text         string
}

// xml reads and parses a part into a tree, nil without error when the
// package lacks it. Elements whose "space local" key is in skip are not
// kept, nor anything inside them.
func (p *officePkg) xml(part string, skip map[string]bool) (*xnode, error) {
	data, err := p.bytes(part)
	if err != nil || data == nil {
		return nil, err
	}
	root, err := parseXML(data, skip)
	if err != nil {
		return nil, &officeError{fmt.Sprintf("%s: %v", part, err)}
	}
	return root, nil
}

// parseXML builds the tree of an XML document. Names are interned, so a
// large part repeating a few element names costs one string per name.
func parseXML(data []byte, skip map[string]bool) (*xnode, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		// Office parts are UTF-8 or UTF-16; UTF-16 was rejected by the
		// decoder before reaching here, so read any label as UTF-8.
		return in, nil
	}
	intern := map[string]string{}
	in := func(s string) string {
		if v, ok := intern[s]; ok {
			return v
		}
		intern[s] = s
		return s
	}
	root := &xnode{}
	stack := []*xnode{root}
	nodes := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		top := stack[len(stack)-1]
		switch t := tok.(type) {
		case xml.StartElement:
			if skip[t.Name.Space+" "+t.Name.Local] {
				if err := d.Skip(); err != nil {
					return nil, err
				}
				continue
			}
			nodes++
			if nodes > maxOfficeNodes {
				return nil, fmt.Errorf("more than %d XML elements", maxOfficeNodes)
			}
			if len(stack) > maxOfficeDepth {
				return nil, fmt.Errorf("XML nested deeper than %d levels", maxOfficeDepth)
			}
			n := &xnode{space: in(t.Name.Space), local: in(t.Name.Local)}
			if len(t.Attr) > 0 {
				n.attr = make([]xml.Attr, len(t.Attr))
				for i, a := range t.Attr {
					n.attr[i] = xml.Attr{Name: xml.Name{Space: in(a.Name.Space), Local: in(a.Name.Local)}, Value: a.Value}
				}
			}
			top.kids = append(top.kids, n)
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			if len(stack) == 1 {
				continue // text outside the root element
			}
			if k := len(top.kids); k > 0 && top.kids[k-1].local == "" {
				top.kids[k-1].text += string(t)
				continue
			}
			nodes++
			if nodes > maxOfficeNodes {
				return nil, fmt.Errorf("more than %d XML elements", maxOfficeNodes)
			}
			top.kids = append(top.kids, &xnode{text: string(t)})
		}
	}
	for _, k := range root.kids {
		if k.local != "" {
			return k, nil
		}
	}
	return nil, errors.New("no root element")
}

// is reports whether n is the element space:local.
func (n *xnode) is(space, local string) bool {
	return n != nil && n.local == local && n.space == space
}

// get returns the value of the attribute space:local, "" when absent. An
// empty space matches an attribute without a namespace.
func (n *xnode) get(space, local string) string {
	if n == nil {
		return ""
	}
	for _, a := range n.attr {
		if a.Name.Local == local && a.Name.Space == space {
			return a.Value
		}
	}
	return ""
}

// has reports whether the attribute space:local is present.
func (n *xnode) has(space, local string) bool {
	if n == nil {
		return false
	}
	for _, a := range n.attr {
		if a.Name.Local == local && a.Name.Space == space {
			return true
		}
	}
	return false
}

// child returns the first child element space:local, or nil.
func (n *xnode) child(space, local string) *xnode {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		if k.is(space, local) {
			return k
		}
	}
	return nil
}

// path follows a chain of child elements in one namespace.
func (n *xnode) path(space string, locals ...string) *xnode {
	for _, l := range locals {
		n = n.child(space, l)
	}
	return n
}

// children returns n's children, none for a nil node.
func (n *xnode) children() []*xnode {
	if n == nil {
		return nil
	}
	return n.kids
}

// find returns the first element space:local at or below n, depth first.
func (n *xnode) find(space, local string) *xnode {
	if n == nil {
		return nil
	}
	if n.is(space, local) {
		return n
	}
	for _, k := range n.kids {
		if f := k.find(space, local); f != nil {
			return f
		}
	}
	return nil
}

// allText concatenates the character data at or below n.
func (n *xnode) allText() string {
	var sb strings.Builder
	var walk func(*xnode)
	walk = func(n *xnode) {
		if n.local == "" {
			sb.WriteString(n.text)
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	if n != nil {
		walk(n)
	}
	return sb.String()
}

// nonSpace counts the characters of s that are not white space, as the
// hidden-text count does.
func nonSpace(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

// Namespaces of the office formats.
const (
	nsDC      = "http://purl.org/dc/elements/1.1/"
	nsRel     = "http://schemas.openxmlformats.org/package/2006/relationships"
	nsOfficeR = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	nsMC      = "http://schemas.openxmlformats.org/markup-compatibility/2006"
)

// coreTitle reads dc:title from an OOXML package's core properties.
func coreTitle(p *officePkg) string {
	core, err := p.xml("docProps/core.xml", nil)
	if err != nil || core == nil {
		return ""
	}
	return parse.CleanTitle(core.child(nsDC, "title").allText())
}

// rels reads a relationships part into id → target, with targets resolved
// against the folder of the part the relationships belong to.
func (p *officePkg) rels(source string) (map[string]rel, error) {
	dir, base := "", source
	if i := strings.LastIndex(source, "/"); i >= 0 {
		dir, base = source[:i+1], source[i+1:]
	}
	root, err := p.xml(dir+"_rels/"+base+".rels", nil)
	if err != nil || root == nil {
		return nil, err
	}
	out := map[string]rel{}
	for _, r := range root.kids {
		if !r.is(nsRel, "Relationship") || r.get("", "TargetMode") == "External" {
			continue
		}
		out[r.get("", "Id")] = rel{typ: r.get("", "Type"), target: resolvePart(dir, r.get("", "Target"))}
	}
	return out, nil
}

// rel is one package relationship.
type rel struct{ typ, target string }

// resolvePart resolves a relative part reference against a folder.
func resolvePart(dir, target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(target, "/")
	}
	parts := strings.Split(strings.TrimSuffix(dir, "/"), "/")
	if dir == "" {
		parts = nil
	}
	for _, s := range strings.Split(target, "/") {
		switch s {
		case "", ".":
		case "..":
			if len(parts) > 0 {
				parts = parts[:len(parts)-1]
			}
		default:
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "/")
}

// relOfType returns the target of the first relationship whose type ends
// with suffix.
func relOfType(rels map[string]rel, suffix string) string {
	best := ""
	for _, r := range rels {
		if strings.HasSuffix(r.typ, suffix) && (best == "" || r.target < best) {
			best = r.target
		}
	}
	return best
}

// langCounter tallies declared languages weighted by the characters they
// cover, so the document's language is the one most of its text declares.
type langCounter map[string]int

func (c langCounter) add(lang, text string) {
	if l := analysis.NormalizeLanguage(lang); l != "" {
		c[l] += nonSpace(text)
	}
}

func (c langCounter) best() string {
	best, n := "", 0
	for l, k := range c {
		if k > n || (k == n && l < best) {
			best, n = l, k
		}
	}
	return best
}

// officeRefusal turns a reading error into a refusal naming the format.
func officeRefusal(name, format string, err error) error {
	if parse.Stops(err) {
		return err
	}
	var r *parse.Refusal
	if errors.As(err, &r) {
		return r
	}
	return &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable,
		Detail: fmt.Sprintf("not a valid %s (%v)", format, err)}
}

// noteMark is the marker left in the text where a footnote is referenced;
// the note's own paragraph starts with the same marker.
func noteMark(n int) string { return fmt.Sprintf("[%d]", n) }

// listMarker is the marker of a list item line, as the Markdown and HTML
// parsers write them.
func listMarker(ordered bool, num int) string {
	if ordered {
		return fmt.Sprintf("%d. ", num)
	}
	return "- "
}
