package answer

import "regexp"

// A question often names its case by a bound on a figure ("a conference
// that costs more than $2,500", "un importo superiore a 5.000 euro"), and
// the passage then lists the cases side by side: "less than $2,500 … more
// than $2,500". A sentence that bounds the same figure the other way
// states the neighbouring case, and its rule is the wrong answer however
// many words it shares with the question.

// boundDir is the direction of a bound on a figure.
type boundDir int

const (
	above boundDir = 1  // more than, over, at least, più di, oltre
	below boundDir = -1 // less than, under, up to, meno di, fino a
)

// figureBounds returns the bounds text puts on its figures (upToRE,
// aboveRE): each bounded figure with the bound's direction. upToRE is
// read last, so that "no more than 30" and "non oltre 30", which aboveRE
// also matches, count as upper bounds.
func figureBounds(text string) map[float64]boundDir {
	out := map[float64]boundDir{}
	for _, b := range []struct {
		re  *regexp.Regexp
		dir boundDir
	}{{aboveRE, above}, {upToRE, below}} {
		for _, m := range b.re.FindAllStringSubmatch(text, -1) {
			if v, ok := parseNumber(bounded(m)); ok {
				out[v] = b.dir
			}
		}
	}
	return out
}

// caseMatch compares the bounds a sentence puts on the question's bounded
// figures: +1 when it bounds one the same way and none the other way
// (the question's case), -1 when it bounds one the other way (a
// neighbouring case), 0 when it bounds none of them.
func caseMatch(asked map[float64]boundDir, sentence string) int {
	if len(asked) == 0 {
		return 0
	}
	same := false
	for v, d := range figureBounds(sentence) {
		if a, ok := asked[v]; ok {
			if a != d {
				return -1
			}
			same = true
		}
	}
	if same {
		return 1
	}
	return 0
}
