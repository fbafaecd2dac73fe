package eval

import (
	"slices"
	"strings"
	"testing"
)

// partIDs lists each part's name and its questions' ids, e.g. "dev:a,c".
func partIDs(parts []Part) []string {
	var out []string
	for _, p := range parts {
		var ids []string
		for _, q := range p.Questions {
			ids = append(ids, q.ID)
		}
		out = append(out, p.Name()+":"+strings.Join(ids, ","))
	}
	return out
}

func TestParts(t *testing.T) {
	mixed := []Question{
		{ID: "t1", Split: SplitTest}, {ID: "d1", Split: SplitDev}, {ID: "n1"},
		{ID: "t2", Split: SplitTest, Unanswerable: true}, {ID: "d2", Split: SplitDev, Unanswerable: true},
	}
	unsplit := []Question{{ID: "a"}, {ID: "b"}}
	for _, tc := range []struct {
		name  string
		qs    []Question
		which string
		want  []string
	}{
		{"all: dev, test, then none, each in file order", mixed, SplitAll, []string{"dev:d1,d2", "test:t1,t2", "none:n1"}},
		{"dev only", mixed, SplitDev, []string{"dev:d1,d2"}},
		{"test only", mixed, SplitTest, []string{"test:t1,t2"}},
		{"none only", mixed, SplitNone, []string{"none:n1"}},
		{"an unsplit set is one part", unsplit, SplitAll, []string{"none:a,b"}},
		{"a set of one split", []Question{{ID: "d1", Split: SplitDev}}, SplitAll, []string{"dev:d1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parts, err := Parts(tc.qs, tc.which)
			if err != nil {
				t.Fatal(err)
			}
			if got := partIDs(parts); !slices.Equal(got, tc.want) {
				t.Errorf("Parts(%s) = %v, want %v", tc.which, got, tc.want)
			}
		})
	}
}

func TestPartsErrors(t *testing.T) {
	unsplit := []Question{{ID: "a"}}
	for _, tc := range []struct {
		which, msg string
	}{
		{SplitDev, "no question of the set is in split dev"},
		{SplitTest, "no question of the set is in split test"},
		{"train", `unknown split "train"`},
		{"", `unknown split ""`},
	} {
		if _, err := Parts(unsplit, tc.which); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Parts(%q): error %v, want one containing %q", tc.which, err, tc.msg)
		}
	}
}

func TestPartCounts(t *testing.T) {
	p := Part{Split: SplitDev, Questions: []Question{{ID: "a"}, {ID: "b", Unanswerable: true}, {ID: "c"}}}
	if ans, unans := p.Counts(); ans != 2 || unans != 1 {
		t.Errorf("Counts() = %d answerable, %d unanswerable; want 2 and 1", ans, unans)
	}
	if p.Name() != "dev" || (Part{}).Name() != "none" {
		t.Errorf("Name(): %q and %q, want dev and none", p.Name(), Part{}.Name())
	}
}
