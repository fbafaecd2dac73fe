package judge

// secondFigureLead returns what a span lead ("8 bytes — …") states when
// its figures are all the reference's, but not the first of its main
// clause, which is of the same dimension and missing from the lead: the
// reference's answer comes first ("1,684 bytes, against 8 bytes for a
// WebSocket packet") and the lead gives the figure it is compared with.
func secondFigureLead(ref reference, leadFacts []fact, ld lead) []string {
	main := figuresOf(ref.facts)
	lead := figuresOf(leadFacts)
	if !ld.span || len(main) < 2 || len(lead) == 0 {
		return nil
	}
	first := main[0]
	for _, g := range lead {
		if !matchesAny(g, main) || matchesAny(g, main[:1]) || !first.unit.known() || g.unit.dim != first.unit.dim {
			return nil
		}
	}
	return []string{describe(lead[0]) + " is the reference's other figure, against its answer " + describe(first)}
}
