package fusion

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// The full rankings of seed 001 (the seed prints only their first three):
// BM25 and the hash-surrogate vectors keep every document with a positive
// score, ties by id. Re-computed from the seed's program.
var seed001 = []struct {
	query      string
	bm25, vect []string
	wantTop    []string
	wantScores map[string]float64
}{
	{
		query:   "SOP-014",
		bm25:    []string{"SOP-014", "SOP-019", "SOP-007", "SOP-011", "SOP-023", "SOP-001"},
		vect:    []string{"SOP-014", "SOP-007", "SOP-011", "SOP-023", "SOP-019", "SOP-001"},
		wantTop: []string{"SOP-014", "SOP-007", "SOP-019"},
		wantScores: map[string]float64{
			"SOP-014": 1.0/61 + 1.0/61,
			"SOP-007": 1.0/63 + 1.0/62,
			"SOP-019": 1.0/62 + 1.0/65,
			"SOP-011": 1.0/64 + 1.0/63,
			"SOP-023": 1.0/65 + 1.0/64,
			"SOP-001": 1.0/66 + 1.0/66,
		},
	},
	{
		query:      "how do I get the refund",
		bm25:       []string{"SOP-023"},
		vect:       []string{"SOP-007", "SOP-023"},
		wantTop:    []string{"SOP-023", "SOP-007"},
		wantScores: map[string]float64{"SOP-023": 1.0/61 + 1.0/62, "SOP-007": 1.0 / 61},
	},
	{
		query:      "who keeps the keys",
		bm25:       []string{"SOP-019"},
		vect:       []string{"SOP-019", "SOP-001"},
		wantTop:    []string{"SOP-019", "SOP-001"},
		wantScores: map[string]float64{"SOP-019": 2.0 / 61, "SOP-001": 1.0 / 62},
	},
}

func TestRRFSeed001(t *testing.T) {
	for _, tc := range seed001 {
		got := RRF([][]string{tc.bm25, tc.vect}, Options{})
		if top := IDs(got)[:len(tc.wantTop)]; !slices.Equal(top, tc.wantTop) {
			t.Errorf("%q: RRF top %v, want %v", tc.query, top, tc.wantTop)
		}
		if len(got) != len(tc.wantScores) {
			t.Errorf("%q: %d fused items, want %d", tc.query, len(got), len(tc.wantScores))
		}
		for i, f := range got {
			if want := tc.wantScores[f.ID]; math.Abs(f.Score-want) > 1e-15 {
				t.Errorf("%q: %s score %.17g, want %.17g", tc.query, f.ID, f.Score, want)
			}
			// The explanation: ranks in each list, 0 when absent.
			want := []int{slices.Index(tc.bm25, f.ID) + 1, slices.Index(tc.vect, f.ID) + 1}
			if !slices.Equal(f.Ranks, want) {
				t.Errorf("%q: %s ranks %v, want %v", tc.query, f.ID, f.Ranks, want)
			}
			if i > 0 && got[i-1].Score < f.Score {
				t.Errorf("%q: not sorted by score at %d", tc.query, i)
			}
		}
	}
	// SOP-019 (2nd and 5th) edges out SOP-011 (4th and 3rd) by 1.6e-5: the
	// fourth place of the first query hinges on it.
	got := IDs(RRF([][]string{seed001[0].bm25, seed001[0].vect}, Options{}))
	if want := []string{"SOP-014", "SOP-007", "SOP-019", "SOP-011", "SOP-023", "SOP-001"}; !slices.Equal(got, want) {
		t.Errorf("full fused ranking %v, want %v", got, want)
	}
}

func TestRRFTiesByID(t *testing.T) {
	// "b" and "a" swap places between the lists: equal scores, so the
	// lower id comes first whatever the list order.
	for _, lists := range [][][]string{
		{{"b", "a"}, {"a", "b"}},
		{{"a", "b"}, {"b", "a"}},
	} {
		got := RRF(lists, Options{})
		if got[0].Score != got[1].Score {
			t.Fatalf("%v: scores %v and %v, want equal", lists, got[0].Score, got[1].Score)
		}
		if ids := IDs(got); !slices.Equal(ids, []string{"a", "b"}) {
			t.Fatalf("%v: order %v, want [a b]", lists, ids)
		}
	}
	// Items of a single list all at different ranks never tie; items found
	// only at the same rank of different lists do.
	got := RRF([][]string{{"z", "y"}, {"x"}, {"w"}}, Options{})
	if ids := IDs(got); !slices.Equal(ids, []string{"w", "x", "z", "y"}) {
		t.Fatalf("order %v, want [w x z y]", ids)
	}
}

func TestRRFWeights(t *testing.T) {
	lists := [][]string{{"x", "y"}, {"y", "x"}}
	got := RRF(lists, Options{Weights: []float64{2, 1}})
	want := map[string]float64{"x": 2.0/61 + 1.0/62, "y": 2.0/62 + 1.0/61}
	if ids := IDs(got); !slices.Equal(ids, []string{"x", "y"}) {
		t.Fatalf("order %v, want [x y]: the heavier list's first wins", ids)
	}
	for _, f := range got {
		if math.Abs(f.Score-want[f.ID]) > 1e-15 {
			t.Errorf("%s: %v, want %v", f.ID, f.Score, want[f.ID])
		}
	}
	// Trusting the vector list three times as much reorders the seed's
	// first query: SOP-011 (BM25 4th, vector 3rd: 1/64 + 3/63 = 0.06324)
	// overtakes SOP-019 (BM25 2nd, vector 5th: 1/62 + 3/65 = 0.06228).
	q := seed001[0]
	w := RRF([][]string{q.bm25, q.vect}, Options{Weights: []float64{1, 3}})
	if ids := IDs(w)[:4]; !slices.Equal(ids, []string{"SOP-014", "SOP-007", "SOP-011", "SOP-019"}) {
		t.Errorf("weighted top 4 %v", ids)
	}
	if s := w[2].Score; math.Abs(s-(1.0/64+3.0/63)) > 1e-15 {
		t.Errorf("weighted SOP-011 score %v, want 1/64 + 3/63", s)
	}
	// A zero weight silences a list but keeps its items, with their ranks.
	z := RRF([][]string{{"a"}, {"b"}}, Options{Weights: []float64{0, 1}})
	if ids := IDs(z); !slices.Equal(ids, []string{"b", "a"}) || z[1].Score != 0 || z[1].Ranks[0] != 1 {
		t.Errorf("zero weight: %+v", z)
	}
}

func TestRRFWindowAndK(t *testing.T) {
	q := seed001[0]
	got := RRF([][]string{q.bm25, q.vect}, Options{Window: 2})
	// Window 2: BM25 contributes SOP-014, SOP-019; vectors SOP-014, SOP-007.
	want := []Fused{
		{ID: "SOP-014", Score: 2.0 / 61, Ranks: []int{1, 1}},
		{ID: "SOP-007", Score: 1.0 / 62, Ranks: []int{0, 2}},
		{ID: "SOP-019", Score: 1.0 / 62, Ranks: []int{2, 0}},
	}
	if len(got) != len(want) {
		t.Fatalf("window 2: %+v", got)
	}
	for i := range want {
		if got[i].ID != want[i].ID || got[i].Score != want[i].Score || !slices.Equal(got[i].Ranks, want[i].Ranks) {
			t.Errorf("window 2, item %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	// A window longer than the lists changes nothing.
	if a, b := RRF([][]string{q.bm25, q.vect}, Options{Window: 100}), RRF([][]string{q.bm25, q.vect}, Options{}); !slices.EqualFunc(a, b, equalFused) {
		t.Error("window 100 differs from no window")
	}
	// k = 1: ranks weigh far more than at k = 60.
	k1 := RRF([][]string{{"a", "b"}, {"b", "c"}}, Options{K: 1})
	wantK1 := map[string]float64{"a": 1.0 / 2, "b": 1.0/3 + 1.0/2, "c": 1.0 / 3}
	if ids := IDs(k1); !slices.Equal(ids, []string{"b", "a", "c"}) {
		t.Errorf("k=1 order %v", ids)
	}
	for _, f := range k1 {
		if math.Abs(f.Score-wantK1[f.ID]) > 1e-15 {
			t.Errorf("k=1 %s: %v, want %v", f.ID, f.Score, wantK1[f.ID])
		}
	}
}

func equalFused(a, b Fused) bool {
	return a.ID == b.ID && a.Score == b.Score && slices.Equal(a.Ranks, b.Ranks)
}

func TestRRFEdgeCases(t *testing.T) {
	if got := RRF(nil, Options{}); len(got) != 0 {
		t.Errorf("no lists: %v", got)
	}
	if got := RRF([][]string{{}, nil}, Options{}); len(got) != 0 {
		t.Errorf("empty lists: %v", got)
	}
	// A repeated id counts once, at its first position, and later items
	// keep their positions.
	got := RRF([][]string{{"a", "b", "a", "c"}}, Options{})
	want := []Fused{
		{ID: "a", Score: 1.0 / 61, Ranks: []int{1}},
		{ID: "b", Score: 1.0 / 62, Ranks: []int{2}},
		{ID: "c", Score: 1.0 / 64, Ranks: []int{4}},
	}
	if !slices.EqualFunc(got, want, equalFused) {
		t.Errorf("repeats: %+v, want %+v", got, want)
	}
	// The input lists are not modified.
	in := [][]string{{"b", "a"}, {"c"}}
	RRF(in, Options{})
	if !slices.Equal(in[0], []string{"b", "a"}) || !slices.Equal(in[1], []string{"c"}) {
		t.Errorf("inputs modified: %v", in)
	}
	// Ranks slices do not share capacity: appending to one cannot
	// overwrite another's.
	two := RRF([][]string{{"a", "b"}}, Options{})
	_ = append(two[0].Ranks, 99)
	if two[1].Ranks[0] != 2 {
		t.Error("Ranks slices alias each other")
	}
	defer func() {
		if recover() == nil {
			t.Error("wrong number of weights did not panic")
		}
	}()
	RRF([][]string{{"a"}, {"b"}}, Options{Weights: []float64{1}})
}

func BenchmarkRRF(b *testing.B) {
	// Two lists of 100 with half their ids in common.
	l1, l2 := make([]string, 100), make([]string, 100)
	for i := range 100 {
		l1[i] = fmt.Sprintf("doc-%03d", i)
		l2[i] = fmt.Sprintf("doc-%03d", i+50)
	}
	lists := [][]string{l1, l2}
	for b.Loop() {
		RRF(lists, Options{})
	}
}
