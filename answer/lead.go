package answer

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/chunk"
)

// A lead is the short typed span put before the quoted sentence ("250
// euro — …"). A person reads it first, so a wrong one misleads even when
// the quote below holds the right figure; a missing one costs little. The
// leader therefore gives one only when the span fits what the question
// asks (a duration for "how long", not a floor number) and is bound to
// the question's distinguishing words: the words of the question that
// set this case apart from its neighbours in the same sentence ("250 euro
// per night in London" against the general "180 euro per night") or in
// the same table row and header. When in doubt it gives none.

// measure is the kind of figure a quantity or time question asks for.
type measure int

const (
	anyMeasure       measure = iota // a figure with a unit, money or a percentage
	durationMeasure                 // how long, quanto dura: a duration or a length
	frequencyMeasure                // how often, ogni quanto
	distanceMeasure                 // how far, quanto dista
	ageMeasure                      // how old
	countMeasure                    // how many X, quanti X: a figure of X, or one with a unit
	moneyMeasure                    // how much does it cost, quanto costa: money or a percentage
	clockMeasure                    // what time, a che ora: a time of day
	dayMeasure                      // which day, che giorno: a day or a date
)

var (
	frequencyAskRE = regexp.MustCompile(`\bhow (?:often|frequently)\b|\bogni quanto\b|\bcon (?:che|quale) frequenza\b|\bquante volte\b|\bhow many times\b`)
	durationAskRE  = regexp.MustCompile(`\bhow long\b|\bhow (?:quickly|fast|soon)\b|\b(?:dopo|entro|tra|fra|in) quanto\b|\bquanto tempo\b|\bquanto dura|\bper quanto\b|\bduration\b|\bdurata\b|\btimeout\b|\bhow many (?:days|weeks|months|years|hours|minutes|nights)\b|\bquant[ie] (?:giorni|settimane|mesi|anni|ore|minuti|notti)\b`)
	distanceAskRE  = regexp.MustCompile(`\bhow far\b|\bquanto dista|\bquanto (?:è )?lontan`)
	ageAskRE       = regexp.MustCompile(`\bhow old\b`)
	countAskRE     = regexp.MustCompile(`\bhow many\b|\bquant[ie]\b|\bnumber of\b|\bnumero di\b`)
	moneyAskRE     = regexp.MustCompile(`\bcost|\bprice|\bspend|\bpa(?:y|id)\b|\bfees?\b|\bbudget|\bworth\b|\breimburs|\brefund|\ballowance|\bsalar|\bprezz|\bspes[aeo]\b|\bspend|\bpag[aho]|\bimport[oi]\b|\brimbors|\btariff|\beuro\b|\bdollar|[$€£]|\bpercent|\bshare of\b|\bproportion\b|\bpercentual`)
	clockAskRE     = regexp.MustCompile(`\b(?:at )?what time\b|\bche or[ae]\b|\bopening hours\b|\borari`)
	dayAskRE       = regexp.MustCompile(`\b(?:what|which) (?:day|date)\b|\b(?:che|quale|in che) (?:giorno|data)\b`)
)

// askingRE matches the words that ask, beside those of the measures.
var askingRE = regexp.MustCompile(`\bhow (?:much|many|long|far|often|quickly|fast|soon|big|large|old|late)\b|\bwhat (?:time|day|date|year|month)\b|\bwhich (?:day|date|month|year)\b|\bwhat(?:'s| is| are) the (?:minimum|maximum|max|min|limit|most|least|number|amount)\b|\b(?:dopo|entro|tra|fra|in|per) quant[oaie]\b|\bquant[oaie]\b|\bqual(?:e|'è| è) (?:il|la) (?:massimo|minimo|limite|durata|importo)\b`)

// topicWords returns the content keys of each word of a question, less
// the words that ask ("how quickly", "what is the maximum", "quanto
// tempo"): what the question is about, a word at a time.
func topicWords(question string) []map[string]bool {
	asking := map[string]bool{}
	q := askedPart(question)
	for _, re := range []*regexp.Regexp{askingRE, frequencyAskRE, durationAskRE, distanceAskRE, ageAskRE, countAskRE, clockAskRE, dayAskRE} {
		for _, m := range re.FindAllString(q, -1) {
			for k := range ContentKeys(m) {
				asking[k] = true
			}
		}
	}
	var out []map[string]bool
	seen := map[string]bool{}
	for _, w := range wordSpans(question) {
		word := strings.ToLower(question[w[0]:w[1]])
		keys := ContentKeys(word)
		if len(keys) == 0 || seen[word] || subsetOf(keys, asking) || digitsOnly(word) || auxiliaries[word] {
			continue // figures are the question's conditions (ownFigure, inRange)
		}
		seen[word] = true
		out = append(out, keys)
	}
	return out
}

// auxiliaries are the auxiliary verbs that the content keys keep but that
// say nothing of a question's topic ("what time does it close", "quando
// viene pagato").
var auxiliaries = map[string]bool{"does": true, "did": true, "shall": true, "get": true, "gets": true, "got": true, "può": true, "viene": true, "vengono": true}

// subsetOf reports whether every key of a is in b.
func subsetOf(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// askedMeasure reads which kind of figure a question of type t asks for.
func askedMeasure(question string, t AnswerType) measure {
	q := askedPart(question)
	switch t {
	case QuantityAnswer:
		for _, c := range []struct {
			re *regexp.Regexp
			m  measure
		}{{frequencyAskRE, frequencyMeasure}, {durationAskRE, durationMeasure}, {distanceAskRE, distanceMeasure}, {ageAskRE, ageMeasure}, {countAskRE, countMeasure}, {moneyAskRE, moneyMeasure}} {
			if c.re.MatchString(q) {
				return c.m
			}
		}
	case TimeAnswer:
		if clockAskRE.MatchString(q) {
			return clockMeasure
		}
		if dayAskRE.MatchString(q) {
			return dayMeasure
		}
	}
	return anyMeasure
}

var (
	timeUnitRE   = regexp.MustCompile(`(?i)\b(?:days?|weeks?|months?|years?|hours?|hrs?|minutes?|mins?|seconds?|nights?|giorni|giorno|settimane|settimana|mesi|mese|anni|anno|ore|ora|minuti|secondi|notti|notte)\b`)
	lengthUnitRE = regexp.MustCompile(`(?i)\b(?:characters?|chars?|digits?|letters?|words?|pages?|lines?|bytes?|bits?|caratteri|cifre|lettere|parole|pagine|righe|kb|mb|gb|tb|kib|mib|gib|tib)\b`)
	distUnitRE   = regexp.MustCompile(`(?i)\d\s?(?:km|m|mi)\b|\b(?:kilomet|chilometr|metres?|meters?|metri|miles?|miglia)`)
	moneyUnitRE  = regexp.MustCompile(`(?i)[$€£%]|\b(?:euro|eur|dollars?|usd|pounds?|gbp|percent|per cent|per cento)\b`)
	anyUnitRE    = regexp.MustCompile(`(?i)[$€£%]|\b(?:euro|eur|dollars?|usd|percent|per cent|per cento)\b|\s` + units)
	frequencyRE  = regexp.MustCompile(`(?i)\b(?:every|each|once|twice|times|daily|weekly|fortnightly|monthly|quarterly|yearly|annually|biannually|ogni|volte|al giorno|alla settimana|al mese|all'anno|quotidian[ao]|settimanal[ei]|quindicinal[ei]|mensil[ei]|bimestral[ei]|trimestral[ei]|semestral[ei]|annual[ei])\b`)
	clockRE      = regexp.MustCompile(`(?i)\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b|\b(?:alle|dalle|le)\s+\d{1,2}\b`)
	dayRE        = regexp.MustCompile(`(?i)\b(?:` + weekdays + `|` + months + `)\b|\b\d{1,2}/\d{1,2}\b|\b\d{4}-\d{2}-\d{2}\b|\b(?:the|il) \d{1,2}`)
	yearsRE      = regexp.MustCompile(`(?i)\b(?:years?|anni)\b`)
	// labelRE: a word that makes the figure after it a name, not an
	// amount ("level -1", "step 3", "versione 2").
	labelRE = regexp.MustCompile(`(?i)(?:\b(?:level|floor|room|step|section|chapter|page|version|release|article|item|line|row|option|number|no|n|livello|piano|stanza|sala|passo|punto|sezione|capitolo|pagina|versione|articolo|riga|opzione|numero)\.?|[#v-])\s*$`)
)

// fits reports whether a candidate span is the kind of figure measure m
// asks for. named is true when the span ends in a word of the question
// ("2 written quotes" for "how many quotes").
func fits(span string, m measure, named bool) bool {
	switch m {
	case durationMeasure:
		// "every 2 hours" is how often, not how long.
		return (timeUnitRE.MatchString(span) || lengthUnitRE.MatchString(span)) && !frequencyRE.MatchString(span)
	case frequencyMeasure:
		return frequencyRE.MatchString(span) || timeUnitRE.MatchString(span)
	case distanceMeasure:
		return distUnitRE.MatchString(span) || timeUnitRE.MatchString(span)
	case ageMeasure:
		return yearsRE.MatchString(span)
	case countMeasure:
		return named || anyUnitRE.MatchString(span)
	case moneyMeasure:
		return moneyUnitRE.MatchString(span)
	case clockMeasure:
		return clockRE.MatchString(span)
	case dayMeasure:
		return dayRE.MatchString(span)
	}
	return named || anyUnitRE.MatchString(span) || !digitsOnly(span)
}

// timeUnits gives the unit of time each English and Italian word names.
var timeUnits = map[string]string{
	"minute": "minute", "minutes": "minute", "minuto": "minute", "minuti": "minute",
	"hour": "hour", "hours": "hour", "ora": "hour", "ore": "hour",
	"day": "day", "days": "day", "giorno": "day", "giorni": "day",
	"night": "night", "nights": "night", "notte": "night", "notti": "night",
	"week": "week", "weeks": "week", "settimana": "week", "settimane": "week",
	"month": "month", "months": "month", "mese": "month", "mesi": "month",
	"year": "year", "years": "year", "anno": "year", "anni": "year",
}

// askedUnitRE: a question that names the unit it counts in.
var askedUnitRE = regexp.MustCompile(`\bhow many (\p{L}+)|\bquant[ie] (\p{L}+)`)

// askedUnit returns the unit of time a question counts in ("how many
// weeks", "quanti giorni"), or "".
func askedUnit(question string) string {
	m := askedUnitRE.FindStringSubmatch(askedPart(question))
	if m == nil {
		return ""
	}
	return timeUnits[m[1]+m[2]]
}

// timeUnit returns the unit of time span counts in, or "" when it names
// none or more than one.
func timeUnit(span string) string {
	unit := ""
	for _, w := range asciiWords(span) {
		if u, ok := timeUnits[w]; ok {
			if unit != "" && u != unit {
				return ""
			}
			unit = u
		}
	}
	return unit
}

// digitsOnly reports whether s is a bare figure: digits and separators.
func digitsOnly(s string) bool {
	return strings.Trim(s, "0123456789.,:-–/ ") == ""
}

// countWordRE: a number word alone (countWords).
var countWordRE = regexp.MustCompile(`(?i)^(?:` + countWords + `)$`)

// bare reports whether span is a figure or a number word alone, which
// says nothing of what it counts without a noun after it.
func bare(span string) bool {
	return digitsOnly(span) || countWordRE.MatchString(strings.TrimSpace(span))
}

// leader picks the lead of an answer for one question.
type leader struct {
	qt      AnswerType
	m       measure
	want    map[string]bool   // the question's content keys
	topic   []map[string]bool // the keys of each topic word of the question (topicWords)
	unit    string            // the unit of time the question names ("how many weeks"), or ""
	figures []float64         // the question's own figures, years and number words included
	amounts []float64         // the question's amounts, which a range may hold (numbers)
	// figureUnits is the unit of time each figure of the question counts
	// in (figureUnits).
	figureUnits map[float64]string
	// identity is true when the question asks who someone is (who is,
	// chi è): the lead must be joined to the role asked about.
	identity bool
	// figure is true when the question asks for a figure ("how many
	// days", "quanti giorni"), which an amount without one ("a few
	// days", "alcuni giorni") does not give.
	figure bool
}

// candidates returns the spans of s that could lead: typed spans of the
// question's type, ranges kept whole with the word that opens them ("from
// 12:00 to 14:30", "up to 250 euro"), that fit the asked measure, and that
// are neither the question's own figures nor made of its words.
func (l leader) candidates(s string) [][2]int {
	raw := typedSpans(s, l.qt)
	var spans [][2]int
	for _, f := range raw {
		spans = append(spans, [2]int{f[0], f[1]})
	}
	if l.qt == QuantityAnswer || l.qt == TimeAnswer {
		spans = qualified(s, mergeRanges(s, spans))
	}
	var out [][2]int
	for _, sp := range spans {
		named := false
		if l.qt == QuantityAnswer && bare(s[sp[0]:sp[1]]) {
			sp, named = l.withNoun(s, sp)
		}
		cand := strings.TrimSpace(s[sp[0]:sp[1]])
		if cand == "" {
			continue
		}
		if l.qt == QuantityAnswer || l.qt == TimeAnswer {
			if labelRE.MatchString(s[:sp[0]]) {
				continue // "level -1" names a floor
			}
			if (l.qt == QuantityAnswer || l.m != anyMeasure) && !fits(cand, l.m, named) {
				continue // "1" is no duration; any time answers "when"
			}
			if l.figure && vagueRE.MatchString(cand) {
				continue // "a few days" does not say how many
			}
			if l.unit != "" && timeUnit(cand) != l.unit {
				continue // "12 months" does not say how many weeks
			}
			if threshold(s[:sp[0]]) {
				continue // "if the trip lasts over 12 hours" states a condition
			}
			if l.qt == QuantityAnswer && bare(cand) && !named {
				continue // a bare figure says nothing of what it counts
			}
		}
		if excluded(s[:sp[0]]) {
			continue // "without an entry in /etc/fstab" says where it is not
		}
		if questionWords(cand, l.want) {
			continue // the question's own words say nothing new
		}
		if ownFigure(cand, l.figures) && !l.otherUnit(cand) {
			continue // "6 years" in "after six years of service?" is the condition, not the answer
		}
		out = append(out, sp)
	}
	if l.qt == TimeAnswer {
		out = compound(s, out)
	}
	return out
}

var (
	// comparisonRE: a comparison right before a figure.
	comparisonRE = regexp.MustCompile(`(?i)\b(?:over|above|under|below|more than|less than|longer than|shorter than|fewer than|exceeding|at least|oltre|sopra|sotto|più di|meno di|superiore a|inferiore a|almeno)\s*$`)
	// conditionRE: a word that opens a condition or a relative clause.
	conditionRE = regexp.MustCompile(`(?i)\b(?:if|when|whenever|unless|that|which|who|whose|se|quando|qualora|purché|che|cui)\b`)
)

// threshold reports whether a figure that follows before is a threshold
// inside a condition or a relative clause ("any trip that lasts over 12
// hours", "se l'importo supera i", "when … more than"): it says when a
// rule applies, not what the rule gives.
func threshold(before string) bool {
	if !comparisonRE.MatchString(before) {
		return false
	}
	if i := strings.LastIndexAny(before, ";"); i >= 0 {
		before = before[i+1:]
	}
	return conditionRE.MatchString(withoutComplements(before))
}

// excludingRE: a word that puts what follows it out of the answer
// ("without", "except", "senza", "tranne"), ending the text before a span.
var excludingRE = regexp.MustCompile(`(?i)\b(?:without|except|excluding|other than|apart from|senza|tranne|eccetto|escluso|esclusa|esclusi|escluse|fuorché)\b[^,;:.()|]*$`)

// excluded reports whether a span that follows before is governed, in
// its clause, by a word that excludes it: the sentence names it as what
// the answer is not.
func excluded(before string) bool { return excludingRE.MatchString(before) }

// withNoun extends a bare figure with the words of the question that
// follow it, within two words: "24 credit hours" for "how many credit
// hours", "2 written quotes" for "how many quotes".
func (l leader) withNoun(s string, sp [2]int) ([2]int, bool) {
	rest := s[sp[1]:]
	end := -1
	for i, w := range wordSpans(rest) {
		if strings.ContainsAny(rest[:w[0]], ",;:.()|") {
			break
		}
		if hasAny(ContentKeys(rest[w[0]:w[1]]), l.want) {
			end = w[1]
		} else if end >= 0 || i >= 1 {
			break
		}
	}
	if end < 0 {
		return sp, false
	}
	return [2]int{sp[0], sp[1] + end}, true
}

// otherUnit reports whether cand counts its figures in another unit of
// time than the question counts the same figures in: "6 hours" is not
// the question's own "six years".
func (l leader) otherUnit(cand string) bool {
	u := timeUnit(cand)
	if u == "" {
		return false
	}
	for _, v := range figures(cand) {
		if qu, ok := l.figureUnits[v]; !ok || qu == u {
			return false
		}
	}
	return true
}

// ownFigure reports whether every figure of cand is one the question
// states itself.
func ownFigure(cand string, own []float64) bool {
	vals := figures(cand)
	if len(vals) == 0 || len(own) == 0 {
		return false
	}
	for _, v := range vals {
		if !slices.Contains(own, v) {
			return false
		}
	}
	return true
}

// compound joins time spans that only function words separate ("12:00 to
// 14:30 on weekdays", "9:00-17:00, Monday to Friday"): together they are
// one answer.
func compound(s string, spans [][2]int) [][2]int {
	var out [][2]int
	for _, sp := range spans {
		if n := len(out); n > 0 {
			gap := s[out[n-1][1]:sp[0]]
			if len(ContentKeys(gap)) == 0 && len(wordSpans(gap)) <= 2 && !strings.ContainsAny(gap, ";.()|") && !conjunctionRE.MatchString(gap) {
				out[n-1][1] = sp[1]
				continue
			}
		}
		out = append(out, sp)
	}
	return out
}

// conjunctionRE: words that open a new clause between two spans.
var conjunctionRE = regexp.MustCompile(`(?i)\b(?:and|but|or|while|whereas|except|unless|e|ed|ma|o|oppure|mentre|invece|tranne|salvo)\b`)

// sentenceLead returns the lead for sentence s, or "": the candidate
// bound to the question's distinguishing words (bound), near one of its
// words (near) and not given as an example (illustrative); for a
// question that asks who someone is, joined to the question's words by
// no more than a copula (joined).
func (l leader) sentenceLead(s string) string {
	cands := l.candidates(s)
	if i := bound(s, cands, l.want); i >= 0 && l.near(s, cands[i]) && (!l.identity || l.joined(s, cands[i])) && !illustrative(s[:cands[i][0]]) {
		return strings.TrimSpace(s[cands[i][0]:cands[i][1]])
	}
	return ""
}

// bound returns the index of the candidate bound to the question's
// distinguishing words, or -1 when none is or more than one could be.
// The sentence is cut between consecutive candidates at the strongest
// break (";" over "," or ":" over a conjunction), so that each candidate
// gets the clause around it; the words before the first candidate are its
// head, shared by all ("Hotel: up to 180 euro per night, and up to 250
// euro per night in London"). A question word found in some clauses but
// not in all distinguishes them, and the candidate whose clause holds all
// such words is bound. A single candidate is bound.
func bound(s string, cands [][2]int, want map[string]bool) int {
	switch len(cands) {
	case 0:
		return -1
	case 1:
		if strayFigure(s, cands[0], want) {
			return -1
		}
		return 0
	}
	cuts := make([]int, len(cands)+1)
	cuts[0], cuts[len(cands)] = cands[0][0], len(s)
	for i := 1; i < len(cands); i++ {
		at, ok := clauseBreak(s, cands[i-1][1], cands[i][0])
		if !ok {
			return -1 // two figures in one clause: nothing tells them apart
		}
		cuts[i] = at
	}
	segs := make([]map[string]bool, len(cands))
	seen := map[string]int{}
	for i := range cands {
		segs[i] = map[string]bool{}
		for k := range ContentKeys(s[cuts[i]:cuts[i+1]]) {
			if want[k] {
				segs[i][k] = true
				seen[k]++
			}
		}
	}
	var distinguishing []string
	for k, n := range seen {
		if n < len(cands) {
			distinguishing = append(distinguishing, k)
		}
	}
	if len(distinguishing) == 0 {
		return -1 // the question does not say which
	}
	pick := -1
	for i, seg := range segs {
		all := true
		for _, k := range distinguishing {
			all = all && seg[k]
		}
		if all {
			if pick >= 0 {
				return -1
			}
			pick = i
		}
	}
	return pick
}

// contrastRE: what parts a sentence into clauses of their own, each
// with its own subject: a semicolon, or a conjunction that contrasts.
var contrastRE = regexp.MustCompile(`(?i);|\s(?:but|while|whereas|however|otherwise|ma|mentre|invece|tuttavia|altrimenti)\s`)

// purposeRE: what opens a clause that says why the clause before is
// done ("migrate within 3 months to ensure you receive security
// updates"): a figure of the first clause is not one of the second's.
var purposeRE = regexp.MustCompile(`(?i)\s(?:to ensure|to make sure|so that|in order to|so as to|per garantire|per assicurar\w*|affinché|in modo da|al fine di)\s`)

// strayFigure reports whether the only candidate of s sits in a clause
// that lacks a question word another clause of s holds ("Domestic
// refunds take 10 days; refunds abroad are set by finance" for "how long
// do refunds abroad take"): the figure belongs to the other clause's
// case, not the question's. Clauses are cut at a contrast (contrastRE)
// and before a purpose (purposeRE). A sentence of one clause keeps it
// bound.
func strayFigure(s string, cand [2]int, want map[string]bool) bool {
	cuts := append(contrastRE.FindAllStringIndex(s, -1), purposeRE.FindAllStringIndex(s, -1)...)
	if len(cuts) == 0 {
		return false
	}
	slices.SortFunc(cuts, func(a, b []int) int { return a[0] - b[0] })
	from, to := 0, len(s)
	for _, c := range cuts {
		if c[1] <= cand[0] {
			from = c[1]
		} else if c[0] >= cand[1] {
			to = c[0]
			break
		}
	}
	own := ContentKeys(s[from:to])
	for k := range ContentKeys(s[:from] + " " + s[to:]) {
		if want[k] && !own[k] {
			return true
		}
	}
	return false
}

// strayOnly reports whether sentence s holds a single span that could
// lead and it sits in a clause that lacks a question word another clause
// holds (strayFigure). A table row is read by its header instead.
func (l leader) strayOnly(s string) bool {
	if _, _, ok := labelledRow(s); ok {
		return false
	}
	cands := l.candidates(s)
	return len(cands) == 1 && strayFigure(s, cands[0], l.want)
}

// clauseBreak returns the position of the strongest break in s[from:to]:
// the first ";", else the first "," ":" or bracket, else the first
// conjunction; false when there is none.
func clauseBreak(s string, from, to int) (int, bool) {
	if from >= to {
		return 0, false
	}
	gap := s[from:to]
	if i := strings.IndexAny(gap, ";"); i >= 0 {
		return from + i, true
	}
	if i := strings.IndexAny(gap, ",:()|"); i >= 0 {
		return from + i, true
	}
	for _, dash := range []string{" – ", " — ", " - "} {
		if i := strings.Index(gap, dash); i >= 0 {
			return from + i, true
		}
	}
	if loc := conjunctionRE.FindStringIndex(gap); loc != nil {
		return from + loc[0], true
	}
	return 0, false
}

// rowLead returns "Header: cell" for the cell of a table row that answers:
// a cell holding a span of the asked type that fits the asked measure,
// under a header that holds a question word when the question names a
// column; "" when no cell, or more than one, qualifies.
func (l leader) rowLead(header, row string) string {
	if l.held(ContentKeys(row)) == 0 {
		return "" // no cell names the question's case: the row may be a neighbour's
	}
	hs, rs := cells(header), cells(row)
	var fitting, named []int
	headerWord := false // a column other than the row's key is named by the question
	for i, cell := range rs {
		if i >= len(hs) || cell == "" || questionWords(cell, l.want) {
			continue // the row's key, which the question names
		}
		if ownFigure(cell, l.figures) || inRange(l.amounts, cell) {
			continue // the condition the question states, not the answer
		}
		underWord := hasAny(ContentKeys(hs[i]), l.want)
		headerWord = headerWord || underWord
		if len(typedSpans(cell, l.qt)) == 0 {
			continue
		}
		if len(l.candidates(cell)) == 0 && !(underWord && (l.m == countMeasure || l.m == anyMeasure)) {
			continue
		}
		fitting = append(fitting, i)
		if underWord {
			named = append(named, i)
		}
	}
	pool := fitting
	if headerWord {
		pool = named // the question names the column it asks about
	}
	if len(pool) != 1 {
		return ""
	}
	i := pool[0]
	if hs[i] == "" {
		return rs[i]
	}
	return hs[i] + ": " + rs[i]
}

// subjectLine returns the line that gives sentence j of text its subject:
// the intro of the list it is an item of, or the sentence before a
// pronoun-led one; "" when there is none.
func subjectLine(text string, spans [][2]int, j int) string {
	s := strings.TrimSpace(text[spans[j][0]:spans[j][1]])
	if pronounLed(s) && j > 0 {
		return text[spans[j-1][0]:spans[j-1][1]]
	}
	if !listItem(s) {
		return ""
	}
	for k := j - 1; k >= 0; k-- {
		if t := strings.TrimSpace(text[spans[k][0]:spans[k][1]]); !listItem(t) {
			return t
		}
	}
	return ""
}

// frameKeys returns the content keys that frame a quoted sentence: its
// own, its chunk's headings' and those of the line that gives it a
// subject (a table's header row, a list's intro, the sentence a pronoun
// points to).
func frameKeys(c fonte.Chunk, subject, s string) map[string]bool {
	return ContentKeys(s + "\n" + subject + "\n" + strings.Join(c.Headings, "\n"))
}

// leadCoverage is the share of the question's topic words that a quoted
// sentence and its frame must hold for a lead: a sentence that holds
// fewer of the question's words may be about something else, and its
// figure then answers another question.
const leadCoverage = 0.5

// doubtful reports whether a lead from the quoted sentence (span sp of
// chunk at, framed by frame) is in doubt: the sentence and its frame hold
// less than leadCoverage of the question's topic words, or a topic word
// they lack is found in another sentence of the context that holds a span
// of the asked type and as many of the question's topic words: that
// sentence may state the figure for the question's case ("90 euro in
// small towns"), and the quoted one a neighbour's ("120 euro in
// provincial capitals").
func (l leader) doubtful(chunks []fonte.Chunk, at int, sp [2]int, frame map[string]bool) bool {
	held := l.held(frame)
	if float64(held) < leadCoverage*float64(len(l.topic)) {
		return true
	}
	var missing []map[string]bool
	for _, w := range l.topic {
		if !hasAny(frame, w) {
			missing = append(missing, w)
		}
	}
	if len(missing) == 0 {
		return false
	}
	for i, c := range chunks {
		heading := ContentKeys(strings.Join(c.Headings, "\n"))
		for _, o := range chunk.SentenceSpans(c.Text) {
			if i == at && o == sp {
				continue
			}
			s := c.Text[o[0]:o[1]]
			keys := ContentKeys(s)
			if !slices.ContainsFunc(missing, func(w map[string]bool) bool { return hasAny(keys, w) }) || len(l.candidates(s)) == 0 {
				continue
			}
			maps.Copy(keys, heading)
			if l.held(keys) >= held {
				return true
			}
		}
	}
	return false
}

// couldLead reports whether sentence s, with its keys and those of its
// heading, table header and subject sentence, holds a span that could
// lead: one that fits what is asked and is not given as an example
// (illustrative), in a sentence that holds at least leadCoverage of the
// question's topic words.
func (l leader) couldLead(s string, frames ...map[string]bool) bool {
	if !slices.ContainsFunc(l.candidates(s), func(c [2]int) bool { return !illustrative(s[:c[0]]) }) {
		return false // "(e.g. 2015-2017)" illustrates: it never leads, nor wins the quote as if it could
	}
	held := 0
	for _, w := range l.topic {
		if slices.ContainsFunc(frames, func(f map[string]bool) bool { return hasAny(f, w) }) {
			held++
		}
	}
	return float64(held) >= leadCoverage*float64(len(l.topic))
}

// held counts the topic words of the question that keys hold.
func (l leader) held(keys map[string]bool) int {
	n := 0
	for _, w := range l.topic {
		if hasAny(keys, w) {
			n++
		}
	}
	return n
}

// headingLead returns the lead a quoted sentence's heading gives when the
// sentence states no figure of the asked kind itself: a heading that
// states the rule ("Maximum line length of 120 characters") over a
// sentence that explains it. The nearest heading is read (the one inside
// the chunk's text, else the chunk's last), and only a single candidate
// of it leads, near a word of the question (near); "" otherwise.
func (l leader) headingLead(c fonte.Chunk, inner string) string {
	h := inner
	if h == "" && len(c.Headings) > 0 {
		h = c.Headings[len(c.Headings)-1]
	}
	if cands := l.candidates(h); len(cands) == 1 && l.near(h, cands[0]) {
		return strings.TrimSpace(h[cands[0][0]:cands[0][1]])
	}
	return ""
}
