package answer

import "regexp"

// "Who is the Data Protection Officer?" asks whom a role names. A
// sentence answers it by joining a name to the role with no more than a
// copula or a colon between them ("Maria Rossi is our Data Protection
// Officer", "Data Protection Officer: Maria Rossi"); "the security team
// informs the Data Protection Officer" names someone else, who acts on
// the role, and its "the security team" must not lead.

// identityRE: a question that asks who is, or who are, someone.
var identityRE = regexp.MustCompile(`^(?:who(?:'s| is| are| was| were)|chi (?:è|sono|era))\s`)

// identityAsked reports whether question asks who someone is.
func identityAsked(question string) bool { return identityRE.MatchString(askedPart(question)) }

// joined reports whether the span cand of s is joined to a topic word of
// the question with nothing but function words, punctuation and the
// question's own words between them (the copula is a function word).
func (l leader) joined(s string, cand [2]int) bool {
	for _, w := range wordSpans(s) {
		if w[1] > cand[0] && w[0] < cand[1] || l.held(ContentKeys(s[w[0]:w[1]])) == 0 {
			continue
		}
		lo, hi := w[1], cand[0]
		if w[0] >= cand[1] {
			lo, hi = cand[1], w[0]
		}
		if questionWords(s[lo:hi], l.want) || len(ContentKeys(s[lo:hi])) == 0 {
			return true
		}
	}
	return false
}
