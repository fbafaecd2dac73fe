package judge

import (
	"regexp"
	"strings"
)

// otherCaseRE matches the words that set a clause against the answer,
// about another case: "LTS releases, by contrast, get five years",
// "mentre le LTS …".
var otherCaseRE = regexp.MustCompile(`(?i)\b(?:by contrast|in contrast|whereas|on the other hand|invece|mentre|al contrario|per contro)\b`)

// leadClauseSepRE splits a lead into its clauses.
var leadClauseSepRE = regexp.MustCompile(`[;.]\s+|\s+[—–]\s+`)

// onlyInContrast reports whether figure g of a lead is stated only in
// clauses set against the answer ("; LTS releases, by contrast, get five
// years of support"): a figure of another case, which an aside about
// that case does not make another answer.
func onlyInContrast(g figure, lead string) bool {
	var in, out []string
	for _, c := range leadClauseSepRE.Split(lead, -1) {
		if otherCaseRE.MatchString(c) {
			in = append(in, c)
		} else {
			out = append(out, c)
		}
	}
	return len(in) > 0 && matchesAny(g, figuresOf(extract(strings.Join(in, ". ")))) && !matchesAny(g, figuresOf(extract(strings.Join(out, ". "))))
}
