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
func rstText(s string) string {
	return rstInline(strings.Join(rstExplicit(strings.Split(s, "\n")), "\n"))
}

// rstExplicit is rstText's pass over explicit markup, applied again to
// each directive's body.
func rstExplicit(lines []string) []string {
	var out []string
	for i := 0; i < len(lines); i++ {
		m := explicitRE.FindStringSubmatch(lines[i])
		if m == nil {
			if !rstSubstitutionLine.MatchString(lines[i]) {
				out = append(out, lines[i])
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
		out = append(out, "")
		if d[2] != "" && rstTextArg[name] {
			out = append(out, d[2], "")
		}
		var body []string
		options := true
		for _, l := range lines[i+1 : end] {
			t := strings.TrimSpace(l)
			if options && strings.HasPrefix(t, ":") && strings.Count(t, ":") >= 2 {
				continue // ":caption: …", ":maxdepth: 3"
			}
			if t != "" {
				options = false
			}
			if bodyIndent > 0 && len(l) >= bodyIndent {
				l = l[bodyIndent:]
			}
			body = append(body, l)
		}
		out = append(out, rstExplicit(body)...)
		out = append(out, "")
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
