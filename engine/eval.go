package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/judge"
	"github.com/fonte-rag/fonte/retrieve"
)

// EvalOptions tune an evaluation.
type EvalOptions struct {
	Mode retrieve.Mode
	// Depth is how many chunks are retrieved per question for the
	// retrieval measures (recall@100 needs 100).
	Depth int
	// K is how many chunks the answer stage sees, as in Ask.
	K int
	// TargetShare is the largest share of unanswerable questions the
	// suggested floor may let through.
	TargetShare float64
	// Generation runs the answer stage on questions that carry an
	// expected answer (given the gold chunk, and end to end).
	Generation bool
}

// QuestionResult is one question's outcome, for reports and debugging.
type QuestionResult struct {
	ID           string  `json:"id"`
	Question     string  `json:"question"`
	Unanswerable bool    `json:"unanswerable,omitempty"`
	GoldRank     int     `json:"gold_rank"` // rank of the first chunk holding a gold quote, 0 if none in depth
	Relevance    float64 `json:"relevance"`
	Language     string  `json:"language,omitempty"` // whose floor judges it (see Settings.Floors)
	Answer       string  `json:"answer,omitempty"`
	// Verdict is the judge's verdict on Answer against the question's
	// reference answer, Judgement its reasons; Right is Verdict == right.
	Verdict   judge.Verdict `json:"verdict,omitempty"`
	Judgement *judge.Result `json:"judgement,omitempty"`
	Right     *bool         `json:"right,omitempty"`
	// Answered tells, for an unanswerable question, whether fonte
	// answered it end to end rather than abstaining: let through.
	Answered  *bool  `json:"answered,omitempty"`
	GivenGold string `json:"given_gold_answer,omitempty"`
	// GivenGoldVerdict, GivenGoldJudgement and GivenGoldRight judge
	// GivenGold as Verdict, Judgement and Right judge Answer.
	GivenGoldVerdict   judge.Verdict `json:"given_gold_verdict,omitempty"`
	GivenGoldJudgement *judge.Result `json:"given_gold_judgement,omitempty"`
	GivenGoldRight     *bool         `json:"given_gold_right,omitempty"`
}

// EvalResult is a report and the per-question outcomes behind it.
type EvalResult struct {
	Report    eval.Report
	Questions []QuestionResult
	Recall    []float64 // recall@k for k = 1..Depth
}

// EvalQuestions measures retrieval, abstention and (where expected answers
// exist) generation on a question set over this index. Retrieval and
// generation are measured apart, as the seeds insist: the generation given
// the gold chunk says what the answer stage can do when retrieval is
// perfect. Answers are judged against the expected answer by package
// judge (right, misleading, partial, wrong, abstained); unanswerable
// questions are asked too, to count those answered instead of abstained
// on.
func (e *Engine) EvalQuestions(ctx context.Context, qs []eval.Question, o EvalOptions) (*EvalResult, error) {
	v, err := e.view(ctx)
	if err != nil {
		return nil, err
	}
	if o.Mode == "" {
		o.Mode = e.settings.Mode
	}
	if o.Depth <= 0 {
		o.Depth = 100
	}
	if o.K <= 0 {
		o.K = max(e.settings.K, 10)
	}
	if o.TargetShare == 0 {
		o.TargetShare = 0.2
	}
	hits := map[string][]fonte.Hit{}
	res := &EvalResult{}
	var answerable, unanswerable []float64
	perLang := map[string]*byLanguage{}
	var given, end eval.Verdicts
	unanswered, answered := 0, 0
	for _, q := range qs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		h, err := e.search(ctx, v, q.Question, SearchOptions{K: o.Depth, Mode: o.Mode})
		if err != nil {
			return nil, fmt.Errorf("question %s: %w", q.ID, err)
		}
		hits[q.ID] = h
		qr := QuestionResult{ID: q.ID, Question: q.Question, Unanswerable: q.Unanswerable}
		// The floor sees what Ask sees: the best relevance among the
		// first K hits that hold at least half of the question's weight
		// (answer.Coverage).
		top := h[:min(o.K, len(h))]
		langs := v.readableLanguages(fonte.Filter{})
		docs := v.docsOf(top)
		lang := answerLanguage(q.Question, top, docs, langs)
		cov, err := e.coverage(ctx, v, q.Question, e.analysisLanguage(lang, langs), top, fonte.Filter{})
		if err != nil {
			return nil, fmt.Errorf("question %s: %w", q.ID, err)
		}
		qr.Relevance = cov.Judged(top)
		qr.Language = floorLanguage(q.Question, h[:min(o.K, len(h))], docs)
		bl := perLang[qr.Language]
		if bl == nil {
			bl = &byLanguage{}
			perLang[qr.Language] = bl
		}
		if q.Unanswerable {
			unanswerable = append(unanswerable, qr.Relevance)
			bl.unanswerable = append(bl.unanswerable, qr.Relevance)
		} else {
			answerable = append(answerable, qr.Relevance)
			bl.answerable = append(bl.answerable, qr.Relevance)
			for r, x := range h {
				if eval.IsHit(q, x.Chunk.DocID, x.Chunk.Text) {
					qr.GoldRank = r + 1
					break
				}
			}
		}
		if o.Generation && (q.Answer != "" || q.Unanswerable) {
			cfg := answer.Config{Floor: e.floorFor(qr.Language), Budget: e.settings.Budget, Generator: e.settings.Generator, Lang: lang, Coverage: cov}
			a, err := answer.Ask(ctx, q.Question, h[:min(o.K, len(h))], docs, cfg)
			if err != nil {
				return nil, fmt.Errorf("question %s: %w", q.ID, err)
			}
			qr.Answer = a.Text
			if q.Unanswerable {
				// There is no reference to judge by: what counts is
				// whether fonte answered at all.
				let := !a.Abstained
				qr.Answered = &let
				unanswered++
				if let {
					answered++
				}
				res.Questions = append(res.Questions, qr)
				continue
			}
			j := judge.Judge(q.Question, q.Answer, a.Text, a.Abstained)
			right := j.Verdict == judge.Right
			qr.Verdict, qr.Judgement, qr.Right = j.Verdict, &j, &right
			end.Add(j.Verdict)
			gold, err := e.goldHits(ctx, q)
			if err != nil {
				return nil, fmt.Errorf("question %s: %w", q.ID, err)
			}
			if len(gold) > 0 {
				ga, err := answer.Ask(ctx, q.Question, gold, v.docsOf(gold), answer.Config{Budget: e.settings.Budget, Generator: e.settings.Generator, Lang: lang})
				if err != nil {
					return nil, fmt.Errorf("question %s: %w", q.ID, err)
				}
				gj := judge.Judge(q.Question, q.Answer, ga.Text, ga.Abstained)
				gright := gj.Verdict == judge.Right
				qr.GivenGold, qr.GivenGoldVerdict, qr.GivenGoldJudgement, qr.GivenGoldRight = ga.Text, gj.Verdict, &gj, &gright
				given.Add(gj.Verdict)
			}
		}
		res.Questions = append(res.Questions, qr)
	}
	qrels, run := eval.QuestionRun(qs, hits)
	res.Report = eval.Report{Retrieval: eval.ScoreRun(qrels, run), Retriever: string(o.Mode), Chunker: v.chunker, K: o.K}
	res.Recall = eval.RecallCurve(qrels, run, o.Depth)
	if len(unanswerable) > 0 || len(answerable) > 0 {
		res.Report.Abstain = eval.NewAbstain(answerable, unanswerable, e.floor(), o.TargetShare)
		// One block per language, each at the floor that language's
		// questions get, so a floor can be calibrated per language.
		if len(perLang) > 1 || len(e.settings.Floors) > 0 {
			res.Report.AbstainByLanguage = map[string]*eval.Abstain{}
			for lang, bl := range perLang {
				name := lang
				if name == "" {
					name = "und"
				}
				res.Report.AbstainByLanguage[name] = eval.NewAbstain(bl.answerable, bl.unanswerable, e.floorFor(lang), o.TargetShare)
			}
		}
	}
	res.Report.Generation = eval.NewGeneration(given, end, unanswered, answered)
	return res, nil
}

func (e *Engine) floor() float64 { return max(e.settings.Floor, 0) }

// byLanguage holds one language's top relevances for the floor blocks.
type byLanguage struct{ answerable, unanswerable []float64 }

// goldHits finds the chunks of the index that hold the question's gold
// quotes, as hits with full relevance.
func (e *Engine) goldHits(ctx context.Context, q eval.Question) ([]fonte.Hit, error) {
	var out []fonte.Hit
	for _, g := range q.Gold {
		chunks, err := e.chunksOf(ctx, g.Doc)
		if errors.Is(err, fonte.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, c := range chunks {
			if eval.IsHit(eval.Question{Gold: []eval.Gold{g}}, c.DocID, c.Text) {
				out = append(out, fonte.Hit{Chunk: c, Score: 1, Relevance: 1})
				break
			}
		}
	}
	return out, nil
}

// BEIRResult is a BEIR evaluation.
type BEIRResult struct {
	Retrieval eval.Retrieval
	Recall    []float64
	Indexed   int
	Took      time.Duration
}

// IndexDocuments brings the index up to date with docs given in memory (a
// BEIR corpus, say) rather than read from a folder: each document becomes
// one chunk when whole is set (BEIR's retrieval units are passages already),
// else it is chunked as text. Documents of the index not in docs are
// removed.
func (e *Engine) IndexDocuments(ctx context.Context, docs []fonte.Document, whole bool, progress func(Progress)) (*IndexReport, error) {
	return e.update(ctx, &IndexReport{}, func(r *run) error {
		for i, d := range docs {
			if err := ctx.Err(); err != nil {
				return err
			}
			if d.SHA256 == "" {
				sum := sha256.Sum256([]byte(d.Title + "\x00" + d.Text))
				d.SHA256 = hex.EncodeToString(sum[:])
			}
			if d.Source == "" {
				d.Source = d.ID
			}
			if !r.unchanged(d) {
				chunks := []fonte.Chunk{{ID: d.ID + "#0", DocID: d.ID, Title: d.Title, Text: d.Text, Start: 0, End: len(d.Text)}}
				if !whole {
					chunks = e.chunkText(d)
				}
				if err := r.add(pendingDoc{doc: d, chunks: chunks}); err != nil {
					return err
				}
			}
			if progress != nil {
				progress(Progress{Files: i + 1, Total: len(docs), ChunksEmbedded: r.rep.ChunksEmbedded, Path: d.ID})
			}
		}
		return nil
	})
}

// EvalBEIR measures document retrieval on a BEIR data set indexed with
// IndexDocuments: each query's chunk hits are turned into a document
// ranking (a document ranks where its best chunk does), scored against the
// qrels with nDCG@10, recall@k and MRR.
func (e *Engine) EvalBEIR(ctx context.Context, b *eval.BEIR, mode retrieve.Mode, depth int) (*BEIRResult, error) {
	v, err := e.view(ctx)
	if err != nil {
		return nil, err
	}
	if depth <= 0 {
		depth = 100
	}
	start := time.Now()
	run := eval.Run{}
	for _, q := range b.Queries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		h, err := e.search(ctx, v, q.Text, SearchOptions{K: depth, Mode: mode, Lang: "en"})
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", q.ID, err)
		}
		run[q.ID] = eval.DocIDs(h)
	}
	res := &BEIRResult{Retrieval: eval.ScoreRun(b.Qrels, run), Recall: eval.RecallCurve(b.Qrels, run, depth), Indexed: v.chunks}
	res.Took = time.Since(start)
	if math.IsNaN(res.Retrieval.NDCG10) {
		return nil, fmt.Errorf("BEIR: no judged query was run")
	}
	return res, nil
}
