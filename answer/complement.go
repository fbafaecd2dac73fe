package answer

import "regexp"

// complementRE: a "that" or "che" that opens what a verb of saying,
// meaning or requiring states ("this means that you will need at least
// six people", "la regola prevede che servano almeno due persone"). The
// clause it opens is the rule itself, not a condition on it, unlike the
// relative "that" of "any trip that lasts over 12 hours".
var complementRE = regexp.MustCompile(`(?i)\b(?:means?|meant|implies|imply|says?|said|states?|shows?|ensures?|ensuring|requires?|expects?|significa|vuol dire|implica|prevede|stabilisce|richiede|indica|dice|garantisce|assicura)\s+(?:that|che)\b`)

// withoutComplements removes from before the complement openers of
// complementRE, so that threshold reads only the conditions and relative
// clauses left.
func withoutComplements(before string) string {
	return complementRE.ReplaceAllString(before, " ")
}
