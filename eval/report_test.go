package eval

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/judge"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/<name>, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it):\n got:\n%s\nwant:\n%s", path, got, want)
	}
}

// sampleReport uses the synthetic top-1 scores of eval_test.go: 10
// answerable, 5 unanswerable.
func sampleReport() Report {
	return Report{
		Retrieval: Retrieval{Hit1: 0.6, Hit3: 0.8, Hit5: 0.9, Recall10: 0.85, Recall100: 0.975, MRR: 0.71234, NDCG10: 0.7, Queries: 10},
		Abstain:   NewAbstain(answerable, unanswerable, 0.2, 0.2),
		Generation: NewGeneration(Verdicts{Right: 8, Misleading: 1, Partial: 2, Wrong: 1, Abstained: 1},
			Verdicts{Right: 7, Misleading: 2, Partial: 1, Wrong: 1, Abstained: 2}, 5, 2),
		Retriever: "hybrid",
		Chunker:   "window-200/40",
		K:         100,
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestReportJSONShape(t *testing.T) {
	data, err := json.Marshal(sampleReport())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	check := func(what string, got any, want ...string) {
		t.Helper()
		obj, ok := got.(map[string]any)
		slices.Sort(want)
		if !ok || !reflect.DeepEqual(keys(obj), want) {
			t.Errorf("%s keys %v, want %v", what, keys(obj), want)
		}
	}
	check("report", m, "retrieval", "abstain", "generation", "retriever", "chunker", "k")
	check("retrieval", m["retrieval"], "hit@1", "hit@3", "hit@5", "recall@10", "recall@100", "mrr", "ndcg@10", "queries")
	check("abstain", m["abstain"], "floor", "unanswerable_let_through", "answerable_blocked", "suggested_floor", "curve")
	check("generation", m["generation"], "given_gold", "end_to_end", "given_gold_verdicts", "end_to_end_verdicts", "unanswerable", "unanswerable_answered")
	check("given_gold_verdicts", m["generation"].(map[string]any)["given_gold_verdicts"], "right", "misleading", "partial", "wrong", "abstained")
	for i, p := range m["abstain"].(map[string]any)["curve"].([]any) {
		check("curve["+strconv.Itoa(i)+"]", p, "floor", "let_through", "blocked")
	}

	// Without gold answers the generation block is omitted; without a
	// floor meeting the share, suggested_floor is null.
	r := sampleReport()
	r.Generation = NewGeneration(Verdicts{}, Verdicts{}, 0, 0)
	r.Abstain = NewAbstain([]float64{0.5}, []float64{0.9}, 0, -1)
	data, err = json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	m = nil
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	check("report", m, "retrieval", "abstain", "retriever", "chunker", "k")
	if v, ok := m["abstain"].(map[string]any)["suggested_floor"]; !ok || v != nil {
		t.Errorf("suggested_floor = %v, want null", v)
	}
}

func TestNewAbstain(t *testing.T) {
	a := NewAbstain(answerable, unanswerable, 0.2, 0.2)
	if a.Floor != 0.2 || a.UnanswerableLetThrough != 2 || a.AnswerableBlocked != 2 {
		t.Errorf("at floor 0.2: %+v", a)
	}
	// At most one unanswerable of five: the floor must pass 0.20, and the
	// next observed score is answerable 0.22, which blocks 0.15 and 0.18.
	if a.SuggestedFloor == nil || *a.SuggestedFloor != 0.22 {
		t.Errorf("suggested floor %v, want 0.22", a.SuggestedFloor)
	}
	if none := NewAbstain(answerable, unanswerable, 0.2, 0); *none.SuggestedFloor != 0.30 {
		t.Errorf("share 0: suggested %v, want 0.30", *none.SuggestedFloor)
	}
	// The grid holds 0, every score and the display floors 0..1.
	var floors []float64
	for _, p := range a.Curve {
		floors = append(floors, p.Floor)
	}
	if !slices.IsSorted(floors) || len(slices.Compact(slices.Clone(floors))) != len(floors) {
		t.Errorf("curve floors not ascending and distinct: %v", floors)
	}
	for _, f := range slices.Concat(answerable, unanswerable, []float64{0, 0.05, 0.1, 0.25, 0.7}) {
		if !slices.Contains(floors, f) {
			t.Errorf("floor %v missing from the curve", f)
		}
	}
	if first, last := a.Curve[0], a.Curve[len(a.Curve)-1]; first != (CurvePoint{0, 5, 0}) || last != (CurvePoint{0.7, 0, 10}) {
		t.Errorf("curve ends %v ... %v", first, last)
	}
	checkExact(t, a, answerable, unanswerable)
}

// checkExact reads the curve as a step function (each point's value holds
// from the previous floor, exclusive, up to its own) and compares it with
// FloorTable at many floors, on the grid and between.
func checkExact(t *testing.T, a *Abstain, ans, unans []float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	lo, hi := a.Curve[0].Floor, a.Curve[len(a.Curve)-1].Floor
	for range 2000 {
		f := lo - 0.1 + rng.Float64()*(hi-lo+0.2)
		if rng.IntN(4) == 0 {
			f = a.Curve[rng.IntN(len(a.Curve))].Floor
		}
		i := 0
		for i+1 < len(a.Curve) && a.Curve[i].Floor < f {
			i++
		}
		want := FloorTable(ans, unans, []float64{f})[0]
		if got := a.Curve[i]; got.LetThrough != want.LetThrough || got.Blocked != want.Blocked {
			t.Fatalf("floor %v: curve says %+v, FloorTable %+v", f, got, want)
		}
	}
}

// Questions that retrieved nothing score -Inf: every floor blocks them,
// and they stay out of the grid (JSON cannot carry infinities). Negative
// scores (cosine) are part of the grid.
func TestNewAbstainEdgeScores(t *testing.T) {
	ans := []float64{math.Inf(-1), -0.2, 0.4, 0.4}
	unans := []float64{-0.5, math.Inf(-1), 0.1}
	a := NewAbstain(ans, unans, 0, 0.5)
	if _, err := json.Marshal(a); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if a.Curve[0] != (CurvePoint{-0.5, 2, 1}) { // -Inf is below every floor
		t.Errorf("first point %+v", a.Curve[0])
	}
	if a.UnanswerableLetThrough != 1 || a.AnswerableBlocked != 2 {
		t.Errorf("at floor 0: %+v", a)
	}
	if a.SuggestedFloor == nil || *a.SuggestedFloor != -0.2 {
		t.Errorf("suggested %v, want -0.2 (lets 0.1 through, one of three)", a.SuggestedFloor)
	}
	if ansN, unansN := a.Totals(); ansN != 4 || unansN != 3 {
		t.Errorf("Totals = %d, %d", ansN, unansN)
	}
	checkExact(t, a, ans, unans)
}

func TestTotalsFromJSON(t *testing.T) {
	data, err := json.Marshal(NewAbstain(answerable, unanswerable, 0.3, 0.2))
	if err != nil {
		t.Fatal(err)
	}
	var a Abstain
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if ans, unans := a.Totals(); ans != 10 || unans != 5 {
		t.Errorf("Totals from the curve = %d, %d", ans, unans)
	}
}

func TestFloorGrid(t *testing.T) {
	got := FloorGrid([]float64{0.3, 0.31, math.Inf(-1)}, []float64{0.3, math.Copysign(0, -1)}, 0.42)
	want := []float64{0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.31, 0.35, 0.4, 0.42, 0.45}
	if !reflect.DeepEqual(got, want) || math.Signbit(got[0]) {
		t.Errorf("FloorGrid = %v", got)
	}
}

func TestDisplayFloors(t *testing.T) {
	for _, tc := range []struct {
		max                  float64
		n                    int
		second, last, fourth string
	}{
		{0.66, 15, "0.05", "0.7", "0.15"},
		{0.7, 16, "0.05", "0.75", "0.15"}, // the top must exceed the largest score
		{0.999, 21, "0.05", "1", "0.15"},
		{1, 12, "0.1", "1.1", "0.3"},
		{0.033, 18, "0.002", "0.034", "0.006"},
		{17.3, 19, "1", "18", "3"},
		{20, 12, "2", "22", "6"},
		{0, 21, "0.05", "1", "0.15"},
		{-3, 21, "0.05", "1", "0.15"},
		{math.Inf(1), 21, "0.05", "1", "0.15"},
	} {
		d := DisplayFloors(tc.max)
		f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
		if len(d) != tc.n || d[0] != 0 || f(d[1]) != tc.second || f(d[len(d)-1]) != tc.last || f(d[3]) != tc.fourth {
			t.Errorf("DisplayFloors(%v) = %v", tc.max, d)
		}
		if step := displayStep(d[len(d)-1]); d[0] < d[1] && step != d[1] {
			t.Errorf("displayStep(%v) = %v, want %v", d[len(d)-1], step, d[1])
		}
	}
}

func TestScoreRunAndRecallCurve(t *testing.T) {
	qrels := Qrels{"a": {"d1": 1, "d2": 1}, "b": {"d3": 1}, "unrun": {"d1": 1}}
	run := Run{"a": {"x", "d1", "d2"}, "b": {"d3"}}
	r := ScoreRun(qrels, run)
	want := Retrieval{Hit1: 0.5, Hit3: 1, Hit5: 1, Recall10: 1, Recall100: 1, MRR: 0.75, Queries: 2,
		NDCG10: ((1/math.Log2(3)+0.5)/(1+1/math.Log2(3)) + 1) / 2}
	if !retrievalNear(r, want) {
		t.Errorf("ScoreRun = %+v\nwant %+v", r, want)
	}
	if got := RecallCurve(qrels, run, 3); !reflect.DeepEqual(got, []float64{0.5, 0.75, 1}) {
		t.Errorf("RecallCurve = %v", got)
	}
	if got := RecallCurve(qrels, run, 0); len(got) != 0 {
		t.Errorf("RecallCurve(0) = %v", got)
	}
}

func TestNewGeneration(t *testing.T) {
	if g := NewGeneration(Verdicts{}, Verdicts{}, 0, 0); g != nil {
		t.Errorf("no answers: %+v, want nil", g)
	}
	given := Verdicts{Right: 1, Misleading: 2, Wrong: 1}
	if g := NewGeneration(given, Verdicts{}, 0, 0); *g != (Generation{GivenGold: 0.25, GivenGoldVerdicts: given}) {
		t.Errorf("NewGeneration = %+v", g)
	}
	// Unanswerable questions alone make a block: what they let through
	// is a figure of its own.
	if g := NewGeneration(Verdicts{}, Verdicts{}, 4, 1); g == nil || g.Unanswerable != 4 || g.UnanswerableAnswered != 1 || g.EndToEnd != 0 {
		t.Errorf("unanswerable only: %+v", g)
	}
}

func TestVerdicts(t *testing.T) {
	var v Verdicts
	for _, verdict := range []judge.Verdict{judge.Right, judge.Right, judge.Misleading, judge.Partial, judge.Wrong, judge.Abstained, judge.Abstained, judge.Abstained, "nonsense"} {
		v.Add(verdict)
	}
	if v != (Verdicts{Right: 2, Misleading: 1, Partial: 1, Wrong: 1, Abstained: 3}) || v.Total() != 8 {
		t.Errorf("tally %+v, total %d", v, v.Total())
	}
	if v.Of(judge.Abstained) != 3 || v.Share(judge.Right) != 0.25 || v.Of("nonsense") != 0 || (Verdicts{}).Share(judge.Right) != 0 {
		t.Errorf("of abstained %d, share right %v", v.Of(judge.Abstained), v.Share(judge.Right))
	}
}

func TestWriteTable(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTable(&b, sampleReport()); err != nil {
		t.Fatal(err)
	}
	golden(t, "report/table.golden", b.Bytes())

	// A bare report: no abstain or generation section.
	b.Reset()
	if err := WriteTable(&b, Report{Retrieval: Retrieval{Hit1: 1, Queries: 3}, K: 10}); err != nil {
		t.Fatal(err)
	}
	golden(t, "report/bare.golden", b.Bytes())
}

func TestWriteComparison(t *testing.T) {
	rows := []RetrieverRow{
		{"bm25", Retrieval{Hit1: 0.57, Hit3: 0.74, Hit5: 0.79, Recall10: 0.81, Recall100: 0.925, MRR: 0.66, NDCG10: 0.679, Queries: 300}},
		{"vector-lsa", Retrieval{Hit1: 0.41, Hit3: 0.6, Hit5: 0.65, Recall10: 0.7, Recall100: 0.9, MRR: 0.5, NDCG10: 0.55, Queries: 300}},
		{"hybrid", Retrieval{Hit1: 0.6, Hit3: 0.77, Hit5: 0.82, Recall10: 0.85, Recall100: 0.95, MRR: 0.69, NDCG10: 0.7, Queries: 300}},
	}
	var b bytes.Buffer
	if err := WriteComparison(&b, rows); err != nil {
		t.Fatal(err)
	}
	golden(t, "report/comparison.golden", b.Bytes())
}

// A held-out split suggests no floor; it reads the one dev suggested off
// its own curve, exactly, and marks it in the table (per language too).
func TestHoldOut(t *testing.T) {
	// Dev's scores suggest 0.22 (TestNewAbstain); the held-out split's
	// own scores would suggest another floor, which must not be shown.
	held := []float64{0.1, 0.21, 0.3, 0.5}
	heldUnans := []float64{0.05, 0.25}
	dev := Report{Abstain: NewAbstain(answerable, unanswerable, 0.2, 0.2),
		AbstainByLanguage: map[string]*Abstain{"it": NewAbstain(answerable, unanswerable, 0.2, 0.2)}}
	r := Report{Abstain: NewAbstain(held, heldUnans, 0.2, 0.2),
		AbstainByLanguage: map[string]*Abstain{"it": NewAbstain(held, heldUnans, 0.2, 0.2), "en": NewAbstain(held, heldUnans, 0.2, 0.2)}}
	if r.Abstain.SuggestedFloor == nil {
		t.Fatal("the held-out scores suggest no floor of their own: the test shows nothing")
	}
	r.HoldOut(&dev)
	a := r.Abstain
	want := FloorTable(held, heldUnans, []float64{0.22})[0]
	if !a.HeldOut || a.SuggestedFloor != nil || a.DevFloor == nil || *a.DevFloor != CurvePoint(want) {
		t.Fatalf("held out: held %v, suggested %v, dev floor %+v; want dev's 0.22 at %+v", a.HeldOut, a.SuggestedFloor, a.DevFloor, want)
	}
	checkExact(t, a, held, heldUnans) // the point added keeps the curve exact
	if it, en := r.AbstainByLanguage["it"], r.AbstainByLanguage["en"]; it.DevFloor == nil || en.DevFloor != nil || !en.HeldOut || en.SuggestedFloor != nil {
		t.Errorf("by language: it %+v, en %+v; want dev's floor for it only, no suggestion for either", it, en)
	}
	var b bytes.Buffer
	if err := WriteTable(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"suggested floor           none on a held-out split: floors are chosen on dev",
		"dev's suggested floor     0.22: lets through 1/2 (50%), blocks 2/4 (50%)", "0.22    1/2 (50%)   2/4 (50%)  dev's suggestion",
		"dev's 0.22 lets through 1/2 (50%), blocks 2/4 (50%)", "on dev only"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("table lacks %q:\n%s", s, b.String())
		}
	}
	if strings.Contains(b.String(), "  suggested\n") {
		t.Errorf("a held-out table marks a floor suggested on itself:\n%s", b.String())
	}
	// Without dev, nothing is suggested and nothing is read off.
	r = Report{Abstain: NewAbstain(held, heldUnans, 0.2, 0.2)}
	r.HoldOut(nil)
	if !r.Abstain.HeldOut || r.Abstain.SuggestedFloor != nil || r.Abstain.DevFloor != nil {
		t.Errorf("held out without dev: %+v", r.Abstain)
	}
}
