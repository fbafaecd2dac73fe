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
		"In che anno è nato il registro dei fornitori accreditati?",
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
		{ID: "a", Text: "Si consiglia la revisione trimestrale, affidata in automatico a chi tiene il registro dei fornitori accreditati e la sua procedura."},
		{ID: "b", Text: "Il registro dei fornitori accreditati fu istituito nel 2009 con la delibera numero 14."},
	}
	text, _, _ := ExtractSpan("In che anno è nato il registro dei fornitori accreditati?", chunks)
	if want := "2009"; !strings.Contains(text, want) {
		t.Errorf("ExtractSpan = %q, want the sentence stating %s", text, want)
	}
}
