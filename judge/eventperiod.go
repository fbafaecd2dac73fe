package judge

import "regexp"

// A reference that ties a "when" to an event ("after each application
// change", "ogni volta che il codice cambia") gives no period; a lead
// that answers with a period of the calendar ("Once a year", "ogni
// mese") puts another schedule in its place.

// eachEventRE matches a time tied to each occurrence of an event.
var eachEventRE = regexp.MustCompile(`(?i)\b(?:after|before|on|with|at) (?:each|every|any)\b|\b(?:whenever|each time|every time|any time)\b|\b(?:dopo|prima di|a|ad|con|in occasione di) (?:ogni|ciascun[oa]?)\b|\bogni (?:volta|qualvolta)\b|\bogniqualvolta\b`)

// periodRE matches a period of the calendar said as a schedule.
var periodRE = regexp.MustCompile(`(?i)\b(?:once|twice|three times) (?:a|an|per|every) (?:day|week|month|quarter|year)\b|\b(?:every|each) (?:\d+ |other |two |three |six )?(?:days?|weeks?|months?|quarters?|years?)\b|\b(?:daily|weekly|fortnightly|monthly|quarterly|yearly|annually)\b` +
	`|\b(?:una|due|tre) volt[ae] (?:al|all'|alla|l'|ogni) ?(?:giorno|settimana|mese|trimestre|anno)\b|\bogni (?:\d+ |due |tre |sei )?(?:giorn[oi]|settiman[ae]|mes[ei]|trimestr[ei]|ann[oi])\b|\b(?:quotidianamente|settimanalmente|mensilmente|annualmente|trimestralmente)\b`)

// periodForEvent returns what a lead says against a reference that ties
// its time to each occurrence of an event: a period of the calendar in
// its place.
func periodForEvent(reference, lead string) []string {
	if !eachEventRE.MatchString(reference) || periodRE.MatchString(reference) || eachEventRE.MatchString(lead) {
		return nil
	}
	if m := periodRE.FindString(lead); m != "" {
		return []string{"the lead gives a period (" + m + ") where the reference ties it to an event"}
	}
	return nil
}
