package judge

import (
	"regexp"
	"strings"
)

// howManyRE matches a question that asks how many of something, with
// the word that names it and the next: "how many types", "quanti tipi
// di", "quante volte".
var howManyRE = regexp.MustCompile(`(?i)\b(?:how many|quant[ie])\s+([\p{L}'’]+)(?:\s+([\p{L}'’]+))?`)

// countedByQuestion gives a reference's bare numbers the unit the
// question counts ("8" to "Quanti tipi di namespace ci sono?" is 8
// tipi), as a bare number of the answer counts it: so "6 tipi" is
// another count of the same thing, not a figure of its own.
func countedByQuestion(question string, facts []fact) {
	m := howManyRE.FindStringSubmatch(question)
	if m == nil {
		return
	}
	// The word counted is the noun alone: "how many user journeys"
	// counts journeys, which a word-by-word unit does not hold.
	w := strings.ToLower(m[1])
	if stopwords[w] || m[2] != "" && !stopwords[strings.ToLower(m[2])] {
		return
	}
	u, ok := lookupUnit(w)
	if !ok {
		u = wordUnit(w)
	}
	for i, f := range facts {
		if f.kind == figureFact && f.fig.unit.empty() && f.fig.label == "" && f.fig.clock < 0 && !isYear(f.fig.value) {
			facts[i].fig.unit = u
		}
	}
}
