package ingest

import (
	"bytes"
	"regexp"
	"strings"
)

// Template tags in Markdown sources.
//
// Real handbooks are built by static site generators, so their Markdown is
// sprinkled with Liquid, Jekyll and Nunjucks tags: {% ... %} statements,
// {{ ... }} expressions and {# ... #} comments. They are markup for the
// generator, not text for a reader, and are removed before the Markdown is
// parsed (a tag inside a link destination would otherwise stop the link
// from parsing). Three cases are treated specially:
//
//   - {% raw %} ... {% endraw %} keeps its content literally;
//   - {% comment %} ... {% endcomment %} drops its content;
//   - a few shortcodes whose output is words a sentence depends on are
//     replaced by those words: {% slack_channel "x" %} becomes "#x" (the
//     18F handbook's most common tag: "reach out in {% slack_channel ... %}"
//     would otherwise read "reach out in"), and {% image "src" "alt" %} and
//     {% image_with_class "src" "class" "alt" %} become their alt text, as
//     Markdown images do.
//
// Code (fenced and indented blocks, code spans) is left alone apart from
// raw/endraw markers, since there template syntax is the content.
//
// A tag must close within maxTagLen bytes and before the next blank line;
// an unclosed "{%" is ordinary text.
const maxTagLen = 4096

var (
	rawMarker  = regexp.MustCompile(`\{%-?\s*(?:end)?raw\s*-?%\}`)
	endRaw     = regexp.MustCompile(`\{%-?\s*endraw\s*-?%\}`)
	endComment = regexp.MustCompile(`\{%-?\s*endcomment\s*-?%\}`)
)

// hasTemplateTags reports whether src may contain template tags, Liquid's
// or ERB's (see erb.go).
func hasTemplateTags(src []byte) bool {
	return bytes.Contains(src, []byte("{%")) || bytes.Contains(src, []byte("{{")) || bytes.Contains(src, []byte("{#")) ||
		bytes.Contains(src, []byte("<%"))
}

// stripTemplates removes template tags, Liquid's and ERB's, from src
// outside the protected byte ranges, which must be sorted and disjoint.
func stripTemplates(src []byte, protected [][2]int) []byte {
	out := make([]byte, 0, len(src))
	rawEnds := closerFinder{re: endRaw}
	commentEnds := closerFinder{re: endComment}
	var erb erbReader
	pi := 0
	for i := 0; i < len(src); {
		for pi < len(protected) && protected[pi][1] <= i {
			pi++
		}
		limit := len(src)
		if pi < len(protected) {
			if i >= protected[pi][0] {
				end := protected[pi][1]
				out = append(out, rawMarker.ReplaceAll(src[i:end], nil)...)
				i = end
				continue
			}
			limit = protected[pi][0]
		}
		j := bytes.IndexAny(src[i:limit], "{<")
		if j < 0 {
			out = append(out, src[i:limit]...)
			i = limit
			continue
		}
		j += i
		out = append(out, src[i:j]...)
		if src[j] == '<' {
			text, end, ok := erb.tag(src, j, limit)
			if !ok {
				out = append(out, '<')
				i = j + 1
				continue
			}
			out = append(out, text...)
			i = end
			continue
		}
		name, args, end, ok := templateTag(src, j, limit)
		if !ok {
			out = append(out, '{')
			i = j + 1
			continue
		}
		switch name {
		case "raw":
			if loc := rawEnds.next(src, end); loc != nil {
				out = append(out, src[end:loc[0]]...)
				end = loc[1]
			}
		case "comment":
			if loc := commentEnds.next(src, end); loc != nil {
				end = loc[1]
			}
		default:
			out = append(out, shortcodeText(name, args)...)
		}
		i = end
	}
	return out
}

// templateTag parses the tag opening at src[start] ('{'), which must close
// before limit. It returns the statement name ("" for expressions and
// comments), the quoted arguments, and the offset just past the tag.
func templateTag(src []byte, start, limit int) (name string, args []string, end int, ok bool) {
	if start+1 >= limit {
		return "", nil, 0, false
	}
	var closer string
	switch src[start+1] {
	case '%':
		closer = "%}"
	case '{':
		closer = "}}"
	case '#':
		closer = "#}"
	default:
		return "", nil, 0, false
	}
	window := src[start+2 : min(limit, start+maxTagLen)]
	k := bytes.Index(window, []byte(closer))
	if k < 0 || hasBlankLine(window[:k]) {
		return "", nil, 0, false
	}
	end = start + 2 + k + len(closer)
	if closer != "%}" {
		return "", nil, end, true
	}
	inner := strings.Trim(string(window[:k]), "- \t\n")
	name = inner
	if i := strings.IndexFunc(inner, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '"' || r == '\'' }); i >= 0 {
		name = inner[:i]
	}
	return name, quotedArgs(inner[len(name):]), end, true
}

// quotedArgs returns the single- or double-quoted strings in s, in order.
func quotedArgs(s string) []string {
	var args []string
	for {
		i := strings.IndexAny(s, `"'`)
		if i < 0 {
			return args
		}
		q := s[i]
		j := strings.IndexByte(s[i+1:], q)
		if j < 0 {
			return args
		}
		args = append(args, s[i+1:i+1+j])
		s = s[i+1+j+1:]
	}
}

// shortcodeText is the text a known shortcode stands for, or "".
func shortcodeText(name string, args []string) string {
	switch {
	case name == "slack_channel" && len(args) > 0:
		return "#" + strings.TrimPrefix(args[0], "#")
	case name == "image" && len(args) > 1:
		return args[1]
	case name == "image_with_class" && len(args) > 2:
		return args[2]
	}
	return ""
}

// hasBlankLine reports whether b contains a line holding only white space
// between two newlines.
func hasBlankLine(b []byte) bool {
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return false
		}
		b = b[i+1:]
		j := 0
		for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\r') {
			j++
		}
		if j < len(b) && b[j] == '\n' {
			return true
		}
	}
}

// closerFinder finds the next closing tag at or after a position,
// remembering the last answer so that many unclosed openers cost one scan
// instead of one scan each.
type closerFinder struct {
	re    *regexp.Regexp
	from  int   // the search that produced loc started here
	loc   []int // absolute [start, end) of the closer found, nil for none
	valid bool
}

func (f *closerFinder) next(src []byte, from int) []int {
	// A cached answer holds while it starts at or after from: no closer
	// lies between the earlier search start and it.
	if f.valid && from >= f.from && (f.loc == nil || f.loc[0] >= from) {
		return f.loc
	}
	f.from, f.valid, f.loc = from, true, nil
	if loc := f.re.FindIndex(src[from:]); loc != nil {
		f.loc = []int{from + loc[0], from + loc[1]}
	}
	return f.loc
}
