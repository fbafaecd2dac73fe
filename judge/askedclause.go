package judge

import "strings"

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
	for _, clause := range boundClauseSepRE.Split(withoutCitations(answer), -1) {
		figs := figuresOf(extract(clause))
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
		if f, ok := contradicted(g, main, nil, false); ok {
			out = append(out, describe(g)+" for what the question asks, against "+describe(f))
		}
	}
	return out
}
