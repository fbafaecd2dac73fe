package judge

import (
	"regexp"
	"strings"
)

// boundClauseSepRE splits a text into the clauses that each bind a figure
// to what it is for: commas and semicolons before a space, and the words
// that set two figures against each other.
var boundClauseSepRE = regexp.MustCompile(`(?i)[,;]\s+|\s+(?:and|against|versus|vs\.?|compared (?:to|with)|while|whereas|e|contro|rispetto a|mentre)\s+`)

// forRE matches what a figure is for: "for a WebSocket packet", "per
// ogni lotto", "per i dirigenti"; its group is the first word after the
// article.
var forRE = regexp.MustCompile(`(?i)\b(?:for|per)\s+(?:(?:a|an|the|each|every|il|lo|la|i|gli|le|un|una|uno|ogni|ciascun|ciascuna)\s+)?(\p{L}[\p{L}\d-]*)`)

// binding is a figure and the stem of the thing a clause says it is for.
type binding struct {
	fig   figure
	thing string
}

// bindings returns the figures of text that a clause of their own binds
// to a thing: "8 bytes for a WebSocket packet". A clause with more than
// one figure or more than one "for" binds none.
func bindings(text string) []binding {
	var out []binding
	for _, clause := range boundClauseSepRE.Split(withoutCitations(text), -1) {
		figs := figuresOf(extract(clause))
		fors := forRE.FindAllStringSubmatch(clause, -1)
		if len(figs) != 1 || len(fors) != 1 || stopwords[strings.ToLower(fors[0][1])] {
			continue
		}
		out = append(out, binding{fig: figs[0], thing: stem(fold(fors[0][1]))})
	}
	return out
}

// swappedBindings returns the figures an answer of its own gives to a
// thing the reference gives another of its figures to: "1,684 bytes for
// a WebSocket packet" where the reference has 8 bytes for it and 1,684
// for the HTTP request. Each figure is the reference's; what each is for
// is swapped.
func swappedBindings(ref reference, reference, answer string) []string {
	if cited(answer) {
		return nil
	}
	main := figuresOf(ref.facts)
	refBound := bindings(asideRE.ReplaceAllString(reference, " "))
	var out []string
	for _, a := range bindings(answer) {
		if !matchesAny(a.fig, main) {
			continue // another figure: the figure rules judge it
		}
		for _, r := range refBound {
			if r.thing == a.thing && !matchesAny(a.fig, []figure{r.fig}) && compatible(r.fig, a.fig, false) {
				out = append(out, describe(a.fig)+" for "+a.thing+", where the reference gives it "+describe(r.fig))
			}
		}
	}
	return out
}
