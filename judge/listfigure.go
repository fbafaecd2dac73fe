package judge

import (
	"fmt"
	"regexp"
)

// listSplitRE matches the mark that opens a list item, at a line's start
// or inline where a quoted list lost its line breaks ("… travel - Ten
// days to two weeks - Conference …").
var listSplitRE = regexp.MustCompile(`(?m)(?:^|\s)[-•*]\s+`)

// minListItems is how many items make a quoted passage a list whose
// first figure a reader takes as its answer.
const minListItems = 3

// listFirstFigure returns the first figure of a quoted list that
// measures what the reference's figure measures, when it is another
// value and the reference's only comes in a later item: a reader takes
// the list's first figure of the kind asked as the answer ("Ten days to
// two weeks - … - Three to five weeks in advance for: - Conference
// events over $2,500" for three to five weeks).
func listFirstFigure(ref reference, answer string, ld lead) []string {
	if ld.span {
		return nil // the span lead is the answer
	}
	items := listSplitRE.Split(withoutCitations(answer), -1)
	if len(items) < minListItems {
		return nil
	}
	var want []figure
	for _, f := range ref.facts {
		if f.kind == figureFact && f.fig.unit.known() {
			want = append(want, f.fig)
		}
	}
	if len(want) == 0 {
		return nil
	}
	states := func(figs []figure) bool {
		for _, w := range want {
			for _, g := range figs {
				if sameFigure(w, g, nil) {
					return true
				}
			}
		}
		return false
	}
	for i, item := range items {
		var kind []figure
		for _, g := range figuresOf(extract(item)) {
			for _, w := range want {
				if g.unit.dim == w.unit.dim && g.per == w.per {
					kind = append(kind, g)
					break
				}
			}
		}
		if len(kind) == 0 {
			continue
		}
		if states(kind) {
			return nil
		}
		for _, later := range items[i+1:] {
			if states(figuresOf(extract(later))) {
				return []string{fmt.Sprintf("the list's first figure of the kind asked is %s, the reference's comes later", describe(kind[0]))}
			}
		}
		return nil
	}
	return nil
}
