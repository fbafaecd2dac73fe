package answer

import "testing"

// TestSectionTitleNamesTheSubject: the first sentence under a heading
// line that names what is asked ("Budget owner") answers, although it
// does not repeat the heading's words, in English and Italian; the first
// sentence under a heading that does not name it is no section's answer.
func TestSectionTitleNamesTheSubject(t *testing.T) {
	for _, c := range []struct{ question, text, want string }{
		{"Who is the budget owner of a training project?",
			"Each project must name two roles:\n\nBudget owner\n\nUsually the delivery manager of the team. Signs off every purchase.\n\nTechnical lead\n\nA senior engineer of the team.",
			"Usually the delivery manager"},
		{"Chi è il referente del budget di un progetto di formazione?",
			"Ogni progetto deve indicare due ruoli:\n\nReferente del budget\n\nDi solito il responsabile delle consegne del gruppo. Firma ogni acquisto.\n\nResponsabile tecnico\n\nUn ingegnere esperto del gruppo.",
			"Di solito il responsabile delle consegne"},
	} {
		startsWith(t, c.question, c.text, c.want)
	}
	q := "Who is the budget owner of a training project?"
	l := leader{topic: topicWords(q)}
	text := "Budget owner\n\nUsually the delivery manager.\n\nTechnical lead\n\nA senior engineer."
	spans := [][2]int{{0, 12}, {14, 43}, {45, 59}, {61, 79}}
	for j, want := range []bool{false, true, false, false} {
		if got := opensSection(text, spans, j, l); got != want {
			t.Errorf("opensSection(%q) = %v, want %v", text[spans[j][0]:spans[j][1]], got, want)
		}
	}
}
