//go:build abstainsignals

package answer_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/internal/evalsets"
	"github.com/fonte-rag/fonte/judge"
)

// This file is a measurement, not a test: built only with the tag
// abstainsignals (scripts/abstain-loso runs it), it asks every dev
// question of the eight question sets of scripts/eval-sets as `fonte
// eval` does, and writes, per question, the signals an abstention
// decision can read and the judge's verdict of the answer fonte gives
// with the gates switched off, at each coverage share (MinHeld) of
// minHeldGrid: what leave-one-set-out compares decisions on. Test
// questions are dropped as soon as they are read.

// minHeldGrid are the coverage shares the answers are drawn at: the
// share decides which passages the extractive answerer quotes from.
var minHeldGrid = []float64{0, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7}

// atShare is what the answer stage does at one coverage share.
type atShare struct {
	MinHeld float64 `json:"min_held"`
	// Judged is the relevance the floor compares (Coverage.Judged).
	Judged float64 `json:"judged"`
	// Name and Kind tell whether missingName and the kind check fire.
	Name bool `json:"name"`
	Kind bool `json:"kind"`
	// Abstained and Verdict are the ungated answer's: abstained by the
	// answerer itself, and the judge's verdict (answerable questions).
	Abstained bool          `json:"abstained"`
	Verdict   judge.Verdict `json:"verdict,omitempty"`
	Answer    string        `json:"answer"`
}

// signals is one dev question's row.
type signals struct {
	Set          string  `json:"set"`
	ID           string  `json:"id"`
	Lang         string  `json:"lang"`       // the answer's language (Config.Lang)
	FloorLang    string  `json:"floor_lang"` // whose floor judges it
	Floor        float64 `json:"floor"`
	Type         int     `json:"type"` // answer.QuestionType
	Unanswerable bool    `json:"unanswerable"`
	Hits         int     `json:"hits"`
	Best         float64 `json:"best"`        // the best relevance of the hits
	Rel1         float64 `json:"rel1"`        // the first hit's relevance
	Rel2         float64 `json:"rel2"`        // the second's
	ScoreRatio   float64 `json:"score_ratio"` // second hit's score over the first's
	Keys         int     `json:"keys"`        // content keys of the question (0 without coverage)
	Held1        float64 `json:"held1"`       // the first hit's share of the question's weight
	HeldMax      float64 `json:"held_max"`    // the best share
	Held2        float64 `json:"held2"`       // the second best share
	Missing      float64 `json:"missing"`
	Unknown      int     `json:"unknown"`       // words no document uses
	UnknownShare float64 `json:"unknown_share"` // their share of the weight
	Cross        bool    `json:"cross"`         // no passage in the question's language
	// Gated is what `fonte eval` judged end to end with the shipped
	// gates: the verdict of an answerable question, "answered" or
	// "abstained" for an unanswerable one.
	Gated  string    `json:"gated"`
	Shares []atShare `json:"shares"`
}

func TestAbstainSignals(t *testing.T) {
	out := os.Getenv("ABSTAIN_SIGNALS_OUT")
	if out == "" {
		t.Fatal("ABSTAIN_SIGNALS_OUT must name the JSONL file to write")
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	ctx := context.Background()
	for _, set := range evalsets.All {
		all, err := eval.LoadQuestions(filepath.Join("..", set.Questions))
		if err != nil {
			t.Fatal(err)
		}
		var dev []eval.Question
		byText := map[string]eval.Question{}
		for _, q := range all {
			if q.Split != eval.SplitDev {
				continue
			}
			if _, dup := byText[q.Question]; dup {
				t.Fatalf("%s: two dev questions read %q", set.Name, q.Question)
			}
			dev = append(dev, q)
			byText[q.Question] = q
		}
		e, err := engine.Open(ctx, engine.Settings{Store: t.TempDir()}, engine.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Index(ctx, filepath.Join("..", set.Docs), nil); err != nil {
			t.Fatalf("%s: %v", set.Name, err)
		}
		rows := map[string]*signals{}
		var failed error
		// The first Ask of a question is its end-to-end one; the next
		// (given the gold passages) is not looked at.
		var hook func(question string, hits []fonte.Hit, docs map[string]fonte.Document, cfg answer.Config)
		hook = func(question string, hits []fonte.Hit, docs map[string]fonte.Document, cfg answer.Config) {
			q, ok := byText[question]
			if !ok || rows[q.ID] != nil || failed != nil {
				return
			}
			answer.ObserveAsk(nil) // observe's own Asks are not observed
			rows[q.ID], failed = observe(ctx, set.Name, q, hits, docs, cfg)
			answer.ObserveAsk(hook)
		}
		answer.ObserveAsk(hook)
		res, err := e.EvalQuestions(ctx, dev, engine.EvalOptions{Generation: true})
		answer.ObserveAsk(nil)
		e.Close()
		if err != nil {
			t.Fatalf("%s: %v", set.Name, err)
		}
		if failed != nil {
			t.Fatalf("%s: %v", set.Name, failed)
		}
		for _, qr := range res.Questions {
			r := rows[qr.ID]
			if r == nil {
				continue // no reference answer: not asked
			}
			r.FloorLang = qr.Language
			switch {
			case qr.Answered != nil && *qr.Answered:
				r.Gated = "answered"
			case qr.Answered != nil:
				r.Gated = "abstained"
			default:
				r.Gated = string(qr.Verdict)
			}
			if err := enc.Encode(r); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// observe computes one question's row from what Ask was given.
func observe(ctx context.Context, set string, q eval.Question, hits []fonte.Hit, docs map[string]fonte.Document, cfg answer.Config) (*signals, error) {
	r := &signals{Set: set, ID: q.ID, Lang: cfg.Lang, Floor: cfg.Floor, Type: int(answer.QuestionType(q.Question)),
		Unanswerable: q.Unanswerable, Hits: len(hits)}
	for i, h := range hits {
		r.Best = max(r.Best, h.Relevance)
		switch i {
		case 0:
			r.Rel1 = h.Relevance
		case 1:
			r.Rel2 = h.Relevance
			if hits[0].Score > 0 {
				r.ScoreRatio = h.Score / hits[0].Score
			}
		}
	}
	c := cfg.Coverage
	if c != nil {
		r.Keys, r.Missing = len(c.Keys), c.Missing
		var total, unknown float64
		for _, k := range c.Keys {
			total += k.Weight
			if k.DF == 0 && len(k.In) == 0 {
				unknown += k.Weight
			}
		}
		r.Unknown = len(c.Unknown())
		if total > 0 {
			r.UnknownShare = unknown / total
		}
		for i, h := range c.Held {
			if i == 0 {
				r.Held1 = h.Share
			}
			if h.Share > r.HeldMax {
				r.Held2, r.HeldMax = r.HeldMax, h.Share
			} else if h.Share > r.Held2 {
				r.Held2 = h.Share
			}
		}
	}
	r.Cross = answer.CrossLanguage(cfg.Lang, hits, docs, c) != ""
	answer.SetUngated(true)
	defer answer.SetUngated(false)
	for _, m := range minHeldGrid {
		at := cfg
		at.Trace, at.OnDelta = nil, nil
		if c != nil {
			cc := *c
			cc.MinHeld = m
			at.Coverage = &cc
		}
		s := atShare{MinHeld: m, Judged: at.Coverage.Judged(hits),
			Name: answer.MissingName(q.Question, hits, docs, at.Coverage) != "",
			Kind: !answer.HoldsAskedKind(q.Question, hits, at.Coverage)}
		a, err := answer.Ask(ctx, q.Question, hits, docs, at)
		if err != nil {
			return nil, err
		}
		s.Abstained, s.Answer = a.Abstained, a.Text
		if !q.Unanswerable {
			s.Verdict = judge.Judge(q.Question, q.Answer, a.Text, a.Abstained).Verdict
		}
		r.Shares = append(r.Shares, s)
	}
	return r, nil
}
