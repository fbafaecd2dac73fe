package judge

import "testing"

// TestFigureGivenToWhatIsAsked pins that an answer of its own that
// gives the reference's figure to another thing and another figure, in
// a clause of its own, to what the question asks is misleading, in both
// languages; and that a negated clause, or the right figure given to
// the thing asked beside another thing's, is not.
func TestFigureGivenToWhatIsAsked(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"the asked thing's figure swapped", "In che anno è uscita la seconda edizione del manuale?", "Nel 2015.",
			"Nel 2015 è uscita la prima edizione; la seconda nel 2018.", Misleading},
		{"the asked thing's figure swapped, in English", "How many seats does the large meeting room have?", "24 seats.",
			"The small room has 24 seats, while the large one has 40 seats.", Misleading},
		{"the asked thing's figure right", "How many seats does the large meeting room have?", "24 seats.",
			"The large room has 24 seats, while the small one has 8 seats.", Right},
		{"a negated clause", "In che anno è uscita la seconda edizione del manuale?", "Nel 2015.",
			"Nel 2015; la seconda non è uscita nel 2018, come si legge spesso.", Right},
	})
}
