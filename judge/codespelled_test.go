package judge

import "testing"

// TestCodeAcronymSpelledOut pins that a code whose opening acronym is
// written as the words it stands for, followed by the rest of the code,
// states the code in both languages; and that words with other
// initials, or the words without the rest of the code, do not.
func TestCodeAcronymSpelledOut(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"spelled out", "Which licence covers the maps?", "The OM-NC licence.", "The Open Maps NC licence.", Right},
		{"per esteso", "Che licenza hanno le mappe?", "La licenza OM-NC 2.0.", "La licenza Open Maps NC 2.0.", Right},
		{"other initials", "Which licence covers the maps?", "The OM-NC licence.", "The Open Data NC licence.", Misleading},
		{"the rest left out", "Which licence covers the maps?", "The OM-NC licence.", "The Open Maps licence.", Misleading},
	})
}
