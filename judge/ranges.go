package judge

import (
	"fmt"
	"regexp"
	"strings"
)

// A reference that gives a range ("2 to 4 working days", "tra 10 e 20
// euro") is not answered by one of its ends stated as the figure: "4
// working days" claims an exact figure the reference does not give
// (README, rule 4). A bound said as one ("up to 4", "fino a 4", "at
// least 2") claims no more than the range does.

// rangeREs match a range of two numbers in digits or words: "2 to 4",
// "from 10 to 12", "10-12", "da 2 a 4", and, with "between" or "tra"
// before them, "between 9 and 17", "tra 10 e 20" (without it, "3 and 5"
// are two figures).
var rangeREs = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b([\p{L}\d.,]+)\s*(?:\bto\b|-|–)\s*([\p{L}\d.,]+)`),
	regexp.MustCompile(`(?i)\b(?:da|dai)\s+([\p{L}\d.,]+)\s+(?:a|ai)\s+([\p{L}\d.,]+)`),
	regexp.MustCompile(`(?i)\b(?:between|tra|fra)\s+([\p{L}\d.,]+)\s+(?:and|e)\s+([\p{L}\d.,]+)`),
}

// boundRE matches the words that make a figure a bound: "up to", "at
// most", "at least", "no more than", "within", "fino a", "al massimo",
// "almeno", "entro".
var boundRE = regexp.MustCompile(`(?i)\b(?:up to|within|at most|at least|no more than|no less than|not more than|maximum|minimum|max|min|fino a|al massimo|al minimo|almeno|non più di|non meno di|massimo|minimo|entro)\b`)

// rangeEnds returns the ends of the ranges that text gives.
func rangeEnds(text string) [][2]float64 {
	var out [][2]float64
	for _, re := range rangeREs {
		for _, m := range re.FindAllStringSubmatch(withoutCitations(text), -1) {
			a, okA := numberValue(m[1])
			b, okB := numberValue(m[2])
			if okA && okB && a < b {
				out = append(out, [2]float64{a, b})
			}
		}
	}
	return out
}

// numberValue reads a number in digits or one number word.
func numberValue(w string) (float64, bool) {
	w = strings.Trim(w, ".,")
	if v, ok := parseDigits(w); ok {
		return v, true
	}
	return wordNumber(fold(w))
}

// oneEndOfRange returns a contradiction when a lead states one end of a
// range of the reference as its figure, without the other end and
// without a word that makes it a bound.
func oneEndOfRange(reference, leadText string, leadFacts []fact) []string {
	if boundRE.MatchString(leadText) {
		return nil
	}
	lead := figuresOf(leadFacts)
	has := func(v float64) bool {
		for _, g := range lead {
			if g.clock < 0 && equalValues(g.value, v) {
				return true
			}
		}
		return false
	}
	for _, r := range rangeEnds(asideRE.ReplaceAllString(reference, " ")) {
		if has(r[0]) != has(r[1]) && len(rangeEnds(leadText)) == 0 {
			return []string{fmt.Sprintf("the lead gives one end of the range %s to %s as the figure", formatValue(r[0]), formatValue(r[1]))}
		}
	}
	return nil
}
