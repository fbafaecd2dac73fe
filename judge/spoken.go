package judge

import "strings"

// Figures as people say them rather than write them: "half an hour",
// "a year", "nove e mezza", "2 million", "noon", "3 del pomeriggio".
// Each is the figure it means, so that it states the reference's figure
// in digits, and contradicts another.

// spokenFigure reads a figure said without digits at word i: half of a
// unit of time ("half an hour", "mezz'ora", "mezza giornata"), one unit
// of time said with an article ("a year", "an hour", "un'ora"), or a
// named time of day ("noon", "mezzanotte"). It returns the figure and how
// many words after i it used.
func spokenFigure(toks []token, lower []string, i int) (figure, int, bool) {
	w := strings.ReplaceAll(lower[i], "’", "'")
	if m, ok := namedTimes[w]; ok {
		return figure{value: float64(m), clock: m}, 0, true
	}
	if w == "mezz'ora" || w == "mezzora" {
		return figure{value: 0.5, unit: units["hour"], clock: -1}, 0, true
	}
	// "un'ora": the elided article is the number one; "un'ora e mezza"
	// one and a half.
	if rest, ok := strings.CutPrefix(w, "un'"); ok {
		if u, ok := lookupUnit(rest); ok && u.dim == "time" {
			if h := halfAfter(lower, i+1); h > 0 {
				return figure{value: 1.5, unit: u, clock: -1}, h, true
			}
			return figure{value: 1, unit: u, clock: -1}, 0, true
		}
	}
	// "three-day", "two-week": a number word joined to its unit is the
	// figure, as "3-day" is.
	if a, b, ok := strings.Cut(w, "-"); ok {
		if v, ok := wordNumber(a); ok {
			if u, ok := lookupUnit(b); ok && u.known() && u.dim != "occurrence" {
				return figure{value: v, unit: u, clock: -1}, 0, true
			}
		}
	}
	next := func(j int) string { // word i+j, in the same sentence
		if i+j < len(toks) && !toks[i+j].sentStart {
			return lower[i+j]
		}
		return ""
	}
	// "a quarter of an hour", "un quarto d'ora": 15 minutes.
	if w == "quarter" && next(1) == "of" && (next(2) == "an" || next(2) == "a") && next(3) == "hour" {
		return figure{value: 15, unit: units["minute"], clock: -1}, 3, true
	}
	if w == "quarto" && strings.ReplaceAll(next(1), "’", "'") == "d'ora" {
		return figure{value: 15, unit: units["minute"], clock: -1}, 1, true
	}
	// "a couple of weeks", "un paio di giorni", "un paio d'ore": two of
	// the unit.
	if w == "couple" && next(1) == "of" {
		if u, ok := lookupUnit(next(2)); ok {
			return figure{value: 2, unit: u, clock: -1}, 2, true
		}
	}
	if w == "paio" {
		if u, ok := lookupUnit(next(2)); ok && next(1) == "di" {
			return figure{value: 2, unit: u, clock: -1}, 2, true
		}
		if rest, ok := strings.CutPrefix(strings.ReplaceAll(next(1), "’", "'"), "d'"); ok {
			if u, ok := lookupUnit(rest); ok {
				return figure{value: 2, unit: u, clock: -1}, 1, true
			}
		}
	}
	// "half an hour", "half a day", "mezza giornata", "mezza ora".
	if w == "half" && (next(1) == "a" || next(1) == "an") {
		if u, ok := timeUnit(next(2)); ok {
			return figure{value: 0.5, unit: u, clock: -1}, 2, true
		}
	}
	if w == "mezza" || w == "mezzo" {
		if u, ok := timeUnit(next(1)); ok {
			return figure{value: 0.5, unit: u, clock: -1}, 1, true
		}
	}
	// "a year", "an hour", "a fortnight": one of the unit, unless the
	// article makes a rate of what comes before it ("8 hours a day",
	// "twice a week", "€50 a night").
	// A unit's abbreviation in capitals is an acronym: "a HR" is "to
	// Human Resources" in Italian, not an hour.
	if (w == "a" || w == "an") && !ratePrefix(toks, lower, i) && !(i+1 < len(toks) && allCaps(toks[i+1].text)) {
		if u, ok := timeUnit(next(1)); ok {
			// "an hour and a half" is one and a half hours, not one.
			if h := halfAfter(lower, i+2); h > 0 {
				return figure{value: 1.5, unit: u, clock: -1}, 1 + h, true
			}
			return figure{value: 1, unit: u, clock: -1, article: true}, 1, true
		}
	}
	return figure{}, 0, false
}

// italianUnitWords are the Italian words of units after which "due" is the
// number two, whatever the language of the text around it.
var italianUnitWords = setOf("secondi minuti ore giorni settimane mesi anni notti euro volte persone caratteri tentativi pagine cifre")

// timeUnit returns the unit of time a word names, with Italian
// "giornata" for a day.
func timeUnit(w string) (unit, bool) {
	if w == "giornata" {
		return units["day"], true
	}
	u, ok := lookupUnit(w)
	return u, ok && u.dim == "time"
}

// ratePrefix reports whether the word before i makes an article at i the
// "per" of a rate: a figure, a unit, a count of times.
func ratePrefix(toks []token, lower []string, i int) bool {
	if i == 0 || toks[i].sentStart {
		return false
	}
	p := lower[i-1]
	if _, ok := lookupUnit(p); ok || hasDigit(p) || rateWords[p] {
		return true
	}
	_, isNumber := wordNumber(p)
	return isNumber
}

// rateWords are the words after which "a week" is "per week".
var rateWords = setOf("once twice times per every each volte")

// namedTimes are the times of day that have a name, in minutes after
// midnight.
var namedTimes = map[string]int{"noon": 12 * 60, "midday": 12 * 60, "mezzogiorno": 12 * 60, "midnight": 0, "mezzanotte": 0}

// halfAfter returns how many words after word j say "and a half" or "e
// mezzo" ("nine and a half", "nove e mezza", and the clipped "one and
// half hours"), or 0.
func halfAfter(lower []string, j int) int {
	at := func(k int) string {
		if j+k < len(lower) {
			return lower[j+k]
		}
		return ""
	}
	switch {
	case at(0) == "and" && at(1) == "a" && at(2) == "half":
		return 3
	case at(0) == "and" && at(1) == "half":
		return 2
	case at(0) == "e" && (at(1) == "mezzo" || at(1) == "mezza"):
		return 2
	}
	return 0
}

// withHalf adds a half said after a number ("nine and a half hours") or
// after its unit ("nove ore e mezza") to figure f of the number at word
// i. It returns the figure and how many words after i the half used
// before the unit, so that the unit is looked for after them.
func withHalf(f figure, lower []string, i int) (figure, int) {
	if f.clock >= 0 {
		return f, 0
	}
	if h := halfAfter(lower, i+1); h > 0 {
		f.value += 0.5
		return f, h
	}
	if f.unit.known() && halfAfter(lower, i+2) > 0 {
		f.value += 0.5
	}
	return f, 0
}

// multipliers are the words that scale the number before them: "2
// million", "1,5 milioni", "3 mila".
var multipliers = map[string]float64{
	"thousand": 1e3, "mila": 1e3, "million": 1e6, "millions": 1e6, "milione": 1e6, "milioni": 1e6, "mln": 1e6,
	"billion": 1e9, "billions": 1e9, "miliardo": 1e9, "miliardi": 1e9, "mld": 1e9,
}

// dayPart returns "am" or "pm" when the words from j say the part of the
// day of an hour before them ("3 del pomeriggio", "nine in the
// evening"), and how many words they are.
func dayPart(lower []string, j int) (string, int) {
	at := func(k int) string {
		if j+k < len(lower) {
			return lower[j+k]
		}
		return ""
	}
	first, n := at(0), 2
	part := at(1)
	if first == "in" && at(1) == "the" {
		part, n = at(2), 3
	} else if first != "di" && first != "del" && first != "della" {
		return "", 0
	}
	switch part {
	case "afternoon", "evening", "pomeriggio", "sera":
		return "pm", n
	case "morning", "mattina", "mattino":
		return "am", n
	}
	return "", 0
}

// italianThousands reads an Italian number word of thousands: "mille",
// "millecinquecento", "tremila", "duemilacinquecento".
func italianThousands(w string) (float64, bool) {
	if rest, ok := strings.CutPrefix(w, "mille"); ok {
		if rest == "" {
			return 1000, true
		}
		v, ok := wordNumber(rest)
		return 1000 + v, ok && v >= 1 && v < 1000
	}
	head, rest, ok := strings.Cut(w, "mila")
	if !ok || head == "" {
		return 0, false
	}
	n, ok := wordNumber(head)
	if !ok || n < 2 || n >= 1000 {
		return 0, false
	}
	if rest == "" {
		return n * 1000, true
	}
	v, ok := wordNumber(rest)
	return n*1000 + v, ok && v >= 1 && v < 1000
}

// timesPer reads a frequency said as a count of times in a unit of time:
// "once a year", "twice per month", "3 times a week", "due volte al
// mese", "una volta all'anno". It returns the figure and how many words
// after i it used.
func timesPer(toks []token, lower []string, i int) (figure, int, bool) {
	at := func(j int) string {
		if j < len(toks) && (j == i || !toks[j].sentStart) {
			return lower[j]
		}
		return ""
	}
	n, j := 0.0, i+1
	switch w := at(i); {
	case w == "once":
		n = 1
	case w == "twice":
		n = 2
	case at(i+1) == "times" || at(i+1) == "time" || at(i+1) == "volte" || at(i+1) == "volta":
		v, ok := wordNumber(w)
		if !ok {
			v, ok = parseDigits(w)
		}
		if !ok {
			return figure{}, 0, false
		}
		n, j = v, i+2
	default:
		return figure{}, 0, false
	}
	per := at(j)
	if perWords[per] {
		j++
		per = at(j)
	}
	u, ok := timeUnit(dropElision(per)) // "all'anno"
	if !ok || !perWords[at(j-1)] && dropElision(per) == per {
		return figure{}, 0, false
	}
	return figure{value: n, unit: frequencyUnit(u.factor), clock: -1}, j - i, true
}

// perWords say "in each" between a count of times and its unit of time.
var perWords = setOf("a an per every each al alla a ogni")
