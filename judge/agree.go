package judge

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"
)

// Agreement is how often the judge's verdict equals the hand label's.
type Agreement struct {
	Labels int     `json:"labels"`
	Agreed int     `json:"agreed"`
	Share  float64 `json:"share"` // Agreed/Labels
	// ByLanguage is the agreement on each language's labels.
	ByLanguage map[string]Tally `json:"by_language"`
	// Confusion counts labels by hand verdict, then by the judge's.
	Confusion map[Verdict]map[Verdict]int `json:"confusion"`
	// MisleadingJudgedRight counts labels marked misleading that the
	// judge called right; FalseRight those marked misleading or wrong:
	// the judge's errors that make a figure look better than it is.
	MisleadingJudgedRight int `json:"misleading_judged_right"`
	FalseRight            int `json:"misleading_or_wrong_judged_right"`
	// Disagreements lists the labels the judge differs on, with its
	// reason, in the file's order.
	Disagreements []Disagreement `json:"disagreements,omitempty"`
}

// Tally is an agreement count.
type Tally struct {
	Labels int     `json:"labels"`
	Agreed int     `json:"agreed"`
	Share  float64 `json:"share"`
}

// Disagreement is one label the judge differs on.
type Disagreement struct {
	ID     string  `json:"id"`
	Label  Verdict `json:"label"`
	Judged Verdict `json:"judged"`
	Why    string  `json:"why"`
}

// Agree judges every label's answer and compares the verdict with the
// label's.
func Agree(labels []Label) Agreement {
	a := Agreement{ByLanguage: map[string]Tally{}, Confusion: map[Verdict]map[Verdict]int{}}
	for _, l := range labels {
		r := Judge(l.Question, l.Reference, l.Answer, l.Abstained)
		row := a.Confusion[l.Verdict]
		if row == nil {
			row = map[Verdict]int{}
			a.Confusion[l.Verdict] = row
		}
		row[r.Verdict]++
		t := a.ByLanguage[l.Lang]
		a.Labels++
		t.Labels++
		if r.Verdict == l.Verdict {
			a.Agreed++
			t.Agreed++
		} else {
			a.Disagreements = append(a.Disagreements, Disagreement{ID: l.ID, Label: l.Verdict, Judged: r.Verdict, Why: r.Why})
		}
		if r.Verdict == Right && (l.Verdict == Misleading || l.Verdict == Wrong) {
			a.FalseRight++
			if l.Verdict == Misleading {
				a.MisleadingJudgedRight++
			}
		}
		t.Share = float64(t.Agreed) / float64(t.Labels)
		a.ByLanguage[l.Lang] = t
	}
	if a.Labels > 0 {
		a.Share = float64(a.Agreed) / float64(a.Labels)
	}
	return a
}

// WriteAgreement prints an agreement for people: the share overall and
// per language, the confusion matrix (hand labels in rows, the judge's
// verdicts in columns), the misleading answers judged right, and each
// disagreement.
func WriteAgreement(w io.Writer, a Agreement) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "judge agreement with hand labels\n")
	fmt.Fprintf(tw, "  all\t%d/%d\t%s\n", a.Agreed, a.Labels, percent(a.Share))
	for _, lang := range slices.Sorted(maps.Keys(a.ByLanguage)) {
		t := a.ByLanguage[lang]
		fmt.Fprintf(tw, "  %s\t%d/%d\t%s\n", lang, t.Agreed, t.Labels, percent(t.Share))
	}
	fmt.Fprintf(tw, "  misleading judged right\t%d\n", a.MisleadingJudgedRight)
	fmt.Fprintf(tw, "  misleading or wrong judged right\t%d\n", a.FalseRight)
	if err := tw.Flush(); err != nil {
		return err
	}
	// Figures align right, the row names left: pad the names to one
	// width.
	const corner = "label \\ judge"
	width := len(corner)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\n  %-*s\t", width, corner)
	for _, v := range Verdicts {
		fmt.Fprintf(tw, "%s\t", v)
	}
	fmt.Fprintf(tw, "\n")
	for _, l := range Verdicts {
		fmt.Fprintf(tw, "  %-*s\t", width, l)
		for _, v := range Verdicts {
			fmt.Fprintf(tw, "%d\t", a.Confusion[l][v])
		}
		fmt.Fprintf(tw, "\n")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(a.Disagreements) == 0 {
		return nil
	}
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\n  disagreements\n  id\tlabel\tjudge\twhy\n")
	for _, d := range a.Disagreements {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", d.ID, d.Label, d.Judged, d.Why)
	}
	return tw.Flush()
}

func percent(share float64) string { return fmt.Sprintf("%.1f%%", 100*share) }
