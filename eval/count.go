package eval

import (
	"fmt"

	"github.com/fonte-rag/fonte/judge"
)

// Count is a tally of right answers out of a total.
type Count struct {
	Right, Total int
}

// Add records one answer.
func (c *Count) Add(right bool) {
	c.Total++
	if right {
		c.Right++
	}
}

// Rate is Right/Total, 0 for an empty count.
func (c Count) Rate() float64 {
	if c.Total == 0 {
		return 0
	}
	return float64(c.Right) / float64(c.Total)
}

// String prints "right/total", e.g. "8/13".
func (c Count) String() string { return fmt.Sprintf("%d/%d", c.Right, c.Total) }

// Verdicts tallies judged answers by the judge's verdict.
type Verdicts struct {
	Right      int `json:"right"`
	Misleading int `json:"misleading"`
	Partial    int `json:"partial"`
	Wrong      int `json:"wrong"`
	Abstained  int `json:"abstained"`
}

// Add records one answer's verdict.
func (v *Verdicts) Add(verdict judge.Verdict) {
	if p := v.cell(verdict); p != nil {
		*p++
	}
}

// Of returns how many answers got verdict.
func (v Verdicts) Of(verdict judge.Verdict) int {
	if p := v.cell(verdict); p != nil {
		return *p
	}
	return 0
}

func (v *Verdicts) cell(verdict judge.Verdict) *int {
	switch verdict {
	case judge.Right:
		return &v.Right
	case judge.Misleading:
		return &v.Misleading
	case judge.Partial:
		return &v.Partial
	case judge.Wrong:
		return &v.Wrong
	case judge.Abstained:
		return &v.Abstained
	}
	return nil
}

// Total is the number of answers recorded.
func (v Verdicts) Total() int { return v.Right + v.Misleading + v.Partial + v.Wrong + v.Abstained }

// Share is the share of answers that got verdict, 0 for an empty tally.
func (v Verdicts) Share(verdict judge.Verdict) float64 {
	if v.Total() == 0 {
		return 0
	}
	return float64(v.Of(verdict)) / float64(v.Total())
}

// Grid crosses whether answers were right with whether the retrieved text
// supports them. The two are different properties: a right answer that is
// unsupported means the system got lucky (seed 002's phone number), and the
// same code will invent the next one.
type Grid struct {
	RightSupported, RightUnsupported int
	WrongSupported, WrongUnsupported int
}

// Add records one answer in its cell.
func (g *Grid) Add(right, supported bool) {
	switch {
	case right && supported:
		g.RightSupported++
	case right:
		g.RightUnsupported++
	case supported:
		g.WrongSupported++
	default:
		g.WrongUnsupported++
	}
}

// Total is the number of answers recorded.
func (g Grid) Total() int {
	return g.RightSupported + g.RightUnsupported + g.WrongSupported + g.WrongUnsupported
}

// String prints the four cells in seed 002's order, one per line:
// "right=True  supported=True   0" and so on.
func (g Grid) String() string {
	return fmt.Sprintf("right=True  supported=True   %d\n"+
		"right=True  supported=False  %d\n"+
		"right=False supported=True   %d\n"+
		"right=False supported=False  %d",
		g.RightSupported, g.RightUnsupported, g.WrongSupported, g.WrongUnsupported)
}
