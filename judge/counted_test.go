package judge

import "testing"

// TestCountedByQuestion pins that a reference's bare number counts what
// the question asks how many of, so that a span lead with another count
// of it is misleading, in both languages; and that a question's noun of
// two words gives the bare number no unit of one.
func TestCountedByQuestion(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"another count lead", "Quanti tipi di contratto esistono?", "4, dal 2020.",
			"3 tipi — Dal 2020 esistono 4 tipi di contratto. [1]", Misleading},
		{"the count lead", "Quanti tipi di contratto esistono?", "4, dal 2020.",
			"4 tipi — Dal 2020 esistono 4 tipi di contratto. [1]", Right},
		{"another count lead, in English", "How many copies do we keep?", "3, one of them off-site.",
			"2 copies — We keep 3 copies, one of them off-site. [1]", Misleading},
		{"the count in words", "How many copies do we keep?", "3, one of them off-site.",
			"Three copies, one of them off-site.", Right},
		{"a noun of two words", "How many user journeys should we start with?", "2 to 3.",
			"2 to 3 items — prioritise 2 to 3 items to start with. [1]", Right},
	})
}
