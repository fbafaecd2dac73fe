package answer

import (
	"strings"
)

// This file reads a follow-up: the marker it opens or closes with, the
// pronoun that points back, whether it has a question of its own.

// leadingMarkers open a follow-up in English and Italian, longest first.
// The strong ones ask about the previous subject whatever follows ("what
// about", "e per", "invece"); a bare conjunction ("and", "e") only when
// what follows is not a question of its own.
var leadingMarkers = []struct {
	words  []string
	strong bool
}{
	{strings.Fields("and what about"), true}, {strings.Fields("and how about"), true}, {strings.Fields("what about"), true},
	{strings.Fields("how about"), true}, {strings.Fields("what if"), true}, {strings.Fields("and if"), true},
	{strings.Fields("and for"), true}, {strings.Fields("and in"), true}, {strings.Fields("e invece"), true},
	{strings.Fields("e per"), true}, {strings.Fields("e se"), true}, {strings.Fields("e nel"), true}, {strings.Fields("e con"), true},
	{[]string{"invece"}, true}, {[]string{"anche"}, true},
	{[]string{"and"}, false}, {[]string{"also"}, false}, {[]string{"but"}, false}, {[]string{"or"}, false}, {[]string{"so"}, false},
	{[]string{"then"}, false}, {[]string{"e"}, false}, {[]string{"ed"}, false}, {[]string{"ma"}, false}, {[]string{"o"}, false},
	{[]string{"oppure"}, false}, {[]string{"quindi"}, false}, {[]string{"allora"}, false},
}

// trailingMarkers close a follow-up: "…invece?", "…too?", "…as well?".
var trailingMarkers = [][]string{{"as", "well"}, {"too"}, {"also"}, {"invece"}, {"anche"}, {"pure"}}

// followUp is a question read against the previous one.
type followUp struct {
	words []word // the question without its markers
	// marked is true when a marker made the question depend on the
	// previous one.
	marked bool
	// own is true when a conjunction opens a question of its own ("and
	// what is the notice period?"): it is searched as it is.
	own bool
	// anaphor is the index in words of the pronoun that points back, or
	// -1.
	anaphor int
}

// readFollowUp strips a question's markers and finds its pronoun.
func readFollowUp(q string) followUp {
	ws := splitWords(q)
	f := followUp{anaphor: -1}
	for _, m := range leadingMarkers {
		if !hasPrefixWords(ws, m.words) {
			continue
		}
		// "and for", "e per", "e se": the preposition or conjunction is
		// part of what follows.
		keep := 0
		if n := len(m.words); n == 2 && (m.words[0] == "and" || m.words[0] == "e" || m.words[0] == "what") &&
			(prepositionOf(ws[n-1]) != "" && m.words[0] != "what" || subordinators[ws[n-1].lower]) {
			keep = 1
		}
		rest := ws[len(m.words)-keep:]
		if !m.strong && ownQuestion(rest) {
			f.own = true
			break
		}
		ws, f.marked = rest, true
		break
	}
	for _, m := range trailingMarkers {
		if len(ws) > len(m) && hasPrefixWords(ws[len(ws)-len(m):], m) {
			ws, f.marked = ws[:len(ws)-len(m)], true
			break
		}
	}
	f.words = ws
	f.anaphor = findAnaphor(ws)
	return f
}

func hasPrefixWords(ws []word, prefix []string) bool {
	if len(ws) < len(prefix) {
		return false
	}
	for i, p := range prefix {
		if ws[i].lower != p {
			return false
		}
	}
	return true
}

// ownQuestion reports whether ws is a question that can be searched
// alone: it opens with a question word or an auxiliary (or a preposition
// before one: "for how long", "a che ora") and has two content words of
// its own, or one that is a code, an acronym or a name ("What is ROL?"); a
// fragment without such an opening needs four. A pronoun that points back
// makes it depend on the previous question whatever else it has.
func ownQuestion(ws []word) bool {
	if findAnaphor(ws) >= 0 {
		return false
	}
	content, code := 0, false
	for i, w := range ws {
		if isContent(w) {
			content++
			// A code, an acronym or a name is a subject of its own:
			// "What is ROL?", "Who is Custode for?".
			code = code || isCode(w) || i > 0 && isCapitalised(w)
		}
	}
	if !framed(ws) {
		return content >= 4
	}
	return content >= 2 || content == 1 && code
}

// framed reports whether ws opens like a question, or asks one after a
// noun phrase put first ("le note di credito, chi le approva?").
func framed(ws []word) bool {
	if namedBefore(ws) {
		for _, w := range ws[1:] {
			if askingWords[w.lower] && w.lower != "che" && w.lower != "what" && w.lower != "which" {
				return true
			}
		}
	}
	for i, w := range ws {
		switch {
		case askingWords[w.lower] || rewriteAuxiliaries[w.lower] || impersonalOpeners[w.lower]:
			return true
		case i < 2 && (prepositionOf(w) != "" || w.lower == "up"):
			continue
		}
		return false
	}
	return false
}

// findAnaphor returns the index of the word of ws that points back to
// the previous question, or -1: an English personal pronoun ("it" unless
// it anticipates a "to"-clause: "is it possible to…"), a demonstrative
// pronoun, "there" away from "is/are", "ones"; an Italian clitic before a
// verb ("la devo", "chi le approva", "non li uso"), "ne", a verb with an
// attached clitic ("prorogarlo") or a demonstrative ("quelli mensili").
func findAnaphor(ws []word) int {
	for i, w := range ws {
		prev, next := "", ""
		if i > 0 {
			prev = ws[i-1].lower
		}
		if i+1 < len(ws) {
			next = ws[i+1].lower
		}
		switch w.lower {
		case "they", "them", "their", "its", "ones", "he", "she", "him", "esso", "essa", "essi", "esse", "ciò":
			return i
		case "ne", "li":
			if !namedBefore(ws[:i]) {
				return i
			}
		case "it":
			if !anticipatesClause(ws[i+1:]) {
				return i
			}
		case "this", "these", "those", "questo", "questa", "questi", "queste":
			if !rewriteTimeUnits[next] {
				return i
			}
		case "that":
			if i == len(ws)-1 || i == 0 || prepositionOf(ws[i-1]) != "" || rewriteAuxiliaries[prev] && i == 1 {
				return i
			}
		case "there":
			if !rewriteAuxiliaries[prev] && !rewriteAuxiliaries[next] {
				return i
			}
		case "quello", "quella", "quelli", "quelle":
			return i
		case "one":
			// "a domestic one": "one" stands for a noun after its
			// modifier; elsewhere it is the number.
			if i > 0 && isContent(ws[i-1]) && !isNumber(ws[i-1]) {
				return i
			}
		case "lo", "la", "le":
			if isClitic(ws, i) && !namedBefore(ws[:i]) {
				return i
			}
		default:
			if hasEncliticEnding(w.lower) {
				return i
			}
		}
	}
	return -1
}

// anticipatesClause reports whether the words after "it" hold the clause
// "it" stands for: "to" and a word that is not a number or an article
// ("how long does it take to get a badge?", not "can I extend it to 48
// hours?").
func anticipatesClause(after []word) bool {
	for i, w := range after {
		if (w.lower == "to" || w.lower == "that") && i+1 < len(after) {
			n := after[i+1]
			return !isNumber(n) && !determiners[n.lower]
		}
	}
	return false
}

// isClitic tells an Italian clitic "lo/la/le" from the article: the
// clitic follows a question word, "non", "se", "che" or a subject pronoun,
// or opens the question, and comes before a verb; "lo" as an article only
// comes before s + consonant, z, gn, ps, x, y.
func isClitic(ws []word, i int) bool {
	if i+1 >= len(ws) {
		return true
	}
	next := ws[i+1].lower
	if rewriteAuxiliaries[next] || askingWords[next] || next == "non" {
		return true
	}
	if ws[i].lower == "lo" && !loArticleBefore(next) {
		return true
	}
	if i == 0 {
		return false
	}
	prev := ws[i-1].lower
	return askingWords[prev] || prev == "non" || prev == "se" || prev == "che" || subjectPronouns[prev]
}

// loArticleBefore reports whether Italian writes "lo" as the article
// before w.
func loArticleBefore(w string) bool {
	rs := []rune(w)
	if len(rs) < 2 {
		return false
	}
	vowel := func(r rune) bool { return strings.ContainsRune("aeiouàèéìòù", r) }
	switch {
	case rs[0] == 's' && !vowel(rs[1]), rs[0] == 'z', rs[0] == 'x', rs[0] == 'y',
		rs[0] == 'g' && rs[1] == 'n', rs[0] == 'p' && (rs[1] == 's' || rs[1] == 'n'):
		return true
	}
	return false
}

// hasEncliticEnding reports an Italian infinitive or gerund with a clitic
// attached: "prorogarlo", "chiederla", "usarne", "facendolo".
func hasEncliticEnding(w string) bool {
	if len([]rune(w)) < 7 {
		return false
	}
	for _, s := range []string{"rlo", "rla", "rli", "rle", "rne", "ndolo", "ndola", "ndoli", "ndole", "ndone"} {
		if strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}

// namedBefore reports whether ws holds a noun phrase with a determiner:
// an Italian clitic after one points to it, not to the previous question
// ("e le note di credito, chi le approva?").
func namedBefore(ws []word) bool {
	for i := 0; i+1 < len(ws); i++ {
		if isDeterminer(ws[i]) && isContent(ws[i+1]) {
			return true
		}
	}
	return false
}
