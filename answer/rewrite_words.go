package answer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte/analysis"
)

// This file holds what the follow-up rewriter knows about English and
// Italian words: how a question splits into words, and which words are
// question words, rewriteAuxiliaries, determiners, prepositions and pronouns.
// It is grammar of the two languages, not vocabulary of any document.

// word is one word of a question as written, with its lower-case form.
type word struct {
	text, lower string
	// elided is an Italian article or preposition that ends in an
	// apostrophe ("l'", "dall'", "un'"): it is written joined to the next
	// word.
	elided bool
	// italian is true for the words of an Italian question, where "a"
	// is a preposition and "i" an article, as they are not in English.
	italian bool
}

// italianElisions are the Italian words written with an apostrophe before
// a vowel: articles, prepositions with an article, demonstratives and
// "ci"/"che" ("c'è", "cos'è").
var italianElisions = set(`l dell dall nell all sull coll un quest quell c cos d s m t v n po`)

// splitWords splits a question into words: letters and digits, with the
// dots, commas, colons, slashes, hyphens and underscores inside names,
// numbers and paths ("sources.list", "5,000", "21:00", "part-time",
// "debian/changelog", ".changes") kept; an Italian elision ("dall'estero")
// is two words; an English contraction ("I'm", "leaver's") is one.
func splitWords(s string) []word {
	var out []word
	rs := []rune(s)
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	inner := func(r rune) bool { return strings.ContainsRune(".,:/-_+", r) }
	apostrophe := func(r rune) bool { return r == '\'' || r == '’' }
	for i := 0; i < len(rs); {
		start := i
		switch {
		case isWord(rs[i]):
		case (rs[i] == '.' || rs[i] == '/') && i+1 < len(rs) && isWord(rs[i+1]) && (i == 0 || unicode.IsSpace(rs[i-1])):
			i++
		default:
			i++
			continue
		}
		for i < len(rs) {
			switch {
			case isWord(rs[i]):
				i++
				continue
			case (inner(rs[i]) || apostrophe(rs[i])) && i+1 < len(rs) && isWord(rs[i+1]):
				if apostrophe(rs[i]) && italianElisions[strings.ToLower(string(rs[start:i]))] {
					i++ // the apostrophe ends the elided word
					break
				}
				i++
				continue
			}
			break
		}
		text := string(rs[start:i])
		last, _ := utf8.DecodeLastRuneInString(text)
		out = append(out, word{text: text, lower: strings.ToLower(text), elided: apostrophe(last)})
	}
	it := italianQuestion(out)
	for i := range out {
		out[i].italian = it
	}
	return out
}

// italianQuestion reports whether more of ws's words are Italian
// function words than English ones.
func italianQuestion(ws []word) bool {
	it, en := 0, 0
	for _, w := range ws {
		l := strings.TrimRight(w.lower, "'’")
		if italianElisions[l] && w.lower != l || analysis.ItalianStopWords.Has(l) || analysis.QuestionWords.Has(l) && !englishFunction.Has(l) {
			it++
		}
		if englishFunction.Has(l) || analysis.LuceneEnglishStopWords.Has(l) {
			en++
		}
	}
	return it > en
}

// joinWords writes words back as a question: spaces between them, none
// after an elision, a capital first and a question mark at the end.
func joinWords(ws []word) string {
	out := joinRaw(ws)
	if out == "" {
		return ""
	}
	if r, n := utf8.DecodeRuneInString(out); unicode.IsLower(r) {
		out = string(unicode.ToUpper(r)) + out[n:]
	}
	return out + "?"
}

// joinRaw writes words back with spaces, none after an elision.
func joinRaw(ws []word) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 && !ws[i-1].elided {
			b.WriteByte(' ')
		}
		b.WriteString(w.text)
	}
	return b.String()
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

var (
	// askingWords open a question in English or Italian.
	askingWords = set(`what which who whom whose when where why how
		chi che cosa cos come dove quando quanto quanta quanti quante quale quali qual perché perche entro`)
	// rewriteAuxiliaries open a yes/no question or carry the verb of a question:
	// English be, do, have and the modals; Italian essere, avere and the
	// modals, with "si" and "c'" of "si può", "c'è".
	rewriteAuxiliaries = set(`is are was were be been am do does did have has had can could may might must shall should will would
		è e' sono sei siamo siete era erano ho hai ha abbiamo avete hanno posso puoi può possiamo potete possono
		devo devi deve dobbiamo dovete devono vado va vanno viene vengono si c`)
	// determiners open a noun phrase: articles, possessives,
	// demonstratives and quantifiers, with Italian articles fused to a
	// preposition.
	determiners = set(`the a an my your our their his her its this that these those each every any some no another
		il lo la i gli le l un uno una mio mia miei mie tuo tua tuoi tue suo sua suoi sue nostro nostra nostri nostre
		vostro vostra loro ogni qualche alcuni alcune questo questa questi queste quello quella quelli quelle quest quell
		del dello della dei degli delle dell al allo alla ai agli alle all dal dallo dalla dai dagli dalle dall
		nel nello nella nei negli nelle nell sul sullo sulla sui sugli sulle sull col coi`)
	// fusedPrepositions are Italian prepositions fused with an article,
	// and the preposition each stands for.
	fusedPrepositions = func() map[string]string {
		m := map[string]string{}
		for _, p := range []struct{ prep, forms string }{{"di", "del dello della dei degli delle dell"},
			{"a", "al allo alla ai agli alle all"}, {"da", "dal dallo dalla dai dagli dalle dall"},
			{"in", "nel nello nella nei negli nelle nell"}, {"su", "sul sullo sulla sui sugli sulle sull"}, {"con", "col coi"}} {
			for _, f := range strings.Fields(p.forms) {
				m[f] = p.prep
			}
		}
		return m
	}()
	// prepositionClass groups the prepositions that introduce the same
	// kind of phrase, so that "for meals" can take the place of "on a
	// hotel" and "at Christmas" that of "in August": theme, place and
	// time, destination, origin, means, company, limit.
	prepositionClass = map[string]string{
		"for": "theme", "on": "theme", "about": "theme", "regarding": "theme", "per": "theme", "su": "theme",
		"in": "place", "at": "place", "during": "place", "a": "place", "durante": "place", "inside": "place",
		"to": "goal", "into": "goal", "towards": "goal", "verso": "goal",
		"from": "origin", "da": "origin", "fuori": "origin", "outside": "origin",
		"with": "means", "without": "means", "by": "means", "con": "means", "senza": "means", "via": "means", "tramite": "means",
		"after": "limit", "before": "limit", "until": "limit", "within": "limit", "dopo": "limit", "prima": "limit", "fino": "limit", "oltre": "limit",
		"of": "of", "di": "of", "between": "between", "tra": "between", "fra": "between", "over": "over", "under": "over", "sotto": "over", "sopra": "over",
	}
	// subordinators open a clause that a follow-up may add to the
	// previous question ("and if I am late?", "e se sono in ritardo?").
	subordinators = set(`if unless whether se qualora`)
	// subjectPronouns stand for the person asking or others: after an
	// auxiliary they are the subject, and the next word is the verb.
	subjectPronouns = set(`i you we he she one io tu lui lei noi voi`)
	// plainVerbs are verbs whose forms the stop lists keep and that say
	// nothing about a subject: the Italian passive auxiliary "venire" and
	// English "happen".
	plainVerbs = set(`viene vengono venire verrà verranno happen happens happened succede`)
	// rewriteTimeUnits are the words of a rate or a period ("per night", "a
	// notte"), which a follow-up keeps rather than replaces.
	rewriteTimeUnits = set(`night nights day days week weeks month months year years hour hours minute minutes time times period periods periodo tempo
		notte notti giorno giorni settimana settimane mese mesi anno anni ora ore minuto minuti volta volte`)
	// impersonalOpeners open an Italian question as an auxiliary does:
	// "serve una password?", "bisogna prenotare?".
	impersonalOpeners = set(`serve servono bisogna occorre occorrono basta conviene`)
	// ordinals are numbers written as words: "the third" takes the place
	// of "the second floor"'s "second".
	ordinals = set(`first second third fourth fifth sixth seventh eighth ninth tenth last
		primo prima secondo seconda terzo terza quarto quarta quinto quinta sesto sesta ultimo ultima`)
	// timeWords name days, months, parts of the day and seasons: a
	// fragment of them ("e il sabato?") says when, and is added to the
	// previous question unless it names a time of its own.
	timeWords = set(`monday tuesday wednesday thursday friday saturday sunday weekend weekends weekday weekdays
		january february march april may june july august september october november december
		morning mornings afternoon afternoons evening evenings night nights summer winter spring autumn holidays
		lunedì martedì mercoledì giovedì venerdì sabato domenica festivi festivo feriali feriale
		gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre
		mattina mattino pomeriggio sera notte estate inverno primavera autunno`)
	// predicateAdjectives end an English "is X open?" question: the
	// adjective is not part of the noun phrase before it.
	predicateAdjectives = set(`open closed valid available due allowed possible needed required kept paid free mandatory
		necessary enough late early right wrong`)
)

// functionWords are the words that say nothing about a question's
// subject: Lucene's English and Snowball's Italian stop lists, the
// question words of analysis.QuestionWords and the English pronouns,
// quantifiers and adverbs those lists lack. Unlike analysis's
// ContentStopWords it keeps numerals and nouns such as "amount", "part"
// or "system", which a follow-up can replace.
var functionWords = analysis.LuceneEnglishStopWords.Union(analysis.ItalianStopWords, analysis.QuestionWords, englishFunction,
	analysis.NewWordSet("solo", "anche", "ancora", "già", "poi", "ecco"))

// englishFunction are English pronouns, rewriteAuxiliaries, quantifiers and
// adverbs that Lucene's short stop list lacks.
var englishFunction = analysis.NewWordSet(strings.Fields(`i me my myself we us our you your he him his she her it its they them their
	what which who whom whose this that these those am is are was were be been being have has had do does did
	can could may might must shall should would ought much many more most less least few all both each other
	such only own same so than too very just also about against between through before after above below up down
	out off over under again further then once here there when where why how any some anything something please
	need needs want wants know tell`)...)

// isContent reports whether w says something about the subject: not a
// function word of either language, a question word or a pronoun.
func isContent(w word) bool {
	l := strings.Trim(w.lower, "'’")
	if l == "" || functionWords.Has(l) || w.elided && italianElisions[l] || askingWords[l] || rewriteAuxiliaries[l] || determiners[l] ||
		plainVerbs[l] || prepositionOf(w) != "" || subjectPronouns[l] {
		return false
	}
	return true
}

// prepositionOf is the plain preposition w is, or stands for when fused
// with an article ("dall'" is "da"), or "".
func prepositionOf(w word) string {
	l := strings.TrimRight(w.lower, "'’")
	if !w.italian && (l == "a" || l == "per" || l == "i") {
		return "" // English "a" is the article, "per" a rate
	}
	if p, ok := fusedPrepositions[l]; ok {
		return p
	}
	if l == "d" && w.elided {
		return "di" // "d'estate"
	}
	if _, ok := prepositionClass[l]; ok {
		return l
	}
	return ""
}

// isCode reports whether w is a name that carries its own meaning: an
// acronym, a code with digits or a dotted or slashed name ("ROL",
// "SEV2", "P4", "sources.list", "debian/changelog").
func isCode(w word) bool {
	upper, digit, letter := 0, false, false
	for _, r := range w.text {
		switch {
		case unicode.IsUpper(r):
			upper++
			letter = true
		case unicode.IsDigit(r):
			digit = true
		case unicode.IsLetter(r):
			letter = true
		}
	}
	return upper >= 2 || digit && letter || letter && strings.ContainsAny(strings.TrimLeft(w.text, "./"), "./_")
}

// isNumber reports whether w is a number ("15", "5,000", "21:00").
func isNumber(w word) bool {
	for _, r := range w.text {
		if !unicode.IsDigit(r) && !strings.ContainsRune(".,:", r) {
			return false
		}
	}
	return w.text != ""
}

// isCapitalised reports whether w starts with a capital letter.
func isCapitalised(w word) bool {
	r, _ := utf8.DecodeRuneInString(w.text)
	return unicode.IsUpper(r)
}

// isPlural reports whether w looks like a plural noun: English "-s" (not
// "-ss", "-us", "-is") or Italian "-i"/"-e".
func isPlural(w word) bool {
	l := w.lower
	if len(l) < 4 || !isContent(w) {
		return false
	}
	switch {
	case strings.HasSuffix(l, "ss"), strings.HasSuffix(l, "us"), strings.HasSuffix(l, "is"):
		return false
	case strings.HasSuffix(l, "s"), strings.HasSuffix(l, "i"):
		return true
	}
	return false
}

// looksLikeVerb reports the Italian verb forms that a question's noun
// phrases never hold: infinitives and past participles.
func looksLikeVerb(w word) bool {
	l := w.lower
	if len(l) < 5 {
		return false
	}
	for _, s := range []string{"are", "ere", "ire", "ato", "ata", "ati", "ate", "uto", "uta", "uti", "ute", "ito", "ita", "iti", "ite"} {
		if strings.HasSuffix(l, s) {
			return true
		}
	}
	return false
}

// isDeterminer reports whether w opens a noun phrase; English "I" is the
// pronoun, not the Italian article "i".
func isDeterminer(w word) bool {
	return !(w.lower == "i" && !w.italian) && determiners[strings.TrimRight(w.lower, "'’")] && !isContent(w)
}
