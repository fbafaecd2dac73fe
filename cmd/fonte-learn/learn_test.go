package main

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/eval"
)

// Both fits learn to pick, in each group, the candidate whose first
// feature is high, when the second is noise.
func TestFitsLearnTheRightFeature(t *testing.T) {
	var gs []group
	for i := range 40 {
		g := group{}
		for j := range 4 {
			right := j == i%4
			x := []float64{float64(j % 2), float64((i*7 + j*3) % 5)}
			if right {
				x[0] = 3
			}
			g.x, g.label = append(g.x, x), append(g.label, right)
		}
		gs = append(gs, g)
	}
	for name, fit := range map[string]func([]group, int, float64, int) *Model{"listwise": Listwise, "pointwise": Pointwise} {
		m := fit(gs, 2, 0.01, 200)
		if m.W[0] <= 0 || m.W[0] < 3*abs(m.W[1]) {
			t.Errorf("%s: weights %v, want the first positive and dominant", name, m.W)
		}
		for _, g := range gs {
			best, at := 0.0, -1
			for i, x := range g.x {
				if s := m.Score(x); at < 0 || s > best {
					best, at = s, i
				}
			}
			if !g.label[at] {
				t.Errorf("%s: picks a wrong candidate of %v", name, g.x)
				break
			}
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// A sentence holds a gold quote when the two overlap by half the
// shorter, spaces and curly quotes read as eval.IsHit reads them.
func TestHoldsGold(t *testing.T) {
	text := "Intro here.  You must   use the “main” branch. Then push.\nAnother line that is long enough."
	q := eval.Question{Gold: []eval.Gold{{Doc: "d", Quote: `use the "main" branch. Then push`}}}
	c := fonte.Chunk{DocID: "d", Text: text}
	span := func(s string) [2]int {
		i := strings.Index(text, s)
		return [2]int{i, i + len(s)}
	}
	for s, want := range map[string]bool{
		"Intro here.":                       false,
		"You must   use the “main” branch.": true,  // holds most of the quote
		"Then push.":                        true,  // inside the quote
		"Another line that is long enough.": false, // outside
	} {
		if got := holdsGold(q, c, span(s)); got != want {
			t.Errorf("holdsGold(%q) = %v, want %v", s, got, want)
		}
	}
	if holdsGold(q, fonte.Chunk{DocID: "other", Text: text}, span("Then push.")) {
		t.Error("a chunk of another document holds the quote")
	}
}
