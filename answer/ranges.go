package answer

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Policies state thresholds as ranges ("up to 1,000 euro", "from 1,000.01
// to 10,000 euro", "above 5,000"); a question about a figure ("a server
// that costs 4,000 euro") is answered by the range that holds it, which
// shares no word with the question. inRange lets the offline answerer
// prefer that sentence or row.

// numberPattern matches a figure with thousands separators or decimals in
// English or Italian style: 4,000 · 4.000 · 1,000.01 · 0,42 · 15.
const numberPattern = `\d{1,3}(?:[.,]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d+)?`

var (
	numberRE = regexp.MustCompile(`\b(?:` + numberPattern + `)\b`)
	// betweenRE: "from A to B", "between A and B", "da A a B", "A–B".
	betweenRE = regexp.MustCompile(`(?i)(?:\b(?:from|between|da|tra|fra)\s+)?(` + numberPattern + `)\s*(?:[^\d\s|]{0,12}\s+)?(?:to|and|a|e|-|–|—)\s*(` + numberPattern + `)\b`)
	// upToRE: "up to B", "under B", "fino a B": the range below B.
	// The bound may also follow the figure, within two words: "9 or
	// fewer participants", "120 days or less", "10 giorni o meno".
	upToRE = regexp.MustCompile(`(?i)\b(?:up to|under|below|less than|fewer than|at most|no more than|not more than|maximum of|max|fino a|sotto|meno di|inferiore a|inferiori a|al massimo|non oltre)\s+(?:[$€£]\s?)?(` + numberPattern + `)|\b(` + numberPattern + `)\s+(?:\p{L}+\s+){0,2}?(?:or|o)\s+(?:fewer|less|under|below|lower|meno|inferiori?)\b`)
	// aboveRE: "above A", "over A", "more than A", "oltre A": above A.
	// "5 years or more", "10 or above", "3 anni o più", "20 e oltre".
	aboveRE = regexp.MustCompile(`(?i)\b(?:above|over|more than|exceeding|greater than|at least|oltre|sopra|più di|superiore a|superiori a|maggiore di|almeno)\s+(?:[$€£]\s?)?(` + numberPattern + `)|\b(` + numberPattern + `)\s+(?:\p{L}+\s+){0,2}?(?:(?:or|o)\s+(?:more|above|over|greater|longer|higher|più|superiori?)|(?:and|e)\s+(?:above|over|oltre))(?:\s|$|[.,;:)])`)
)

// parseNumber reads a figure written in English or Italian style: a
// separator followed by exactly three digits groups thousands, any other
// is the decimal point.
func parseNumber(s string) (float64, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '.' && c != ',' {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j-i-1 == 3 && (j == len(s) || s[j] == '.' || s[j] == ',') && i > 0 {
			continue // thousands
		}
		b.WriteByte('.')
	}
	v, err := strconv.ParseFloat(b.String(), 64)
	return v, err == nil
}

// numbers returns the figures of a question, leaving out years (a year
// is a date, never an amount a range holds), and with them the number
// words followed by a unit ("six years", "sei anni": not "sei" alone,
// which is also "you are").
func numbers(question string) []float64 {
	var out []float64
	for _, m := range numberRE.FindAllString(question, -1) {
		v, ok := parseNumber(m)
		if !ok || (len(m) == 4 && v >= 1900 && v <= 2100) {
			continue
		}
		out = append(out, v)
	}
	for _, m := range numberWordUnitRE.FindAllStringSubmatch(question, -1) {
		out = append(out, numberWords[strings.ToLower(m[1])])
	}
	return out
}

// numberWordUnitRE: a number word followed by a unit ("six years").
var numberWordUnitRE = regexp.MustCompile(`(?i)\b(` + numWords + `)\s+` + units)

// figureUnits returns the unit of time that each figure of text counts
// in, where a unit of time follows it ("6 years", "sei anni"); a figure
// stated in two units is left out.
func figureUnits(text string) map[float64]string {
	out := map[float64]string{}
	seen := map[float64]bool{}
	for _, m := range figureUnitRE.FindAllStringSubmatch(text, -1) {
		v, ok := numberWords[strings.ToLower(m[1])]
		if !ok {
			if v, ok = parseNumber(m[1]); !ok {
				continue
			}
		}
		u := timeUnits[strings.ToLower(m[2])]
		if seen[v] && out[v] != u {
			delete(out, v)
			continue
		}
		seen[v], out[v] = true, u
	}
	return out
}

// figureUnitRE: a figure, in digits or a word, and the unit of time
// after it, within one qualifying word ("6 working days").
var figureUnitRE = regexp.MustCompile(`(?i)\b(` + numberPattern + `|` + numWords + `)\s+(?:\p{L}+\s+)?(minutes?|hours?|days?|nights?|weeks?|months?|years?|minut[oi]|or[ae]|giorn[oi]|nott[ei]|settiman[ae]|mes[ei]|ann[oi])\b`)

// outOfRange reports whether s states a range or a bound and none that
// it states holds a figure of the question, whether s states that
// figure: s is about another case than the question's ("fewer
// than 3 years: 4 hours" for "after six years").
func outOfRange(figures []float64, s string) bool {
	ranges := statedRanges(s)
	if len(figures) == 0 || len(ranges) == 0 {
		return false
	}
	for _, r := range ranges {
		for _, f := range figures {
			if f >= r[0] && f <= r[1] {
				return false
			}
		}
	}
	return true
}

// inRange reports whether a range stated in s holds one of the figures,
// which s does not state itself (a figure the sentence repeats is already
// a shared word).
func inRange(figures []float64, s string) bool {
	if len(figures) == 0 {
		return false
	}
	stated := map[float64]bool{}
	for _, m := range numberRE.FindAllString(s, -1) {
		if v, ok := parseNumber(m); ok {
			stated[v] = true
		}
	}
	for _, r := range statedRanges(s) {
		for _, f := range figures {
			if !stated[f] && f >= r[0] && f <= r[1] {
				return true
			}
		}
	}
	return false
}

// statedRanges returns the ranges s states, each as its lowest and
// highest value: "from A to B", "up to B", "above A" (infinite ends).
func statedRanges(s string) [][2]float64 {
	var out [][2]float64
	for _, m := range betweenRE.FindAllStringSubmatch(s, -1) {
		lo, ok1 := parseNumber(m[1])
		hi, ok2 := parseNumber(m[2])
		if ok1 && ok2 && lo < hi {
			out = append(out, [2]float64{lo, hi})
		}
	}
	for _, m := range upToRE.FindAllStringSubmatch(s, -1) {
		if hi, ok := parseNumber(bounded(m)); ok {
			out = append(out, [2]float64{math.Inf(-1), hi})
		}
	}
	for _, m := range aboveRE.FindAllStringSubmatch(s, -1) {
		if lo, ok := parseNumber(bounded(m)); ok {
			out = append(out, [2]float64{lo, math.Inf(1)})
		}
	}
	return out
}

// bounded returns the figure a match of upToRE or aboveRE bounds: the
// one after the bound's words or the one before them.
func bounded(m []string) string {
	if m[1] != "" {
		return m[1]
	}
	return m[2]
}

// pronounLed reports whether a sentence opens with a pronoun whose
// referent is in the sentence before ("It must be…", "Questo vale…").
var pronounLedRE = regexp.MustCompile(`^(?:[-*•]\s+)?(?i:it|this|these|they|that|those|such|its|their|esso|essa|essi|esse|questo|questa|questi|queste|ciò|tale|tali)\b`)

func pronounLed(s string) bool { return pronounLedRE.MatchString(strings.TrimSpace(s)) }

// rangeJoinRE matches what joins the two ends of a range: "12:00 to
// 14:30", "9-17", "2 or 3 days", "dalle 9 alle 18", "da lunedì a venerdì".
var rangeJoinRE = regexp.MustCompile(`(?i)^\s*(?:-|–|—|to|until|till|through|or|a|al|alle|all'|fino a|fino al|fino alle|o)\s*$`)

// joinOpensRE: a span that opens with the word joining it to the one
// before ("dalle 9" "alle 18").
var joinOpensRE = regexp.MustCompile(`(?i)^(?:alle|al|a|fino a|fino alle)\s`)

// pairOpenRE: a range whose ends "and"/"e" joins opens with between/tra.
var pairOpenRE = regexp.MustCompile(`(?i)\b(?:between|tra|fra)\s+$`)

// pairJoinRE: "and" or "e" between the ends of a "between" range.
var pairJoinRE = regexp.MustCompile(`(?i)^\s*(?:and|e)\s*$`)

// mergeRanges joins spans of s (in order) that are the two ends of one
// range, so that a range is read whole: "from 1,000.01 to 10,000 euro" is
// one answer, its first figure alone a wrong one.
func mergeRanges(s string, spans [][2]int) [][2]int {
	var out [][2]int
	for _, sp := range spans {
		if n := len(out); n > 0 && sp[0] >= out[n-1][1] {
			gap := s[out[n-1][1]:sp[0]]
			joined := rangeJoinRE.MatchString(gap) || pairJoinRE.MatchString(gap) && pairOpenRE.MatchString(s[:out[n-1][0]]) ||
				strings.TrimSpace(gap) == "" && joinOpensRE.MatchString(s[sp[0]:sp[1]])
			if joined {
				out[n-1][1] = sp[1]
				continue
			}
		}
		out = append(out, sp)
	}
	return out
}

// qualifierRE: the words before a figure without which it would say
// something else: a range's opening ("from", "between", "dalle") or a
// frequency ("every", "ogni").
var qualifierRE = regexp.MustCompile(`(?i)\b(?:from|between|every|each|da|dal|dalla|dalle|dall'|tra|fra|ogni)\s+$`)

// qualified extends each span of s over the qualifier right before it:
// "every 2 hours", not "2 hours", when the sentence says "every".
func qualified(s string, spans [][2]int) [][2]int {
	out := make([][2]int, len(spans))
	for i, sp := range spans {
		if loc := qualifierRE.FindStringIndex(s[:sp[0]]); loc != nil {
			sp[0] = loc[0]
		}
		out[i] = sp
	}
	return out
}

// numberWords are the values of the number words fonte reads in English
// and Italian.
var numberWords = map[string]float64{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "sixty": 60, "ninety": 90,
	"due": 2, "tre": 3, "quattro": 4, "cinque": 5, "sei": 6, "sette": 7, "otto": 8, "nove": 9, "dieci": 10,
	"undici": 11, "dodici": 12, "quindici": 15, "venti": 20, "trenta": 30, "sessanta": 60, "novanta": 90,
	"thirteen": 13, "fourteen": 14, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
	"forty": 40, "fifty": 50, "seventy": 70, "eighty": 80, "tredici": 13, "quattordici": 14, "sedici": 16,
	"diciassette": 17, "diciotto": 18, "diciannove": 19, "quaranta": 40, "cinquanta": 50, "settanta": 70, "ottanta": 80,
}

// figures returns every figure text states, in digits or in words ("six
// years" is 6), years included; "uno"/"una", which are also articles, are
// left out.
func figures(text string) []float64 {
	var out []float64
	for _, m := range numberRE.FindAllString(text, -1) {
		if v, ok := parseNumber(m); ok {
			out = append(out, v)
		}
	}
	for _, w := range asciiWords(text) {
		if v, ok := numberWords[w]; ok {
			out = append(out, v)
		}
	}
	return out
}
