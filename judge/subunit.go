package judge

import "regexp"

// A word made of "sub" and a unit of time ("subsecond", "sub-minute")
// says under one of that unit: the figure a bound states in words
// ("under a second", "meno di un secondo"), and another unit ("less than
// a millisecond") is another figure.

// subUnitRE matches "sub" joined to a unit of time.
var subUnitRE = regexp.MustCompile(`(?i)\bsub-?(millisecond|second|minute|hour|day)s?\b`)

// withSubUnitsAsBounds writes "subsecond" as "under 1 second".
func withSubUnitsAsBounds(text string) string {
	return subUnitRE.ReplaceAllString(text, "under 1 $1")
}
