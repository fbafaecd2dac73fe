package judge

import (
	"regexp"
	"strings"
)

// A short answer that lists a name of its own beside one of the
// reference's, joined by a comma or "and" ("CKAN and WordPress" for
// CKAN, DKAN and Socrata), gives that name as one of the answer's
// items in place of the reference's it leaves out, as a name glued to
// a found one does ("Google Analytics" for Web Analytics Italia).

// listJoin matches what joins two items of a list: a comma, "and",
// "e", "ed", "&", with a comma before "and" or not.
const listJoin = `\s*(?:,\s*(?:and\s+|e\s+|ed\s+)?|\s+(?:and|e|ed|&)\s+)\s*`

// listedWithFoundName reports whether name g stands in text's list
// right before or right after a name of the lead that the reference
// holds.
func listedWithFoundName(g fact, lead []fact, ref reference, text string) bool {
	for _, h := range lead {
		if h.kind != nameFact || !refHas(ref, h) || h.key == g.key {
			continue
		}
		a, b := regexp.QuoteMeta(h.text), regexp.QuoteMeta(g.text)
		re, err := regexp.Compile(`(?i)(?:^|[^\p{L}\p{N}])(?:` + a + listJoin + b + `|` + b + listJoin + a + `)(?:$|[^\p{L}\p{N}])`)
		if err == nil && re.MatchString(strings.TrimSpace(text)) {
			return true
		}
	}
	return false
}
