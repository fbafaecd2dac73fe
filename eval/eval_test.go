package eval

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/fonte-rag/fonte"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// A graded example worked by hand.
//
// ranking d1 d2 d3 d4; grades d1=1, d2=0, d3=3, d5=2 (not retrieved),
// d6=-1 (not retrieved), d4 unjudged.
//
//	DCG@3  = 1/log2(2) + 0 + 3/log2(4)        = 1 + 1.5         = 2.5
//	IDCG@3 = 3/log2(2) + 2/log2(3) + 1/log2(4) = 3 + 1.26186 + 0.5 = 4.76186
//	nDCG@3 = 2.5 / 4.76186 = 0.52500
//	nDCG@1 = 1 / 3 = 0.33333
//	nDCG@2 = 1 / (3 + 1.26186) = 0.23464
//	nDCG@5 = nDCG@3 (d4 adds nothing, the ideal has only three gains)
func TestNDCGByHand(t *testing.T) {
	ranked := []string{"d1", "d2", "d3", "d4"}
	rel := Judgments{"d1": 1, "d2": 0, "d3": 3, "d5": 2, "d6": -1}
	idcg3 := 3 + 2/math.Log2(3) + 0.5
	for _, tc := range []struct {
		k    int
		want float64
		hand string
	}{
		{1, 1.0 / 3, "0.33333"},
		{2, 1 / (3 + 2/math.Log2(3)), "0.23464"},
		{3, 2.5 / idcg3, "0.52500"},
		{5, 2.5 / idcg3, "0.52500"},
		{0, 2.5 / idcg3, "0.52500"},
	} {
		got := NDCGAt(tc.k)(ranked, rel)
		if !near(got, tc.want) || fmt.Sprintf("%.5f", got) != tc.hand {
			t.Errorf("nDCG@%d = %.6f, want %s", tc.k, got, tc.hand)
		}
	}
	// Perfect and empty rankings.
	if got := NDCGAt(3)([]string{"d3", "d5", "d1"}, rel); !near(got, 1) {
		t.Errorf("ideal ranking nDCG@3 = %v", got)
	}
	if got := NDCGAt(3)(nil, rel); got != 0 {
		t.Errorf("empty ranking nDCG@3 = %v", got)
	}
	// Only non-positive grades: no ideal gain, 0 as in trec_eval.
	if got := NDCGAt(3)(ranked, Judgments{"d1": 0, "d2": -2}); got != 0 {
		t.Errorf("no relevant: nDCG = %v", got)
	}
	// A repeated id counts once, at its first position.
	if got := NDCGAt(2)([]string{"d2", "d2", "d3"}, rel); !near(got, (3/math.Log2(3))/(3+2/math.Log2(3))) {
		t.Errorf("duplicate handling: nDCG@2 = %v", got)
	}
}

func TestRankHitRecallRR(t *testing.T) {
	rel := Judgments{"a": 1, "b": 2, "c": 1, "z": 0}
	ranked := []string{"z", "x", "b", "y", "a"}
	if got := Rank(ranked, rel); got != 3 {
		t.Errorf("Rank = %d", got)
	}
	if got := ReciprocalRank(ranked, rel); !near(got, 1.0/3) {
		t.Errorf("RR = %v", got)
	}
	if got := Rank([]string{"x"}, rel); got != 0 {
		t.Errorf("Rank with nothing relevant = %d", got)
	}
	if got := ReciprocalRank([]string{"x"}, rel); got != 0 {
		t.Errorf("RR with nothing relevant = %v", got)
	}
	for k, want := range map[int]float64{1: 0, 2: 0, 3: 1, 5: 1, 0: 1} {
		if got := HitAt(k)(ranked, rel); got != want {
			t.Errorf("hit@%d = %v, want %v", k, got, want)
		}
	}
	for k, want := range map[int]float64{2: 0, 3: 1.0 / 3, 5: 2.0 / 3, 100: 2.0 / 3} {
		if got := RecallAt(k)(ranked, rel); !near(got, want) {
			t.Errorf("recall@%d = %v, want %v", k, got, want)
		}
	}
	if got := RecallAt(5)([]string{"a", "a", "a"}, Judgments{"a": 1, "b": 1}); !near(got, 0.5) {
		t.Errorf("a repeated id counted more than once: recall %v", got)
	}
	if got := RecallAt(5)(ranked, Judgments{"z": 0}); got != 0 {
		t.Errorf("recall with no relevant = %v", got)
	}
}

// Seed 000's TF-IDF figures from its ranks of the gold passage: hit@1
// 10/15, hit@3 13/15, MRR 0.786.
func TestMeanSeed000Ranks(t *testing.T) {
	ranks := []int{1, 4, 1, 3, 2, 1, 1, 1, 1, 1, 5, 1, 2, 1, 1}
	qrels, run := Qrels{}, Run{}
	for i, r := range ranks {
		q := fmt.Sprintf("q%02d", i)
		qrels[q] = Judgments{"gold": 1}
		ranked := []string{"p1", "p2", "p3", "p4", "p5"}
		ranked[r-1] = "gold"
		run[q] = ranked
	}
	if got := Mean(qrels, run, HitAt(1)) * 15; !near(got, 10) {
		t.Errorf("hit@1 = %v/15", got)
	}
	if got := Mean(qrels, run, HitAt(3)) * 15; !near(got, 13) {
		t.Errorf("hit@3 = %v/15", got)
	}
	if got := fmt.Sprintf("%.3f", Mean(qrels, run, ReciprocalRank)); got != "0.786" {
		t.Errorf("MRR = %s", got)
	}
}

func TestMeanQueriesLikeTrecEval(t *testing.T) {
	qrels := Qrels{
		"found":   {"a": 1},
		"norel":   {"a": 0}, // judged, nothing relevant: scores 0 and counts
		"missing": {"a": 1}, // no ranking in the run: skipped
		"empty":   {"b": 1}, // an empty ranking: scores 0 and counts (trec_eval -c)
	}
	run := Run{"found": {"a"}, "norel": {"a"}, "empty": nil, "unjudged": {"a"}}
	per := PerQuery(qrels, run, ReciprocalRank)
	if want := map[string]float64{"found": 1, "norel": 0, "empty": 0}; !reflect.DeepEqual(per, want) {
		t.Errorf("PerQuery = %v", per)
	}
	if got := Mean(qrels, run, ReciprocalRank); !near(got, 1.0/3) {
		t.Errorf("Mean = %v", got)
	}
	if got := Mean(Qrels{}, run, ReciprocalRank); got != 0 {
		t.Errorf("Mean over nothing = %v", got)
	}
}

func TestIDs(t *testing.T) {
	hits := []fonte.Hit{
		{Chunk: fonte.Chunk{ID: "a#1", DocID: "a"}},
		{Chunk: fonte.Chunk{ID: "b#0", DocID: "b"}},
		{Chunk: fonte.Chunk{ID: "a#0", DocID: "a"}},
	}
	if got := IDs(hits); !reflect.DeepEqual(got, []string{"a#1", "b#0", "a#0"}) {
		t.Errorf("IDs = %v", got)
	}
	if got := DocIDs(hits); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("DocIDs = %v", got)
	}
}

// Synthetic top-1 scores: 10 answerable, 5 unanswerable, overlapping.
var (
	answerable   = []float64{0.15, 0.18, 0.22, 0.30, 0.35, 0.41, 0.45, 0.50, 0.60, 0.66}
	unanswerable = []float64{0.05, 0.10, 0.16, 0.20, 0.28}
)

func TestFloorTable(t *testing.T) {
	got := FloorTable(answerable, unanswerable, []float64{0, 0.15, 0.20, 0.30, 0.40, 1})
	want := []FloorRow{
		{0, 5, 0},
		{0.15, 3, 0}, // 0.15 itself passes
		{0.20, 2, 2}, // 0.20 unanswerable passes; 0.15 and 0.18 blocked
		{0.30, 0, 3}, // 0.30 answerable passes
		{0.40, 0, 5},
		{1, 0, 10},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FloorTable:\n got %v\nwant %v", got, want)
	}
}

func TestSuggestFloor(t *testing.T) {
	floors := []float64{0.40, 0.30, 0.25, 0.21, 0.20, 0.15, 0} // any order
	for _, tc := range []struct {
		share float64
		want  FloorRow
		ok    bool
	}{
		{1, FloorRow{0, 5, 0}, true},
		{0.6, FloorRow{0.15, 3, 0}, true},
		{0.4, FloorRow{0.20, 2, 2}, true},
		{0.2, FloorRow{0.21, 1, 2}, true}, // exactly one of five
		{0, FloorRow{0.30, 0, 3}, true},
	} {
		got, ok := SuggestFloor(answerable, unanswerable, floors, tc.share)
		if got != tc.want || ok != tc.ok {
			t.Errorf("share %v: %v %v, want %v %v", tc.share, got, ok, tc.want, tc.ok)
		}
	}
	// 0.57*100 is 56.99999999999999 in floating point; 57 of 100 must pass.
	hundred := make([]float64, 100)
	for i := range hundred {
		hundred[i] = float64(i) / 100
	}
	if got, ok := SuggestFloor(nil, hundred, []float64{0.43}, 0.57); !ok || got.LetThrough != 57 {
		t.Errorf("share 0.57 of 100: %v %v", got, ok)
	}
	if _, ok := SuggestFloor(answerable, unanswerable, []float64{0, 0.1}, 0); ok {
		t.Errorf("no candidate meets share 0, yet one was suggested")
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize([]float64{0.45, 0.15, 0.66, 0.30})
	if s != (Summary{N: 4, Min: 0.15, Median: 0.45, Max: 0.66}) { // upper middle, not 0.375
		t.Errorf("Summarize = %+v", s)
	}
	if got := s.String(); got != "min 0.15  median 0.45  max 0.66" {
		t.Errorf("String = %q", got)
	}
	if got := Summarize([]float64{0.3, 0.1, 0.2}).Median; got != 0.2 {
		t.Errorf("odd median = %v", got)
	}
	if got := Summarize(nil); got != (Summary{}) {
		t.Errorf("empty = %+v", got)
	}
}

func TestCountAndGrid(t *testing.T) {
	var c Count
	for i := range 13 {
		c.Add(i < 8)
	}
	if c.String() != "8/13" || fmt.Sprintf("%.2f", c.Rate()) != "0.62" {
		t.Errorf("count %v rate %.2f", c, c.Rate())
	}
	if (Count{}).Rate() != 0 {
		t.Errorf("empty rate")
	}
	// Seed 002's grid: student, app, collect, phone, VAT.
	var g Grid
	for _, a := range []struct{ right, supported bool }{
		{false, false}, {false, false}, {false, true}, {true, false}, {false, true},
	} {
		g.Add(a.right, a.supported)
	}
	if g != (Grid{RightSupported: 0, RightUnsupported: 1, WrongSupported: 2, WrongUnsupported: 2}) || g.Total() != 5 {
		t.Errorf("grid %+v", g)
	}
	want := "right=True  supported=True   0\nright=True  supported=False  1\nright=False supported=True   2\nright=False supported=False  2"
	if g.String() != want {
		t.Errorf("grid:\n%s", g)
	}
}
