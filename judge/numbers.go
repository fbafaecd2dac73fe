package judge

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// parseDigits reads a figure written in digits in either language's
// format: "1,000.50" and "1.000,50" are both 1000.5, "1,5" is 1.5, "1.500"
// and "1,500" are 1500 (a single separator before exactly three digits
// groups thousands in both languages), "1 000" with a no-break space is
// 1000. A string of several separators that do not group thousands
// ("3.1.1") is not a figure.
func parseDigits(s string) (float64, bool) {
	s = strings.NewReplacer("\u00a0", "", "\u202f", "", "'", "").Replace(s)
	if s == "" || !isDigit(s[0]) || !isDigit(s[len(s)-1]) {
		return 0, false
	}
	dots, commas := strings.Count(s, "."), strings.Count(s, ",")
	var intPart, frac string
	switch {
	case dots == 0 && commas == 0:
		intPart = s
	case dots > 0 && commas > 0:
		// The later separator is the decimal one; the other groups.
		dec := strings.LastIndexAny(s, ".,")
		group := "."
		if s[dec] == '.' {
			group = ","
		}
		if strings.Count(s[:dec], string(s[dec])) > 0 {
			return 0, false
		}
		intPart, frac = s[:dec], s[dec+1:]
		if !groupsOfThree(intPart, group) {
			return 0, false
		}
		intPart = strings.ReplaceAll(intPart, group, "")
	default:
		sep := "."
		if commas > 0 {
			sep = ","
		}
		parts := strings.Split(s, sep)
		if len(parts) == 2 && len(parts[1]) != 3 {
			intPart, frac = parts[0], parts[1]
			break
		}
		if !groupsOfThree(s, sep) {
			return 0, false
		}
		intPart = strings.ReplaceAll(s, sep, "")
	}
	for _, part := range []string{intPart, frac} {
		for i := 0; i < len(part); i++ {
			if !isDigit(part[i]) {
				return 0, false
			}
		}
	}
	if frac != "" {
		intPart += "." + frac
	}
	v, err := strconv.ParseFloat(intPart, 64)
	return v, err == nil
}

// groupsOfThree reports whether s is digits grouped in threes by sep
// after a first group of one to three.
func groupsOfThree(s, sep string) bool {
	parts := strings.Split(s, sep)
	if len(parts[0]) < 1 || len(parts[0]) > 3 {
		return false
	}
	for _, p := range parts[1:] {
		if len(p) != 3 {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// clockRE matches a time of day: "14:30", and "14.30" as Italian writes
// it.
var clockRE = regexp.MustCompile(`^([01]?\d|2[0-4])[:.]([0-5]\d)$`)

// clockMinutes returns the minutes after midnight of a time of day.
func clockMinutes(s string) (int, bool) {
	m := clockRE.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	h, _ := strconv.Atoi(m[1])
	min, _ := strconv.Atoi(m[2])
	return h*60 + min, true
}

// numberWords are the English and Italian number words that make a figure
// on their own. "one", "uno", "una", "un" and Italian "sei" ("you are")
// double as other words, so they count only before a unit (see
// ambiguousNumberWords); "due" is a number only in Italian text.
var numberWords = map[string]float64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
	"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
	"forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
	"thousand": 1000, "dozen": 12, "once": 1, "twice": 2,
	"uno": 1, "una": 1, "un": 1, "due": 2, "tre": 3, "quattro": 4, "cinque": 5, "sei": 6, "sette": 7,
	"otto": 8, "nove": 9, "dieci": 10, "undici": 11, "dodici": 12, "tredici": 13, "quattordici": 14,
	"quindici": 15, "sedici": 16, "diciassette": 17, "diciotto": 18, "diciannove": 19, "venti": 20,
	"trenta": 30, "quaranta": 40, "cinquanta": 50, "sessanta": 60, "settanta": 70, "ottanta": 80,
	"novanta": 90, "cento": 100, "mille": 1000, "duemila": 2000,
	// Italian approximate numerals ("una decina di giorni", "una
	// ventina di minuti") say about their number, as "circa 10" does.
	"decina": 10, "dozzina": 12, "quindicina": 15, "ventina": 20, "trentina": 30, "quarantina": 40,
	"cinquantina": 50, "sessantina": 60, "settantina": 70, "ottantina": 80, "novantina": 90,
	"centinaio": 100, "migliaio": 1000,
}

// ambiguousNumberWords are number words that are also articles or verbs.
var ambiguousNumberWords = setOf("one uno una un sei once twice")

// italianTens and italianUnits compose Italian number words: "ventiquattro",
// "trentuno" (a tens word drops its vowel before "uno" and "otto").
var (
	italianTens  = []string{"venti", "trenta", "quaranta", "cinquanta", "sessanta", "settanta", "ottanta", "novanta"}
	italianUnits = []string{"uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove"}
	englishTens  = setOf("twenty thirty forty fifty sixty seventy eighty ninety")
	englishUnits = setOf("one two three four five six seven eight nine")
)

// wordNumber returns the value of a single number word (folded), with
// Italian compounds and English hyphenated ones ("twenty-four").
func wordNumber(w string) (float64, bool) {
	if v, ok := numberWords[w]; ok {
		return v, true
	}
	if a, b, ok := strings.Cut(w, "-"); ok && englishTens[a] && englishUnits[b] {
		return numberWords[a] + numberWords[b], true
	}
	for _, t := range italianTens {
		for _, u := range italianUnits {
			if w == t+u || (u[0] == 'u' || u[0] == 'o') && w == t[:len(t)-1]+u {
				return numberWords[t] + numberWords[u], true
			}
		}
	}
	// Italian writes hundreds as one word with what follows:
	// "centoventi", "duecentocinquanta", "trecento".
	for n, h := range italianHundreds {
		rest, ok := strings.CutPrefix(w, h)
		if !ok {
			continue
		}
		if rest == "" {
			return float64(100 * (n + 1)), true
		}
		if v, ok := wordNumber(rest); ok && v < 100 && v >= 1 && rest != "cento" {
			return float64(100*(n+1)) + v, true
		}
	}
	if v, ok := italianThousands(w); ok {
		return v, true
	}
	if v, ok := ordinalWords[w]; ok {
		return v, true
	}
	return 0, false
}

// italianHundreds are the Italian words for 100 to 900, in order.
var italianHundreds = []string{"cento", "duecento", "trecento", "quattrocento", "cinquecento", "seicento", "settecento", "ottocento", "novecento"}

// ordinalWords are the English and Italian ordinals from third to tenth,
// which state their number ("la terza fase" is phase 3). "First",
// "second", "primo" and "secondo" are left out: they are as often "at
// first", a unit of time or "according to".
var ordinalWords = map[string]float64{
	"third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
	"terzo": 3, "terza": 3, "quarto": 4, "quarta": 4, "quinto": 5, "quinta": 5, "sesto": 6, "sesta": 6,
	"settimo": 7, "settima": 7, "ottavo": 8, "ottava": 8, "nono": 9, "nona": 9, "decimo": 10, "decima": 10,
}

// equalValues compares figures with a relative tolerance, for units
// converted by factors.
func equalValues(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// formatValue prints a figure without a needless fraction.
func formatValue(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
