package answer

import (
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/guard"
)

// AnswerType is the kind of answer a question asks for, read from its
// wording in English or Italian ("how many" / "quanti" ask for a
// quantity, "when" / "quando" for a time). It steers which sentence the
// offline answerer quotes and which span of it leads the answer.
type AnswerType int

const (
	AnyAnswer        AnswerType = iota // no recognised question word
	QuantityAnswer                     // how many/much/long, quanti/quanto: a figure, a duration, money
	TimeAnswer                         // when, what time, quando, a che ora: a date, a day, a time
	PersonAnswer                       // who, chi: a name, a role, a team
	PlaceAnswer                        // where, dove: an address, a floor, a menu path
	ProcedureAnswer                    // how do I, come faccio, cosa devo fare: steps
	DefinitionAnswer                   // what is, what does X mean, cos'è
	YesNoAnswer                        // can I, do I, is it, posso, si può: a rule
)

var questionPatterns = []struct {
	t  AnswerType
	re *regexp.Regexp
}{
	{QuantityAnswer, regexp.MustCompile(`\bhow (many|much|long|far|often|quickly|fast|soon|big|large|old|late)\b|\bwhat(?:'s| is| are) the (minimum|maximum|max|min|limit|most|least|number|amount|cost|price|rate|length|size|cap|percentage)\b|\bwhat(?:'s| is) the .*\b(limit|rate|cap)\b|\bthe most\b|\bquant[oaie]\b|\bquant'|\bogni quanto\b|\bqual(?:e|'è| è) (?:il|la) (?:massimo|minimo|limite|durata|importo|costo)\b`)},
	{TimeAnswer, regexp.MustCompile(`\bwhen\b|\bwhat (time|day|date|year|month)\b|\bwhich (day|date|month)\b|\bby what\b|\bdeadline\b|\bquando\b|\ba che ora\b|\bche ora\b|\bche giorno\b|\bquale giorno\b|\bentro quando\b|\bscadenza\b`)},
	{PersonAnswer, regexp.MustCompile(`\bwho(m|se)?\b|\bwhich (person|team|office|department|group)\b|\b(a |di |da )?chi\b`)},
	{PlaceAnswer, regexp.MustCompile(`\bwhere\b|\bwhich (floor|room|building)\b|\baddress\b|\bdove\b|\bindirizzo\b|\bquale (piano|sede|stanza)\b`)},
	{ProcedureAnswer, regexp.MustCompile(`\bhow (do|can|should|would|to)\b|\bwhat (should|do|must) (i|we) do\b|\bcome (faccio|posso|si|devo|fare|possiamo|dobbiamo)\b|\bcosa (devo|dobbiamo|bisogna) fare\b|\bche cosa (devo|bisogna) fare\b`)},
	{DefinitionAnswer, regexp.MustCompile(`^(what(?:'s| is| are| does| do)\b|cos(?:'è|a è|a sono|a significa|a vuol dire|a indica)\b|che cos|cosa (?:significa|vuol dire|indica|copre|riguarda)\b)|\bwhat does .* (mean|cover|stand for)\b|\bcosa (significa|vuol dire)\b`)},
	{YesNoAnswer, regexp.MustCompile(`^(can|could|may|do|does|did|is|are|am|should|must|will|would|have|has|posso|possiamo|si può|si possono|devo|dobbiamo|è|sono|serve|bisogna|ho|c'è)\b`)},
}

// askedPart returns the lower-cased sentence of a question that asks: the
// last one that ends in "?" when there is one.
func askedPart(question string) string {
	q := strings.ToLower(strings.ReplaceAll(question, "’", "'"))
	if i := strings.LastIndex(q, "?"); i >= 0 {
		q = q[:i]
		if j := strings.LastIndexAny(q, ".!?"); j >= 0 && j+1 < len(q) {
			q = q[j+1:]
		}
	}
	return strings.TrimSpace(q)
}

// QuestionType reads the answer type a question asks for. Only the last
// sentence that ends in "?" is read when there is one: "I lost my badge.
// How much does a new one cost?" asks for a quantity.
func QuestionType(question string) AnswerType {
	q := askedPart(question)
	for _, p := range questionPatterns {
		if p.re.MatchString(q) {
			return p.t
		}
	}
	return AnyAnswer
}

const (
	numWords = `one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|sixty|ninety|uno|una|due|tre|quattro|cinque|sei|sette|otto|nove|dieci|dodici|quindici|venti|trenta|sessanta|novanta`
	units    = `(?:(?:working|business|calendar|consecutive|full|unpaid|paid|annual|lavorativi|lavorative|di calendario|consecutivi)\s+)?(?:days?|weeks?|months?|years?|hours?|hrs?|minutes?|mins?|seconds?|nights?|characters?|chars?|digits?|letters?|words|times|people|persons|participants|employees|pages|items|gb|mb|tb|kb|km|kilometres?|kilometers?|miles?|giorni|giorno|settimane|settimana|mesi|mese|anni|anno|ore|ora|minuti|secondi|notti|caratteri|cifre|lettere|parole|volte|persone|partecipanti|dipendenti)\b`
	money    = `(?:[$€£]\s?\d[\d.,]*(?:\s?(?:k|m|million|billion))?|\d[\d.,]*\s?(?:euro|eur|€|dollars?|usd|percent|per cent|%))`
	months   = `january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre`
	// monthNames are the months written out, "may" left out.
	monthNames = `january|february|march|april|june|july|august|september|october|november|december|gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre`
	weekdays   = `monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekdays?|weekends?|lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica|weekend`
	// placeNouns name places in a building or a town.
	placeNouns = `car park|parking(?: lot| area)?|building|floor|room|office|entrance|exit|lobby|reception|hall|courtyard|yard|garden|gate|square|street|avenue|road|canteen|kitchen|desk|area|assembly point|meeting point|muster point|wing|site|campus|warehouse|lab|laboratory|basement|garage|terrace|stairs|staircase|parcheggio|edificio|piano|stanza|sala|ufficio|ingresso|uscita|atrio|cortile|giardino|cancello|piazza|piazzale|via|viale|corso|mensa|cucina|reception|punto di raccolta|sede|magazzino|laboratorio|seminterrato|terrazza|scala|scale|aula|portineria|directory|folder|cartella`
	// placeModifiers follow an Italian place noun ("il parcheggio nord").
	placeModifiers = `nord|sud|est|ovest|north|south|east|west|principale|terra|interrato|centrale|riunioni`
	rangeWord      = `(?:\s?(?:-|–|to|a|or|o)\s?\d[\d.,]*)?`
)

var (
	quantityRE = regexp.MustCompile(`(?i)` + money + `|(?:\b\d[\d.,]*` + rangeWord + `|\b(?:` + numWords + `))\s*(?:%|\s` + units + `)|\b\d[\d.,]*\b`)
	// A month name alone is a date only when written out ("in March");
	// "may" alone is the verb.
	timeRE = regexp.MustCompile(`(?i)\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:` + months + `)(?:\s+\d{4})?\b|\b(?:` + months + `)\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b|\b(?:` + months + `)\s+\d{4}\b|\b\d{1,2}[:.]\d{2}\b(?:\s?(?:am|pm))?|\b\d{1,2}\s?(?:am|pm)\b|\b(?:alle|dalle|entro le|dopo le|prima delle)\s+\d{1,2}(?:[:.]\d{2})?\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|\b(?:` + weekdays + `)\b|\b(?:` + monthNames + `)\b|\b(?:the|on the)\s+\d{1,2}(?:st|nd|rd|th)\b|\bil\s+\d{1,2}\b|\b(?:within|before|after|by|entro|prima|dopo)\s+(?:\d[\d.,]*|` + numWords + `)\s+` + units + `|\b(?:19|20)\d{2}\b`)
	// personRE: a group, a role or a team, with the words that make it one
	// ("All GSA employees", "Head of department", "Data Protection
	// Officer"), an address to write to, or the name of whoever did
	// something ("written by Ada Rossi", "iniziata da Ada Rossi").
	personRE = regexp.MustCompile(`(?:\b(?i:the|your|our|their|il|la|lo|i|gli|le)\s+(?:[\w-]+\s+){0,2}|(?:\b(?:\p{Lu}[\w-]*|[\w]+-[\w-]+)\s+){0,3})(?i:\b(?:employees?|staff|everyone|anyone|members?|dipendenti|tutti|chiunque|manager|supervisor|lead|head|director|officer|chief|team|specialist|coordinator|administrator|owner|desk|hr|ceo|cfo|cto|responsabile|direttore|direttrice|ufficio|amministrat\w*|referente|engineer|department|dipartimento|reparto))\b(?:\s+(?:of|dell'|della|degli|dei|del)\s*(?:the\s+)?[\w-]+)?(?:\s+\p{Lu}[\w-]*){0,3}|[\w.+-]+@[\w-]+\.[\w.]+|\b(?:by|da|dalla|dal)\s+(\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)+)`)
	// placeRE: a place a person can go to: a named or numbered room, floor,
	// building or area, after the word that puts something there ("meet
	// in the north car park"), an address, a link or a menu path. A bare
	// "the building" names no particular place.
	placeRE           = regexp.MustCompile(`\b(?i:in|at|to|into|on|outside|inside|near|behind|beside|opposite|from|nel|nella|nello|nei|negli|nelle|al|alla|allo|ai|agli|alle|presso|davanti a(?:l|lla|llo)?|dietro a(?:l|lla|llo)?|sul|sulla|accanto a(?:l|lla|llo)?|in fondo a(?:l|lla)?)\s+((?:(?i:the|il|lo|la|i|gli|le)\s+(?:[\w'-]+\s+){0,2}|(?i:l')(?:[\w'-]+\s+){0,2}|(?:[\p{Lu}\d][\w'-]*\s+){0,2})(?i:` + placeNouns + `)\b(?:\s+(?:[\p{Lu}\d][\w.-]*|(?i:` + placeModifiers + `))){0,2})|\b\d+(?:st|nd|rd|th)?\s+(?i:floor|wing)\b|\b(?i:floor|room|building|wing|piano|stanza|sala|edificio|aula)\s+[\p{Lu}\d][\w.-]*|https?://\S+|\b\w+(?:\s?>\s?\w+)+|\b(?i:via|viale|piazza|corso|street|avenue|road)\s+\p{Lu}[\w ]{0,30}?\s\d+\w?\b`)
	yesNoRE           = regexp.MustCompile(`(?i)\b(?:can|cannot|can't|may|must|not|no|never|only|allowed|prohibited|permitted|required|forbidden|unless|non|vietat\w|consentit\w|obbligatori\w|può|possono|deve|devono|solo|soltanto|mai)\b`)
	defineRE          = regexp.MustCompile(`(?i)\b(?:is|are|means|mean|refers|covers|cover|describes|è|sono|significa|indica|copre|riguarda)\b`)
	frequencyPhraseRE = regexp.MustCompile(`(?i)\b(?:every|each|ogni)\s+(?:other\s+)?(?:day|week|month|year|hour|minute|night|morning|evening|working day|business day|weekday|giorno|settimana|mese|anno|ora|notte|mattina|sera|giorno lavorativo)\b|\b(?:once|twice|three times)\s+(?:a|an|per|every)\s+\w+|\b(?:una|due|tre) volt[ae]\s+(?:al|alla|all'|ogni|a|per)\s*\w+|\b(?:daily|weekly|monthly|yearly|annually|hourly|quotidian[ao]|settimanal[ei]|mensil[ei]|annual[ei])\b`)
	// sectionNumberRE: a section number leading a heading line.
	sectionNumberRE = regexp.MustCompile(`^\d+(?:\.\d+)+\.?\s+\p{Lu}`)
	stepRE          = regexp.MustCompile(`(?i)^(?:\d+[.)]\s|[-*•]\s)|:\s*$|\b(?:go to|click|open|select|submit|send|use|fill|contact|call|email|write|ask|request|vai|apri|clicca|seleziona|invia|compila|usa|contatta|chiama|scrivi|chiedi|richiedi)\b`)
)

// typedSpans returns the byte spans of s that have the answer type t.
func typedSpans(s string, t AnswerType) [][]int {
	switch t {
	case QuantityAnswer:
		found := quantityRE.FindAllStringIndex(s, -1)
		if len(found) > 0 && found[0][0] == 0 && sectionNumberRE.MatchString(s) {
			found = found[1:] // "3.1 Domestic trips" numbers a section
		}
		// A frequency without a figure ("every hour", "ogni giorno").
		for _, f := range frequencyPhraseRE.FindAllStringIndex(s, -1) {
			if !slices.ContainsFunc(found, func(g []int) bool { return g[0] < f[1] && f[0] < g[1] }) {
				found = append(found, f)
			}
		}
		slices.SortFunc(found, func(a, b []int) int { return a[0] - b[0] })
		return found
	case TimeAnswer:
		return timeRE.FindAllStringIndex(s, -1)
	case PersonAnswer:
		var out [][]int
		for _, m := range personRE.FindAllStringSubmatchIndex(s, -1) {
			if m[2] >= 0 {
				m = m[2:4] // the name, without "by"
			}
			if !bareRole(s[m[0]:m[1]]) {
				out = append(out, m[:2])
			}
		}
		return out
	case PlaceAnswer:
		var out [][]int
		for _, m := range placeRE.FindAllStringSubmatchIndex(s, -1) {
			if m[2] >= 0 {
				m = m[2:4] // the place, without the word that puts it there
			}
			if specificPlace(s[m[0]:m[1]]) {
				out = append(out, m[:2])
			}
		}
		return out
	case YesNoAnswer:
		return yesNoRE.FindAllStringIndex(s, -1)
	case DefinitionAnswer:
		return defineRE.FindAllStringIndex(s, -1)
	case ProcedureAnswer:
		return stepRE.FindAllStringIndex(s, -1)
	}
	return nil
}

// articleRE: the articles that open a noun phrase.
var articleRE = regexp.MustCompile(`(?i)^(?:the|a|an|il|lo|la|i|gli|le|un|una|uno)\s+|^l'`)

// unnamedRoles are the role words that name nobody without a word before
// or after them: "desk", "team", "head", the "office".
var unnamedRoles = map[string]bool{"desk": true, "team": true, "head": true, "lead": true, "owner": true, "department": true, "office": true, "ufficio": true, "reparto": true, "dipartimento": true}

// bareRole reports whether a person span is a role word that names nobody
// alone ("desk" of "the facilities desk" read without "facilities").
func bareRole(p string) bool {
	rest := articleRE.ReplaceAllString(strings.TrimSpace(p), "")
	return !strings.Contains(rest, " ") && unnamedRoles[strings.ToLower(rest)]
}

// specificPlace reports whether a place phrase names a particular place:
// more than an article and a noun ("the building" does not), or a name or
// a number.
func specificPlace(p string) bool {
	rest := articleRE.ReplaceAllString(strings.TrimSpace(p), "")
	return len(wordSpans(rest)) >= 2 || strings.ContainsAny(rest, "0123456789/>@") || rest != "" && unicode.IsUpper([]rune(rest)[0])
}

// spanTypes are the answer types whose span is worth leading the answer
// with: a figure, a date, a role, a place.
func spanType(t AnswerType) bool {
	return t == QuantityAnswer || t == TimeAnswer || t == PersonAnswer || t == PlaceAnswer
}

// headingLine reports whether span sp of text is a paragraph of its own
// of a few words without end punctuation: a heading inside the chunk's
// text ("To receive donated hours"), which names a subject, not an answer.
func headingLine(text string, sp [2]int) bool {
	s := strings.TrimSpace(text[sp[0]:sp[1]])
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".!?:;") || isTableRow(s) || listItem(s) || len(wordSpans(s)) > 8 {
		return false
	}
	before := strings.TrimRight(text[:sp[0]], " \t")
	after := strings.TrimLeft(text[sp[1]:], " \t")
	return (before == "" || strings.HasSuffix(before, "\n\n")) && (after == "" || strings.HasPrefix(after, "\n\n"))
}

// innerHeadings returns, for each sentence of text (spans), the heading
// line inside the text that it falls under ("3.1 Domestic trips"), or ""
// when none comes before it.
func innerHeadings(text string, spans [][2]int) []string {
	out := make([]string, len(spans))
	last := ""
	for j, sp := range spans {
		if headingLine(text, sp) {
			last = strings.TrimSpace(text[sp[0]:sp[1]])
			continue
		}
		out[j] = last
	}
	return out
}

// isTableRow reports whether a line is a table row ("a | b | c").
func isTableRow(line string) bool {
	return strings.Count(line, "|") >= 2 || strings.Count(line, "|") == 1 && !strings.HasPrefix(strings.TrimSpace(line), "|")
}

func isTableRule(line string) bool {
	t := strings.Trim(strings.TrimSpace(line), "|")
	return t != "" && strings.Trim(t, "-:| ") == ""
}

// tableHeader returns the span of the header row of the table whose row
// is spans[j], or false when spans[j] is the header or not a row.
func tableHeader(text string, spans [][2]int, j int) ([2]int, bool) {
	line := func(k int) string { return text[spans[k][0]:spans[k][1]] }
	if !isTableRow(line(j)) {
		return [2]int{}, false
	}
	h := j
	for h > 0 && isTableRow(line(h-1)) && !strings.Contains(text[spans[h-1][1]:spans[h][0]], "\n\n") {
		h--
	}
	if h == j || isTableRule(line(h)) {
		return [2]int{}, false
	}
	return spans[h], true
}

// labelledRow splits a table row written as labelled cells ("Severity:
// SEV2 | First response: 1 hour", as fonte chunks a table a row at a
// time) into a header row and a row of values; false when s is not one.
func labelledRow(s string) (header, row string, ok bool) {
	if !isTableRow(s) {
		return "", "", false
	}
	var hs, rs []string
	for _, cell := range cells(s) {
		label, value, found := strings.Cut(cell, ": ")
		if !found || strings.TrimSpace(label) == "" {
			return "", "", false
		}
		hs, rs = append(hs, strings.TrimSpace(label)), append(rs, strings.TrimSpace(value))
	}
	return strings.Join(hs, " | "), strings.Join(rs, " | "), true
}

func cells(row string) []string {
	parts := strings.Split(strings.Trim(strings.TrimSpace(row), "|"), "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// askedVerbRE finds the verb of a question that asks how to do something:
// "how do I report", "how to renew", "come faccio a chiedere", "come si
// richiede".
var askedVerbRE = regexp.MustCompile(`\bhow (?:do|can|should|must|would) (?:i|we|you|one) ([\p{L}]+)|\bhow to ([\p{L}]+)|\bcome (?:faccio|posso|devo|possiamo|dobbiamo|si fa) (?:a |per )?([\p{L}]+)|\bcome si ([\p{L}]+)`)

// askedVerb returns the content keys of the verb a how-to question asks
// about; nil for other questions.
func askedVerb(question string) map[string]bool {
	m := askedVerbRE.FindStringSubmatch(askedPart(question))
	for _, g := range m[min(1, len(m)):] {
		if g != "" {
			if k := ContentKeys(g); len(k) > 0 {
				return k
			}
		}
	}
	return nil
}

// instructs reports whether sentence s opens with the asked verb, as an
// instruction does ("Report security incidents to …", "- Richiedi …").
func instructs(s string, verb map[string]bool) bool {
	t := strings.TrimLeft(strings.TrimSpace(s), "-*•0123456789.) \t")
	w := wordSpans(t)
	return len(w) > 0 && w[0][0] == 0 && hasAny(ContentKeys(t[w[0][0]:w[0][1]]), verb)
}

// implied are words a sentence answers without writing them: an email
// address answers "which address do I write to", a phone number "which
// number do I call".
var implied = []struct {
	re   *regexp.Regexp
	keys map[string]bool
}{
	{regexp.MustCompile(`[\w.+-]+@[\w-]+\.[\w.]+`), ContentKeys("email e-mail mail address indirizzo posta")},
	{regexp.MustCompile(`(?i)\b(?:extension|ext\.|interno|tel\.?)\s*\d+|\+\d[\d ]{6,}`), ContentKeys("phone telephone call number telefono chiamare numero")},
	{regexp.MustCompile(`https?://\S+`), ContentKeys("link website site page url sito pagina")},
}

// withImplied adds to the keys of sentence s the words it answers
// without writing them.
func withImplied(keys map[string]bool, s string) map[string]bool {
	for _, im := range implied {
		if im.re.MatchString(s) {
			for k := range im.keys {
				keys[k] = true
			}
		}
	}
	return keys
}

// spanBonus is what a sentence holding a span of the asked type gains, in
// average question keys; rankDecay divides a sentence's score by 1 +
// rankDecay × the rank of its chunk (0 for the best-ranked), so that among
// near ties the better-retrieved chunk wins.
const spanBonus, rankDecay = 1.0, 0.2

// ExtractSpan is fonte's offline answerer. It reads the answer type the
// question asks for (QuestionType) and quotes the sentence of chunks that
// best answers it: the sentence must share a content key with the
// question (stems, so inflected forms meet), rare keys weigh more, keys of
// the chunk's headings count half, and a sentence holding a span of the
// asked type (a figure for "how many", a date for "when") is preferred.
// Sentences that guard.Suspicious flags are never quoted. A list intro is
// quoted with its items and a table row with its header row, and a
// sentence is followed by the next ones of its paragraph that stay on the
// question's subject. When the answer type has a span (a figure, a date, a
// role, a place), the answer may start with one ("10 working days — …";
// for a table cell, "Header: cell — …"), but only when the span fits what
// is asked and is bound to the question's distinguishing words, and the
// sentence is not in doubt (see leader). It returns the answer text, the 1-based number of the chunk
// quoted and the quoted byte span inside that chunk's text; n = 0 when no
// sentence qualifies. Everything it says is in the cited chunk.
func ExtractSpan(question string, chunks []fonte.Chunk) (text string, n int, span [2]int) {
	want := ContentKeys(question)
	if len(want) == 0 {
		return "", 0, span
	}
	// Sorted, so that sums of weights, and so ties, do not depend on map
	// order.
	order := slices.Sorted(maps.Keys(want))
	qt := QuestionType(question)
	df := map[string]int{}
	for _, c := range chunks {
		ck := ContentKeys(chunk.Enriched(c))
		for k := range want {
			if ck[k] {
				df[k]++
			}
		}
	}
	weight := func(k string) float64 { return 1 + math.Log(float64(len(chunks)+1)/float64(df[k]+1)) }
	var total float64
	for _, k := range order {
		total += weight(k)
	}
	bonus := spanBonus * total / float64(len(want))
	amounts := numbers(question)
	verb := askedVerb(question)
	l := leader{qt: qt, m: askedMeasure(question, qt), unit: askedUnit(question), want: want, topic: topicWords(question), figures: figures(question), amounts: amounts}
	best := 0.0
	var bestChunk, bestSent int
	var bestSpans [][2]int
	for i, c := range chunks {
		headings := ContentKeys(strings.Join(c.Headings, " "))
		spans := chunk.SentenceSpans(c.Text)
		inner := innerHeadings(c.Text, spans)
		for j, sp := range spans {
			s := c.Text[sp[0]:sp[1]]
			if guard.Suspicious(s) {
				continue
			}
			if headingLine(c.Text, sp) || slices.Contains(c.Headings, strings.TrimSpace(s)) {
				continue // a heading inside the text names a subject, it does not answer
			}
			heading := headings
			if inner[j] != "" {
				heading = ContentKeys(strings.Join(c.Headings, " ") + "\n" + inner[j])
			}
			keys := withImplied(ContentKeys(s), s)
			var header, before map[string]bool
			if h, ok := tableHeader(c.Text, spans, j); ok {
				// A row is read with its header: "Response | 1 hour".
				header = ContentKeys(c.Text[h[0]:h[1]])
			}
			if j > 0 && pronounLed(s) {
				// "It must be longer than 14 characters": the subject is
				// the sentence before's.
				before = ContentKeys(c.Text[spans[j-1][0]:spans[j-1][1]])
			}
			score, own := 0.0, 0
			for _, k := range order {
				switch {
				case keys[k]:
					score += weight(k)
					own++
				case heading[k] || header[k] || before[k]:
					score += weight(k) / 2
				}
			}
			if own == 0 && before == nil {
				continue // never a sentence without the question's words
			}
			if own == 0 && !hasAny(before, want) {
				continue // nor one whose subject is not the question's
			}
			if qt != AnyAnswer && (spanType(qt) && l.couldLead(s, keys, heading, header, before) || !spanType(qt) && len(typedSpans(s, qt)) > 0) {
				score += bonus // a span that could lead, not any figure
			} else if qt != AnyAnswer && spanType(qt) {
				score -= bonus / 2
			}
			if inRange(amounts, s) {
				score += bonus // "4,000 euro" falls in "from 1,000.01 to 10,000 euro"
			}
			if len(verb) > 0 && instructs(s, verb) {
				score += bonus // "How do I report…?" is answered by "Report … to …"
			}
			words := len(wordSpans(s))
			if strings.HasPrefix(s, "#") || words < 4 && !isTableRow(s) || strings.HasSuffix(strings.TrimSpace(s), "?") {
				score -= bonus // a heading, a fragment or a question rarely answers
			}
			score /= 1 + rankDecay*float64(i)
			score -= 1e-4 * float64(utf8.RuneCountInString(s)) / 100
			if score > best {
				best, n, bestChunk, bestSent, bestSpans = score, i+1, i, j, spans
			}
		}
	}
	if n == 0 {
		return "", 0, span
	}
	c := chunks[bestChunk]
	sp := bestSpans[bestSent]
	span = withList(c.Text, bestSpans, bestSent)
	lead := ""
	if h, ok := tableHeader(c.Text, bestSpans, bestSent); ok && span == sp {
		// A table row is quoted under its header row.
		header, row := c.Text[h[0]:h[1]], c.Text[sp[0]:sp[1]]
		text = header + "\n" + row
		if spanType(qt) {
			lead = l.rowLead(header, row)
			if lead != "" && l.doubtful(chunks, bestChunk, sp, frameKeys(c, header, row)) {
				lead = ""
			}
		}
	} else {
		if span == sp {
			span = widen(c.Text, bestSpans, bestSent, want)
		}
		text = c.Text[span[0]:span[1]]
		if spanType(qt) {
			s := c.Text[sp[0]:sp[1]]
			if header, row, ok := labelledRow(s); ok {
				lead = l.rowLead(header, row)
			} else {
				lead = l.sentenceLead(s)
			}
			subject := subjectLine(c.Text, bestSpans, bestSent) + "\n" + innerHeadings(c.Text, bestSpans)[bestSent]
			if lead != "" && l.doubtful(chunks, bestChunk, sp, frameKeys(c, subject, s)) {
				lead = ""
			}
		}
	}
	if lead != "" && lead != strings.TrimSpace(text) {
		text = lead + " — " + text
	}
	return text, n, span
}

// widen extends sentence j of text with the sentences that follow it in
// the same paragraph while they stay on the subject (share a content key
// with the question or with sentence j) and are not suspicious, up to
// maxWiden sentences and maxBytes bytes in all.
func widen(text string, spans [][2]int, j int, want map[string]bool) [2]int {
	const maxWiden, maxBytes = 2, 420
	out := spans[j]
	first := ContentKeys(text[spans[j][0]:spans[j][1]])
	for k := j + 1; k < len(spans) && k <= j+maxWiden; k++ {
		gap := text[out[1]:spans[k][0]]
		items := listItem(text[spans[k-1][0]:spans[k-1][1]]) && listItem(text[spans[k][0]:spans[k][1]])
		if strings.Contains(gap, "\n") && !(items && !strings.Contains(gap, "\n\n")) || spans[k][1]-out[0] > maxBytes {
			break
		}
		s := text[spans[k][0]:spans[k][1]]
		if guard.Suspicious(s) || strings.HasSuffix(strings.TrimSpace(s), ":") {
			break
		}
		keys := ContentKeys(s)
		if !hasAny(keys, want) && !hasAny(keys, first) {
			break
		}
		out[1] = spans[k][1]
	}
	return out
}

// questionWords reports whether span is made of the question's words
// only. A span with a figure says something new (ownFigure judges it).
func questionWords(span string, want map[string]bool) bool {
	if strings.ContainsAny(span, "0123456789") {
		return false
	}
	k := ContentKeys(span)
	for w := range k {
		if !want[w] {
			return false
		}
	}
	return len(k) > 0
}

// wordSpans returns the byte spans of the runs of letters and digits of s.
func wordSpans(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		in := unicode.IsLetter(r) || unicode.IsDigit(r)
		if in && start < 0 {
			start = i
		} else if !in && start >= 0 {
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

// listItem reports whether a line is a bulleted or numbered list item.
func listItem(t string) bool {
	if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "• ") {
		return true
	}
	d := 0
	for d < len(t) && t[d] >= '0' && t[d] <= '9' {
		d++
	}
	return d > 0 && d+1 < len(t) && (t[d] == '.' || t[d] == ')') && t[d+1] == ' '
}

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
	durationAskRE  = regexp.MustCompile(`\bhow long\b|\bhow (?:quickly|fast|soon)\b|\b(?:dopo|entro|tra|fra|in) quanto\b|\bquanto tempo\b|\bquanto dura|\bper quanto\b|\bduration\b|\bdurata\b|\bhow many (?:days|weeks|months|years|hours|minutes|nights)\b|\bquant[ie] (?:giorni|settimane|mesi|anni|ore|minuti|notti)\b`)
	distanceAskRE  = regexp.MustCompile(`\bhow far\b|\bquanto dista|\bquanto (?:è )?lontan`)
	ageAskRE       = regexp.MustCompile(`\bhow old\b`)
	countAskRE     = regexp.MustCompile(`\bhow many\b|\bquant[ie]\b|\bnumber of\b|\bnumero di\b`)
	moneyAskRE     = regexp.MustCompile(`\bcost|\bprice|\bspend|\bpa(?:y|id)\b|\bfees?\b|\bbudget|\bworth\b|\breimburs|\brefund|\ballowance|\bsalar|\bprezz|\bspes[aeo]\b|\bspend|\bpag[aho]|\bimport[oi]\b|\brimbors|\btariff|\beuro\b|\bdollar|[$€£]`)
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
	frequencyRE  = regexp.MustCompile(`(?i)\b(?:every|each|once|twice|times|daily|weekly|monthly|yearly|annually|ogni|volte|al giorno|alla settimana|al mese|all'anno)\b`)
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

// leader picks the lead of an answer for one question.
type leader struct {
	qt      AnswerType
	m       measure
	want    map[string]bool   // the question's content keys
	topic   []map[string]bool // the keys of each topic word of the question (topicWords)
	unit    string            // the unit of time the question names ("how many weeks"), or ""
	figures []float64         // the question's own figures, years and number words included
	amounts []float64         // the question's amounts, which a range may hold (numbers)
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
		if l.qt == QuantityAnswer && digitsOnly(s[sp[0]:sp[1]]) {
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
			if l.unit != "" && timeUnit(cand) != l.unit {
				continue // "12 months" does not say how many weeks
			}
			if threshold(s[:sp[0]]) {
				continue // "if the trip lasts over 12 hours" states a condition
			}
			if l.qt == QuantityAnswer && digitsOnly(cand) && !named {
				continue // a bare figure says nothing of what it counts
			}
		}
		if questionWords(cand, l.want) {
			continue // the question's own words say nothing new
		}
		if ownFigure(cand, l.figures) {
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
	return conditionRE.MatchString(before)
}

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

// sentenceLead returns the lead for sentence s, or "".
func (l leader) sentenceLead(s string) string {
	cands := l.candidates(s)
	if i := bound(s, cands, l.want); i >= 0 {
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
// lead: one that fits what is asked, in a sentence that holds at least
// leadCoverage of the question's topic words.
func (l leader) couldLead(s string, frames ...map[string]bool) bool {
	if len(l.candidates(s)) == 0 {
		return false
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
