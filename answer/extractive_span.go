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
	{ProcedureAnswer, regexp.MustCompile(`\bhow (do|can|should|would|to)\b|\bwhat (should|do|must) (i|we) do\b|\bcome (faccio|posso|si|devo|fare|possiamo|dobbiamo)\b|\bcosa (devo|dobbiamo|bisogna) fare\b|\bche cosa (devo|bisogna) fare\b|\bwhat paperwork\b|\bwhat do i need\b`)},
	{DefinitionAnswer, regexp.MustCompile(`^(what(?:'s| is| are| does| do)\b|cos(?:'è|a è|a sono|a significa|a vuol dire|a indica)\b|che cos|cosa (?:significa|vuol dire|indica|copre|riguarda)\b)|\bwhat does .* (mean|cover|stand for)\b|\bcosa (significa|vuol dire)\b`)},
	{YesNoAnswer, regexp.MustCompile(`^(can|could|may|do|does|did|is|are|am|should|must|will|would|have|has|posso|possiamo|si può|si possono|devo|dobbiamo|è|sono|serve|bisogna|ho|c'è)\b`)},
}

// QuestionType reads the answer type a question asks for. Only the last
// sentence that ends in "?" is read when there is one: "I lost my badge.
// How much does a new one cost?" asks for a quantity.
func QuestionType(question string) AnswerType {
	q := strings.ToLower(strings.ReplaceAll(question, "’", "'"))
	if i := strings.LastIndex(q, "?"); i >= 0 {
		q = q[:i]
		if j := strings.LastIndexAny(q, ".!?"); j >= 0 && j+1 < len(q) {
			q = q[j+1:]
		}
	}
	q = strings.TrimSpace(q)
	for _, p := range questionPatterns {
		if p.re.MatchString(q) {
			return p.t
		}
	}
	return AnyAnswer
}

const (
	numWords  = `one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|sixty|ninety|uno|una|due|tre|quattro|cinque|sei|sette|otto|nove|dieci|dodici|quindici|venti|trenta|sessanta|novanta`
	units     = `(?:(?:working|business|calendar|consecutive|full|unpaid|paid|annual|leave|credit|lavorativi|lavorative|di calendario|consecutivi)\s+)?(?:days?|weeks?|months?|years?|hours?|hrs?|minutes?|mins?|seconds?|nights?|characters?|chars?|times|people|persons|participants|employees|pages|items|gb|mb|tb|kb|km|kilometres?|kilometers?|miles?|giorni|giorno|settimane|settimana|mesi|mese|anni|anno|ore|ora|minuti|secondi|notti|caratteri|volte|persone|partecipanti|dipendenti)\b`
	money     = `(?:[$€£]\s?\d[\d.,]*(?:\s?(?:k|m|million|billion))?|\d[\d.,]*\s?(?:euro|eur|€|dollars?|usd|percent|per cent|%))`
	months    = `january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre`
	weekdays  = `monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekdays?|weekends?|lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica|weekend`
	rangeWord = `(?:\s?(?:-|–|to|a|or|o)\s?\d[\d.,]*)?`
)

var (
	quantityRE = regexp.MustCompile(`(?i)` + money + `|(?:\b\d[\d.,]*` + rangeWord + `|\b(?:` + numWords + `))\s*(?:%|\s` + units + `)|\b\d[\d.,]*\b`)
	timeRE     = regexp.MustCompile(`(?i)\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:` + months + `)(?:\s+\d{4})?\b|\b(?:` + months + `)\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b|\b\d{1,2}[:.]\d{2}\b(?:\s?(?:am|pm))?|\b\d{1,2}\s?(?:am|pm)\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|\b(?:` + weekdays + `)\b|\b(?:` + months + `)\b|\b(?:the|il|on the)\s+\d{1,2}(?:st|nd|rd|th)?\b|\b(?:within|before|after|by|entro|prima|dopo)\s+(?:\d[\d.,]*|` + numWords + `)\s+` + units + `|\b(?:19|20)\d{2}\b`)
	personRE   = regexp.MustCompile(`(?i)\b(?:employees?|staff|everyone|anyone|members?|dipendenti|personale|tutti|chiunque|manager|supervisor|lead|head|director|officer|chief|team|specialist|coordinator|administrator|owner|desk|hr|ceo|cfo|cto|responsabile|direttore|direttrice|ufficio|amministrat\w*|referente)\b|[\w.+-]+@[\w-]+\.[\w.]+`)
	placeRE    = regexp.MustCompile(`(?i)\b\d+(?:st|nd|rd|th)?\s+(?:floor|wing)\b|\b(?:floor|room|building|street|st\.|avenue|ave\.|suite|wing|piano|stanza|sala|edificio|sede|via|piazza|viale|corso)\b|https?://\S+|\b\w+(?:\s?>\s?\w+)+|\b\d{5}\b`)
	yesNoRE    = regexp.MustCompile(`(?i)\b(?:can|cannot|can't|may|must|not|no|never|only|allowed|prohibited|permitted|required|forbidden|unless|non|vietat\w|consentit\w|obbligatori\w|può|possono|deve|devono|solo|soltanto|mai)\b`)
	defineRE   = regexp.MustCompile(`(?i)\b(?:is|are|means|mean|refers|covers|cover|describes|è|sono|significa|indica|copre|riguarda)\b`)
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
		return found
	case TimeAnswer:
		return timeRE.FindAllStringIndex(s, -1)
	case PersonAnswer:
		return personRE.FindAllStringIndex(s, -1)
	case PlaceAnswer:
		return placeRE.FindAllStringIndex(s, -1)
	case YesNoAnswer:
		return yesNoRE.FindAllStringIndex(s, -1)
	case DefinitionAnswer:
		return defineRE.FindAllStringIndex(s, -1)
	case ProcedureAnswer:
		return stepRE.FindAllStringIndex(s, -1)
	}
	return nil
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

func cells(row string) []string {
	parts := strings.Split(strings.Trim(strings.TrimSpace(row), "|"), "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
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
// role, a place), the answer starts with the shortest such span nearest to
// the question's words ("10 working days — …"; for a table cell, "Header:
// cell — …"). It returns the answer text, the 1-based number of the chunk
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
	best := 0.0
	var bestChunk, bestSent int
	var bestSpans [][2]int
	for i, c := range chunks {
		heading := ContentKeys(strings.Join(c.Headings, " "))
		spans := chunk.SentenceSpans(c.Text)
		for j, sp := range spans {
			s := c.Text[sp[0]:sp[1]]
			if guard.Suspicious(s) {
				continue
			}
			if headingLine(c.Text, sp) || slices.Contains(c.Headings, strings.TrimSpace(s)) {
				continue // a heading inside the text names a subject, it does not answer
			}
			keys := ContentKeys(s)
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
			if qt != AnyAnswer && len(typedSpans(s, qt)) > 0 {
				score += bonus
			} else if qt != AnyAnswer && spanType(qt) {
				score -= bonus / 2
			}
			if inRange(amounts, s) {
				score += bonus // "4,000 euro" falls in "from 1,000.01 to 10,000 euro"
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
		row := c.Text[sp[0]:sp[1]]
		text = c.Text[h[0]:h[1]] + "\n" + row
		if spanType(qt) {
			lead = cellLead(c.Text[h[0]:h[1]], row, qt, want)
		}
	} else {
		if span == sp {
			span = widen(c.Text, bestSpans, bestSent, want)
		}
		text = c.Text[span[0]:span[1]]
		if spanType(qt) {
			lead = shortest(c.Text[sp[0]:sp[1]], qt, want)
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

// shortest returns the span of type t in sentence s nearest to the
// question's keys, or "" when s has none. Ties go to the earlier span.
func shortest(s string, t AnswerType, want map[string]bool) string {
	found := typedSpans(s, t)
	if len(found) == 0 {
		return ""
	}
	// Byte offsets of the words of s that carry question keys.
	var at []int
	for _, w := range wordSpans(s) {
		if hasAny(ContentKeys(s[w[0]:w[1]]), want) {
			at = append(at, (w[0]+w[1])/2)
		}
	}
	bestD, pick := math.MaxInt, ""
	for _, f := range found {
		cand := strings.TrimSpace(s[f[0]:f[1]])
		if cand == "" {
			continue
		}
		// A span made only of the question's own words says nothing new.
		if k := ContentKeys(cand); len(k) > 0 && subset(k, want) {
			continue
		}
		d := 0
		if len(at) > 0 {
			d = math.MaxInt
			for _, a := range at {
				d = min(d, dist(a, f[0], f[1]))
			}
		}
		if d < bestD {
			bestD, pick = d, cand
		}
	}
	return pick
}

// cellLead returns "Header: cell" for the first cell of row, under
// header, that holds a span of type t and is not made of the question's
// words; "" when none does.
func cellLead(header, row string, t AnswerType, want map[string]bool) string {
	hs, rs := cells(header), cells(row)
	for i, cell := range rs {
		if i >= len(hs) || len(typedSpans(cell, t)) == 0 {
			continue
		}
		if k := ContentKeys(cell); len(k) > 0 && subset(k, want) {
			continue
		}
		if hs[i] == "" {
			return cell
		}
		return hs[i] + ": " + cell
	}
	return ""
}

func subset(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func dist(a, s, e int) int {
	switch {
	case a < s:
		return s - a
	case a > e:
		return a - e
	}
	return 0
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
