package answer

import (
	"strings"
)

// This file writes a follow-up's standalone query: a fragment put in
// the place of the previous query's phrase it replaces, a pronoun
// replaced by the phrase it points to, a clause added or swapped.

// cat concatenates word slices into a new one.
func cat(parts ...[]word) []word {
	var out []word
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// replaceSlot puts fragment fw in the place of the phrase of the previous
// query pw it replaces (see RewriteHeuristic), reporting false when none
// fits.
func replaceSlot(fw, pw []word, ps []phrase) ([]word, bool) {
	fw = lowerOpening(fw)
	// fragPrep is the fragment's own preposition ("for meals"); a fused
	// one ("dall'estero") stays in body with the article it holds.
	var fragPrep []word
	body := fw
	if prepositionOf(fw[0]) != "" && len(fw) > 1 && !isContent(fw[0]) {
		if _, fused := fusedPrepositions[strings.TrimRight(fw[0].lower, "'’")]; !fused {
			fragPrep, body = fw[:1], fw[1:]
		}
	}
	var content []word
	for _, w := range fw {
		if isContent(w) {
			content = append(content, w)
		}
	}
	if len(content) == 0 {
		return nil, false
	}
	fragHasDet := isDeterminer(body[0])
	// replacement writes the fragment where phrase k of the previous
	// query (with its "of" chain when chain) stood. When the fragment is
	// another thing (chain), a rate ("per night", "a notte") was the
	// replaced thing's and does not carry over to it.
	replacement := func(k int, chain bool) []word {
		p := ps[k]
		end := p.end
		if chain {
			end = p.start + len(withChainSpan(pw, ps, k))
		}
		var mid []word
		switch {
		case fragPrep != nil:
			mid = fw
		case prepositionOf(fw[0]) != "":
			mid = fw // a fused preposition: "dall'estero"
		default:
			if p.prep != "" {
				mid = append(mid, pw[p.start])
			}
			if !fragHasDet && p.det {
				first := p.start
				if p.prep != "" {
					first++
				}
				mid = append(mid, pw[first:p.content]...)
			}
			mid = append(mid, body...)
		}
		if !chain {
			return cat(pw[:p.start], mid, pw[end:])
		}
		return cat(withoutRates(pw[:p.start]), mid, withoutRates(pw[end:]))
	}
	// The phrase that holds the fragment's head noun: the fragment's
	// words take the place of the ones around it ("part-time" for
	// "full-time" before "employees"); a fragment with its own
	// preposition takes the whole phrase's place.
	fragHead := content[len(content)-1]
	if fragHead.italian {
		fragHead = content[0]
	}
	headKeys := ContentKeys(fragHead.text)
	for k, p := range ps {
		if p.verb {
			continue
		}
		for j := p.content; j < p.end; j++ {
			if !sharesKey(headKeys, pw[j].text) {
				continue
			}
			if fragPrep != nil {
				return replacement(k, false), true
			}
			h := indexOf(content, fragHead)
			from, to := max(j-h, p.content), min(j+len(content)-h, p.end)
			return cat(pw[:from], content, pw[to:]), true
		}
	}
	// A name, code or number of the same shape.
	if len(content) == 1 {
		w := content[0]
		for i, pw1 := range pw {
			if i == 0 || !isContent(pw1) && !isNumber(pw1) || inVerb(ps, i) {
				continue
			}
			if ordinals[w.lower] && ordinals[pw1.lower] {
				return cat(pw[:i], []word{w}, pw[i+1:]), true // "the third" floor
			}
			same := isCode(w) && isCode(pw1) || isNumber(w) && isNumber(pw1) ||
				isCapitalised(w) && !isCode(w) && isCapitalised(pw1) && !isCode(pw1) ||
				fragPrep == nil && !fragHasDet && isPlural(w) && isPlural(pw1) && !isCapitalised(pw1) && !inAsked(ps, i)
			if !same {
				continue
			}
			if fragPrep != nil {
				// "at Christmas" takes the place of "in August 2025".
				for k, p := range ps {
					if i >= p.start && i < p.end && p.prep != "" {
						return replacement(k, false), true
					}
				}
			}
			return cat(pw[:i], []word{w}, pw[i+1:]), true
		}
	}
	// A time ("e il sabato?") takes the place of the previous one, or is
	// added.
	if allTime(content) {
		for k, p := range ps {
			if allTime(pw[p.content:p.end]) {
				return replacement(k, false), true
			}
		}
		return cat(pw, fw), true
	}
	// The phrase of the same kind of preposition.
	if fragPrep != nil || prepositionOf(fw[0]) != "" {
		class := prepositionClass[prepositionOf(fw[0])]
		for k, p := range ps {
			if p.class == class && !p.asked && !p.verb && !p.unitOnly(pw) {
				return replacement(k, true), true
			}
		}
		if out, ok := requalifiedCompound(fw, pw, ps, fragPrep != nil); ok {
			return out, true
		}
		return nil, false
	}
	// A noun phrase takes the place of the one asked about.
	if k := topic(pw, ps, false, false); k >= 0 {
		return replacement(k, true), true
	}
	return nil, false
}

// inVerb and inAsked report whether word i belongs to a verb or an asked
// phrase.
func inVerb(ps []phrase, i int) bool {
	for _, p := range ps {
		if p.verb && i >= p.content && i < p.end {
			return true
		}
	}
	return false
}

func inAsked(ps []phrase, i int) bool {
	for _, p := range ps {
		if p.asked && i >= p.content && i < p.end {
			return true
		}
	}
	return false
}

// withChainSpan is phrase k with the "of" phrases that follow it, from
// the phrase's start.
func withChainSpan(ws []word, ps []phrase, k int) []word {
	end := ps[k].end
	for j := k + 1; j < len(ps) && ps[j].start == end && ps[j].class == "of" && !ps[j].verb; j++ {
		end = ps[j].end
	}
	return ws[ps[k].start:end]
}

// pluralPronouns point back to a plural noun phrase.
var pluralPronouns = set(`they them their these those ones quelli quelle li le essi esse questi queste`)

// resolve replaces the pronoun at ws[a] with what it points to in the
// previous query pw, reporting false when nothing fits.
func resolve(ws []word, a int, pw []word, ps []phrase) ([]word, bool) {
	pron := ws[a].lower
	agree := pron != "ne" && pron != "that" && pron != "this" && pron != "there" && pron != "ciò"
	k := topic(pw, ps, pluralPronouns[pron], agree)
	switch {
	case pron == "there":
		for _, p := range ps {
			if p.place(pw) {
				return cat(ws[:a], pw[p.start:p.end], ws[a+1:]), true
			}
		}
	case pron == "ne":
		if a > 0 && (strings.HasPrefix(ws[a-1].lower, "quant") || ws[a-1].lower == "many" || ws[a-1].lower == "much") {
			for j, p := range ps {
				if p.asked {
					return cat(ws[:a], withChain(pw, ps, j), ws[a+1:]), true
				}
			}
		}
		if k >= 0 {
			return afterVerb(ws, a, withChain(pw, ps, k)), true
		}
	case pron == "lo" || pron == "la" || pron == "le" || pron == "li":
		if k >= 0 {
			return afterVerb(ws, a, withChain(pw, ps, k)), true
		}
	case hasEncliticEnding(pron):
		if k >= 0 {
			stem := strings.TrimSuffix(ws[a].text, ws[a].text[len(ws[a].text)-2:])
			if strings.HasSuffix(stem, "ne") || strings.HasSuffix(stem, "ndo") {
				stem = ws[a].text[:len(ws[a].text)-2]
			}
			if strings.HasSuffix(stem, "r") {
				stem += "e"
			}
			verb := word{text: stem, lower: strings.ToLower(stem)}
			return cat(ws[:a], []word{verb}, withChain(pw, ps, k), ws[a+1:]), true
		}
	case pron == "quello" || pron == "quella" || pron == "quelli" || pron == "quelle" || pron == "ones" || pron == "one":
		if pron == "one" || pron == "ones" {
			k = modifiedPhrase(ws, a, pw, ps, k)
		}
		if k >= 0 {
			return headWithModifiers(ws, a, pw, ps, k)
		}
	case pron == "its" || pron == "their":
		if k >= 0 {
			e := a + 1
			for e < len(ws) && isContent(ws[e]) {
				e++
			}
			of := word{text: "of", lower: "of"}
			the := word{text: "the", lower: "the"}
			return cat(ws[:a], []word{the}, ws[a+1:e], []word{of}, withChain(pw, ps, k), ws[e:]), true
		}
	case pron == "that" || pron == "this" || pron == "questo" || pron == "ciò" || pron == "these" || pron == "those" ||
		pron == "questa" || pron == "questi" || pron == "queste":
		if a+1 < len(ws) && isContent(ws[a+1]) && k >= 0 {
			// A demonstrative before a noun: "this policy" is the one
			// asked about before.
			e := a + 1
			for e < len(ws) && isContent(ws[e]) {
				e++
			}
			return cat(ws[:a], withChain(pw, ps, k), ws[e:]), true
		}
		// A demonstrative pronoun stands for what was asked: from the
		// previous query's verb on.
		for _, p := range ps {
			if p.verb {
				return cat(ws[:a], pw[p.content:], ws[a+1:]), true
			}
		}
		if k >= 0 {
			return cat(ws[:a], withChain(pw, ps, k), ws[a+1:]), true
		}
	default:
		if k >= 0 {
			return cat(ws[:a], withChain(pw, ps, k), ws[a+1:]), true
		}
	}
	return nil, false
}

// afterVerb removes the Italian clitic at ws[a] and writes the noun
// phrase it stands for after the verb it belongs to: "chi la approva?" →
// "chi approva la nota spese?", "dove la devo copiare…?" → "dove devo
// copiare la chiave…?".
func afterVerb(ws []word, a int, np []word) []word {
	rest := append([]word{}, ws[a+1:]...)
	j := 0
	for j < len(rest) && (rewriteAuxiliaries[rest[j].lower] || rest[j].lower == "non") {
		j++
	}
	if j < len(rest) && isContent(rest[j]) {
		j++
	}
	if j == 0 && len(rest) > 0 {
		j = 1
	}
	return cat(ws[:a], rest[:j], np, rest[j:])
}

// headWithModifiers handles "quelli mensili", "quello sostitutivo",
// "weekly ones": the pronoun stands for the head noun of the previous
// query's phrase, with the follow-up's modifiers in place of its own.
func headWithModifiers(ws []word, a int, pw []word, ps []phrase, k int) ([]word, bool) {
	p := ps[k]
	english := ws[a].lower == "ones" || ws[a].lower == "one"
	var mods []word
	modStart, modEnd := a, 0
	if english {
		modStart = a
		for modStart > 0 && isContent(ws[modStart-1]) {
			modStart--
		}
		mods, modEnd = ws[modStart:a], a+1
	} else {
		// Italian modifiers follow: adjectives and phrases to the end
		// ("quelli dell'avvio corrente").
		mods, modEnd = ws[a+1:], len(ws)
	}
	detStart := p.start
	if p.prep != "" {
		detStart++
	}
	det := pw[detStart:p.content]
	if english && modStart > 0 && isDeterminer(ws[modStart-1]) && len(mods) > 0 {
		// The follow-up's own article: "a domestic one" is "a domestic
		// trip", not "an domestic trip".
		modStart--
		det = ws[modStart : modStart+1]
	}
	head := pw[p.content]
	if english {
		head = pw[p.end-1]
	}
	var np []word
	if english {
		np = cat(det, mods, []word{head})
	} else {
		np = cat(det, []word{head}, mods)
	}
	if len(mods) == 0 {
		np = withChain(pw, ps, k)
	}
	if framed(ws) {
		// "Quanto costa quello sostitutivo?": the follow-up's own
		// question, about the previous phrase's noun.
		return cat(ws[:modStart], np, ws[modEnd:]), true
	}
	// "E quelli mensili?": the previous query with its phrase's
	// modifiers replaced; a lone noun's modifier may be the phrase after
	// it ("i dipendenti a tempo pieno").
	end := p.end
	if k+1 < len(ps) && ps[k+1].start == p.end && ps[k+1].prep != "" && len(mods) > 0 {
		// The phrase after a lone noun is its modifier ("i dipendenti a
		// tempo pieno"), and an "of" phrase is replaced by one
		// ("quelli dell'avvio" for "i log di sistema").
		if ps[k+1].class != "of" && p.end-p.content == 1 || ps[k+1].class == "of" && prepositionOf(mods[0]) == "di" {
			end = ps[k+1].end
		}
	}
	return cat(pw[:detStart], np, pw[end:]), true
}

// withClause adds the follow-up's clause ("if I lose a receipt", "se
// perdo il badge") to the previous query, in place of a clause opened by
// the same word; a clause with a pronoun stands alone once the pronoun is
// replaced.
func withClause(prev string, pw []word, f followUp) string {
	ws := lowerOpening(f.words)
	resolved := false
	if f.anaphor >= 0 {
		if out, ok := resolve(ws, f.anaphor, pw, phrases(pw)); ok {
			ws, resolved = out, true
		}
	}
	for i, w := range pw {
		if i > 0 && w.lower == ws[0].lower {
			return joinWords(cat(pw[:i], ws))
		}
	}
	if resolved {
		return joinWords(ws)
	}
	return strings.TrimSuffix(strings.TrimSpace(prev), "?") + ", " + joinRaw(ws) + "?"
}

// sharesKey reports whether text has one of keys among its content keys.
func sharesKey(keys map[string]bool, text string) bool {
	for k := range ContentKeys(text) {
		if keys[k] {
			return true
		}
	}
	return false
}

// indexOf is the index of w in ws, or 0.
func indexOf(ws []word, w word) int {
	for i, x := range ws {
		if x == w {
			return i
		}
	}
	return 0
}

// lowerOpening lower-cases a follow-up's first word when it is a function
// word, so that it reads on inside the previous query ("Per un lutto" →
// "per un lutto"); names and codes keep their capitals.
func lowerOpening(ws []word) []word {
	if len(ws) == 0 || isContent(ws[0]) || isCode(ws[0]) {
		return ws
	}
	out := append([]word{}, ws...)
	out[0].text = out[0].lower
	return out
}

// withoutRates drops the rates of ws: "per" (or Italian "a", "al",
// "alla", "ogni") before a time unit.
func withoutRates(ws []word) []word {
	var out []word
	for i := 0; i < len(ws); i++ {
		l := strings.TrimRight(ws[i].lower, "'’")
		rate := l == "per" || l == "ogni" || ws[i].italian && (l == "a" || l == "al" || l == "alla" || l == "all")
		if rate && i+1 < len(ws) && rewriteTimeUnits[ws[i+1].lower] {
			i++
			continue
		}
		out = append(out, ws[i])
	}
	return out
}

// modifiedPhrase picks the phrase an English "ADJ one(s)" replaces the
// adjective of: one whose own head has an adjective before it, when the
// follow-up's modifier is an adjective ("a domestic one" for "an
// international trip", not "a travel authorisation"); else k.
func modifiedPhrase(ws []word, a int, pw []word, ps []phrase, k int) int {
	if a == 0 || !adjectival(ws[a-1].lower) {
		return k
	}
	for j, p := range ps {
		if !p.verb && p.end-p.content >= 2 && adjectival(pw[p.end-2].lower) {
			return j
		}
	}
	return k
}

// adjectival reports an English word with an adjective's ending:
// "international", "domestic", "weekly", "expensive".
func adjectival(w string) bool {
	for _, s := range []string{"al", "ic", "ive", "ous", "ful", "ent", "ant", "ary", "able", "ible", "less", "ly", "ern", "ish"} {
		if len(w) > len(s)+2 && strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}

// allTime reports whether every word of ws names a time (timeWords).
func allTime(ws []word) bool {
	for _, w := range ws {
		if !timeWords[w.lower] {
			return false
		}
	}
	return len(ws) > 0
}

// requalifiedCompound handles a prepositional fragment with no phrase of
// its kind to replace, when the previous question is about an English
// compound: in "What is the hotel limit in London?" the noun "hotel"
// says which limit, so "And for meals?" asks for "the limit for meals",
// not for the hotel limit of meals. The compound's noun modifiers give
// way to the fragment, written after the head noun; adjectives, numbers
// and names stay ("the daily limit", "the Q3 budget"), and a compound
// without a noun modifier is left to the caller (the fragment is then
// added at the end).
func requalifiedCompound(fw, pw []word, ps []phrase, ownPreposition bool) ([]word, bool) {
	if !ownPreposition || fw[0].italian {
		return nil, false
	}
	k := topic(pw, ps, false, false)
	if k < 0 || ps[k].end-ps[k].content < 2 {
		return nil, false
	}
	p := ps[k]
	head := p.end - 1
	var kept []word
	for _, w := range pw[p.content:head] {
		if adjectival(w.lower) || isNumber(w) || isCapitalised(w) || isCode(w) {
			kept = append(kept, w)
		}
	}
	if len(kept) == head-p.content {
		return nil, false // nothing but adjectives and names before the head
	}
	return cat(pw[:p.content], kept, pw[head:p.end], fw, pw[p.end:]), true
}
