package eval

import "fmt"

// The splits of a question set. A question names SplitDev or SplitTest in
// its "split" field, or no split; SplitAll and SplitNone only select.
const (
	SplitDev  = "dev"  // questions defaults may be chosen on
	SplitTest = "test" // questions that only measure, written before fonte ran on them
	SplitAll  = "all"  // every question, each split reported apart
	SplitNone = "none" // the questions that name no split
)

// Part is the questions of one split of a set, in file order.
type Part struct {
	Split     string // SplitDev, SplitTest, or "" for questions that name no split
	Questions []Question
}

// Name is the split's name as reports print it: "dev", "test" or "none".
func (p Part) Name() string {
	if p.Split == "" {
		return SplitNone
	}
	return p.Split
}

// Counts returns how many of the part's questions are answerable and
// unanswerable.
func (p Part) Counts() (answerable, unanswerable int) {
	for _, q := range p.Questions {
		if q.Unanswerable {
			unanswerable++
		} else {
			answerable++
		}
	}
	return answerable, unanswerable
}

// Parts divides a question set into the parts to evaluate and report
// apart, so that dev and test figures are never mixed into one: which is
// SplitDev, SplitTest or SplitNone for that part alone (an error when the
// set has none of its questions), or SplitAll for every non-empty part in
// the order dev, test, none. A set whose questions name no split is one
// part with Split "".
func Parts(qs []Question, which string) ([]Part, error) {
	order := []string{SplitDev, SplitTest, ""}
	switch which {
	case SplitAll:
	case SplitDev, SplitTest:
		order = []string{which}
	case SplitNone:
		order = []string{""}
	default:
		return nil, fmt.Errorf("unknown split %q: want %s, %s, %s or %s", which, SplitDev, SplitTest, SplitAll, SplitNone)
	}
	var parts []Part
	for _, split := range order {
		p := Part{Split: split}
		for _, q := range qs {
			if q.Split == split {
				p.Questions = append(p.Questions, q)
			}
		}
		if len(p.Questions) > 0 {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("no question of the set is in split %s", which)
	}
	return parts, nil
}
