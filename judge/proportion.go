package judge

import (
	"regexp"
	"strings"
)

// proportionRE matches a proportion said as a count out of a total,
// with at most one noun between: "nine out of ten", "9 packages out of
// 10", "nove pacchetti su dieci", "3 su 4".
var proportionRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}\d.,])(\d+|\p{L}+)(?:\s+(\d+|\p{L}+))?\s+(?:out of|su)\s+(\d+|\p{L}+)(?:[^\p{L}\d]|$)`)

// proportions returns the percentages a text says as a count out of a
// total: "nove pacchetti su dieci" is 90%, as README's rule 2 counts
// every way of writing one value.
func proportions(text string) []figure {
	var out []figure
	for _, m := range proportionRE.FindAllStringSubmatch(text, -1) {
		// The count is the first word, before its noun, or the second
		// ("about nine out of ten").
		n, ok1 := countValue(m[1])
		if v, ok := countValue(m[2]); ok {
			n, ok1 = v, true
		}
		d, ok2 := countValue(m[3])
		if !ok1 || !ok2 || d <= n || d == 0 {
			continue
		}
		out = append(out, figure{value: 100 * n / d, unit: units["%"], clock: -1})
	}
	return out
}

// countValue reads a whole number written in digits or as one number
// word.
func countValue(s string) (float64, bool) {
	if v, ok := parseDigits(s); ok {
		return v, true
	}
	return wordNumber(fold(strings.ToLower(s)))
}
