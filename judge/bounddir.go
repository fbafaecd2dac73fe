package judge

import (
	"fmt"
	"regexp"
	"strings"
)

// A figure may be said as a bound: a ceiling ("up to 8", "al massimo
// 8", "9 or fewer"), a floor ("at least 12", "almeno 12"), or strictly
// past a value ("over 90 days", "più di 90 giorni", "under 18"). The
// same number bounded the other way is another fact ("at least 8
// people" for up to 8), and a number the reference states as it is,
// said as strictly more or less than itself, is too ("over 90 days"
// for 90 days, README rule 6). A ceiling or floor said of an exact
// figure ("at least twelve characters" for 12) claims nothing against
// it.

// Bound directions.
const (
	boundCeiling = "ceiling" // at most the value
	boundBelow   = "below"   // strictly under it
	boundFloor   = "floor"   // at least the value
	boundAbove   = "above"   // strictly over it
	boundBefore  = "before"  // a time or date before
	boundAfter   = "after"   // a time or date after
	boundUnread  = "unread"  // negated or set as a condition
)

// boundWords maps the words before a number to the bound they make.
// Longer phrases come first, so that "no more than" is a ceiling and
// not "more than".
var boundWords = []struct {
	re  *regexp.Regexp
	dir string
}{
	{regexp.MustCompile(`(?i)\b(?:no|not) more than\s*$|\bnon più di\s*$|\bnon oltre` + boundTail), boundCeiling},
	{regexp.MustCompile(`(?i)\b(?:no|not) (?:less|fewer) than\s*$|\bnon meno di` + boundTail), boundFloor},
	{regexp.MustCompile(`(?i)\b(?:up to|at most|a maximum of|maximum of|max\.?|within|fino a|fino ad|al massimo|massimo|un massimo di|entro)` + boundTail), boundCeiling},
	{regexp.MustCompile(`(?i)\b(?:at least|a minimum of|minimum of|min\.?|almeno|al minimo|minimo|un minimo di)` + boundTail), boundFloor},
	{regexp.MustCompile(`(?i)\b(?:more than|above|greater than|longer than|più di|oltre|superiore a)` + boundTail), boundAbove},
	{regexp.MustCompile(`(?i)\b(?:less than|fewer than|below|shorter than|meno di|inferiore a)` + boundTail), boundBelow},
	{regexp.MustCompile(`(?i)\b(?:before|prima d\p{L}*|prima di)` + boundTail), boundBefore},
	{regexp.MustCompile(`(?i)\b(?:after|dopo|dopo il|dopo l[ae']?)` + boundTail), boundAfter},
	// "over 12 months" may be a period as well as a bound: neither is
	// read, and the reference's figure is not taken as exact.
	{regexp.MustCompile(`(?i)\b(?:over|under|sopra|sotto)` + boundTail), boundUnread},
}

// boundTail ends a bound's words before its number, with an article
// between ("oltre i 90 giorni", "more than the 3 days").
const boundTail = `\s*(?:(?:the|il|lo|la|i|gli|le|l['’])\s*)?$`

// boundAfterRE matches a bound said after its number and up to two
// words: "9 or fewer", "20 or more", "10 o meno", "5 o più".
var boundAfterRE = regexp.MustCompile(`(?i)^(?:\s+[\p{L}'’]+){0,2}\s+(?:or|o)\s+(fewer|less|under|below|more|over|above|meno|più|piu)\b`)

// boundHedgeRE matches a negation or a condition shortly before a
// bound.
var boundHedgeRE = regexp.MustCompile(`(?i)\b(?:not|no|never|if|unless|non|mai|se|qualora|a meno che)\b`)

// boundNumberRE matches a number in digits, with a currency sign before
// it, or a number word.
var boundNumberRE = regexp.MustCompile(`[$€£]?\s?\b(\d[\d.,]*\d|\d)\b|\b\p{L}+\b`)

// boundsOf returns, for each number of text said as a bound, the
// bound's direction.
func boundsOf(text string) map[float64]string {
	out := map[float64]string{}
	for _, m := range boundNumberRE.FindAllStringSubmatchIndex(text, -1) {
		tok := text[m[0]:m[1]]
		if m[2] >= 0 {
			tok = text[m[2]:m[3]]
		}
		v, ok := numberValue(tok)
		if !ok {
			continue
		}
		before := text[max(0, m[0]-24):m[0]]
		dir := ""
		for _, b := range boundWords {
			if b.re.MatchString(before) {
				dir = b.dir
				break
			}
		}
		if dir == "" {
			if a := boundAfterRE.FindStringSubmatch(text[m[1]:]); a != nil {
				switch strings.ToLower(a[1]) {
				case "fewer", "less", "under", "below", "meno":
					dir = boundCeiling
				default:
					dir = boundFloor
				}
			}
		}
		// A bound negated or set as a condition states the other side
		// ("not for 120 days or less", "only if it lasts longer than 120
		// days"): its direction is not read.
		if dir != "" && boundHedgeRE.MatchString(text[max(0, m[0]-40):m[0]]) {
			dir = boundUnread
		}
		if _, seen := out[v]; !seen || dir != "" {
			out[v] = dir
		}
	}
	return out
}

// upward reports whether a direction bounds from below, downward from
// above.
func upward(dir string) bool   { return dir == boundFloor || dir == boundAbove || dir == boundAfter }
func downward(dir string) bool { return dir == boundCeiling || dir == boundBelow || dir == boundBefore }

// boundTurned returns a contradiction for each number a lead states as
// a bound the other way from the reference's, or as strictly past the
// number the reference states as it is.
func boundTurned(ref reference, reference string, leadFacts []fact, leadText string) []string {
	refBounds := boundsOf(withoutCitations(asideRE.ReplaceAllString(reference, " ")))
	leadBounds := boundsOf(withoutCitations(leadText))
	var out []string
	for _, f := range figuresOf(ref.facts) {
		if f.clock >= 0 {
			continue // a time of day: "before 15:00" is judged as a time
		}
		rd, inRef := refBounds[f.value]
		if !inRef || !matchesAny(f, figuresOf(leadFacts)) {
			continue
		}
		ld, inLead := leadBounds[f.value]
		if !inLead || ld == "" || ld == boundUnread || rd == boundUnread {
			continue
		}
		turned := upward(rd) && downward(ld) || downward(rd) && upward(ld)
		past := rd == "" && (ld == boundAbove || ld == boundBelow)
		if turned || past {
			out = append(out, fmt.Sprintf("the lead bounds %s %s, the reference %s", formatValue(f.value), ld, orExact(rd)))
		}
	}
	return out
}

// orExact names a direction, "exact" for none.
func orExact(dir string) string {
	if dir == "" {
		return "exact"
	}
	return dir
}
