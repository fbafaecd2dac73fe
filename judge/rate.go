package judge

import "strings"

// rateMarkers open what a figure is counted per: "per", "a", "an",
// "each", "every", "ogni", "al", "alla", "allo".
var rateMarkers = setOf("per a an each every ogni al alla allo")

// loneRateMarkers are the markers that say per of any word ("per pay
// period", "ogni lotto"); the others ("a", "al") only of a unit of the
// table ("a week", "al mese"), since "a" opens any noun.
var loneRateMarkers = setOf("per each every ogni")

// rateOf returns what the figure at word i is counted per, read right
// after its unit of one or two words: "3 giorni a settimana" is per
// week, "0.42 euro per kilometre" per kilometre, "24 hours per pay
// period" per pay. A rate stated for another denominator ("al mese" for
// a settimana, "per mile" for per kilometre) is another figure, as
// README's rule 2 calls another unit.
func rateOf(toks []token, lower []string, i int) string {
	for j := i + 2; j <= i+3 && j < len(lower); j++ {
		if toks[j].sentStart || toks[j-1].closes {
			return ""
		}
		marker, w := lower[j], ""
		if m, rest, ok := strings.Cut(strings.ReplaceAll(marker, "’", "'"), "'"); ok && m == "all" {
			marker, w = "al", rest // "all'anno"
		} else if j+1 < len(lower) && !toks[j+1].sentStart {
			w = lower[j+1]
		} else {
			return ""
		}
		if !rateMarkers[marker] {
			continue
		}
		w = strings.Trim(w, ".,;:!?")
		if u, ok := lookupUnit(w); ok && u.dim != "euro" && u.dim != "dollar" && u.dim != "pound" && u.dim != "percent" {
			return u.name
		}
		if loneRateMarkers[marker] && isLetters(w) && !stopwords[w] && w != "cent" && w != "cento" {
			return stem(fold(w))
		}
		return ""
	}
	return ""
}

// sameRate reports whether two figures are counted per the same thing,
// or one of them per nothing said (a qualifier left out).
func sameRate(f, g figure) bool { return f.per == "" || g.per == "" || f.per == g.per }

// describeRate prints a figure with what it is counted per, for reasons:
// "3 day per month against 3 day per week".
func describeRate(f figure) string {
	if f.per == "" {
		return describe(f)
	}
	return describe(f) + " per " + f.per
}

// rateAdded returns the lead's figures that count per something a
// reference figure of the same value is not counted per, when neither
// the question nor the reference says per what: "24 hours per pay
// period" for "24 credit hours" at one time. README's rule 2 calls a
// qualifier added another figure, as one left out is the same. A rate
// per a unit of time ("250 euro per night" for a hotel's 250 euro, "5
// days a year") is often the reference's own left unsaid, so only a
// rate per another thing is read.
func rateAdded(ref reference, question, reference string, lead []fact) []string {
	said := map[string]bool{}
	for _, s := range stemsOf(question + " " + reference) {
		said[s] = true
	}
	for _, f := range figuresOf(ref.facts) {
		if f.per != "" {
			return nil
		}
	}
	var out []string
	for _, g := range figuresOf(lead) {
		if g.per == "" || said[g.per] || lookupPerUnit(g.per, question+" "+reference) || isUnitName(g.per) {
			continue
		}
		plain := g
		plain.per = ""
		for _, f := range figuresOf(ref.facts) {
			if sameFigure(f, plain, nil) {
				out = append(out, describeRate(g)+" against "+describe(f)+", counted per nothing")
				break
			}
		}
	}
	return out
}

// lookupPerUnit reports whether text names the unit a rate is counted
// per ("a week", "settimanali") by any of its words.
func lookupPerUnit(per, text string) bool {
	for _, w := range foldedWords(text) {
		if u, ok := lookupUnit(w); ok && u.name == per {
			return true
		}
	}
	return false
}

// isUnitName reports whether name is a unit of the table's name.
func isUnitName(name string) bool {
	_, ok := lookupUnit(name)
	return ok
}
