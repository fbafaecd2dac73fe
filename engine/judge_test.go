package engine

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/judge"
)

// TestEvalJudgesByKeyFacts pins the judging that fonte eval's answer
// measures use: every key fact of the reference, single digits included,
// and no contradiction in what the answer leads with.
func TestEvalJudgesByKeyFacts(t *testing.T) {
	for _, c := range []struct {
		question, reference, answer string
		want                        judge.Verdict
	}{
		// The old rule ignored one-character tokens: 8 passed for 10.
		{"Quanto deve essere lunga la password?", "10 caratteri.", "8 caratteri — La password deve avere almeno 8 caratteri. [1]", judge.Misleading},
		{"Quanto deve essere lunga la password?", "10 caratteri.", "La password deve avere almeno 10 caratteri. [1]", judge.Right},
		// The old rule passed a bare "Yes." against any answer without a
		// negation word it knew.
		{"Can I bring a guest to the party?", "Yes.", "You cannot bring guests to the party. [1]", judge.Misleading},
		{"Can I bring a guest to the party?", "Yes.", "Yes, one guest per employee. [1]", judge.Right},
		// The right figure later in the passage does not save a wrong lead.
		{"How much can I spend per night on a hotel in London?", "250 euro per night in London.",
			"180 euro — • Hotel: up to 180 euro per night, and up to 250 euro per night in London… [1]", judge.Misleading},
		// Half the words no longer make an answer right.
		{"How many days of leave do I get?", "26 working days of annual leave per year (plus 32 hours of ROL).",
			"Full-time employees accrue annual leave every year. [1]", judge.Wrong},
		{"How many days of leave do I get?", "26 working days of annual leave per year (plus 32 hours of ROL).",
			"26 working days — Full-time employees accrue 26 working days of annual leave per year. [1]", judge.Right},
		{"What does fonte answer when it does not know?", "I don't know.", "I don't know.", judge.Abstained},
	} {
		if got := judge.Judge(c.question, c.reference, c.answer, false); got.Verdict != c.want {
			t.Errorf("Judge(%q, %q) = %s, want %s (%s)", c.reference, c.answer, got.Verdict, c.want, got.Why)
		}
	}
}

// TestEvalQuestionsVerdicts runs the answer measures on a small index: each
// answerable question carries the judge's verdict and reasons, right is
// verdict == right, the report's tallies are the questions' verdicts, and
// an unanswerable question is counted as answered or not.
func TestEvalQuestionsVerdicts(t *testing.T) {
	ctx := context.Background()
	docs, idx := t.TempDir(), filepath.Join(t.TempDir(), "index")
	write(t, docs, "support.md", refunds)
	e := open(t, idx)
	if _, err := e.Index(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	gold := []eval.Gold{{Doc: "support.md", Quote: "International refunds take up to 10 working days"}}
	qs := []eval.Question{
		{ID: "right", Question: "how long do international refunds take", Gold: gold, Answer: "10 working days."},
		// A reference that disagrees with the document: whatever the
		// answerer quotes, an answer stating 10 days is not right.
		{ID: "other", Question: "how long do international refunds take", Gold: gold, Answer: "8 working days."},
		{ID: "none", Question: "do you sell gift cards", Unanswerable: true},
	}
	res, err := e.EvalQuestions(ctx, qs, EvalOptions{Generation: true})
	if err != nil {
		t.Fatal(err)
	}
	var given, end eval.Verdicts
	answered := 0
	for _, q := range res.Questions {
		if q.Unanswerable {
			if q.Answered == nil || q.Verdict != "" || q.Right != nil {
				t.Errorf("%s: unanswerable question judged: %+v", q.ID, q)
			}
			if q.Answered != nil && *q.Answered {
				answered++
			}
			continue
		}
		if q.Verdict == "" || q.Judgement == nil || q.Judgement.Verdict != q.Verdict || q.Right == nil || *q.Right != (q.Verdict == judge.Right) {
			t.Errorf("%s: end to end %q, judgement %+v, right %v", q.ID, q.Verdict, q.Judgement, q.Right)
		}
		if q.GivenGoldVerdict == "" || q.GivenGoldJudgement == nil || q.GivenGoldRight == nil || *q.GivenGoldRight != (q.GivenGoldVerdict == judge.Right) {
			t.Errorf("%s: given gold %q, judgement %+v, right %v", q.ID, q.GivenGoldVerdict, q.GivenGoldJudgement, q.GivenGoldRight)
		}
		end.Add(q.Verdict)
		given.Add(q.GivenGoldVerdict)
	}
	byID := map[string]QuestionResult{}
	for _, q := range res.Questions {
		byID[q.ID] = q
	}
	if v := byID["right"].GivenGoldVerdict; v != judge.Right {
		t.Errorf("given the gold passage, %q is %s (%+v)", byID["right"].GivenGold, v, byID["right"].GivenGoldJudgement)
	}
	if v := byID["other"].GivenGoldVerdict; v == judge.Right || v == judge.Abstained {
		t.Errorf("given the gold passage, %q against 8 working days is %s", byID["other"].GivenGold, v)
	}
	g := res.Report.Generation
	if g == nil {
		t.Fatal("no generation block")
	}
	if g.GivenGoldVerdicts != given || g.EndToEndVerdicts != end || g.GivenGold != given.Share(judge.Right) || g.EndToEnd != end.Share(judge.Right) {
		t.Errorf("generation %+v, questions given %+v, end %+v", g, given, end)
	}
	if g.Unanswerable != 1 || g.UnanswerableAnswered != answered || given.Total() != 2 || end.Total() != 2 {
		t.Errorf("generation %+v: want 1 unanswerable (%d answered), 2 answerable judged", g, answered)
	}
}
