package eval

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/fonte-rag/fonte/judge"
)

// Report is the outcome of one evaluation run. Its JSON form is what
// `fonte eval --json` prints.
type Report struct {
	Retrieval Retrieval `json:"retrieval"`
	Abstain   *Abstain  `json:"abstain,omitempty"` // nil when no top-1 scores were collected
	// AbstainByLanguage is the floor block of each question language
	// (when the set has more than one, or floors are set per language),
	// each at the floor that language's questions get.
	AbstainByLanguage map[string]*Abstain `json:"abstain_by_language,omitempty"`
	Generation        *Generation         `json:"generation,omitempty"` // nil when no question has a gold answer
	Retriever         string              `json:"retriever"`
	Chunker           string              `json:"chunker"`
	K                 int                 `json:"k"` // hits retrieved per query
}

// Retrieval is the ranking block of a report: each figure is a mean over
// the scored queries.
type Retrieval struct {
	Hit1      float64 `json:"hit@1"`
	Hit3      float64 `json:"hit@3"`
	Hit5      float64 `json:"hit@5"`
	Recall10  float64 `json:"recall@10"`
	Recall100 float64 `json:"recall@100"`
	MRR       float64 `json:"mrr"`
	NDCG10    float64 `json:"ndcg@10"`
	Queries   int     `json:"queries"`
}

// ScoreRun computes the retrieval block from one ranking per query and the
// judgments, with the metrics of this package. Queries are scored as
// PerQuery does: judged and present in run.
func ScoreRun(qrels Qrels, run Run) Retrieval {
	return Retrieval{
		Hit1:      Mean(qrels, run, HitAt(1)),
		Hit3:      Mean(qrels, run, HitAt(3)),
		Hit5:      Mean(qrels, run, HitAt(5)),
		Recall10:  Mean(qrels, run, RecallAt(10)),
		Recall100: Mean(qrels, run, RecallAt(100)),
		MRR:       Mean(qrels, run, ReciprocalRank),
		NDCG10:    Mean(qrels, run, NDCGAt(10)),
		Queries:   len(PerQuery(qrels, run, HitAt(1))),
	}
}

// RecallCurve returns the mean recall@k for k = 1..maxK: the series of a
// recall chart.
func RecallCurve(qrels Qrels, run Run, maxK int) []float64 {
	out := make([]float64, max(maxK, 0))
	for k := 1; k <= maxK; k++ {
		out[k-1] = Mean(qrels, run, RecallAt(k))
	}
	return out
}

// Abstain is the score-floor block of a report: what the floor in use
// costs, a suggested floor, and the whole trade-off curve, in counts of
// questions. The curve's first floor is at or below every score and its
// last above every score, so the totals can be read off it (see Totals).
type Abstain struct {
	Floor                  float64      `json:"floor"`
	UnanswerableLetThrough int          `json:"unanswerable_let_through"`
	AnswerableBlocked      int          `json:"answerable_blocked"`
	SuggestedFloor         *float64     `json:"suggested_floor"` // null when no floor meets the share, and on a held-out split
	Curve                  []CurvePoint `json:"curve"`
	// HeldOut marks the block of a held-out (test) split, which suggests
	// no floor: a floor chosen on the questions that measure it would
	// measure nothing. DevFloor is then the floor suggested on the dev
	// split and what it does on these questions (nil when dev suggested
	// none or was not evaluated in the same run). See HoldOut.
	HeldOut  bool        `json:"held_out,omitempty"`
	DevFloor *CurvePoint `json:"dev_floor,omitempty"`

	// Totals, kept out of the JSON shape; see Totals.
	Answerable, Unanswerable int `json:"-"`
}

// CurvePoint is one point of the floor trade-off, in counts of questions.
type CurvePoint struct {
	Floor      float64 `json:"floor"`
	LetThrough int     `json:"let_through"` // unanswerable questions whose top-1 score is >= Floor
	Blocked    int     `json:"blocked"`     // answerable questions whose top-1 score is < Floor
}

// NewAbstain builds the floor block from the top-1 scores of answerable
// and unanswerable questions (see TopScores), the floor in use and the
// largest share of unanswerable questions a suggested floor may let
// through (0.2: one in five). The curve is evaluated on FloorGrid plus the
// floor in use, so it is exact: between two of its floors nothing changes.
func NewAbstain(answerable, unanswerable []float64, floor, maxShare float64) *Abstain {
	grid := FloorGrid(answerable, unanswerable, floor)
	a := &Abstain{Floor: floor, Answerable: len(answerable), Unanswerable: len(unanswerable)}
	for _, row := range FloorTable(answerable, unanswerable, grid) {
		a.Curve = append(a.Curve, CurvePoint(row))
	}
	at := FloorTable(answerable, unanswerable, []float64{floor})[0]
	a.UnanswerableLetThrough, a.AnswerableBlocked = at.LetThrough, at.Blocked
	if row, ok := SuggestFloor(answerable, unanswerable, grid, maxShare); ok {
		a.SuggestedFloor = &row.Floor
	}
	return a
}

// HoldOut makes a the block of a held-out split: its own suggestion is
// dropped and the one made on dev, when given, is read off a's curve.
func (a *Abstain) HoldOut(dev *Abstain) {
	a.HeldOut, a.SuggestedFloor, a.DevFloor = true, nil, nil
	if dev == nil || dev.SuggestedFloor == nil {
		return
	}
	p := a.At(*dev.SuggestedFloor)
	a.DevFloor = &p
	// The curve gains the floor as a point of its own, so the table and
	// the chart can mark it; the counts between its floors are unchanged.
	i, found := slices.BinarySearchFunc(a.Curve, p.Floor, compareFloor)
	if !found && i < len(a.Curve) {
		a.Curve = slices.Insert(a.Curve, i, p)
	}
}

// At returns what floor f lets through and blocks, read off the curve:
// the counts of the curve's first floor at or above f, since they are
// constant from one of its floors (exclusive) to the next (inclusive);
// above the last floor, which lies above every score, the last counts.
func (a Abstain) At(f float64) CurvePoint {
	if len(a.Curve) == 0 {
		return CurvePoint{Floor: f}
	}
	i, _ := slices.BinarySearchFunc(a.Curve, f, compareFloor)
	p := a.Curve[min(i, len(a.Curve)-1)]
	p.Floor = f
	return p
}

func compareFloor(p CurvePoint, f float64) int { return cmp.Compare(p.Floor, f) }

// HoldOut makes r the report of a held-out split (see Abstain.HoldOut),
// given the dev split's report of the same retriever, or nil.
func (r *Report) HoldOut(dev *Report) {
	var devAll *Abstain
	var devBy map[string]*Abstain
	if dev != nil {
		devAll, devBy = dev.Abstain, dev.AbstainByLanguage
	}
	if r.Abstain != nil {
		r.Abstain.HoldOut(devAll)
	}
	for lang, a := range r.AbstainByLanguage {
		a.HoldOut(devBy[lang])
	}
}

// Totals returns how many answerable and unanswerable questions the block
// covers. For a block decoded from JSON, where the totals are absent, they
// are read off the curve; questions that retrieved nothing at all are
// then missing from the unanswerable total, since no floor lets them through.
func (a Abstain) Totals() (answerable, unanswerable int) {
	if a.Answerable > 0 || a.Unanswerable > 0 {
		return a.Answerable, a.Unanswerable
	}
	for _, p := range a.Curve {
		answerable, unanswerable = max(answerable, p.Blocked), max(unanswerable, p.LetThrough)
	}
	return answerable, unanswerable
}

// FloorGrid returns the floors on which the trade-off curve is exact, in
// ascending order without repeats: 0, every finite observed score, any
// extra floors given (the one in use), and the display grid of
// DisplayFloors, whose last floor lies above every score. Since a score
// equal to the floor passes, the counts change just above each score: they
// are constant from one grid floor (exclusive) to the next (inclusive), so
// a curve on this grid is exact.
func FloorGrid(answerable, unanswerable []float64, extra ...float64) []float64 {
	grid := []float64{0}
	top := 0.0
	for _, list := range [][]float64{answerable, unanswerable, extra} {
		for _, s := range list {
			if math.IsInf(s, 0) || math.IsNaN(s) {
				continue
			}
			if s == 0 {
				s = 0 // -0 would print as "-0"
			}
			grid = append(grid, s)
			top = max(top, s)
		}
	}
	grid = append(grid, DisplayFloors(top)...)
	slices.Sort(grid)
	return slices.Compact(grid)
}

// DisplayFloors returns round floors for people to read, from 0 in steps
// of 1, 2 or 5 times a power of ten (at most 21 floors), up to the first
// step above max: 0, 0.05, ..., 0.7 for cosine scores up to 0.66; 0,
// 0.002, ..., 0.034 for RRF scores up to 0.033; 0, 1, ..., 18 for BM25
// scores up to 17.3. When max <= 0 they are 0, 0.05, ..., 1.
func DisplayFloors(max float64) []float64 {
	m, e := 5, -2 // 0.05
	n := 20
	if max > 0 && !math.IsInf(max, 0) {
		m, e = niceAbove(max / 20)
		// The smallest n with n steps above max, found by counting
		// rather than by max/step, which rounds either way.
		n = int(max / scaled(float64(m), e))
		for n > 0 && scaled(float64((n-1)*m), e) > max {
			n--
		}
		for scaled(float64(n*m), e) <= max {
			n++
		}
	}
	out := make([]float64, n+1)
	for i := range out {
		// Built from integers so each prints as the round number it is
		// (0.15, not 0.15000000000000002).
		out[i] = scaled(float64(i*m), e)
	}
	return out
}

// displayStep returns the step of the display grid that ends at top, the
// last floor of a curve: the inverse of DisplayFloors, since its top is
// at most 20 steps.
func displayStep(top float64) float64 {
	m, e := niceAbove(top / 20 * (1 - 1e-9)) // smallest 1-2-5 value >= top/20
	return scaled(float64(m), e)
}

// niceAbove returns m in {1, 2, 5} and e with m*10^e the smallest such
// value greater than x; m=1, e=0 when x <= 0 or x is not finite.
func niceAbove(x float64) (m, e int) {
	if x <= 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return 1, 0
	}
	e = int(math.Floor(math.Log10(x))) - 1
	for {
		for _, m := range []int{1, 2, 5} {
			if scaled(float64(m), e) > x {
				return m, e
			}
		}
		e++
	}
}

// scaled returns v*10^e, dividing for negative e so that decimal values
// come out correctly rounded.
func scaled(v float64, e int) float64 {
	if e < 0 {
		return v / math.Pow10(-e)
	}
	return v * math.Pow10(e)
}

// Generation is the answer block of a report: the judge's verdicts on
// the answers to answerable questions, when the answer stage is given the
// gold passages and through the whole pipeline, and how many unanswerable
// questions were answered end to end instead of abstained on.
type Generation struct {
	// GivenGold and EndToEnd are the shares of answers judged right.
	GivenGold float64 `json:"given_gold"`
	EndToEnd  float64 `json:"end_to_end"`
	// GivenGoldVerdicts and EndToEndVerdicts count the answers by
	// verdict.
	GivenGoldVerdicts Verdicts `json:"given_gold_verdicts"`
	EndToEndVerdicts  Verdicts `json:"end_to_end_verdicts"`
	// UnanswerableAnswered of Unanswerable questions were answered end to
	// end: let through, where fonte should have said it does not know.
	Unanswerable         int `json:"unanswerable"`
	UnanswerableAnswered int `json:"unanswerable_answered"`
}

// NewGeneration builds the answer block from the verdicts given the gold
// passages and end to end, and the unanswerable questions answered out
// of those asked; nil when nothing was judged or asked, so the report
// omits it.
func NewGeneration(givenGold, endToEnd Verdicts, unanswerable, answered int) *Generation {
	if givenGold.Total() == 0 && endToEnd.Total() == 0 && unanswerable == 0 {
		return nil
	}
	return &Generation{GivenGold: givenGold.Share(judge.Right), EndToEnd: endToEnd.Share(judge.Right),
		GivenGoldVerdicts: givenGold, EndToEndVerdicts: endToEnd, Unanswerable: unanswerable, UnanswerableAnswered: answered}
}

// RetrieverRow is one line of a comparison between retrievers.
type RetrieverRow struct {
	Retriever string    `json:"retriever"`
	Retrieval Retrieval `json:"retrieval"`
}

// WriteTable prints r as aligned tables for people: the run's settings,
// then one section per block of the report.
func WriteTable(w io.Writer, r Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "retriever\t%s\n", orDash(r.Retriever))
	fmt.Fprintf(tw, "chunker\t%s\n", orDash(r.Chunker))
	fmt.Fprintf(tw, "k\t%d\n", r.K)
	fmt.Fprintf(tw, "\nretrieval, %d queries\n", r.Retrieval.Queries)
	for _, m := range retrievalColumns {
		fmt.Fprintf(tw, "  %s\t%.3f\n", m.name, m.value(r.Retrieval))
	}
	if g := r.Generation; g != nil {
		fmt.Fprintf(tw, "\ngeneration, share of right answers\n")
		fmt.Fprintf(tw, "  given gold\t%.3f\n", g.GivenGold)
		fmt.Fprintf(tw, "  end to end\t%.3f\n", g.EndToEnd)
		if err := tw.Flush(); err != nil {
			return err
		}
		if err := writeVerdicts(w, *g); err != nil {
			return err
		}
	}
	if a := r.Abstain; a != nil {
		ans, unans := a.Totals()
		fmt.Fprintf(tw, "\nabstain, %d answerable and %d unanswerable questions\n", ans, unans)
		fmt.Fprintf(tw, "  floor\t%s\n", formatFloor(a.Floor))
		fmt.Fprintf(tw, "  unanswerable let through\t%s\n", ofTotal(a.UnanswerableLetThrough, unans))
		fmt.Fprintf(tw, "  answerable blocked\t%s\n", ofTotal(a.AnswerableBlocked, ans))
		if a.HeldOut {
			fmt.Fprintf(tw, "  suggested floor\tnone on a held-out split: floors are chosen on dev\n")
			if p := a.DevFloor; p != nil {
				fmt.Fprintf(tw, "  dev's suggested floor\t%s: lets through %s, blocks %s\n", formatFloor(p.Floor), ofTotal(p.LetThrough, unans), ofTotal(p.Blocked, ans))
			}
		} else {
			fmt.Fprintf(tw, "  suggested floor\t%s\n", suggestion(*a))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if err := writeCurve(w, *a, ans, unans); err != nil {
			return err
		}
		return writeByLanguage(w, r.AbstainByLanguage)
	}
	return tw.Flush()
}

// writeVerdicts prints the judge's verdicts on the answerable questions,
// given gold and end to end, and the unanswerable questions answered. A
// block decoded from a report without verdicts prints nothing more.
func writeVerdicts(w io.Writer, g Generation) error {
	if g.GivenGoldVerdicts.Total() == 0 && g.EndToEndVerdicts.Total() == 0 && g.Unanswerable == 0 {
		return nil
	}
	// Figures align right, the row names left: pad the names to one
	// width.
	const corner = "answerable questions"
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\n%-*s\t", len(corner), corner) // the right-aligned cell is indented by its padding
	for _, v := range judge.Verdicts {
		fmt.Fprintf(tw, "%s\t", v)
	}
	fmt.Fprintf(tw, "\n")
	for _, row := range []struct {
		name string
		v    Verdicts
	}{{"given gold", g.GivenGoldVerdicts}, {"end to end", g.EndToEndVerdicts}} {
		fmt.Fprintf(tw, "%-*s\t", len(corner), row.name)
		for _, v := range judge.Verdicts {
			fmt.Fprintf(tw, "%s\t", ofTotal(row.v.Of(v), row.v.Total()))
		}
		fmt.Fprintf(tw, "\n")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if g.Unanswerable > 0 {
		fmt.Fprintf(w, "  unanswerable questions answered end to end: %s\n", ofTotal(g.UnanswerableAnswered, g.Unanswerable))
	}
	return nil
}

// writeByLanguage prints one line per question language: the floor its
// questions get, what it lets through and blocks, and the floor suggested
// for that language alone.
func writeByLanguage(w io.Writer, by map[string]*Abstain) error {
	if len(by) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\nabstain by language\n  language\tfloor\tunanswerable let through\tanswerable blocked\tsuggested floor\n")
	for _, lang := range slices.Sorted(maps.Keys(by)) {
		a := by[lang]
		ans, unans := a.Totals()
		suggested := suggestion(*a)
		if a.HeldOut {
			suggested = "on dev only"
			if p := a.DevFloor; p != nil {
				suggested = fmt.Sprintf("dev's %s lets through %s, blocks %s", formatFloor(p.Floor), ofTotal(p.LetThrough, unans), ofTotal(p.Blocked, ans))
			}
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", lang, formatFloor(a.Floor), ofTotal(a.UnanswerableLetThrough, unans),
			ofTotal(a.AnswerableBlocked, ans), suggested)
	}
	return tw.Flush()
}

// suggestion prints a block's suggested floor, or "none".
func suggestion(a Abstain) string {
	if a.SuggestedFloor == nil {
		return "none"
	}
	return formatFloor(*a.SuggestedFloor)
}

// writeCurve prints the curve at its display floors plus the floor in use
// and the suggested one; the full exact curve is for JSON and charts.
func writeCurve(w io.Writer, a Abstain, ans, unans int) error {
	if len(a.Curve) == 0 {
		return nil
	}
	// The curve's last floor is the top of its display grid (NewAbstain
	// puts one above every score and the floor in use), so the grid's
	// step can be recovered from it, even from JSON.
	step := displayStep(a.Curve[len(a.Curve)-1].Floor)
	var rows []CurvePoint
	decimals := 0
	for _, p := range a.Curve {
		r := p.Floor / step
		if math.Abs(r-math.Round(r)) < 1e-6 || p.Floor == a.Floor || (a.SuggestedFloor != nil && p.Floor == *a.SuggestedFloor) ||
			(a.DevFloor != nil && p.Floor == a.DevFloor.Floor) {
			rows = append(rows, p)
			if f := formatFloor(p.Floor); !strings.Contains(f, "e") {
				if dot := strings.IndexByte(f, '.'); dot >= 0 {
					decimals = max(decimals, len(f)-dot-1)
				}
			}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\n  floor\tlet through\tblocked\t\n")
	for _, p := range rows {
		mark := ""
		switch {
		case p.Floor == a.Floor:
			mark = "  in use"
		case a.SuggestedFloor != nil && p.Floor == *a.SuggestedFloor:
			mark = "  suggested"
		case a.DevFloor != nil && p.Floor == a.DevFloor.Floor:
			mark = "  dev's suggestion"
		}
		f := formatFloor(p.Floor)
		if !strings.Contains(f, "e") { // a common number of decimals lines the points up
			f = strconv.FormatFloat(p.Floor+0, 'f', decimals, 64)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", f, ofTotal(p.LetThrough, unans), ofTotal(p.Blocked, ans), mark)
	}
	return tw.Flush()
}

// WriteComparison prints one line per retriever, for `--retriever all`.
func WriteComparison(w io.Writer, rows []RetrieverRow) error {
	// Figures align right, names left: pad the names to one width.
	width := len("retriever")
	for _, row := range rows {
		width = max(width, len(orDash(row.Retriever)))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%-*s\t", width, "retriever")
	for _, m := range retrievalColumns {
		fmt.Fprintf(tw, "%s\t", m.name)
	}
	fmt.Fprint(tw, "queries\t\n")
	for _, row := range rows {
		fmt.Fprintf(tw, "%-*s\t", width, orDash(row.Retriever))
		for _, m := range retrievalColumns {
			fmt.Fprintf(tw, "%.3f\t", m.value(row.Retrieval))
		}
		fmt.Fprintf(tw, "%d\t\n", row.Retrieval.Queries)
	}
	return tw.Flush()
}

// retrievalColumns lists the retrieval figures in the order tables print
// them.
var retrievalColumns = []struct {
	name  string
	value func(Retrieval) float64
}{
	{"hit@1", func(r Retrieval) float64 { return r.Hit1 }},
	{"hit@3", func(r Retrieval) float64 { return r.Hit3 }},
	{"hit@5", func(r Retrieval) float64 { return r.Hit5 }},
	{"recall@10", func(r Retrieval) float64 { return r.Recall10 }},
	{"recall@100", func(r Retrieval) float64 { return r.Recall100 }},
	{"mrr", func(r Retrieval) float64 { return r.MRR }},
	{"ndcg@10", func(r Retrieval) float64 { return r.NDCG10 }},
}

// formatFloor prints a floor with as many digits as it needs: 0.3, 0.0025,
// 0.4172.
func formatFloor(f float64) string {
	f += 0 // -0 prints as 0
	if f != 0 && math.Abs(f) < 1e-4 {
		return strconv.FormatFloat(f, 'g', 4, 64)
	}
	return strconv.FormatFloat(math.Round(f*1e4)/1e4, 'f', -1, 64)
}

// ofTotal prints "2/5 (40%)", or just "2" without a total.
func ofTotal(n, total int) string {
	if total == 0 {
		return strconv.Itoa(n)
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", n, total, 100*float64(n)/float64(total))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
