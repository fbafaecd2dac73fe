package engine

import (
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/retrieve"
)

// Trace is the record of one query, "why this answer": what was searched,
// what each leg and the fusion ranked, the floor's decision, what went
// into the context and what was cut, the prompt, and the grounding check
// of each sentence of the answer. Set SearchOptions.Trace (or
// AskOptions.Trace) to a new Trace to have a Search or an Ask fill it; a
// nil Trace costs nothing. Tracing never changes results.
//
// The prompt holds the retrieved text verbatim: show it to those allowed
// to read every source.
type Trace struct {
	// Stages are the steps run, in order, with their durations.
	Stages []Stage `json:"stages"`
	// Question is the text as asked; Query the text searched (after the
	// rewrite of a follow-up; the same without history).
	Question string `json:"question,omitempty"`
	Query    string `json:"query"`
	// Lang is the language the query was analysed in: as given, or
	// detected; "" means every language of the corpus.
	Lang string `json:"lang"`
	// Mode is the retrieval mode that ran (hybrid falls back to bm25
	// without vectors); K the hits wanted, Depth each leg's candidates.
	Mode  retrieve.Mode `json:"mode"`
	K     int           `json:"k"`
	Depth int           `json:"depth"`
	// Lexical and Dense are each leg's top candidates, best first, at most
	// retrieve.TraceCap each (empty for a leg that did not run).
	Lexical []Candidate `json:"lexical,omitempty"`
	Dense   []Candidate `json:"dense,omitempty"`
	// Fused is the retriever's ranking (the fusion's in hybrid mode, the
	// single leg's otherwise), as returned: ranks 1..n.
	Fused []Ranked `json:"fused"`
	// Reranked is the ranking after the reranker, when one ran; the
	// search's result then.
	Reranked []Ranked `json:"reranked,omitempty"`

	// The answer stage, filled by Ask only.

	// Floor is the abstain floor's decision.
	Floor *FloorDecision `json:"floor,omitempty"`
	// Fit is the context fit (nil when the floor abstained).
	Fit *Fit `json:"fit,omitempty"`
	// Prompt is the prompt sent to the generator; empty for the
	// extractive answerer, which sends none.
	Prompt string `json:"prompt,omitempty"`
	// Grounding is the verdict on each sentence of the answer; empty when
	// it abstained.
	Grounding []SentenceVerdict `json:"grounding,omitempty"`
	// Removed are the sentences of a model's answer left out because they
	// state a figure no cited source holds.
	Removed []string `json:"removed,omitempty"`
	// Hold is how a streamed model answer was held back until checked
	// (buffered, why, held_ms: what it cost in time to first token, and
	// what the checks changed); absent when nothing streamed or the
	// extractive answerer answered, which sends only checked text.
	Hold *Hold `json:"hold,omitempty"`
	// Abstained tells whether the answer is "I don't know", and
	// AbstainReason why (the floor, or the answerer declining).
	Abstained     bool   `json:"abstained"`
	AbstainReason string `json:"abstain_reason,omitempty"`
}

// Stage is one step of a query and the time it took.
type Stage struct {
	// Name is one of rewrite, embed_query, lexical_leg, dense_leg,
	// fusion, rerank, floor, fit, prompt, generate, grounding_check.
	Name string  `json:"name"`
	MS   float64 `json:"ms"`
}

// Ranked is one hit of a ranking.
type Ranked struct {
	ChunkID   string  `json:"chunk_id"`
	DocID     string  `json:"doc_id"`
	Rank      int     `json:"rank"`
	Score     float64 `json:"score"` // the fused score (RRF), the leg's, or the reranker's
	Relevance float64 `json:"relevance"`
}

// Candidate is one chunk a retrieval leg ranked: chunk_id, doc_id, rank
// (1-based) and the leg's score (the BM25 share, or the cosine).
type Candidate = retrieve.Candidate

// FloorDecision is the floor's decision: floor, the best relevance among
// the hits it compared, the chunk that had it, abstained and the reason.
type FloorDecision = answer.FloorDecision

// Fit is the context fit: budget and tokens used, the fitted chunks in
// prompt order (chunk_id, doc_id, score, tokens, source [n]) and the cut
// ones with the reason each was cut.
type Fit = answer.FitTrace

// SentenceVerdict is the grounding check of one sentence: supported, the
// sources it cites, the source that holds most of its content words, the
// share of them found (score) and the missing ones.
type SentenceVerdict = answer.SentenceVerdict

// stage appends a stage that took d.
func (t *Trace) stage(name string, d time.Duration) {
	t.Stages = append(t.Stages, Stage{Name: name, MS: float64(d) / float64(time.Millisecond)})
}

// Hold is how a streamed model answer was held back until checked.
type Hold = answer.Hold

// ranking records hits as a ranking.
func ranking(hits []fonte.Hit) []Ranked {
	out := make([]Ranked, len(hits))
	for i, h := range hits {
		out[i] = Ranked{ChunkID: h.Chunk.ID, DocID: h.Chunk.DocID, Rank: i + 1, Score: h.Score, Relevance: h.Relevance}
	}
	return out
}

// legs records what the retriever traced.
func (t *Trace) legs(lt *retrieve.LegTrace, k int) {
	t.Mode, t.K, t.Depth = lt.Mode, k, lt.Depth
	t.Lexical, t.Dense = lt.Lexical, lt.Dense
	if lt.Mode != retrieve.Dense {
		t.stage("lexical_leg", lt.LexicalTime)
	}
	if lt.Mode != retrieve.BM25 && lt.Mode != retrieve.TFIDF {
		t.stage("dense_leg", lt.DenseTime)
	}
	t.stage("fusion", lt.FusionTime)
}

// answer records what the answer stage traced.
func (t *Trace) answer(at *answer.Trace) {
	t.stage("floor", at.FloorTime)
	floor := at.Floor
	t.Floor = &floor
	if at.Fit != nil {
		t.stage("fit", at.FitTime)
		t.stage("prompt", at.PromptTime)
		t.stage("generate", at.GenerateTime)
		t.stage("grounding_check", at.GroundingTime)
	}
	t.Fit, t.Prompt, t.Grounding, t.Removed, t.Hold = at.Fit, at.Prompt, at.Grounding, at.Removed, at.Hold
	t.Abstained, t.AbstainReason = at.Abstained, at.AbstainReason
}
