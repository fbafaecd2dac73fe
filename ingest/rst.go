package ingest

import (
	"regexp"
	"strings"
)

// reStructuredText is read as plain text (ParseText's layout: underlined
// headings, wrapped prose, lists) after its markup is taken out, so that
// what is indexed and quoted is what the rendered page shows. A .rst file
// is always read so; a .txt file only when it holds a directive, a role
// or a hyperlink target, the marks no other plain text carries.

// rstSignRE finds the marks of reStructuredText.
var rstSignRE = regexp.MustCompile("(?m)^\\s*\\.\\. (?:[A-Za-z][\\w-]*::|_[^:]+:|\\|[^|]+\\|)|:[a-z][\\w-]*:`")

// looksRST reports whether plain text is reStructuredText.
func looksRST(s string) bool { return rstSignRE.MatchString(s) }

// ParseRST parses a reStructuredText file (see rstText).
func ParseRST(name string, raw []byte) (*Parsed, error) {
	return parseText(name, raw, true)
}

// explicitRE matches an explicit markup line: ".. " then a directive
// ("note::"), a target ("_label:"), a substitution ("|name| image::") or
// a comment (anything else).
var explicitRE = regexp.MustCompile(`^(\s*)\.\.(?:\s+(.*))?$`)

// directiveRE reads a directive's name and argument.
var directiveRE = regexp.MustCompile(`^([A-Za-z][\w-]*)::\s*(.*)$`)

// rstDropped are the directives whose body is not text a reader sees
// (navigation, inclusion, raw output, pictures without captions).
var rstDropped = map[string]bool{
	"toctree": true, "include": true, "literalinclude": true, "raw": true, "image": true,
	"contents": true, "index": true, "meta": true, "highlight": true, "sectnum": true,
	"default-role": true, "role": true, "automodule": true, "autoclass": true,
}

// rstTextArg are the directives whose argument is text a reader sees
// (".. note:: Text", ".. topic:: Title"); other directives' arguments are
// a file, a language or a condition.
var rstTextArg = map[string]bool{
	"note": true, "warning": true, "tip": true, "hint": true, "important": true, "attention": true,
	"caution": true, "danger": true, "error": true, "admonition": true, "topic": true,
	"sidebar": true, "rubric": true, "seealso": true, "table": true, "csv-table": true, "list-table": true,
}

// rstText removes reStructuredText's explicit markup and inline markup
// from s: admonitions ("note::", "warning::") and other directives keep
// their text, unindented, with a text argument as its first line;
// comments, targets, substitution definitions and the directives in
// rstDropped go with their indented bodies; a directive's options
// (":maxdepth: 2") go; inline markup keeps its text (rstInline).
// Tables, drawn (texttable.go) or written as csv-table and list-table
// directives (rsttable.go), come out as tables, outside literal blocks
// and code.
func rstText(s string) []textPart {
	return joinParts(rstExplicit(strings.Split(s, "\n"), false), rstInline)
}

// rstVerbatim are the directives whose body is code, where a drawing of
// a table is what the code shows.
var rstVerbatim = map[string]bool{
	"code": true, "code-block": true, "sourcecode": true, "parsed-literal": true, "math": true,
}

// rstExplicit is rstText's pass over explicit markup and tables, applied
// again to each directive's body; verbatim bodies keep their tables drawn.
func rstExplicit(lines []string, verbatim bool) []textLine {
	var out []textLine
	literal := -1 // the indentation of a paragraph ending in "::" while its literal block lasts
	for i := 0; i < len(lines); i++ {
		if t := strings.TrimSpace(lines[i]); t != "" {
			ind := len(lines[i]) - len(strings.TrimLeft(lines[i], " \t"))
			if literal >= 0 && ind <= literal {
				literal = -1
			}
			if literal < 0 && !verbatim {
				if tbl, n := drawnTable(lines[i:], rstInline); n > 0 {
					out = append(out, textLine{table: tbl})
					i += n - 1
					continue
				}
			}
			if literal < 0 && strings.HasSuffix(t, "::") && !strings.HasPrefix(t, "..") {
				literal = ind
			}
		}
		m := explicitRE.FindStringSubmatch(lines[i])
		if m == nil {
			if !rstSubstitutionLine.MatchString(lines[i]) {
				out = append(out, textLine{text: lines[i]})
			}
			continue
		}
		indent := len(m[1])
		// The body: the lines after, indented deeper, and blank lines
		// between them.
		end := i + 1
		bodyIndent := -1
		for end < len(lines) {
			l := lines[end]
			if strings.TrimSpace(l) == "" {
				end++
				continue
			}
			ind := len(l) - len(strings.TrimLeft(l, " \t"))
			if ind <= indent {
				break
			}
			if bodyIndent < 0 {
				bodyIndent = ind
			}
			end++
		}
		for end > i+1 && strings.TrimSpace(lines[end-1]) == "" {
			end-- // trailing blank lines belong to what follows
		}
		d := directiveRE.FindStringSubmatch(strings.TrimSpace(m[2]))
		name := ""
		if d != nil {
			name = strings.ToLower(d[1])
		}
		if d == nil || rstDropped[name] {
			i = end - 1 // a comment, a target, a substitution or a dropped directive
			continue
		}
		unindented := make([]string, 0, end-i-1)
		for _, l := range lines[i+1 : end] {
			if bodyIndent > 0 && len(l) >= bodyIndent {
				l = l[bodyIndent:]
			}
			unindented = append(unindented, l)
		}
		if name == "csv-table" || name == "list-table" {
			if tbl, ok := rstDirectiveTable(name, d[2], unindented); ok {
				out = append(out, textLine{table: tbl})
				i = end - 1
				continue
			}
		}
		out = append(out, textLine{})
		if d[2] != "" && rstTextArg[name] {
			out = append(out, textLine{text: d[2]}, textLine{})
		}
		var body []string
		options := true
		for _, l := range unindented {
			t := strings.TrimSpace(l)
			if options && strings.HasPrefix(t, ":") && strings.Count(t, ":") >= 2 {
				continue // ":caption: …", ":maxdepth: 3"
			}
			if t != "" {
				options = false
			}
			body = append(body, l)
		}
		out = append(out, rstExplicit(body, verbatim || rstVerbatim[name])...)
		out = append(out, textLine{})
		i = end - 1
	}
	return out
}

// rstSubstitutionLine matches a line holding only a substitution
// reference ("|diagram-1|"), which stands for a picture.
var rstSubstitutionLine = regexp.MustCompile(`^\s*\|[^|\s][^|]*\|\s*$`)

var (
	rstRoleRE     = regexp.MustCompile("(?::[a-z][\\w-]*:)?`([^`<]*?)\\s*(?:<([^`>]*)>)?`(?::[a-z][\\w-]*:)?_{0,2}")
	rstLiteralRE  = regexp.MustCompile("``([^`]+)``")
	rstStrongRE   = regexp.MustCompile(`(^|[\s(«"'/\-])\*\*([^*\s](?:[^*]*[^*\s])?)\*\*`)
	rstEmRE       = regexp.MustCompile(`(^|[\s(«"'/\-])\*([^*\s](?:[^*]*[^*\s])?)\*`)
	rstLiteralEnd = regexp.MustCompile(`(?m)(\S)\s*::$`)
)

// rstInline keeps the text of inline markup: “literal“, **strong**,
// *emphasis*, :role:`text <target>` and `link <url>`_ (the text, or the
// target when the text is empty), and "Example::" before a literal block
// reads "Example:".
func rstInline(s string) string {
	s = rstRoleRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := rstRoleRE.FindStringSubmatch(m)
		if strings.TrimSpace(sub[1]) == "" {
			return sub[2]
		}
		return sub[1]
	})
	return rstLiteralEnd.ReplaceAllString(plainEmphasis(s), "$1:")
}

// plainEmphasis keeps the words of **strong**, *emphasis* and “literal“
// marks: a mark opens after a space, a bracket or a quote, and its words
// neither start nor end with a space, so "5 * 3 * 2" and "*.txt" stay.
func plainEmphasis(s string) string {
	s = rstLiteralRE.ReplaceAllString(s, "$1")
	s = rstStrongRE.ReplaceAllString(s, "$1$2")
	return rstEmRE.ReplaceAllString(s, "$1$2")
}
