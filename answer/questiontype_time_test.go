package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// A question that asks for a year, a month or a date by naming it ("in
// che anno", "quale data", "which year") asks for a time, like "when":
// the sentence that states one is preferred to one that shares the same
// words but states none.
func TestQuestionTypeNamedTime(t *testing.T) {
	for _, q := range []string{
		"In che anno è nato il principio dell'open data by default?",
		"In quale anno è stata approvata la legge?",
		"Che mese si rinnova l'abbonamento?",
		"Quale data ha la circolare?",
		"In which year was the standard published?",
	} {
		if got := QuestionType(q); got != TimeAnswer {
			t.Errorf("QuestionType(%q) = %d, want TimeAnswer (%d)", q, got, TimeAnswer)
		}
	}
	// Counting years is a quantity, not a time.
	if got := QuestionType("Quanti anni dura la licenza?"); got != QuantityAnswer {
		t.Errorf("QuestionType(quanti anni) = %d, want QuantityAnswer", got)
	}
}

// With a year asked for, the sentence that states the year is quoted
// rather than a longer one on the same subject that states none.
func TestExtractSpanYearAsked(t *testing.T) {
	chunks := []fonte.Chunk{
		{ID: "a", Text: "Si suggerisce la licenza CC-BY 4.0, attribuita in automatico a chi applica il principio dell'open data by default e la sua norma."},
		{ID: "b", Text: "Il principio dell'open data by default fu introdotto nel 2012 con la modifica dell'articolo 52."},
	}
	text, _, _ := ExtractSpan("In che anno è nato il principio dell'open data by default?", chunks)
	if want := "2012"; !strings.Contains(text, want) {
		t.Errorf("ExtractSpan = %q, want the sentence stating %s", text, want)
	}
}
