package judge

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// kind is the sort of a key fact.
type kind int

const (
	figureFact   kind = iota // a number with its unit
	codeFact                 // a code, command, file name, path, address or quoted label
	nameFact                 // a proper name or acronym
	polarityFact             // the yes or no of a yes/no reference
)

// fact is one key fact of a text.
type fact struct {
	kind  kind
	text  string // as written, for reasons
	key   string // compared form of a code or name; "yes" or "no" for polarity
	class string // of a code: "url", "email", "phone", "path", "channel", "code", "quoted", "quoted1" (one word in single quotes)
	fig   figure
	pos   int // index of the fact's first word, for figures sharing a unit
	// negated is set for a fact right after a negation ("not
	// orig.tar.gz", "non Roma"): what the text denies.
	negated bool
}

// figure is a number, what it counts and what names it.
type figure struct {
	value float64
	unit  unit
	label string // stem of the word before the number ("level 3", "article 12")
	clock int    // minutes after midnight for a time of day, else -1
	// article is set for one unit said with an article ("a week"),
	// whose 1 is no number written to be compared with another unit's.
	article bool
	// per is what a rate is counted per ("week" of "3 days a week"; see
	// rateOf), "" for a figure that is no rate.
	per string
}

func (f fact) String() string {
	if f.kind == polarityFact {
		return f.key
	}
	return f.text
}

var (
	backtickRE = regexp.MustCompile("`([^`\n]+)`")
	// quotedRE matches a short label in double quotes or guillemets: the
	// name of a button, menu or form ("Save as", «Salva con nome»).
	quotedRE = regexp.MustCompile(`["“«]([^"”»\n]{1,60})["”»]`)
	// singleQuotedRE matches one word in single quotes after a space or
	// at the start.
	singleQuotedRE = regexp.MustCompile(`(^|\s)['‘]([\p{L}][\p{L}-]{1,30})['’]([\s.,;:!?)]|$)`)
	// phoneRE matches a telephone number: a "+" or several groups of
	// digits; its digits are the fact.
	phoneRE = regexp.MustCompile(`\+?\d[\d\x{00a0} ./-]{5,}\d`)
	emailRE = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.\p{L}{2,}$`)
	// shortPairRE matches "and/or", "km/h": words, not a path.
	shortPairRE = regexp.MustCompile(`^\p{L}{1,5}/\p{L}{1,5}$`)
	// negatedNameRE matches a name made of a negation and a word:
	// "no-dependabot", "non-free".
	negatedNameRE = regexp.MustCompile(`(?i)^(?:no|non|not)-\p{L}{3,}$`)
	// wordPairRE matches two or three words joined by slashes: a path
	// ("debian/watch") or alternatives ("libero/open").
	wordPairRE = regexp.MustCompile(`^\p{L}[\p{L}'-]*(?:/\p{L}[\p{L}'-]*){1,2}$`)
)

// elidedNumberRE matches an Italian article or preposition elided
// before a number: "l'80%", "dell'11%", "nell'8 marzo". The number is a
// figure, not part of a code.
var elidedNumberRE = regexp.MustCompile(`(?i)\b(l|dell|all|dall|nell|sull|coll|quell|un)(['’])(\d)`)

// extract returns the key facts of text in order: codes in backticks and
// quoted labels, telephone numbers, then each word's figure, code or name.
func extract(text string) []fact {
	text = withoutCitations(text)
	text = elidedNumberRE.ReplaceAllString(text, "$1$2 $3")
	var out []fact
	text = backtickRE.ReplaceAllStringFunc(text, func(m string) string {
		inner := strings.TrimSpace(m[1 : len(m)-1])
		out = append(out, fact{kind: codeFact, class: "code", text: inner, key: codeKey(normalSpace(inner))})
		return " "
	})
	text = quotedRE.ReplaceAllStringFunc(text, func(m string) string {
		inner := strings.TrimSpace(quotedRE.FindStringSubmatch(m)[1])
		if n := len(strings.Fields(inner)); n < 1 || n > 6 || !hasLetter(inner) {
			return m
		}
		if k, ok := keyCombo(inner); ok {
			out = append(out, fact{kind: codeFact, class: "key", text: inner, key: k})
			return " "
		}
		out = append(out, fact{kind: codeFact, class: "quoted", text: inner, key: normalSpace(fold(inner))})
		return " "
	})
	// A single word in single quotes ("the 'after' code") is quoted as
	// a phrase in double quotes is; an apostrophe inside a word (l'art,
	// it's) opens no quote. Such a word is often a common one, so only
	// the same word quoted states it.
	text = singleQuotedRE.ReplaceAllStringFunc(text, func(m string) string {
		g := singleQuotedRE.FindStringSubmatch(m)
		out = append(out, fact{kind: codeFact, class: "quoted1", text: g[2], key: fold(g[2])})
		return g[1] + " " + g[3]
	})
	ips, text := ipFacts(text)
	out = append(out, ips...)
	text = phoneRE.ReplaceAllStringFunc(text, func(m string) string {
		digits := onlyDigits(m)
		if _, isDate := numericDate(strings.TrimSpace(m)); isDate {
			return m
		}
		if _, isNumber := parseDigits(m); isNumber || len(digits) < 7 || !strings.HasPrefix(m, "+") && strings.Count(normalSpace(m), " ")+strings.Count(m, "-")+strings.Count(m, ".")+strings.Count(m, "/") < 2 {
			return m
		}
		out = append(out, fact{kind: codeFact, class: "phone", text: m, key: digits})
		return " "
	})
	toks := tokenize(text)
	lower := make([]string, len(toks))
	for i, t := range toks {
		lower[i] = fold(t.text)
	}
	italian := looksItalian(lower)
	var words []fact
	for i := 0; i < len(toks); i++ {
		fs, skip := wordFacts(toks, lower, i, italian)
		for _, f := range fs {
			f.pos = i
			f.negated = i > 0 && negators[lower[i-1]] && !toks[i].sentStart
			words = append(words, f)
		}
		i += skip
	}
	shareUnits(words)
	words = alternativeCodes(toks, lower, words)
	return append(out, words...)
}

// negators are the words that deny the fact after them.
var negators = setOf("not nor never non né mai")

// Figures in a list or a range share the unit written once: "12 or 14
// days", "10, 20 or 30 euro", "14 characters, or 16 for service
// accounts".
const (
	unitAhead  = 3 // words to a later figure that lends its unit
	unitBehind = 3 // words back to an earlier figure that lends its unit
)

// shareUnits gives each bare figure (no unit, no label, not a time, not
// a year) the unit of a figure just after it, else of one just before
// it.
func shareUnits(fs []fact) {
	bare := func(f fact) bool {
		return f.kind == figureFact && f.fig.unit.empty() && f.fig.label == "" && f.fig.clock < 0 && !isYear(f.fig.value)
	}
	lends := func(f fact) bool { return f.kind == figureFact && !f.fig.unit.empty() && !f.fig.unit.isMonth() }
	for i := range fs {
		if !bare(fs[i]) {
			continue
		}
		for j := i + 1; j < len(fs) && fs[j].pos-fs[i].pos <= unitAhead; j++ {
			if lends(fs[j]) {
				fs[i].fig.unit = fs[j].fig.unit
				break
			}
		}
		for j := i - 1; fs[i].fig.unit.empty() && j >= 0 && fs[i].pos-fs[j].pos <= unitBehind; j-- {
			if lends(fs[j]) {
				fs[i].fig.unit = fs[j].fig.unit
			}
		}
		if !fs[i].fig.unit.empty() {
			fs[i].text = describe(fs[i].fig)
		}
	}
}

// wordFacts returns the facts of word i and how many following words it
// used up ("two hundred").
func wordFacts(toks []token, lower []string, i int, italian bool) ([]fact, int) {
	w := toks[i].text
	switch {
	case strings.Contains(w, "://") || strings.HasPrefix(strings.ToLower(w), "www."):
		return []fact{{kind: codeFact, class: "url", text: w, key: normalURL(w)}}, 0
	case strings.Contains(w, "@") && emailRE.MatchString(w):
		return []fact{{kind: codeFact, class: "email", text: w, key: strings.ToLower(w)}}, 0
	}
	if f, ok := digitFigures(toks, lower, i); ok {
		return f, 0
	}
	if f, skip, ok := spokenFigure(toks, lower, i); ok {
		return []fact{{kind: figureFact, text: describe(f), fig: f}}, skip
	}
	// "every month", "every three months", "each quarter", "ogni tre
	// mesi": a frequency as its adverb says it.
	if f, skip, ok := everyFrequency(lower, i); ok {
		return []fact{{kind: figureFact, text: describe(f), fig: f}}, skip
	}
	if f, skip, ok := timesPer(toks, lower, i); ok {
		return []fact{{kind: figureFact, text: describe(f), fig: f}}, skip
	}
	if u, ok := frequencies[lower[i]]; ok {
		f := figure{value: 1, unit: u, clock: -1}
		return []fact{{kind: figureFact, text: toks[i].text, fig: f}}, 0
	}
	if f, ok := annualBesideFrequency(toks, lower, i); ok {
		return []fact{{kind: figureFact, text: toks[i].text, fig: f}}, 0
	}
	// An ambiguous number word counts before a unit, a multiplier, or
	// standing alone as a sentence ("Sei: …", "One.").
	alone := toks[i].sentStart && (i+1 == len(toks) || toks[i+1].sentStart)
	// After "sono" or "are" a number word is the count: "Le tipologie
	// sono sei".
	alone = alone || i > 0 && !toks[i].sentStart && countVerbs[lower[i-1]] && (i+1 == len(toks) || toks[i+1].sentStart)
	if (lower[i] == "once" || lower[i] == "twice") && !frequencyFollows(lower, i+1) {
		alone = false // "once the report is confirmed" is a conjunction
	}
	// "Due opzioni" in a sentence of names: an Italian plural after
	// "due" makes it a number, where English follows "due" with a
	// singular ("due date", "due care").
	dueCount := lower[i] == "due" && italianPlural(nextWord(lower, i))
	// "Sei tipologie", "sei opzioni": "sei" before a plural noun counts
	// it, where the verb ("you are") takes an adjective or a participle.
	dueCount = dueCount || lower[i] == "sei" && (italianPlural(nextWord(lower, i)) || feminineItalianPlural(nextWord(lower, i)))
	// "Only one.", "Solo tre.": a number word that is the whole sentence
	// but for the word that limits it is the count.
	alone = alone || i > 0 && toks[i-1].sentStart && !toks[i].sentStart && limitingWords[lower[i-1]] && (i+1 == len(toks) || toks[i+1].sentStart)
	// "one and a half days": the unit follows the half.
	halfUnit := halfAfter(lower, i+1) > 0 && nextUnit(toks, lower, i+halfAfter(lower, i+1)).known()
	if v, ok := wordNumber(lower[i]); ok && (!ambiguousNumberWords[lower[i]] || alone || halfUnit || dueCount || nextUnit(toks, lower, i).known() || multiplier(lower, i+1) || (lower[i] == "once" || lower[i] == "twice") && frequencyFollows(lower, i+1)) && (lower[i] != "due" || italian || alone || dueCount || italianUnitWords[nextWord(lower, i)]) {
		v, skip := englishCompound(toks, lower, i, v)
		f := figure{value: v, label: prevLabel(toks, lower, i), clock: -1}
		f, half := withHalf(f, lower, i+skip)
		// "four and a half to one" is the ratio 4.5:1, a code as written.
		if n := ratioToOne(lower, i+skip+half+1); n > 0 {
			text := strconv.FormatFloat(f.value, 'f', -1, 64) + ":1"
			return []fact{{kind: codeFact, class: "code", text: text, key: codeKey(text)}}, skip + half + n
		}
		if ampm, n := dayPart(lower, i+skip+1); ampm != "" && half == 0 && v <= 12 {
			f.clock = clockOf(v, ampm)
			f.value = float64(f.clock)
			return []fact{{kind: figureFact, text: describe(f), fig: f}}, skip + n
		}
		skip += half
		// A number word after the words that name an hour of the day is
		// that time: "alle nove e mezza" is 9:30, "at nine" 9:00.
		if clockWords[prevWord(lower, toks, i)] && v <= 24 && !nextUnit(toks, lower, i+skip).known() {
			f.clock = int(v)*60 + int((f.value-float64(int(v)))*60+0.5)
			f.value = float64(f.clock)
			return []fact{{kind: figureFact, text: describe(f), fig: f}}, skip
		}
		f.unit = nextUnit(toks, lower, i+skip)
		if half == 0 && f.unit.known() && halfAfter(lower, i+skip+2) > 0 {
			f.value += 0.5
		}
		return []fact{{kind: figureFact, text: describe(f), fig: f}}, skip
	}
	if months[lower[i]] > 0 && nextToDay(toks, lower, i) {
		return nil, 0 // the month of a date, which the day's figure holds
	}
	if _, isUnit := lookupUnit(lower[i]); isUnit && i > 0 && !toks[i].sentStart && hasDigit(lower[i-1]) {
		return nil, 0 // "10 MB": the unit of the figure before it
	}
	if k, ok := keyCombo(w); ok {
		return []fact{{kind: codeFact, class: "key", text: w, key: k}}, 0
	}
	if class := codeClass(w); class != "" {
		return []fact{{kind: codeFact, class: class, text: w, key: codeKey(w)}}, 0
	}
	// A capitalised word opening a sentence starts a name when a name
	// follows it: "Google Analytics", "Creative Commons"; a function
	// word does not ("Through Google Apps Marketplace", "Tramite SPID").
	opensName := toks[i].sentStart && i+1 < len(toks) && !toks[i+1].sentStart && isName(toks[i+1], lower[i+1]) &&
		isName(token{text: toks[i].text}, lower[i]) && !stopwords[lower[i]] && !neverOpensName[lower[i]]
	// So does one a list of names follows: "Firefox and Chrome",
	// "Firefox, Chrome e Safari".
	opensName = opensName || toks[i].sentStart && isName(token{text: toks[i].text}, lower[i]) && !stopwords[lower[i]] && !neverOpensName[lower[i]] &&
		namedListFollows(toks, lower, i)
	if personTitles[strings.TrimSuffix(lower[i], ".")] {
		return nil, 0 // "Ms", "Dott.": a title names nobody
	}
	if isName(toks[i], lower[i]) || opensName {
		return []fact{{kind: nameFact, text: w, key: stem(fold(dropElision(w)))}}, 0
	}
	return nil, 0
}

// namedListFollows reports whether word i is the first item of a list
// of names: a comma after it and a name next, or "and", "or", "e", "o"
// and a name.
func namedListFollows(toks []token, lower []string, i int) bool {
	next := func(j int) bool { return i+j < len(toks) && !toks[i+j].sentStart }
	if strings.HasSuffix(toks[i].text, ",") {
		return next(1) && isName(toks[i+1], lower[i+1])
	}
	return next(2) && listJoiners[lower[i+1]] && isName(toks[i+2], lower[i+2])
}

// personTitles are the English and Italian titles before a person's
// name.
var personTitles = setOf("mr mrs ms miss dr prof sir dame dott dottor dottore dottoressa sig sigra signor signora signore ing avv")

// listJoiners join a list's last item.
var listJoiners = setOf("and or e o oppure")

// neverOpensName are the prepositions and adverbs, beyond the
// stopwords, that a sentence may open with before a name, and that are
// never its first word.
var neverOpensName = setOf(`through throughout within without since until during across along towards toward beyond upon onto
entro tramite attraverso mediante senza durante verso presso oltre fino dopo prima`)

// everyFrequency reads a frequency said with "every", "each" or "ogni"
// and a unit of time, with a number between or none: "every month" is
// monthly, "ogni tre mesi" quarterly, "every quarter" quarterly. It
// returns the figure and how many words after i it used.
func everyFrequency(lower []string, i int) (figure, int, bool) {
	if lower[i] != "every" && lower[i] != "each" && lower[i] != "ogni" || i+1 >= len(lower) {
		return figure{}, 0, false
	}
	n, j := 1.0, i+1
	if v, ok := wordNumber(lower[j]); ok && j+1 < len(lower) {
		n, j = v, j+1
	} else if v, ok := parseDigits(lower[j]); ok && j+1 < len(lower) {
		n, j = v, j+1
	} else if j+2 < len(lower) && (lower[j] == "couple" && lower[j+1] == "of" || lower[j] == "paio" && lower[j+1] == "di") {
		n, j = 2, j+2 // "every couple of months", "ogni paio di mesi"
	}
	span := 0.0
	if u, ok := lookupUnit(lower[j]); ok && u.dim == "time" {
		span = n * u.factor
	} else if lower[j] == "quarter" || lower[j] == "trimestre" {
		span = n * 3 * month
	} else {
		return figure{}, 0, false
	}
	return figure{value: 1, unit: frequencyUnit(span), clock: -1}, j - i, true
}

// frequencyUnit is the unit of a frequency of once every span: events
// per day, named as its adverb where it has one.
func frequencyUnit(span float64) unit {
	u := unit{name: "every", dim: "frequency", factor: day / span, word: "every"}
	for _, name := range []string{"daily", "weekly", "fortnightly", "monthly", "quarterly", "yearly"} {
		if equalValues(frequencies[name].factor, u.factor) {
			u.name, u.word = name, name
		}
	}
	return u
}

// countVerbs are the forms of "to be" after which a number word ending
// its clause is a count.
var countVerbs = setOf("are were sono erano saranno")

// frequencyFollows reports whether word i makes "once" or "twice" a
// frequency: "once a year", "twice per month", "once every week".
func frequencyFollows(lower []string, i int) bool {
	return i < len(lower) && (lower[i] == "a" || lower[i] == "an" || lower[i] == "per" || lower[i] == "every" || lower[i] == "each")
}

// multiplier reports whether word i is "hundred" or "thousand".
func multiplier(lower []string, i int) bool {
	return i < len(lower) && (lower[i] == "hundred" || lower[i] == "thousand")
}

// englishCompound reads an English number written in words from word i,
// whose value is v: "two hundred", "one hundred and twenty", "three
// thousand five hundred". It returns the value and how many words after
// i it used.
func englishCompound(toks []token, lower []string, i int, v float64) (float64, int) {
	total, group, j := 0.0, v, i+1
	afterTens := englishTens[lower[i]] // "twenty" may take "four" after a multiplier only
	for ; j < len(toks) && !toks[j].sentStart; j++ {
		w := lower[j]
		n, isNumber := wordNumber(w)
		isNumber = isNumber && isEnglishNumberWord(w)
		// After "hundred" or "thousand" come the tens and units ("one
		// hundred and twenty"); a units word may follow a tens word there.
		open := group > 0 && int(group)%100 == 0 || group == 0 && total > 0
		switch {
		case w == "hundred" && group > 0 && group < 10:
			group *= 100
		case w == "thousand" && group > 0:
			total, group = total+group*1000, 0
		case w == "and" && open && j+1 < len(toks) && isEnglishNumberWord(lower[j+1]):
		case isNumber && open && (total > 0 || group >= 100):
			group += n
			afterTens = englishTens[w]
		case isNumber && afterTens && n < 10:
			group += n
			afterTens = false
		default:
			return total + group, j - i - 1
		}
	}
	return total + group, j - i - 1
}

// isEnglishNumberWord reports whether a word is an English number word
// below a hundred ("twenty", "twenty-four").
func isEnglishNumberWord(w string) bool {
	if englishTens[w] || englishUnits[w] {
		return true
	}
	if a, b, ok := strings.Cut(w, "-"); ok {
		return englishTens[a] && englishUnits[b]
	}
	switch w {
	case "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen":
		return true
	}
	return false
}

// digitFigures reads the figures of a word that starts with a digit, a
// sign or a currency symbol: "250", "€250", "4h", "50%", "14:30", the two
// ends of "9-17". It returns ok=false for words that are not figures, and
// a code for an identifier that starts with digits ("2FA", "3.1.1").
func digitFigures(toks []token, lower []string, i int) ([]fact, bool) {
	w := toks[i].text
	body := w
	var u unit
	if r := []rune(body); len(r) > 1 && strings.ContainsRune("€$£", r[0]) {
		u, _ = lookupUnit(string(r[0]))
		body = string(r[1:])
	}
	sign := 1.0
	if strings.HasPrefix(body, "-") || strings.HasPrefix(body, "−") {
		sign, body = -1, strings.TrimLeft(body, "-−")
	}
	if body == "" || !isDigit(body[0]) {
		return nil, false
	}
	if fs, ok := numericDate(body); ok {
		return fs, true
	}
	if f, ok := dayAndMonth(strings.TrimRight(body, ".,;:"), prevWord(lower, toks, i)); ok {
		return []fact{f}, true
	}
	// A range of two figures: "9-17", "10–12", "9:00-17:00".
	for _, dash := range []string{"-", "–", "—"} {
		if a, b, ok := strings.Cut(body, dash); ok && a != "" && b != "" && isDigit(a[0]) && isDigit(b[0]) && !hasLetter(a) {
			var out []fact
			for _, part := range []string{a, b} {
				f, ok := figureOf(part, u, 1, toks, lower, i)
				if !ok {
					return []fact{{kind: codeFact, class: "code", text: w, key: strings.ToLower(w)}}, true
				}
				out = append(out, f)
			}
			if out[0].fig.unit.empty() {
				out[0].fig.unit = out[1].fig.unit
			}
			return out, true
		}
	}
	f, ok := figureOf(body, u, sign, toks, lower, i)
	if !ok {
		return []fact{{kind: codeFact, class: "code", text: w, key: strings.ToLower(w)}}, true
	}
	return []fact{f}, true
}

// numericDateRE matches a date in digits, day first as both languages'
// European usage writes it ("26/11/2009", "9.5.2019"), or ISO's year first
// ("2009-11-26").
var (
	numericDateRE = regexp.MustCompile(`^(\d{1,2})([/.-])(\d{1,2})([/.-])(\d{4})$`)
	isoDateRE     = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})$`)
)

// numericDate reads a date in digits as the figures "26 November" and
// "2009", as the same date in words reads.
func numericDate(s string) ([]fact, bool) {
	var d, m, y string
	if g := numericDateRE.FindStringSubmatch(s); g != nil && g[2] == g[4] {
		d, m, y = g[1], g[3], g[5]
	} else if g := isoDateRE.FindStringSubmatch(s); g != nil {
		y, m, d = g[1], g[2], g[3]
	} else {
		return nil, false
	}
	day, _ := strconv.Atoi(d)
	month, _ := strconv.Atoi(m)
	year, _ := strconv.Atoi(y)
	if day < 1 || day > 31 || month < 1 || month > 12 {
		return nil, false
	}
	dayFig := figure{value: float64(day), unit: monthUnit(month, "of month "+m), clock: -1}
	yearFig := figure{value: float64(year), clock: -1}
	return []fact{{kind: figureFact, text: describe(dayFig), fig: dayFig}, {kind: figureFact, text: describe(yearFig), fig: yearFig}}, true
}

// dayMonthRE matches a day and month in digits without a year, day
// first: "31/03", "1/9".
var dayMonthRE = regexp.MustCompile(`^(\d{1,2})/(\d{1,2})$`)

// dateWords are the words before a date: "il 31/03", "entro il",
// "on 31/03", "by 31/03".
var dateWords = setOf("il del dal al entro fino on by until from before after")

// dayAndMonth reads a day and month without a year as the day of that
// month, as "31 marzo" reads, when a word that opens a date stands
// before it: "24/7" alone is no date.
func dayAndMonth(s, before string) (fact, bool) {
	g := dayMonthRE.FindStringSubmatch(s)
	if g == nil || !dateWords[before] {
		return fact{}, false
	}
	day, _ := strconv.Atoi(g[1])
	month, _ := strconv.Atoi(g[2])
	if day < 1 || day > 31 || month < 1 || month > 12 {
		return fact{}, false
	}
	f := figure{value: float64(day), unit: monthUnit(month, "of month "+g[2]), clock: -1}
	return fact{kind: figureFact, text: describe(f), fig: f}, true
}

// ordinalSuffixes follow a number to make an ordinal, which is the
// number's figure all the same.
var ordinalSuffixes = setOf("st nd rd th ° º ª")

// figureOf reads one figure of digits with an optional unit glued after
// it ("4h", "50%", "10am"); the unit may also be given (a currency before
// it) or follow as the next word.
func figureOf(s string, u unit, sign float64, toks []token, lower []string, i int) (fact, bool) {
	end := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) && !strings.ContainsRune(".,:'\u00a0\u202f", r) })
	num, suffix := s, ""
	if end >= 0 {
		num, suffix = s[:end], strings.TrimPrefix(strings.ToLower(s[end:]), "-") // "45-day"
	}
	num = strings.TrimRight(num, ".,:")
	f := figure{clock: -1, unit: u, label: prevLabel(toks, lower, i)}
	if m, ok := clockMinutes(num); ok && strings.Contains(num, ":") {
		f.clock, f.value = m, float64(m)
	} else if v, ok := parseDigits(num); ok {
		f.value = sign * v
	} else {
		return fact{}, false
	}
	switch {
	case suffix == "":
	case suffix == "k":
		f.value *= 1e3 // "1.5k"
	case suffix == "am" || suffix == "pm" || suffix == "a.m" || suffix == "p.m":
		f.clock = clockOf(f.value, suffix)
	case ordinalSuffixes[suffix]:
	default:
		gu, ok := lookupUnit(suffix)
		if !ok {
			return fact{}, false
		}
		f.unit = gu
	}
	if f.unit.empty() && f.clock < 0 {
		ampm, _ := dayPart(lower, i+1)
		next := nextWord(lower, i)
		switch {
		case next == "am" || next == "pm" || next == "a.m" || next == "p.m":
			f.clock = clockOf(f.value, next)
		case ampm != "" && f.value <= 12:
			f.clock = clockOf(f.value, ampm) // "3 del pomeriggio"
			f.value = float64(f.clock)
		case multipliers[next] > 0 && i+1 < len(toks) && !toks[i+1].sentStart:
			f.value *= multipliers[next] // "2 million euro"
			f.unit = nextUnit(toks, lower, i+1)
		default:
			var half int
			f, half = withHalf(f, lower, i)
			f.unit = nextUnit(toks, lower, i+half)
			if half == 0 && f.unit.known() && halfAfter(lower, i+2) > 0 {
				f.value += 0.5
			}
			if !f.unit.empty() {
				f.per = rateOf(toks, lower, i+half)
			}
		}
	}
	before := !u.empty() && suffix == "" // "£30,000"
	if f.unit.empty() && f.clock < 0 && i > 0 {
		if cu, ok := lookupUnit(lower[i-1]); ok && (cu.dim == "euro" || cu.dim == "dollar" || cu.dim == "pound") {
			f.unit, before = cu, true // "EUR 250", "euro 250"
		}
	}
	// A currency written before its number ("£30,000 a year", "EUR 250
	// per month") leaves no unit word after it: the rate marker is the
	// next word, so the rate is read as if a unit stood at word i.
	if before && f.clock < 0 {
		f.per = rateOf(toks, lower, i-1)
	}
	// A day after its month ("March 31st", "October 17, 2025") is the
	// day of that month, as "31 March" is.
	if m := months[fold(prevWord(lower, toks, i))]; f.unit.empty() && f.clock < 0 && m > 0 && f.value == float64(int(f.value)) && f.value >= 1 && f.value <= 31 {
		f.unit = monthUnit(m, lower[i-1])
	}
	return fact{kind: figureFact, text: describe(f), fig: f}, true
}

// isYear reports whether a bare number reads as a year of the calendar.
func isYear(v float64) bool { return v == float64(int(v)) && v >= 1900 && v <= 2100 }

// clockOf turns an hour and "am"/"pm" into minutes after midnight.
func clockOf(h float64, ampm string) int {
	m := int(h) * 60
	if h != float64(int(h)) { // "2.30pm"
		m = int(h)*60 + int((h-float64(int(h)))*100+0.5)
	}
	if strings.HasPrefix(ampm, "p") && int(h) < 12 {
		m += 12 * 60
	}
	if strings.HasPrefix(ampm, "a") && int(h) == 12 {
		m -= 12 * 60
	}
	return m
}

func nextWord(lower []string, i int) string {
	if i+1 < len(lower) {
		return lower[i+1]
	}
	return ""
}

// nextUnit returns the unit named by the words after word i: a known unit
// as the next word or the one after ("10 working days", "250 euro per
// night", "50 per cent"), else the stem of the next content word ("8
// tentativi"), else none. A unit is not looked for past a sentence's end.
func nextUnit(toks []token, lower []string, i int) unit {
	// A unit follows its number with nothing between: after "alle 8.30,"
	// the next word is another clause's.
	if i+1 >= len(toks) || toks[i+1].sentStart || toks[i].closes {
		return unit{}
	}
	a := lower[i+1]
	after := func(j int) string { // the word j after the number, in its sentence
		if i+j < len(toks) && !toks[i+j].sentStart {
			return lower[i+j]
		}
		return ""
	}
	if u, ok := lookupUnit(a); ok {
		return qualifiedDays(u, "", after(2)+" "+after(3))
	}
	// "the 31st of March", "il 31 di marzo": the day of a month.
	if m := months[fold(after(2))]; m > 0 && (a == "of" || a == "di") {
		return monthUnit(m, after(2))
	}
	if b := after(2); b != "" {
		if a == "per" && (b == "cent" || b == "cento") {
			u, _ := lookupUnit("%")
			return u
		}
		if u, ok := lookupUnit(b); ok && isLetters(a) && !stopwords[a] {
			return qualifiedDays(u, a, "")
		}
		// Two words before a unit of time or money qualify it: "240
		// annual leave hours" are hours.
		if c := after(3); c != "" && isLetters(a) && isLetters(b) && !stopwords[a] && !stopwords[b] {
			if _, ok := lookupUnit(a); !ok {
				if u, ok := lookupUnit(c); ok && (u.dim == "time" || u.dim == "money") {
					return qualifiedDays(u, a, "")
				}
			}
		}
	}
	if isLetters(a) && !stopwords[a] && len(a) > 1 {
		return wordUnit(a)
	}
	// "May" is a stopword as the modal; after a day and before a year
	// or the sentence's end it is the month ("17 May 2018").
	if a == "may" {
		if y, err := strconv.Atoi(after(2)); after(2) == "" && i+2 >= len(toks) || err == nil && isYear(float64(y)) {
			return wordUnit(a)
		}
	}
	return unit{}
}

// prevLabel returns the stem of the content word right before word i,
// which names what a bare number is ("level 3", "articolo 12").
func prevLabel(toks []token, lower []string, i int) string {
	if i == 0 || toks[i].sentStart {
		return ""
	}
	p := dropElision(lower[i-1]) // "dall'art. 4" is article 4
	if !isLetters(p) || stopwords[p] || len(p) < 2 {
		return ""
	}
	if _, isUnit := lookupUnit(p); isUnit {
		return ""
	}
	return stem(p)
}

// unitSuffix prints a figure's unit after it, for reasons.
func unitSuffix(f figure) string {
	switch {
	case f.unit.empty():
		return ""
	case f.unit.word != "":
		return " " + f.unit.word
	}
	return " " + f.unit.name
}

// codeClass returns the class of a word that is a code, command, path,
// file name or identifier, or "".
func codeClass(w string) string {
	switch {
	case settingRE.MatchString(w):
		return "code" // "urgency=low"
	case strings.HasPrefix(w, "#") && len(w) > 1 && hasLetter(w):
		return "channel" // "#incident", a chat channel or tag
	case strings.HasPrefix(w, "$") && len(w) > 1, strings.HasPrefix(w, "--") && len(w) > 2,
		strings.HasPrefix(w, "-") && len(w) > 1 && unicode.IsLetter(rune(w[1])):
		return "code"
	case strings.ContainsAny(w, `/\`):
		if shortPairRE.MatchString(w) || !hasLetter(w) && !hasDigit(w) {
			return ""
		}
		return "path"
	case hasLetter(w) && hasDigit(w), strings.Contains(w, "_"):
		return "code"
	case negatedNameRE.MatchString(w):
		return "code" // "no-dependabot", "non-free": a tag or an area named by what it is not
	case strings.Contains(strings.Trim(w, "-"), "-") && allCaps(w):
		return "code" // "CC-BY-SA"
	case strings.Count(w, "-") >= 2 && !strings.HasPrefix(w, "-") && !strings.HasSuffix(w, "-"):
		// "ttf-mscorefonts-installer" is a name; "up-to-date" and
		// "use-or-lose" are words joined by function words.
		for _, part := range strings.Split(w, "-") {
			if stopwords[fold(part)] || part == "" {
				return ""
			}
		}
		return "code"
	case strings.Contains(strings.Trim(w, "."), "."):
		for _, seg := range strings.Split(strings.Trim(w, "."), ".") {
			if len([]rune(seg)) > 2 {
				return "code" // "config.yaml", "gsa.gov"; not "e.g."
			}
		}
	}
	return ""
}

// isName reports whether a word is a proper name or an acronym: written
// in capitals ("GSA", "IT"), in camel case ("PowerShell"), or capitalised
// where a sentence does not start ("London", "Roma").
func isName(t token, lower string) bool {
	w := dropElision(t.text)
	r := []rune(w)
	if len(r) < 2 || !isLetters(w) {
		return false
	}
	upper := 0
	for _, c := range r {
		if unicode.IsUpper(c) {
			upper++
		}
	}
	switch {
	case upper == len(r):
		return true
	case camelCase(r):
		return true
	case unicode.IsUpper(r[0]) && !t.sentStart:
		return !stopwords[fold(w)] && !stopwords[lower]
	}
	return false
}

// camelCase reports whether a capital follows a small letter inside a
// word ("PowerShell", "iPhone"), or two capitals open a word of small
// letters ("RSpec", "JRuby"): a name even as a sentence's first word.
func camelCase(r []rune) bool {
	for i := 1; i < len(r); i++ {
		if unicode.IsUpper(r[i]) && unicode.IsLower(r[i-1]) {
			return true
		}
		// Two capitals before a small letter: "RSpec", "JRuby", "PDFs".
		if i >= 2 && unicode.IsLower(r[i]) && unicode.IsUpper(r[i-1]) && unicode.IsUpper(r[i-2]) {
			return true
		}
	}
	return false
}

func onlyDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
}

// normalSpace collapses runs of white space (no-break ones too) to one
// space.
func normalSpace(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ")
}

// normalURL drops a URL's scheme, "www." and trailing slash, which do not
// change where it leads.
func normalURL(u string) string {
	u = strings.ToLower(u)
	if _, rest, ok := strings.Cut(u, "://"); ok {
		u = rest
	}
	return strings.TrimSuffix(strings.TrimPrefix(u, "www."), "/")
}

// describe prints a figure for reasons: "250 euro", "14:30".
func describe(f figure) string {
	if f.clock >= 0 {
		return fmt.Sprintf("%d:%02d", f.clock/60, f.clock%60)
	}
	return formatValue(f.value) + unitSuffix(f)
}

// nextToDay reports whether word i, a month, has a day of the month in
// digits beside it in its sentence ("17 October", "October 17th"), whose
// figure holds the month; beside a year ("March 2019") the month's name
// is the only word that says it.
func nextToDay(toks []token, lower []string, i int) bool {
	day := func(j int) bool {
		v, err := strconv.Atoi(strings.TrimRight(lower[j], "stndrh,"))
		return err == nil && v >= 1 && v <= 31
	}
	return i > 0 && !toks[i].sentStart && day(i-1) || i+1 < len(toks) && !toks[i+1].sentStart && day(i+1)
}

// italianPlural reports whether a word looks like an Italian plural noun
// ("opzioni", "licenze" aside): four letters or more ending in i, which
// English nouns after "due" do not.
func italianPlural(w string) bool {
	if len(w) < 4 || !strings.HasSuffix(w, "i") {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// ratioToOne returns how many words from j say "to one" or "a uno"
// after a number, the second term of a ratio, or 0.
func ratioToOne(lower []string, j int) int {
	if j+1 >= len(lower) {
		return 0
	}
	if (lower[j] == "to" || lower[j] == "a") && (lower[j+1] == "one" || lower[j+1] == "uno" || lower[j+1] == "1") {
		return 2
	}
	return 0
}

// feminineItalianPlural reports whether w looks like an Italian feminine
// plural noun ("tipologie", "licenze"): letters ending in "e".
func feminineItalianPlural(w string) bool {
	return len(w) >= 4 && strings.HasSuffix(w, "e") && isLetters(w)
}

// limitingWords limit a count said alone: "Only one.", "Soltanto due.".
var limitingWords = setOf("only just exactly solo soltanto solamente esattamente")

// clockWords are the words after which a number names an hour of the
// day: "alle nove e mezza", "dalle 9", "at nine".
var clockWords = setOf("alle dalle ore at")

// prevWord returns the word before word i in its sentence, or "".
func prevWord(lower []string, toks []token, i int) string {
	if i == 0 || toks[i].sentStart {
		return ""
	}
	return lower[i-1]
}

// codeKey is the form in which codes are compared: lower case; a
// variable without the shell's "$" ("$LC_ALL" is the variable LC_ALL);
// a folder without its final slash ("/usr/local/" is /usr/local).
func codeKey(w string) string {
	k := strings.ToLower(w)
	if len(k) > 1 && k[0] == '$' && k[1] != '(' && k[1] != '{' {
		k = k[1:]
	}
	if len(k) > 1 && strings.HasSuffix(k, "/") && !strings.Contains(k, "://") {
		k = strings.TrimSuffix(k, "/")
	}
	return k
}
