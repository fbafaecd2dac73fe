package eval

import (
	"fmt"
	"slices"
)

// FloorRow is one line of the floor trade-off: at this floor, how many
// unanswerable questions still get an answer and how many answerable ones
// are refused.
type FloorRow struct {
	Floor      float64
	LetThrough int // unanswerable questions whose top-1 score is >= Floor
	Blocked    int // answerable questions whose top-1 score is < Floor
}

// FloorTable returns one row per floor, in the order given, from the top-1
// retrieval scores of answerable and unanswerable questions. A score equal
// to the floor passes, as in answer.Abstain. Seed 002 prints this table for
// floors 0.00, 0.15, 0.20, 0.30 and 0.40; it is the only honest way to
// pick a floor, since the two distributions overlap.
func FloorTable(answerable, unanswerable, floors []float64) []FloorRow {
	rows := make([]FloorRow, len(floors))
	for i, f := range floors {
		rows[i] = floorRow(answerable, unanswerable, f)
	}
	return rows
}

func floorRow(answerable, unanswerable []float64, f float64) FloorRow {
	row := FloorRow{Floor: f}
	for _, s := range unanswerable {
		if s >= f {
			row.LetThrough++
		}
	}
	for _, s := range answerable {
		if s < f {
			row.Blocked++
		}
	}
	return row
}

// SuggestFloor returns the row of the lowest candidate floor that lets
// through at most maxShare of the unanswerable questions (0.2: at most one
// in five), and false when no candidate does. The lowest such floor blocks
// the fewest answerable questions, since blocking only grows with the
// floor; the row says what that costs.
func SuggestFloor(answerable, unanswerable, floors []float64, maxShare float64) (FloorRow, bool) {
	allowed := maxShare * float64(len(unanswerable))
	var best FloorRow
	found := false
	for _, f := range floors {
		row := floorRow(answerable, unanswerable, f)
		// A small tolerance so 0.2 of 5 allows exactly 1 despite rounding.
		if float64(row.LetThrough) <= allowed+1e-9 && (!found || f < best.Floor) {
			best, found = row, true
		}
	}
	return best, found
}

// Summary describes a list of scores the way seed 002 prints them.
type Summary struct {
	N                int
	Min, Median, Max float64
}

// Summarize returns the count, minimum, median and maximum of x. The median
// is the seeds' sorted(x)[len(x)//2]: the upper middle value for an even
// count, not the mean of the two middle ones. An empty x gives a zero
// Summary.
func Summarize(x []float64) Summary {
	if len(x) == 0 {
		return Summary{}
	}
	s := slices.Clone(x)
	slices.Sort(s)
	return Summary{N: len(s), Min: s[0], Median: s[len(s)/2], Max: s[len(s)-1]}
}

// String prints the summary as seed 002 does: "min 0.15  median 0.45  max
// 0.66".
func (s Summary) String() string {
	return fmt.Sprintf("min %.2f  median %.2f  max %.2f", s.Min, s.Median, s.Max)
}
