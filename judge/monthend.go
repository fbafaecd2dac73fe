package judge

import (
	"regexp"
	"strings"
)

// monthEndRE matches the end of a month said in words: "the end of
// March", "end of March", "fine marzo", "la fine di marzo", "entro fine
// mese di marzo".
var monthEndRE = regexp.MustCompile(`(?i)\b(?:end of|fine(?: del mese)?(?: di)?)\s+(\p{L}+)`)

// monthDays is the last day of each month (February's in a common
// year; a leap year's 29 is added apart).
var monthDays = [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// monthEnds returns the dates a text states as the end of a month:
// "before the end of March" states 31 March, as README's rule 2 counts
// every way of writing one value.
func monthEnds(text string) []figure {
	var out []figure
	for _, m := range monthEndRE.FindAllStringSubmatch(text, -1) {
		w := strings.ToLower(m[1])
		n, ok := months[fold(w)]
		if !ok {
			continue
		}
		out = append(out, figure{value: float64(monthDays[n]), unit: monthUnit(n, w), clock: -1})
		if n == 2 {
			out = append(out, figure{value: 29, unit: monthUnit(n, w), clock: -1})
		}
	}
	return out
}
