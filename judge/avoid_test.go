package judge

import "testing"

// TestAvoidSaysNo pins that a sentence that says to avoid what the
// question asks about says no, in both languages, and that a question
// asking about avoiding reads the same words as a yes.
func TestAvoidSaysNo(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"avoid", "Can we use acronyms in page titles?", "No. Avoid acronyms; spell them out.",
			"Avoid acronyms in page titles and headings. [1]", Right},
		{"evitare", "Possiamo usare le sigle nei titoli delle pagine?", "No. Evitare le sigle; vanno scritte per esteso.",
			"Evitare le sigle nei titoli e nelle intestazioni. [1]", Right},
		{"avoid against a yes", "Can we use acronyms in page titles?", "Yes.", "Avoid acronyms in page titles.", Misleading},
		{"a question about avoiding", "Should we avoid acronyms in page titles?", "Yes.", "Avoid acronyms in page titles.", Right},
	})
}
