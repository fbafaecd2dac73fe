package judge

import "testing"

// TestOneWordInSingleQuotes pins that a word the reference puts in
// single quotes is a key fact that only the same word quoted states,
// that another quoted word contradicts it, and that an apostrophe
// inside a word (l'art., it's) opens no quote, in both languages.
func TestOneWordInSingleQuotes(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"another quoted word", "Which branch do we deploy from?", "From the 'main' branch only.", "From the 'develop' branch.", Misleading},
		{"the quoted word", "Which branch do we deploy from?", "From the 'main' branch only.", "Only from the 'main' branch.", Right},
		{"the word unquoted in a passage", "Which branch do we deploy from?", "From the 'main' branch only.",
			"The main thing is that each branch is reviewed before it is merged. [1]", Wrong},
		{"un'altra parola", "Da quale ramo si rilascia?", "Dal ramo 'main'.", "Dal ramo 'develop'.", Misleading},
		{"an apostrophe inside a word", "Quale articolo si applica?", "L'art. 7 del regolamento.", "L'art. 7 del regolamento.", Right},
	})
}
