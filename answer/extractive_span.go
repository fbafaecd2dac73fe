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
	PlaceAnswer                        // where, dove: an address, a floor, a menu path, a file path
	ProcedureAnswer                    // how do I, come faccio, cosa devo fare: steps
	DefinitionAnswer                   // what is, what does X mean, cos'è
	YesNoAnswer                        // can I, do I, is it, posso, si può: a rule
)

var questionPatterns = []struct {
	t  AnswerType
	re *regexp.Regexp
}{
	{QuantityAnswer, regexp.MustCompile(`\bhow (many|much|long|far|often|quickly|fast|soon|big|large|old|late)\b|\bwhat(?:'s| is| are) the (minimum|maximum|max|min|limit|most|least|number|amount|cost|price|rate|length|size|cap|percentage)\b|\bwhat(?:'s| is) the .*\b(limit|rate|cap|timeout|duration|percentage)\b|\bwhat (share|percentage|proportion|fraction) of\b|\bthe most\b|\bquant[oaie]\b|\bquant'|\bogni quanto\b|\bqual(?:e|'è| è) (?:il|la) (?:massimo|minimo|limite|durata|importo|costo)\b`)},
	{TimeAnswer, regexp.MustCompile(`\bwhen\b|\bwhat (time|day|date|year|month)\b|\bwhich (day|date|month|year)\b|\b(?:che|quale|quali) (?:anno|mese|data|date)\b|\bby what\b|\bdeadline\b|\bquando\b|\ba che ora\b|\bche ora\b|\bche giorno\b|\bquale giorno\b|\bentro quando\b|\bscadenza\b`)},
	{PersonAnswer, regexp.MustCompile(`\bwho(m|se)?\b|\bwhich (person|team|office|department|group)\b|\b(a |di |da )?chi\b`)},
	{PlaceAnswer, regexp.MustCompile(`\bwhere\b|\bwhich (floor|room|building)\b|\baddress\b|\bdove\b|\bindirizzo\b|\bquale (piano|sede|stanza)\b`)},
	{ProcedureAnswer, regexp.MustCompile(`\bhow (do|can|should|would|to)\b|\bwhat (should|do|must) (i|we) do\b|\bcome (faccio|posso|si|devo|fare|possiamo|dobbiamo)\b|\bcosa (devo|dobbiamo|bisogna) fare\b|\bche cosa (devo|bisogna) fare\b`)},
	// "What do we lint Kotlin code with?" asks for a thing, not what a
	// term means: "what does/do" defines only with mean, cover, stand for
	// or do ("What does the facilities desk do?").
	{DefinitionAnswer, regexp.MustCompile(`^(what(?:'s| is| are)\b|cos(?:'è|a è|a sono|a significa|a vuol dire|a indica)\b|che cos|cosa (?:significa|vuol dire|indica|copre|riguarda)\b)|\bwhat (?:does|do) .* (mean|cover|stand for|do)$|\bcosa (significa|vuol dire)\b`)},
	// (?:\s|$), not \b, ends the opener: Go's \b is ASCII, so "si può"
	// and "è" never met one.
	{YesNoAnswer, regexp.MustCompile(`^(can|could|may|do|does|did|is|are|am|should|must|will|would|have|has|posso|possiamo|si può|si possono|devo|dobbiamo|è|sono|serve|bisogna|ho|c'è)(?:\s|$)`)},
}

// sentenceEndRE: the end of a sentence inside a question's text.
var sentenceEndRE = regexp.MustCompile(`[.!?]\s+`)

// askedPart returns the lower-cased sentence of a question that asks: the
// last one that ends in "?" when there is one.
func askedPart(question string) string {
	q := strings.ToLower(strings.ReplaceAll(question, "’", "'"))
	if i := strings.LastIndex(q, "?"); i >= 0 {
		q = q[:i]
		// A sentence ends at a mark followed by a space: the dots of
		// "internal.digital.gov.uk" or "2.5" end none.
		if loc := sentenceEndRE.FindAllStringIndex(q, -1); len(loc) > 0 {
			q = q[loc[len(loc)-1][1]:]
		}
	}
	return strings.TrimSpace(q)
}

// QuestionType reads the answer type a question asks for. Only the last
// sentence that ends in "?" is read when there is one: "I lost my badge.
// How much does a new one cost?" asks for a quantity.
//
// A "when", "where" or "who" (quando, dove, chi) inside a question that
// has already opened with another question word or verb opens a
// subordinate clause, not the question: "What schedule am I on when I
// start?" asks what, "Posso lavorare da casa quando piove?" asks yes or
// no, "Do employees who joined this year get a bonus?" asks yes or no.
// A question without a question word whose last clause, past a comma,
// opens with a yes/no verb asks yes or no: the phrase before the comma
// sets the scene ("In a release note, should I …?").
func QuestionType(question string) AnswerType {
	q := askedPart(question)
	opened := questionOpenerRE.MatchString(q)
	yesNo := questionPatterns[len(questionPatterns)-1].re.MatchString(q)
	for _, p := range questionPatterns {
		for _, m := range p.re.FindAllStringIndex(q, -1) {
			if opened && m[0] > 0 && subordinateRE.MatchString(q[m[0]:m[1]]) && !indirectRE.MatchString(q[:m[0]]) {
				continue
			}
			if yesNo && nounTriggerRE.MatchString(q[m[0]:m[1]]) {
				continue // "Can a service use an internal address?" asks yes or no
			}
			return p.t
		}
	}
	if !whWordRE.MatchString(q) && innerModalRE.MatchString(q) {
		return YesNoAnswer // "il manuale si può pubblicare in PDF?": the subject comes first
	}
	if i := strings.LastIndex(q, ", "); i >= 0 && !whWordRE.MatchString(q) && questionPatterns[len(questionPatterns)-1].re.MatchString(q[i+2:]) {
		return YesNoAnswer // "In a release note, should I …?": a phrase sets the scene, the verb asks
	}
	return AnyAnswer
}

var (
	// whWordRE: a question word anywhere (what, quale, come, …).
	whWordRE = regexp.MustCompile(`(?:^|\s)(?:what|what's|which|how|who|whom|whose|why|where|when|che|cosa|cos'è|quale|quali|qual|come|chi|dove|quando|quant[oaie]|perché)(?:\s|$)`)
	// innerModalRE: an Italian modal past the subject that asks yes or
	// no ("la nota spese va consegnata …?", "il badge è obbligatorio?").
	innerModalRE = regexp.MustCompile(`(?:^|\s)(?:si può|si possono|può|possono|posso|possiamo|va|vanno|deve|devono|devo|dobbiamo|bisogna|serve|servono|occorre|è possibile|è obbligatori[oa]|è necessari[oa]|sono obbligatori|sono necessari)(?:\s|$)`)
)

var (
	// questionOpenerRE: the first word of a question that asks by it (a
	// question word, or the verb of a yes/no question).
	questionOpenerRE = regexp.MustCompile(`^(?:what|what's|which|how|who|whom|whose|why|where|when|can|could|may|do|does|did|is|are|am|was|were|should|must|will|would|have|has|che|cosa|cos'è|quale|quali|qual|come|chi|dove|quando|quanto|quanta|quanti|quante|perché|posso|possiamo|può|possono|devo|dobbiamo|deve|devono|si|è|sono|serve|servono|bisogna|ho|c'è|va|vanno)\b`)
	// subordinateRE: a question word that, past the opening, introduces a
	// clause (whose ends at a word boundary, so "whose" is kept apart).
	subordinateRE = regexp.MustCompile(`^(?:when|where|who|whom|whose|quando|dove|chi)\b`)
	// nounTriggerRE: the words that type a question by naming what it
	// asks for ("the address", "the deadline") rather than by asking;
	// in a question opened by a yes/no verb they are its topic, not the
	// answer it wants.
	nounTriggerRE = regexp.MustCompile(`^(?:address|indirizzo|deadline|scadenza|the most)$`)
	// indirectRE: the words before an indirect question, whose question
	// word still asks ("Can you tell me who approves?").
	indirectRE = regexp.MustCompile(`\b(?:tell (?:me|us)|know|show (?:me|us)|find out|dirmi|dirci|sapere|sai|sapete|indicarmi)\s*$`)
)

const (
	numWords = `one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|uno|una|due|tre|quattro|cinque|sei|sette|otto|nove|dieci|undici|dodici|tredici|quattordici|quindici|sedici|diciassette|diciotto|diciannove|venti|trenta|quaranta|cinquanta|sessanta|settanta|ottanta|novanta`
	units    = `(?:(?:working|business|calendar|consecutive|full|unpaid|paid|annual|lavorativi|lavorative|di calendario|consecutivi)\s+)?(?:days?|weeks?|months?|years?|hours?|hrs?|minutes?|mins?|seconds?|nights?|characters?|chars?|digits?|letters?|words|times|people|persons|participants|employees|pages|items|gb|mb|tb|kb|km|kilometres?|kilometers?|miles?|giorni|giorno|settimane|settimana|mesi|mese|anni|anno|ore|ora|minuti|secondi|notti|caratteri|cifre|lettere|parole|volte|persone|partecipanti|dipendenti)\b`
	money    = `(?:[$€£]\s?\d[\d.,]*(?:\s?(?:k|m|million|billion))?|\d[\d.,]*\s?(?:euro|eur|€|dollars?|usd|percent|per cent|%))`
	months   = `january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre`
	// datedMonths are the months beside a day's figure: "may" only
	// capitalised, since "3 may apply" is the verb.
	datedMonths = `january|february|march|april|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|(?-i:May)|gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre`
	// monthNames are the months written out, "may" left out.
	monthNames = `january|february|march|april|june|july|august|september|october|november|december|gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre`
	weekdays   = `monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekdays?|weekends?|lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica|weekend`
	// placeNouns name places in a building or a town.
	placeNouns = `car park|parking(?: lot| area)?|building|floor|room|office|entrance|exit|lobby|reception|hall|courtyard|yard|garden|gate|square|street|avenue|road|canteen|kitchen|desk|area|assembly point|meeting point|muster point|wing|site|campus|warehouse|lab|laboratory|basement|garage|terrace|stairs|staircase|parcheggio|edificio|piano|stanza|sala|ufficio|ingresso|uscita|atrio|cortile|giardino|cancello|piazza|piazzale|via|viale|corso|mensa|cucina|reception|punto di raccolta|sede|magazzino|laboratorio|seminterrato|terrazza|scala|scale|aula|portineria|directory|folder|cartella`
	// placeModifiers follow an Italian place noun ("il parcheggio nord").
	placeModifiers = `nord|sud|est|ovest|north|south|east|west|principale|terra|interrato|centrale|riunioni`
	rangeWord      = `(?:\s?(?:-|–|to|a|or|o)\s?\d[\d.,]*)?`
	// vagueAmounts are amounts said without a figure of their own, before
	// a unit: "one and a half hours", "half an hour", "a few days",
	// "qualche giorno", "un paio di settimane".
	vagueAmounts = `(?:` + numWords + `) and (?:a )?half|half an?|a few|a couple of|several|qualche|pochi|poche|alcuni|alcune|un paio di`
	// halfUnits are the Italian halves written as one word with their
	// unit ("mezz'ora", "un'ora e mezza").
	halfUnits = `mezz'ora|mezza giornata|un'ora e mezz[ao]|(?:` + numWords + `) ore e mezz[ao]`
	// countWords are the number words that may count alone ("only one
	// <h1> element"); the articles uno and una, and sei ("you are"),
	// are left out. Like a bare figure, one leads only with the
	// question's noun after it (leader.withNoun).
	countWords = `one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|due|tre|quattro|cinque|sette|otto|nove|dieci|undici|dodici`
)

var (
	quantityRE = regexp.MustCompile(`(?i)` + money + `|(?:\b\d[\d.,]*` + rangeWord + `|\b(?:` + numWords + `))\s*(?:%|\s` + units + `)|\b(?:` + vagueAmounts + `)\s+` + units + `|\b(?:` + halfUnits + `)\b|\b\d[\d.,]*\b|\b(?:` + countWords + `)\b`)
	// A month name alone is a date only when written out ("in March");
	// "may" alone is the verb.
	timeRE = regexp.MustCompile(`(?i)\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:` + datedMonths + `)(?:\s+\d{4})?\b|\b(?:` + datedMonths + `)\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b|\b(?:` + months + `)\s+\d{4}\b|\b\d{1,2}[:.]\d{2}\b(?:\s?(?:am|pm))?|\b\d{1,2}\s?(?:am|pm)\b|\b(?:alle|dalle|entro le|dopo le|prima delle)\s+\d{1,2}(?:[:.]\d{2})?\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|\b(?:` + weekdays + `)\b|\b(?:` + monthNames + `)\b|\b(?:the|on the)\s+\d{1,2}(?:st|nd|rd|th)\b|\bil\s+\d{1,2}\b|\b(?:within|before|after|by|entro|prima|dopo)\s+(?:\d[\d.,]*|` + numWords + `)\s+` + units + `|\b(?:19|20)\d{2}\b`)
	// personRE: a group, a role or a team, with the words that make it one
	// ("All GSA employees", "Head of department", "Data Protection
	// Officer"), an address to write to, or the name of whoever did
	// something ("written by Ada Rossi", "iniziata da Ada Rossi").
	personRE = regexp.MustCompile(`(?:\b(?i:the|your|our|their|il|la|lo|i|gli|le)\s+(?:[\w-]+\s+){0,2}|(?:\b(?:\p{Lu}[\w-]*|[\w]+-[\w-]+)\s+){0,3})(?i:\b(?:employees?|staff|everyone|anyone|members?|dipendenti|tutti|chiunque|manager|supervisor|lead|head|director|officer|chief|team|specialist|coordinator|administrator|owner|desk|hr|ceo|cfo|cto|responsabile|direttore|direttrice|ufficio|amministrat\w*|referente|engineer|department|dipartimento|reparto))\b(?:\s+(?:of|dell'|della|degli|dei|del)\s*(?:the\s+)?[\w-]+)?(?:\s+\p{Lu}[\w-]*){0,3}|[\w.+-]+@[\w-]+\.[\w.]+|\b(?:by|da|dalla|dal)\s+(\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)+)`)
	// placeRE: a place a person can go to: a named or numbered room, floor,
	// building or area, after the word that puts something there ("meet
	// in the north car park"), an address, a link or a menu path. A bare
	// "the building" names no particular place.
	placeRE = regexp.MustCompile(`\b(?i:in|at|to|into|on|outside|inside|near|behind|beside|opposite|from|nel|nella|nello|nei|negli|nelle|al|alla|allo|ai|agli|alle|presso|davanti a(?:l|lla|llo)?|dietro a(?:l|lla|llo)?|sul|sulla|accanto a(?:l|lla|llo)?|in fondo a(?:l|lla)?)\s+((?:(?i:the|il|lo|la|i|gli|le)\s+(?:[\w'-]+\s+){0,2}|(?i:l')(?:[\w'-]+\s+){0,2}|(?:[\p{Lu}\d][\w'-]*\s+){0,2})(?i:` + placeNouns + `)\b(?:\s+(?:[\p{Lu}\d][\w.-]*|(?i:` + placeModifiers + `))){0,2})|\b\d+(?:st|nd|rd|th)?\s+(?i:floor|wing)\b|\b(?i:floor|room|building|wing|piano|stanza|sala|edificio|aula)\s+[\p{Lu}\d][\w.-]*|https?://\S+|\b\w+(?:\s?>\s?\w+)+|\b(?i:via|viale|piazza|corso|street|avenue|road)\s+\p{Lu}[\w ]{0,30}?\s\d+\w?\b`)
	// pathRE: a file system path, where files are kept or mounted
	// ("/media/user/disk", "~/.gnupg/", "/etc/fstab"), written after a
	// space, a quote or a bracket so that "km/h" and "24/7" are not.
	pathRE = regexp.MustCompile(`(?:^|[\s"'(«“‘])((?:~|\.{1,2})?/[\w.-]*[\w](?:/(?:[\w.*-]*[\w*])?)*)`)
	// yesNoRE: a word that rules; "può" is matched apart, since Go's
	// \b is ASCII and finds no boundary after its "ò".
	yesNoRE           = regexp.MustCompile(`(?i)\b(?:can|cannot|can't|may|must|not|no|never|only|allowed|prohibited|permitted|required|forbidden|unless|non|vietat\w|consentit\w|obbligatori\w|possono|deve|devono|solo|soltanto|mai)\b|\bpuò`)
	defineRE          = regexp.MustCompile(`(?i)\b(?:is|are|means|mean|refers|covers|cover|describes|è|sono|significa|indica|copre|riguarda)\b`)
	frequencyPhraseRE = regexp.MustCompile(`(?i)\b(?:every|each|ogni)\s+(?:other\s+)?(?:day|week|month|year|hour|minute|night|morning|evening|working day|business day|weekday|giorno|settimana|mese|anno|ora|notte|mattina|sera|giorno lavorativo)\b|\b(?:once|twice|three times)\s+(?:a|an|per|every)\s+\w+|\b(?:una|due|tre) volt[ae]\s+(?:al|alla|all'|ogni|a|per)\s*\w+|\b(?:daily|weekly|fortnightly|monthly|quarterly|yearly|annually|biannually|hourly|quotidian[ao]|settimanal[ei]|quindicinal[ei]|mensil[ei]|bimestral[ei]|trimestral[ei]|semestral[ei]|annual[ei])\b`)
	// sectionNumberRE: a section number leading a heading line.
	sectionNumberRE = regexp.MustCompile(`^\d+(?:\.\d+)+\.?\s+\p{Lu}`)
	// stepRE: a step of a procedure: a list item, a line announcing
	// steps, or an instruction, a verb of action at the start ("Use …",
	// "Contatta …") or after "you must", "si deve" and the like; the same
	// verb inside a clause ("a template to use for notes") instructs
	// nothing.
	stepRE = regexp.MustCompile(`(?i)^(?:\d+[.)]\s|[-*•]\s)|:\s*$|(?:^|\b(?:you|we|i|they|staff|employees|users?)\s+(?:must|should|can|need to|have to|will need to)\s+|^(?:si\s+)?(?:deve|devono|occorre|bisogna|è necessario)\s+)(?:go to|click|open|select|submit|send|use|fill|contact|call|email|write|ask|request|vai|apri|clicca|seleziona|invia|compila|usa|contatta|chiama|scrivi|chiedi|richiedi|usare|contattare|chiamare|scrivere|chiedere|richiedere|inviare|compilare)\b`)
)

// typedSpans returns the byte spans of s that have the answer type t.
func typedSpans(s string, t AnswerType) [][]int {
	switch t {
	case QuantityAnswer:
		found := quantityRE.FindAllStringIndex(s, -1)
		if len(found) > 0 && found[0][0] == 0 && sectionNumberRE.MatchString(s) {
			found = found[1:] // "3.1 Domestic trips" numbers a section
		}
		found = slices.DeleteFunc(found, func(f []int) bool { return dotted(s[f[0]:f[1]]) })
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
			if !bareRole(s[m[0]:m[1]]) && !indefinitePossessor(s, m[0], m[1]) {
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
		for _, m := range pathRE.FindAllStringSubmatchIndex(s, -1) {
			if !slices.ContainsFunc(out, func(g []int) bool { return g[0] < m[3] && m[2] < g[1] }) {
				out = append(out, m[2:4])
			}
		}
		slices.SortFunc(out, func(a, b []int) int { return a[0] - b[0] })
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

// seeAlsoRE: a sentence that only points elsewhere ("(see pbuilder(8))",
// "Vedi il capitolo 3."), naming a source, not an answer.
var seeAlsoRE = regexp.MustCompile(`(?i)^[\s(\[]*(?:see|see also|vedi|vedere|cfr\.?)\s[^.;:]{0,60}[.)\]\s]*$`)

// countLedRE: a span that opens with a number word ("one key").
var countLedRE = regexp.MustCompile(`(?i)^(?:` + countWords + `)\s`)

// vagueRE: an amount said without a figure (vagueAmounts, halfUnits).
var vagueRE = regexp.MustCompile(`(?i)^(?:(?:` + vagueAmounts + `)\s|` + halfUnits + `)`)

// dottedRE: a figure of three or more parts ("3.1.1", "1.2.53").
var dottedRE = regexp.MustCompile(`\d+(?:[.,]\d+){2,}`)

// thousandsRE: a figure grouped in thousands ("1.000.000", "2,500,000").
var thousandsRE = regexp.MustCompile(`^\d{1,3}(?:\.\d{3})+(?:,\d+)?$|^\d{1,3}(?:,\d{3})+(?:\.\d+)?$`)

// dotted reports whether span holds a version or section number
// ("3.1.1", "1.2.53"): a figure of three or more parts that is not
// grouped in thousands names something, it counts nothing.
func dotted(span string) bool {
	for _, m := range dottedRE.FindAllString(span, -1) {
		if !thousandsRE.MatchString(m) {
			return true
		}
	}
	return false
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

// indefinitePossessor reports whether the person span s[from:to] is an
// indefinite pronoun in the possessive ("out of everyone's control"): it
// owns the thing named after it and names nobody who acts, so it does
// not say who.
func indefinitePossessor(s string, from, to int) bool {
	rest := s[to:]
	if !strings.HasPrefix(rest, "'s") && !strings.HasPrefix(rest, "’s") {
		return false
	}
	ws := strings.Fields(s[from:to])
	return len(ws) > 0 && indefinitePronouns[strings.ToLower(ws[len(ws)-1])]
}

// indefinitePronouns name people without saying which.
var indefinitePronouns = map[string]bool{"everyone": true, "everybody": true, "anyone": true, "anybody": true, "someone": true, "somebody": true, "no-one": true, "nobody": true}

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
// text ("To receive donated hours"), which names a subject, not an answer;
// or such a line opening a paragraph whose next line defines it, the term
// of a glossary or a list of references ("Codice privacy" over "Decreto
// legislativo 30 giugno 2003, n. 196 …"), which names the subject of the
// definition under it and of no other.
func headingLine(text string, sp [2]int) bool {
	s := strings.TrimSpace(text[sp[0]:sp[1]])
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".!?:;") || isTableRow(s) || listItem(s) || len(wordSpans(s)) > 8 {
		return false
	}
	before := strings.TrimRight(text[:sp[0]], " \t")
	after := strings.TrimLeft(text[sp[1]:], " \t")
	if before != "" && !strings.HasSuffix(before, "\n\n") {
		return false
	}
	return after == "" || strings.HasPrefix(after, "\n\n") || definedBelow(after[min(1, len(after)):], len(wordSpans(s)))
}

// definedBelow reports whether text, the line after a short line, is the
// definition of it: a line of its own (no list item, table row or
// heading) of at least twice as many words, and more than 8, that ends
// a sentence.
func definedBelow(text string, words int) bool {
	line, _, _ := strings.Cut(text, "\n")
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(text, "\n") || listItem(line) || isTableRow(line) || strings.HasPrefix(line, "#") {
		return false
	}
	n := len(wordSpans(line))
	return n > 8 && n >= 2*words && strings.ContainsAny(line[len(line)-1:], ".;»)")
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

// leadBonus is what a sentence holding a span that could lead gains, in
// spanBonus: one and a half, so that the sentence stating the figure
// asked for ("you must migrate … within 3 months") wins over one that
// shares a word or two more with the question but states none.
const leadBonus = 1.5

// ExtractSpan is fonte's offline answerer. It reads the answer type the
// question asks for (QuestionType) and quotes the sentence of chunks that
// best answers it: the sentence must share a content key with the
// question (stems, so inflected forms meet), rare keys weigh more (and,
// for a question that asks for no typed span, keys that few sentences
// hold settle a tie; for a yes/no question, the sentence that speaks in
// the modality asked, permission or obligation, does: modality), keys of
// the chunk's headings count half, and a sentence holding a span of the
// asked type (a figure for "how many", a date for "when") is preferred.
// Sentences that guard.Suspicious flags are never quoted, and one that
// bounds a figure of the question the other way ("less than $2,500" for
// "more than $2,500") states a neighbouring case and is passed over
// (caseMatch). For a question that asks what a term means or who someone
// is, the glossary item labelled with the question's term is preferred,
// and one labelled with another term never leads (definedTerm). A list
// intro is quoted with its items, a nested item with
// its parent item and a table row with its header row, and a sentence is
// followed by the next ones of its paragraph that stay on the question's
// subject (and by a paragraph that opens with "These …", which goes on
// with it). When the answer type has a span (a figure, a date, a
// role, a place), the answer may start with one ("10 working days — …";
// for a table cell, "Header: cell — …"), but only when the span fits what
// is asked and is bound to the question's distinguishing words, and the
// sentence is not in doubt (see leader); a sentence that states no
// figure of the asked kind may take its lead from the heading it sits
// under, when that heading states one (headingLead). It returns the
// answer text, the 1-based number of the chunk
// quoted and the quoted byte span inside that chunk's text; n = 0 when no
// sentence qualifies. Everything it says is in the cited chunk.
func ExtractSpan(question string, chunks []fonte.Chunk) (text string, n int, span [2]int) {
	return extractSpan(question, chunks, nil)
}

// weighed is one sentence ExtractSpan weighs: sentence sent of chunk
// chunk's sentence spans, at byte span span of the chunk's text, its
// score, how many of the question's keys it holds itself (own) and
// whether it holds a span of the asked type that could lead (lead), and
// the shares of the question's key weight it holds itself (held) and
// its heading, table header or sentence before holds for it (framed).
type weighed struct {
	chunk, sent  int
	span         [2]int
	score        float64
	own          int
	lead         bool
	held, framed float64
}

// extractSpan is ExtractSpan with an observer: when rescore is not nil,
// it is shown every sentence that qualifies and the sentence is weighed
// by the score it returns (see Candidates).
func extractSpan(question string, chunks []fonte.Chunk, rescore func(weighed) float64) (text string, n int, span [2]int) {
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
	var asked modality // read once: every sentence is matched against it
	if qt == YesNoAnswer {
		asked = askedModality(question)
	}
	var rarity map[string]float64
	if !spanType(qt) {
		// A typed question's ties go to the sentence stating the asked
		// kind of fact (leadBonus), not to a rarer word.
		rarity = sentenceRarity(chunks, want)
	}
	var total float64
	for _, k := range order {
		total += weight(k)
	}
	bonus := spanBonus * total / float64(len(want))
	amounts, bounds := numbers(question), figureBounds(question)
	verb := askedVerb(question)
	acr := acronymsOf(question)
	l := leader{qt: qt, m: askedMeasure(question, qt), unit: askedUnit(question), want: want, topic: topicWords(question), figures: figures(question), amounts: amounts, figureUnits: figureUnits(question), figure: countAskRE.MatchString(askedPart(question)), identity: qt == PersonAnswer && identityAsked(question)}
	choice := newChoices(question, chunks)
	options := optionsOf(question)
	syn := synonymsOf(question, want)
	best := 0.0
	var bestChunk, bestSent int
	var bestSpans [][2]int
	for i, c := range chunks {
		headings := ContentKeys(strings.Join(c.Headings, " "))
		spans := joinWrapped(c.Text, chunk.SentenceSpans(c.Text))
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
			keys := acr.with(withImplied(ContentKeys(s), s), s)
			synKeys := syn.heldBy(s) // nil unless the synonym study is built in (synonyms_on.go)
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
			score, own, held, framed := 0.0, 0, 0.0, 0.0
			for _, k := range order {
				switch {
				case keys[k]:
					score += weight(k) + rarityTieBreak*rarity[k]
					own++
					held += weight(k)
				case heading[k] || header[k] || before[k]:
					score += weight(k) / 2
					framed += weight(k)
				case synKeys[k]:
					score, held = score+synonymShare*weight(k), held+synonymShare*weight(k)
				}
			}
			if own == 0 && before == nil && !opensSection(c.Text, spans, j, l) {
				continue // never a sentence without the question's words
			}
			if own == 0 && before != nil && !hasAny(before, want) {
				continue // nor one whose subject is not the question's
			}
			if choice != nil && choice.otherCase(s, union(keys, heading)) { // union only for a choice question
				continue // nor one that names one alternative for another case than the question's
			}
			term := 0
			if qt == DefinitionAnswer || l.identity {
				term = definedTerm(s, want)
			}
			couldLead := spanType(qt) && term >= 0 && l.couldLead(s, keys, heading, header, before)
			if term > 0 {
				score += leadBonus * bonus // "- sponsor: the person who …" for "Who is the sponsor?"
			}
			if couldLead && header == nil && l.strayOnly(s) {
				// Its only figure belongs to another clause ("migrate
				// within 3 months to ensure you get updates" for how
				// long updates last): read first, it answers wrongly.
				score -= leadBonus * bonus
			} else if qt != AnyAnswer && (couldLead || !spanType(qt) && len(typedSpans(s, qt)) > 0) {
				score += leadBonus * bonus // a span that could lead, not any figure
			} else if qt != AnyAnswer && spanType(qt) && l.nextStates(c.Text, spans, j, want) {
				score += leadBonus * bonus / 2 // the fact goes on in the next sentence, quoted with it (widen)
			} else if qt != AnyAnswer && spanType(qt) {
				score -= bonus / 2
			}
			switch caseMatch(bounds, s) {
			case 1:
				score += bonus // "more than $2,500" for "costs more than $2,500"
			case -1:
				score -= bonus // "less than $2,500": the neighbouring case
			}
			if sharesOption(options, s) {
				score += bonus // "-o" names the operator asked about; its keys are too short to count
			}
			if inRange(amounts, s) {
				score += bonus // "4,000 euro" falls in "from 1,000.01 to 10,000 euro"
			}
			if qt == YesNoAnswer && asked.matches(s) {
				score += modalTieBreak // "You may …" for "Can I …?", not "… must …"
			}
			if len(verb) > 0 && instructs(s, verb) {
				score += bonus // "How do I report…?" is answered by "Report … to …"
			}
			words := len(wordSpans(s))
			if strings.HasPrefix(s, "#") || words < 4 && !isTableRow(s) || strings.HasSuffix(strings.TrimSpace(s), "?") || seeAlsoRE.MatchString(s) {
				score -= bonus // a heading, a fragment, a question or a pointer elsewhere rarely answers
			}
			score /= 1 + rankDecay*float64(i)
			score -= 1e-4 * float64(utf8.RuneCountInString(s)) / 100
			if rescore != nil {
				score = rescore(weighed{chunk: i, sent: j, span: sp, score: score, own: own, lead: couldLead, held: held / total, framed: framed / total})
			}
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
			span[0] = withReferent(c.Text, bestSpans, bestSent, qt)
		}
		text = c.Text[span[0]:span[1]]
		if spanType(qt) {
			s := c.Text[sp[0]:sp[1]]
			if header, row, ok := labelledRow(s); ok {
				lead = l.rowLead(header, row)
			} else {
				lead = l.sentenceLead(s)
				if l.identity && definedTerm(s, want) < 0 {
					lead = "" // "- maintainer: a member of …" defines another role than the one asked about
				}
				if lead != "" && l.caseLabel(s, lead, siblings(c.Text, bestSpans, bestSent)) {
					lead = "" // "North site staff: …" names one case of a list of cases
				}
			}
			inner := innerHeadings(c.Text, bestSpans)[bestSent]
			if lead == "" && len(l.candidates(s)) == 0 && !shownAsExample(c.Text, inner, sp[0]) {
				lead = l.headingLead(c, inner)
			}
			subject := subjectLine(c.Text, bestSpans, bestSent) + "\n" + inner
			if lead != "" && l.doubtful(chunks, bestChunk, sp, frameKeys(c, subject, s)) {
				lead = ""
			}
		}
		if qt == YesNoAnswer {
			s := ruleOfItem(c.Text, span, sp)
			subject := subjectLine(c.Text, bestSpans, bestSent)
			held, all := l.heldTopic(ContentKeys(subject + "\n" + s))
			lead = yesNoWord(question, polarity(question, s, held, all))
			if underCondition(s, want) {
				lead = "" // "you can X if Y": yes or no depends on Y, which the question leaves open
			}
		}
	}
	if lead != "" && outOfRange(amounts, c.Text[sp[0]:sp[1]]) {
		lead = "" // the sentence states another case's range than the question's figure
	}
	if lead != "" && lead != strings.TrimSpace(text) {
		text = lead + " — " + text
	}
	return text, n, span
}

// withReferent returns where the quote of sentence j of text starts:
// at the sentence before when j opens with a pronoun whose referent that
// sentence names in the same paragraph ("We use ktlint for linting. Its
// default rule set is …"), so the quote says what it is about; at j
// otherwise. A heading, a list item or a sentence guard flags is no
// referent; nor, for a question of answer type qt that asks for a span (a
// figure, a date, a name, a place), is a sentence that states one of its
// own: the answer would open with a figure the quote was not chosen for.
func withReferent(text string, spans [][2]int, j int, qt AnswerType) int {
	if j == 0 || !pronounLed(text[spans[j][0]:spans[j][1]]) {
		return spans[j][0]
	}
	prev := text[spans[j-1][0]:spans[j-1][1]]
	if strings.Contains(text[spans[j-1][1]:spans[j][0]], "\n") || headingLine(text, spans[j-1]) || listItem(strings.TrimSpace(prev)) ||
		guard.Suspicious(prev) || strings.HasSuffix(strings.TrimSpace(prev), ":") || spans[j][1]-spans[j-1][0] > maxWidenBytes ||
		spanType(qt) && len(typedSpans(prev, qt)) > 0 {
		return spans[j][0]
	}
	return spans[j-1][0]
}

// maxWidenBytes is the most widen quotes, in bytes.
const maxWidenBytes = 420

// widen extends sentence j of text with the sentences that follow it in
// the same paragraph while they stay on the subject (share a content key
// with the question or with sentence j) and are not suspicious, up to
// maxWiden sentences and maxBytes bytes in all (twice that for a sentence
// that holds a word of the question the quote does not hold yet: it
// states what is asked, "il nome dell'area dovrà …" after a sentence on
// the area).
func widen(text string, spans [][2]int, j int, want map[string]bool) [2]int {
	const maxWiden, maxBytes = 2, maxWidenBytes
	out := spans[j]
	first := ContentKeys(text[spans[j][0]:spans[j][1]])
	quoted := maps.Clone(first)
	for k := j + 1; k < len(spans) && k <= j+maxWiden; k++ {
		gap := text[out[1]:spans[k][0]]
		items := listItem(text[spans[k-1][0]:spans[k-1][1]]) && listItem(text[spans[k][0]:spans[k][1]])
		// "These are even-numbered versions (…)" opening the next
		// paragraph goes on with the sentence's subject.
		goesOn := k == j+1 && strings.Count(gap, "\n") <= 2 && pronounLed(text[spans[k][0]:spans[k][1]]) && !listItem(text[spans[k][0]:spans[k][1]])
		s := text[spans[k][0]:spans[k][1]]
		keys := ContentKeys(s)
		limit := maxBytes
		if newKey(keys, quoted, want) {
			limit = 2 * maxBytes // it states what the question asks that the quote does not name yet
		}
		if strings.Contains(gap, "\n") && !(items && !strings.Contains(gap, "\n\n")) && !goesOn || spans[k][1]-out[0] > limit {
			break
		}
		if guard.Suspicious(s) || strings.HasSuffix(strings.TrimSpace(s), ":") {
			break
		}
		if !hasAny(keys, want) && !hasAny(keys, first) {
			break
		}
		out[1] = spans[k][1]
		maps.Copy(quoted, keys)
	}
	return out
}

// newKey reports whether keys hold a key of the question (want) that
// the quote so far (quoted) does not.
func newKey(keys, quoted, want map[string]bool) bool {
	for k := range keys {
		if want[k] && !quoted[k] {
			return true
		}
	}
	return false
}

// nextStates reports whether the sentence after sentence j of text, in
// the same paragraph, holds a span that could lead and a word of the
// question, so that widen quotes it with sentence j: "User access must
// be reviewed when people change roles. ACLs should also be reviewed on
// a set cadence (monthly, quarterly)." answers how often access is
// reviewed, although neither sentence alone holds both.
func (l leader) nextStates(text string, spans [][2]int, j int, want map[string]bool) bool {
	k := j + 1
	if k >= len(spans) || strings.Contains(text[spans[j][1]:spans[k][0]], "\n") || spans[k][1]-spans[j][0] > maxWidenBytes {
		return false
	}
	s := text[spans[k][0]:spans[k][1]]
	return !guard.Suspicious(s) && !strings.HasSuffix(strings.TrimSpace(s), ":") && hasAny(ContentKeys(s), want) && len(l.candidates(s)) > 0
}

// questionWords reports whether span is made of the question's words
// only. A span with a figure says something new (ownFigure judges it).
func questionWords(span string, want map[string]bool) bool {
	if strings.ContainsAny(span, "0123456789") || countLedRE.MatchString(span) {
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
