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
	for _, m := range fractionRE.FindAllStringSubmatchIndex(text, -1) {
		before, after := text[max(0, m[2]-8):m[2]], text[m[3]:min(len(text), m[3]+16)]
		if fractionTimeRE.MatchString(before) || fractionTimeRE.MatchString(after) {
			continue
		}
		out = append(out, figure{value: fractionShares[strings.ToLower(text[m[2]:m[3]])], unit: units["%"], clock: -1})
	}
	return out
}

// fractionRE matches a fraction said in words as a share of a whole:
// "half", "la metà", "a quarter", "tre quarti". One before a unit of
// time ("half an hour", "un quarto d'ora") or after "past"/"e" (a time
// of day) is no share.
var fractionRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(half|metà|a third|one third|un terzo|a quarter|one quarter|un quarto|three quarters|tre quarti)(?:[^\p{L}'’]|$)`)

// fractionTimeRE matches what makes a fraction a span or time of day:
// a unit of time after it, or "past", "to", "e", "meno" before it.
var fractionTimeRE = regexp.MustCompile(`(?i)(?:past|to|e|meno)\s+$|^\s*(?:an?\s+|of\s+an?\s+|d['’]|di\s+|dell['’])?(?:hour|ora|day|giorn|year|anno|month|mese|week|settiman|minut)`)

// fractionShares are the percentages the fractions of fractionRE say.
var fractionShares = map[string]float64{"half": 50, "metà": 50, "a third": 100.0 / 3, "one third": 100.0 / 3, "un terzo": 100.0 / 3,
	"a quarter": 25, "one quarter": 25, "un quarto": 25, "three quarters": 75, "tre quarti": 75}

// countValue reads a whole number written in digits or as one number
// word.
func countValue(s string) (float64, bool) {
	if v, ok := parseDigits(s); ok {
		return v, true
	}
	return wordNumber(fold(strings.ToLower(s)))
}
