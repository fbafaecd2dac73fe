package judge

import (
	"regexp"
	"strconv"
)

// latinSuffixRE matches a provision numbered with a Latin suffix, as
// Italian laws insert one between two others: "2-bis", "12 ter".
var latinSuffixRE = regexp.MustCompile(`(?i)^(\d+)[- ]?(?:bis|ter|quater|quinquies|sexies|septies|octies)$`)

// latinSuffixLead returns what a span lead states when it is the bare
// number of a provision the reference numbers with a Latin suffix:
// "comma 2 —" for "il comma 2-bis" names comma 2, another provision.
func latinSuffixLead(ref reference, leadFacts []fact, ld lead) []string {
	if !ld.span {
		return nil
	}
	for _, f := range ref.facts {
		m := latinSuffixRE.FindStringSubmatch(f.text)
		if f.kind != codeFact || m == nil || len(codesOf(leadFacts, f.key)) > 0 {
			continue
		}
		n, _ := strconv.ParseFloat(m[1], 64)
		for _, g := range figuresOf(leadFacts) {
			if g.unit.empty() && g.clock < 0 && equalValues(g.value, n) {
				return []string{describe(g) + " against " + f.text + ", another provision"}
			}
		}
	}
	return nil
}

// codesOf returns the codes of facts whose compared form is key.
func codesOf(facts []fact, key string) []fact {
	var out []fact
	for _, g := range facts {
		if g.kind == codeFact && g.key == key {
			out = append(out, g)
		}
	}
	return out
}
