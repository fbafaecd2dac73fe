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
	main := asideRE.ReplaceAllString(reference, " ")
	if headingStated(main, words, given) {
		return true
	}
	for _, part := range partBreakRE.Split(main, -1) {
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
		if len(own) == 1 && soleWordsOf(question, answer, own) {
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

// headingRE matches a reference's opening phrase before a colon, the
// short answer its rest details: "A standard schedule: 8 hours a day",
// "A ciascun lotto: il rilascio va fatto entro 15 giorni".
var headingRE = regexp.MustCompile(`^\s*([^:;.,]{3,60}?)\s*:\s+\S`)

// headingStated reports whether an answer states the opening phrase
// of a reference that puts one before a colon, every content word of
// it side by side, one at least the question's own words do not give:
// the answer in brief, without what the reference adds after it. A
// phrase with a key fact ("Sei: …", "No: …") is left to the fact.
func headingStated(reference string, words []string, given map[string]bool) bool {
	m := headingRE.FindStringSubmatch(reference)
	if m == nil || len(extract(m[1])) > 0 {
		return false
	}
	stems := contentStems(m[1])
	own := 0
	for _, s := range stems {
		if !given[s] {
			own++
		}
	}
	return own > 0 && nearby(stems, words, len(stems)+1) == len(stems)
}

// soleWordsOf reports whether an answer of its own says nothing but a
// part of one content word beside the question's ("Il tuo
// responsabile." for "Il tuo responsabile, poi l'ufficio Finanza"): it
// states that part and no other thing, which one shared word in a
// longer answer or a quoted passage would not show.
func soleWordsOf(question, answer string, part []string) bool {
	if cited(answer) {
		return false
	}
	given := map[string]bool{}
	for _, s := range contentStems(question) {
		given[s] = true
	}
	var own []string
	for _, s := range contentStems(answer) {
		if !given[s] {
			own = append(own, s)
		}
	}
	return len(own) == len(part) && own[0] == part[0]
}
