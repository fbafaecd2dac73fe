package answer

// A glossary writes each term as a label and its meaning after a colon
// ("- sponsor: the person who …"). For a question that asks what a term
// means or who someone is, the item labelled with the question's term is
// its answer, even when a neighbouring item shares more of the
// question's words ("- developer: a member of the project with …"); and
// an item labelled with another term defines that term, so nothing in it
// may lead the answer.

// definedTerm tells what sentence s defines, for a question whose
// content keys are want: 1 when it opens with a label made only of the
// question's words (the term asked about), -1 when its label holds a
// word the question does not (another term), 0 when it has no label or
// is a table row.
func definedTerm(s string, want map[string]bool) int {
	label, _, ok := labelled(s)
	if !ok || isTableRow(s) {
		return 0
	}
	keys := ContentKeys(s[label[0]:label[1]])
	switch {
	case len(keys) == 0:
		return 0
	case subsetOf(keys, want):
		return 1
	}
	return -1
}
