package judge

import (
	"fmt"
	"strings"
)

// unit is what a figure counts. Units of one dimension convert into each
// other by factor (minutes, hours and days; months and years); a unit
// outside the table is known by its word's stem alone.
type unit struct {
	name   string  // canonical name ("hour"), or the stem of an unknown unit word
	dim    string  // dimension ("time"); "" for a unit outside the table
	factor float64 // size in the dimension's base unit
	word   string  // an unknown unit's word as written, for reasons
}

func (u unit) known() bool { return u.dim != "" }

func (u unit) empty() bool { return u.name == "" }

const (
	minute = 1.0
	hour   = 60 * minute
	day    = 24 * hour
	week   = 7 * day
	year   = 365 * day
	month  = year / 12
)

// units maps the words and symbols of common units, English and Italian,
// to their unit. Currencies do not convert into each other.
var units = map[string]unit{}

func init() {
	add := func(name, dim string, factor float64, words string) {
		for _, w := range strings.Fields(words) {
			units[w] = unit{name: name, dim: dim, factor: factor}
		}
	}
	add("millisecond", "time", minute/60000, "ms millisecond milliseconds millisecondo millisecondi")
	add("second", "time", minute/60, "sec secs second seconds secondi")
	add("minute", "time", minute, "min mins minute minutes minuto minuti")
	add("hour", "time", hour, "h hr hrs hour hours ora ore")
	add("day", "time", day, "day days giorno giorni gg")
	add("week", "time", week, "week weeks wk settimana settimane")
	add("fortnight", "time", 2*week, "fortnight fortnights")
	add("month", "time", month, "month months mese mesi")
	add("year", "time", year, "year years yr yrs anno anni")
	add("night", "night", 1, "night nights notte notti")
	add("euro", "euro", 1, "€ euro euros eur")
	add("dollar", "dollar", 1, "$ dollar dollars usd")
	add("pound", "pound", 1, "£ pound pounds gbp sterlina sterline")
	// A cent is a hundredth of whichever currency it is beside (see
	// inCurrency).
	add("cent", "cent", 0.01, "¢ cent cents centesimo centesimi")
	add("percent", "percent", 1, "% percent percento percentage percentuale")
	add("byte", "data", 1, "b byte bytes")
	add("kilobyte", "data", 1<<10, "kb kib kilobyte kilobytes")
	add("megabyte", "data", 1<<20, "mb mib megabyte megabytes")
	add("gigabyte", "data", 1<<30, "gb gib gigabyte gigabytes")
	add("terabyte", "data", 1<<40, "tb tib terabyte terabytes")
	add("millimetre", "length", 0.001, "mm millimetre millimetres millimeter millimeters millimetro millimetri")
	add("centimetre", "length", 0.01, "cm centimetre centimetres centimeter centimeters centimetro centimetri")
	add("metre", "length", 1, "m metre metres meter meters metro metri")
	add("kilometre", "length", 1000, "km kilometre kilometres kilometer kilometers chilometro chilometri")
	add("gram", "mass", 1, "g gram grams grammo grammi")
	add("kilogram", "mass", 1000, "kg kilo kilos kilogram kilograms chilogrammo chilogrammi chili")
	add("character", "character", 1, "char chars character characters carattere caratteri")
	add("person", "person", 1, "person persons people persona persone")
	add("time", "occurrence", 1, "times volte")
	add("attempt", "attempt", 1, "attempt attempts tentativo tentativi")
	add("page", "page", 1, "page pages pagina pagine")
	add("digit", "digit", 1, "digit digits cifra cifre")
	add("pixel", "pixel", 1, "px pixel pixels")
}

// frequencies are the English and Italian adverbs and adjectives of a
// regular frequency ("monthly", "trimestrale"): each is the figure 1 in
// a unit of events per day, so that "monthly" and "mensile" are one
// figure and "weekly" contradicts it.
var frequencies = map[string]unit{}

func init() {
	add := func(name string, perDay float64, words string) {
		for _, w := range strings.Fields(words) {
			frequencies[w] = unit{name: name, dim: "frequency", factor: perDay, word: w}
		}
	}
	add("daily", 1, "daily giornaliero giornaliera giornalieri giornaliere quotidiano quotidiana quotidianamente giornalmente")
	add("weekly", 1.0/7, "weekly settimanale settimanali settimanalmente")
	add("fortnightly", 1.0/14, "fortnightly quindicinale quindicinali")
	add("monthly", day/month, "monthly mensile mensili mensilmente")
	add("quarterly", day/(3*month), "quarterly trimestrale trimestrali trimestralmente")
	// "annual" and "annuale" name things ("annual leave", "ferie annuali")
	// more often than a frequency.
	add("yearly", day/year, "yearly annually annualmente")
}

// Working days are not a span of time ("2 giorni lavorativi" is not 48
// hours); calendar days are days said twice over. A day without either
// word may stand for either.
var (
	workingDay  = unit{name: "working day", dim: "workday", factor: 1}
	calendarDay = unit{name: "calendar day", dim: "time", factor: day}
)

// qualifiedDays returns the unit of days said working or calendar days
// by the word before the unit ("working days", "business days") or the
// words after it ("giorni lavorativi", "giorni di calendario"), else u.
func qualifiedDays(u unit, before, afterWords string) unit {
	if u.name != "day" {
		return u
	}
	first, rest, _ := strings.Cut(strings.TrimSpace(afterWords), " ")
	switch {
	case before == "working" || before == "business" || strings.HasPrefix(first, "lavorativ") || first == "feriali" || first == "utili":
		return workingDay
	case before == "calendar" || first == "solari" || first == "di" && strings.HasPrefix(rest, "calendario"):
		return calendarDay
	}
	return u
}

// lookupUnit returns the unit a word names, if the table knows it.
func lookupUnit(word string) (unit, bool) {
	u, ok := units[fold(word)]
	return u, ok
}

// wordUnit returns the unit of an unknown unit word: its stem, or for a
// month of either language its number, so that "26 November" and "26
// novembre" are one date.
func wordUnit(word string) unit {
	w := strings.ToLower(dropElision(word))
	if m, ok := months[fold(w)]; ok {
		return monthUnit(m, w)
	}
	return unit{name: stem(fold(w)), word: w}
}

// monthUnit is the unit of a day of month m, written word.
func monthUnit(m int, word string) unit {
	return unit{name: fmt.Sprintf("month-%d", m), word: word}
}

// isMonth reports whether a unit is a month of the calendar: a day's
// month, which a nearby bare number does not share.
func (u unit) isMonth() bool { return strings.HasPrefix(u.name, "month-") }

// months numbers the English and Italian names of the months.
var months = map[string]int{}

func init() {
	for i, names := range []string{"january gennaio jan gen", "february febbraio feb", "march marzo mar", "april aprile apr",
		"may maggio mag", "june giugno jun giu", "july luglio jul lug", "august agosto aug ago", "september settembre sep sept set",
		"october ottobre oct ott", "november novembre nov", "december dicembre dec dic"} {
		for _, n := range strings.Fields(names) {
			if len(n) > 3 || n == "may" {
				months[n] = i + 1
			}
		}
	}
}

// inCurrency writes a figure in cents in the currency of the other
// figure, so that "42 cents" states "$0.42" and contradicts "€0.50".
func inCurrency(f, g figure) (figure, figure) {
	money := func(u unit) bool { return u.dim == "euro" || u.dim == "dollar" || u.dim == "pound" }
	if f.unit.name == "cent" && money(g.unit) {
		f.value, f.unit = f.value*f.unit.factor, g.unit
	}
	if g.unit.name == "cent" && money(f.unit) {
		g.value, g.unit = g.value*g.unit.factor, f.unit
	}
	return f, g
}

// qualifierAdded returns the reference figure of plain days that lead
// figure g says in working days ("60 giorni lavorativi" for "60
// giorni"): README's rule 2 calls a qualifier added another figure,
// where one left out is the same.
func qualifierAdded(g figure, main []figure) (figure, bool) {
	if g.unit != workingDay {
		return figure{}, false
	}
	for _, f := range main {
		if f.unit.name == "day" && f.unit != calendarDay && equalValues(f.value, g.value) && f.clock < 0 {
			return f, true
		}
	}
	return figure{}, false
}
