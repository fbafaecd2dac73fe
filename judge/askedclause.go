package judge

import (
	"slices"
	"strings"
)

// askedFigureClauses returns the figures an answer of its own gives, in
// a clause of their own, to what the question asks, when they are not
// the reference's but of its kind: "Nel 2008 è uscita la prima
// versione; la seconda nel 2009" to "In che anno è uscita la seconda
// versione?" gives 2009 as the answer, whatever else it states. A
// clause that negates ("not 30 days") sets its figure aside.
func askedFigureClauses(question string, ref reference, refText, answer string) []string {
	if cited(answer) {
		return nil
	}
	main := figuresOf(ref.facts)
	if len(main) == 0 {
		return nil
	}
	asked := map[string]bool{}
	for _, s := range topicStems(question) {
		asked[s] = true
	}
	refStems := map[string]bool{}
	for _, s := range contentStems(refText) {
		refStems[s] = true
	}
	questionFigures := questionFiguresOf(question)
	var out []string
	var clauses []string
	for _, sentence := range sentencesOf(withoutCitations(answer)) {
		clauses = append(clauses, boundClauseSepRE.Split(sentence, -1)...)
	}
	for _, clause := range clauses {
		figs := figuresOf(extract(clause))
		if !anyYear(main) {
			figs = withoutYears(figs) // "Since 2021 it has …" dates the clause
		}
		if len(figs) != 1 || verbNegationRE.MatchString(strings.ReplaceAll(clause, "’", "'")) {
			continue
		}
		g := figs[0]
		if matchesAny(g, main) || matchesAny(g, questionFigures) {
			continue
		}
		// The clause names what the question asks by a word the
		// reference does not repeat: the question's own distinguishing
		// word ("seconda"), bound here to another figure.
		names := false
		for _, s := range topicStems(clause) {
			names = names || asked[s] && !refStems[s]
		}
		if !names {
			continue
		}
		f, ok := contradicted(g, main, nil, false)
		if !ok && !ownWords(clause, question, refText) {
			f, ok = countedAlike(g, main, question)
		}
		if ok {
			out = append(out, describe(g)+" for what the question asks, against "+describe(f))
		}
	}
	return out
}

// countedAlike returns the reference's bare count that figure g, in a
// clause about what the question asks, counts again: a bare number
// ("it has defined eleven" for "Nine.") or one of a word the question
// names ("ten members" to "How many members …"). A bare count and a
// count of the question's noun are counts of one thing.
func countedAlike(g figure, main []figure, question string) (figure, bool) {
	qs := stemsOf(question)
	// A label that is a word of the question ("defined eleven" to "how
	// many … define") names what is asked, not another thing.
	if g.clock >= 0 || g.label != "" && !slices.Contains(qs, g.label) || isYear(g.value) {
		return figure{}, false
	}
	if !countOfAsked(g.unit, qs) {
		return figure{}, false
	}
	for _, f := range main {
		if countOfAsked(f.unit, qs) && f.label == "" && f.clock < 0 && !isYear(f.value) && !equalValues(f.value, g.value) {
			return f, true
		}
	}
	return figure{}, false
}

// clauseTimeWords date a clause ("since", "dal", "now", "last") without
// naming another case of what is counted.
var clauseTimeWords = setOf("since now today currently presently last dal dalla dallo dall oggi ora adesso attualmente scorso scorsa")

// ownWords reports whether clause has a content word that is neither
// the question's nor the reference's, a number or a word that dates
// it: "The older buses had 48" names another case ("older") of what is
// counted; "Since 2021 it has defined eleven" none.
func ownWords(clause, question, reference string) bool {
	said := map[string]bool{}
	for _, s := range stemsOf(question + " " + reference) {
		said[s] = true
	}
	for _, w := range letterWords(clause) {
		f := fold(dropElision(w))
		if _, isNumber := wordNumber(f); isNumber || clauseTimeWords[f] {
			continue
		}
		for _, s := range topicStems(w) {
			if !said[s] {
				return true
			}
		}
	}
	return false
}

// countOfAsked reports whether a figure of unit u counts what the
// question asks: no unit, or a word of the question outside the units'
// table ("rooms" to "How many rooms …").
func countOfAsked(u unit, questionStems []string) bool {
	return u.empty() || !u.known() && slices.Contains(questionStems, u.name)
}

// anyYear reports whether one of the figures is a bare year.
func anyYear(fs []figure) bool {
	return slices.ContainsFunc(fs, func(f figure) bool { return f.unit.empty() && f.clock < 0 && isYear(f.value) })
}

// withoutYears drops the bare years from figures.
func withoutYears(fs []figure) []figure {
	return slices.DeleteFunc(slices.Clone(fs), func(f figure) bool { return f.unit.empty() && f.clock < 0 && isYear(f.value) })
}

// sentencesOf splits text into its sentences, as firstSentence reads
// the first.
func sentencesOf(text string) []string {
	var out []string
	for text = strings.TrimSpace(text); text != ""; {
		s := firstSentence(text)
		if s == "" {
			break
		}
		out = append(out, s)
		i := strings.Index(text, s)
		if i < 0 {
			break
		}
		text = strings.TrimSpace(text[i+len(s):])
	}
	return out
}
