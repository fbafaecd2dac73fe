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

// TestCountedAgainLater pins that a bare count the reference gives,
// counted again with another number in a later sentence about what the
// question asks, is misleading (README's rule 6: a contradicting fact
// after the right one), in both languages, whether the later number is
// bare or names the question's noun, with a year dating the sentence or
// not; and that a later count of something else, or the same count, is
// not.
func TestCountedAgainLater(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"a bare count later", "How many rooms does the library reserve?", "Four.",
			"Four. Since 2019 it has reserved six.", Misleading},
		{"the question's noun later", "How many trustees sit on the council?", "Five.",
			"Five. Since 2022 the council has had eight trustees.", Misleading},
		{"in Italian", "Quanti posti riserva la biblioteca?", "Quattro.",
			"Quattro. Dal 2019 ne riserva otto.", Misleading},
		{"the same count again", "How many trustees sit on the council?", "Five.",
			"Five. Since the reform the council has had five trustees.", Right},
		{"another thing counted", "How many trustees sit on the council?", "Five.",
			"Five. The council meets 4 times a year.", Right},
		{"another case counted", "How many trustees sit on the council?", "Five.",
			"Five. The regional councils have 9.", Right},
		{"a year alone later", "How many trustees sit on the council?", "Five.",
			"Five, since the council was founded in 1998.", Right},
	})
}
