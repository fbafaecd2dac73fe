package judge

import "testing"

// TestListFirstFigure pins that a quoted list whose first figure of the
// kind asked is another value, with the reference's only in a later
// item, leads with the wrong figure (README rule 5's list clause), in
// both languages; a list whose context lines hold no such figure, or
// whose first one is the reference's, answers.
func TestListFirstFigure(t *testing.T) {
	const q, ref = "How far ahead must I book leave for a trip abroad?", "Four to six weeks in advance."
	const qi, refi = "Con quanto anticipo devo chiedere le ferie per un viaggio all'estero?", "Da quattro a sei settimane prima."
	runJudgeCases(t, []judgeCase{
		{"another figure first", q, ref,
			"Book leave as follows: - One to two weeks ahead for trips at home - Four to six weeks in advance for trips abroad - Three months for sabbaticals [1]", Misleading},
		{"un'altra cifra prima", qi, refi,
			"Le ferie si chiedono così: - da una a due settimane prima per viaggi in Italia - da quattro a sei settimane prima per viaggi all'estero - tre mesi prima per i congedi lunghi [1]", Misleading},
		{"the reference's figure first", q, ref,
			"Book leave as follows: - Four to six weeks in advance for trips abroad - One to two weeks ahead for trips at home - Three months for sabbaticals [1]", Right},
		{"context lines without figures", qi, refi,
			"Le ferie si chiedono così: - sempre tramite il portale - per i viaggi all'estero, da quattro a sei settimane prima - con l'accordo del responsabile [1]", Right},
	})
}
