package judge

// asideLead returns what a span lead ("3:1 — …") states when it is a
// code the reference gives only in an aside, for another case ("At least
// 4.5:1 (large text needs 3:1)"), while the reference's own code of that
// class is not in the lead: the reader takes the aside's code for the
// answer (README rule 5, another value of the kind asked). A figure of
// the aside is caught as any other figure of the kind asked is.
func asideLead(ref reference, leadFacts []fact, ld lead) []string {
	if !ld.span {
		return nil
	}
	for _, g := range leadFacts {
		if refHasMain(ref, g) {
			return nil // the lead states the answer
		}
	}
	for _, g := range leadFacts {
		if g.kind != codeFact || !refHas(ref, g) {
			continue
		}
		for _, f := range ref.facts {
			if f.kind == codeFact && routeOf(f.class) == routeOf(g.class) {
				return []string{g.text + ", the reference's aside, against " + f.text}
			}
		}
	}
	return nil
}

// refHasMain reports whether the reference's main clause, not an aside,
// holds fact g: the same figure, or the same code or name.
func refHasMain(ref reference, g fact) bool {
	for _, f := range ref.facts {
		if f.kind == g.kind && (f.kind == figureFact && matchesAny(g.fig, []figure{f.fig}) || f.kind != figureFact && f.key == g.key) {
			return true
		}
	}
	return false
}
