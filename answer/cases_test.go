package answer

import (
	"strings"
	"testing"
)

// A label whose siblings' values say nothing of the question's topic is
// not one case among several, and still leads.
func TestCaseLabelAloneStillLeads(t *testing.T) {
	q := "Who can apply for a parking permit?"
	text := "- Milan employees: Facilities-Parking Permits\n- Rome employees: the front desk handles visitor badges\n"
	if lead, quote := leadOf(t, q, text); lead != "Milan employees" {
		t.Errorf("%q: lead %q over %q, want Milan employees", q, lead, quote)
	}
}

func TestSiblingsAreTheItemsOfOneDepth(t *testing.T) {
	text := "Intro:\n- one: a\n  - nested: b\n- two: c\nAfter the list.\n- three: d\n"
	spans := [][2]int{}
	for _, line := range []string{"Intro:", "- one: a", "- nested: b", "- two: c", "After the list.", "- three: d"} {
		from := 0
		if len(spans) > 0 {
			from = spans[len(spans)-1][1]
		}
		i := from + strings.Index(text[from:], line)
		spans = append(spans, [2]int{i, i + len(line)})
	}
	got := siblings(text, spans, 1)
	if len(got) != 1 || got[0] != "- two: c" {
		t.Errorf("siblings of the first item = %q, want only \"- two: c\"", got)
	}
	if got := siblings(text, spans, 0); got != nil {
		t.Errorf("siblings of the intro = %q, want none", got)
	}
}
