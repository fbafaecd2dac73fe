package judge

import "regexp"

// partBreakRE splits a reference into its parts: clauses and list items,
// at a stop, a semicolon, a colon, a comma, and "and", "or", "then",
// "e", "o", "poi" between them.
var partBreakRE = regexp.MustCompile(`(?i)\s*[.;:,]\s+|\s*[.;:,]$|\s+(?:and|or|then|and then|e|ed|o|oppure|poi|e poi)\s+`)

// minPartStems is how many content words of one part of the reference
// an answer must state, beside each other in its words, before it
// states that part: one shared word is chance.
const minPartStems = 2

// statesAPart reports whether an answer states one part of the
// reference whole: two or more of its content words that the question
// does not give, and two thirds of them, within a few words of each
// other ("Ritirare il badge alla reception" for "Firmare il contratto
// …, caricare … sul portale e ritirare il badge alla reception"). A part
// with a key fact is left to the fact. README's rules 1 and 9 call an
// answer that states one of a reference's required parts partial, not
// wrong.
func statesAPart(question, reference, answer string) bool {
	given := map[string]bool{}
	for _, s := range contentStems(question) {
		given[s] = true
	}
	// A quoted passage states a part only where it is about the
	// question: a clause's words in a passage on something else are
	// chance.
	if cited(answer) && !about(withoutCitations(answer), topicStems(question)) {
		return false
	}
	words := stemsOf(withoutCitations(answer))
	for _, part := range partBreakRE.Split(asideRE.ReplaceAllString(reference, " "), -1) {
		// A part with a key fact is stated by the fact, which the
		// judge looks for on its own.
		if len(extract(part)) > 0 {
			continue
		}
		var own []string
		for _, s := range contentStems(part) {
			if !given[s] {
				own = append(own, s)
			}
		}
		if len(own) >= minPartStems && nearby(own, words, len(own)+partSlack) >= max(minPartStems, ceilShare(rightCoverage, len(own))) {
			return true
		}
	}
	return false
}

// partSlack is how many words beyond a part's own an answer may put
// between them ("two-factor authentication on your account" for "turn
// on two-factor authentication"): words spread over a passage are
// chance.
const partSlack = 3

// ceilShare is the least whole number of n that is share of it.
func ceilShare(share float64, n int) int {
	k := int(share * float64(n))
	if float64(k) < share*float64(n) {
		k++
	}
	return k
}

// nearby returns the most of stems that any window of width words of
// the answer's stems holds.
func nearby(stems, words []string, width int) int {
	want := map[string]bool{}
	for _, s := range stems {
		want[s] = true
	}
	best := 0
	for i := range words {
		seen := map[string]bool{}
		for j := i; j < len(words) && j < i+width; j++ {
			if want[words[j]] {
				seen[words[j]] = true
			}
		}
		best = max(best, len(seen))
	}
	return best
}
