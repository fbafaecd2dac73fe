package answer

import (
	"strings"
)

// This file finds the phrases of the previous question that a follow-up
// can point back to or replace: "on a hotel", "in London", "la nota
// spese", "i backup giornalieri".

// phrase is a run of the previous question's words: an optional
// preposition, optional determiners, then content words.
type phrase struct {
	start, end int // words[start:end], the preposition included
	prep       string
	class      string // prepositionClass of prep, "" without one
	det        bool   // a determiner (or a fused preposition) opens it
	content    int    // index of the first content word
	// asked is the noun a question word asks about: "days" in "how many
	// days", "tempo" in "per quanto tempo".
	asked bool
	// verb is a run that is the question's verb rather than a noun
	// phrase ("spend" in "can I spend", "perdo", "presentata"), or the
	// adverb or adjective of "how long", "how quickly".
	verb bool
}

// phrases splits ws into phrases.
func phrases(ws []word) []phrase {
	var out []phrase
	for i := 0; i < len(ws); {
		start := i
		p := phrase{start: i}
		if prep := prepositionOf(ws[i]); prep != "" && i+1 < len(ws) {
			p.prep, p.class = prep, prepositionClass[prep]
			if _, fused := fusedPrepositions[strings.TrimRight(ws[i].lower, "'’")]; fused {
				p.det = true
			}
			i++
		}
		for i < len(ws) && isDeterminer(ws[i]) {
			p.det = true
			i++
		}
		p.content = i
		for i < len(ws) && isContent(ws[i]) {
			i++
		}
		if i == p.content {
			i = max(i, start+1)
			continue
		}
		p.end = i
		if p.prep == "" && !p.det && start > 0 {
			before := ws[start-1].lower
			switch {
			case before == "how":
				p.verb = true
			case before == "much" || before == "many" || before == "quanto" || before == "quanta" ||
				before == "quanti" || before == "quante" || before == "which" || before == "what" || before == "quale" ||
				before == "quali" || before == "qual":
				p.asked = true
			case rewriteAuxiliaries[before] || subjectPronouns[before] || askingWords[before] || before == "non" || before == "se" ||
				before == "si" || before == "if" || before == "to":
				p.verb = p.end-p.content == 1 || subjectPronouns[before]
			}
		}
		if !p.det && p.prep == "" && looksLikeVerb(ws[p.content]) {
			p.verb = true
		}
		out = append(out, p)
	}
	splitFinalVerb(ws, out)
	return out
}

// splitFinalVerb handles English word order after a fronted auxiliary:
// in "do full-time employees accrue?" and "is the help desk open?" the
// last word of the noun run is the verb or the predicate, not the noun.
func splitFinalVerb(ws []word, ps []phrase) {
	for k := range ps {
		p := &ps[k]
		if p.prep != "" || p.end-p.content < 2 || p.start == 0 {
			continue
		}
		aux := ws[p.start-1].lower
		if !rewriteAuxiliaries[aux] {
			continue
		}
		atEnd := p.end == len(ws)
		if !atEnd && !(prepositionOf(ws[p.end]) != "" && prepositionClass[prepositionOf(ws[p.end])] != "of") {
			continue
		}
		last := ws[p.end-1].lower
		switch aux {
		case "is", "are", "was", "were":
			if predicateAdjectives[last] || strings.HasSuffix(last, "ed") {
				p.end--
			}
		case "do", "does", "did", "can", "could", "must", "should", "will", "would", "may", "might":
			if atEnd {
				p.end--
			}
		}
	}
}

// unitOnly reports a phrase whose content is a time unit ("per night").
func (p phrase) unitOnly(ws []word) bool {
	for _, w := range ws[p.content:p.end] {
		if !rewriteTimeUnits[w.lower] {
			return false
		}
	}
	return true
}

// place reports a phrase of capitalised names after a preposition of
// place: "in London", "a Londra", "di Bologna".
func (p phrase) place(ws []word) bool {
	if p.prep == "" {
		return false
	}
	for _, w := range ws[p.content:p.end] {
		if !isCapitalised(w) || isCode(w) {
			return false
		}
	}
	return true
}

// plural reports whether the phrase's head looks plural: the last
// content word in English order, the first in Italian; either will do.
func (p phrase) plural(ws []word) bool {
	return isPlural(ws[p.content]) || isPlural(ws[p.end-1])
}

// topic picks the phrase of the previous question that a pronoun points
// back to: a noun phrase, not a verb, a place or a time unit; an asked
// noun counts unless it is a unit ("how much sick leave", not "how many
// days"); one that agrees in number with the pronoun first, then one with
// a determiner, then the earliest. It returns -1 when there is none.
func topic(ws []word, ps []phrase, wantPlural, agree bool) int {
	best, bestScore := -1, -1
	for k, p := range ps {
		if p.verb || p.place(ws) || p.unitOnly(ws) {
			continue
		}
		score := 0
		if agree && p.plural(ws) == wantPlural {
			score += 4
		}
		switch {
		case p.det:
			score += 2
		case p.asked:
			score++ // "quanto costa" asks about a verb as often as a noun
		}
		if p.class == "" || p.class == "of" || p.class == "theme" {
			score++
		}
		if score > bestScore {
			best, bestScore = k, score
		}
	}
	return best
}

// withChain is the phrase with the "of"/"di" phrases that follow it:
// "il furto del portatile", "the phone extension of the help desk".
func withChain(ws []word, ps []phrase, k int) []word {
	end := ps[k].end
	for j := k + 1; j < len(ps) && ps[j].start == end && ps[j].prep != "" && ps[j].class == "of" && !ps[j].verb; j++ {
		end = ps[j].end
	}
	start := ps[k].start
	_, fused := fusedPrepositions[strings.TrimRight(ws[start].lower, "'’")]
	switch {
	case ps[k].prep == "":
	case ps[k].class == "of" && fused:
		// "della nota spese" stays whole: a fused article cannot be
		// told from its preposition without knowing the noun's gender.
	default:
		start++ // "on a hotel" and "of annual leave" are named without it
	}
	return ws[start:end]
}
