package answer

import (
	"regexp"
	"strings"
)

// A list whose items each open with a short label and a colon ("- North
// site: the gatehouse desk", "- Other sites: the local facilities desk")
// is a table by another name: each label names a case, and each value
// says what holds in that case. When the values speak of the question's
// topic, the labels are the cases the question must choose between, not
// its answer: "North site staff" leads a question about who issues
// permits only when the question names the north site.

// caseLabelRE: a line that opens with a short label and a colon, the
// label as its group (a list marker before it is not part of it).
var caseLabelRE = regexp.MustCompile(`^\s*(?:[-*•+]\s+|\d+[.)]\s+)?([^:.;!?|]{1,60}?):\s+\S`)

// maxLabelWords is the most words a label has: more, and the colon ends
// a clause rather than a label.
const maxLabelWords = 6

// labelled splits line s into its label and value; ok is false when s
// does not open with a label.
func labelled(s string) (label, value [2]int, ok bool) {
	m := caseLabelRE.FindStringSubmatchIndex(s)
	if m == nil || len(wordSpans(s[m[2]:m[3]])) > maxLabelWords {
		return label, value, false
	}
	return [2]int{m[2], m[3]}, [2]int{m[3] + 1, len(s)}, true
}

// lineIndent returns the width of the blanks before span sp on its line,
// -1 when the span does not open its line.
func lineIndent(text string, sp [2]int) int {
	pre := text[strings.LastIndexByte(text[:sp[0]], '\n')+1 : sp[0]]
	if strings.Trim(pre, " \t") != "" {
		return -1
	}
	return len(pre)
}

// siblings returns the other items of the list that sentence j of text
// is an item of, at its own depth (nested items are skipped, and a line
// less indented or not an item ends the list); nil when j is no item.
func siblings(text string, spans [][2]int, j int) []string {
	in := lineIndent(text, spans[j])
	if in < 0 || !listItem(strings.TrimSpace(text[spans[j][0]:spans[j][1]])) {
		return nil
	}
	var out []string
	for _, step := range []int{-1, 1} {
		for k := j + step; k >= 0 && k < len(spans); k += step {
			at := lineIndent(text, spans[k])
			if at < 0 || at > in {
				continue // the rest of an item's line, or a nested item
			}
			t := strings.TrimSpace(text[spans[k][0]:spans[k][1]])
			if at < in || !listItem(t) {
				break
			}
			out = append(out, t)
		}
	}
	return out
}

// caseLabel reports whether the lead of sentence s (a list item) lies in
// its label while its value holds a word of the question, and a sibling
// item's value holds one too: the label is one case among its siblings'
// and the question names none of them.
func (l leader) caseLabel(s, lead string, sibs []string) bool {
	label, value, ok := labelled(s)
	if !ok || !strings.Contains(s[label[0]:label[1]], lead) || !hasAny(ContentKeys(s[value[0]:value[1]]), l.want) {
		return false
	}
	for _, o := range sibs {
		if ol, ov, ok := labelled(o); ok && hasAny(ContentKeys(o[ov[0]:ov[1]]), l.want) {
			if !hasAny(ContentKeys(s[label[0]:label[1]]), l.want) || hasAny(ContentKeys(o[ol[0]:ol[1]]), l.want) {
				return true
			}
		}
	}
	return false
}
