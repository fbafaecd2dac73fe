package answer

import (
	"time"

	"github.com/fonte-rag/fonte"
)

// Trace is what a traced Ask records (Config.Trace): the floor decision,
// the context fit, the prompt sent and the grounding verdict of each
// sentence of the answer. A nil Config.Trace records nothing.
type Trace struct {
	Floor FloorDecision `json:"floor"`
	// Fit is nil when the answer abstained at the floor (nothing fitted).
	Fit *FitTrace `json:"fit,omitempty"`
	// Prompt is the prompt sent to the generator; empty for the
	// extractive answerer, which sends none.
	Prompt string `json:"prompt,omitempty"`
	// Grounding has one verdict per sentence of the answer (Sentences);
	// nil when the answer abstained (nothing is checked then).
	Grounding []SentenceVerdict `json:"grounding,omitempty"`
	// Removed are the sentences of a model's answer left out because
	// they state a figure no source holds (see Ask).
	Removed []string `json:"removed,omitempty"`
	// Hold is how a streamed model answer was held back until checked,
	// and what that cost in time to first token; nil when nothing
	// streamed or no model answered.
	Hold *Hold `json:"hold,omitempty"`
	// Abstained is the answer's final word, and AbstainReason why: below
	// the floor, no hits, or the answerer declined after the floor let
	// the question through.
	Abstained     bool   `json:"abstained"`
	AbstainReason string `json:"abstain_reason,omitempty"`

	FloorTime, FitTime, PromptTime, GenerateTime, GroundingTime time.Duration `json:"-"`
}

// FloorDecision is the abstain floor's decision: Ask compares the best
// Relevance among all the hits (not only the first's, which a reranker
// may have moved) with the floor.
type FloorDecision struct {
	Floor     float64 `json:"floor"`
	Relevance float64 `json:"relevance"`
	// ChunkID is the hit that had that relevance ("" without hits).
	ChunkID string `json:"chunk_id,omitempty"`
	// Coverage is the question's content keys and the share of their
	// weight each top passage holds (nil when not computed); Judged is the
	// relevance the floor compared: the best of the passages holding at
	// least Coverage.MinHeld of that weight (Relevance without Coverage).
	Coverage  *Coverage `json:"coverage,omitempty"`
	Judged    float64   `json:"judged"`
	Abstained bool      `json:"abstained"`
	Reason    string    `json:"reason"`
}

// FitTrace is how the context was fitted into the budget: the hits
// walked best first (by score, ties by chunk ID), each kept while the
// tokens used stay within the budget.
type FitTrace struct {
	Budget int `json:"budget"`
	Used   int `json:"used"` // tokens of the fitted chunks
	// Fitted are the chunks sent, in prompt order: Source is their [n].
	Fitted []FitChunk `json:"fitted"`
	// Cut are the hits left out, in the order the fit walked them.
	Cut []FitChunk `json:"cut,omitempty"`
}

// FitChunk is one hit the fit considered.
type FitChunk struct {
	ChunkID string  `json:"chunk_id"`
	DocID   string  `json:"doc_id"`
	Score   float64 `json:"score"`
	Tokens  int     `json:"tokens"` // estimated (Tokens)
	Source  int     `json:"source,omitempty"`
	// Reason says why a chunk was cut, or why one over the budget was
	// kept anyway.
	Reason string `json:"reason,omitempty"`
}

// SentenceVerdict is the grounding check of one sentence of the answer
// (see UnsupportedSentences): its content keys are looked up in the
// sources it cites, or in every source when it cites none.
type SentenceVerdict struct {
	Sentence  string `json:"sentence"`
	Supported bool   `json:"supported"`
	// Checked is false for a sentence with no content key, or a refusal:
	// never flagged, so Supported.
	Checked bool `json:"checked"`
	// Cited are the source numbers the sentence cites.
	Cited []int `json:"cited,omitempty"`
	// Source and ChunkID name the checked source holding most of the
	// sentence's keys (0 and "" when none holds any).
	Source  int    `json:"source,omitempty"`
	ChunkID string `json:"chunk_id,omitempty"`
	// Score is the share of the sentence's content words (figures aside)
	// found in the sources checked, a word found when any of its keys
	// is; a sentence is supported from MinSupport on (see
	// UnsupportedSentences).
	Score float64 `json:"score"`
	// Evidence is the share of the sentence's content words held by some
	// source that the sources checked hold, each weighted by its rarity
	// among the sources (ln(1 + sources/sources holding it)); a sentence
	// is supported from MinEvidence on.
	Evidence float64 `json:"evidence"`
	// Missing are the content keys not found, sorted.
	Missing []string `json:"missing,omitempty"`
	// WrongFigures are the figures the sentence states that the sources
	// checked do not hold in any format, and Invented those of them that
	// no source given holds: a model's sentence with an invented figure
	// is removed from its answer (see Ask).
	WrongFigures []string `json:"wrong_figures,omitempty"`
	Invented     []string `json:"invented_figures,omitempty"`
}

// fitNote records one step of a fit for a trace.
type fitNote func(h fonte.Hit, size, used int, kept bool)

// since returns the time elapsed from *t and moves *t to now.
func since(t *time.Time) time.Duration {
	now := time.Now()
	d := now.Sub(*t)
	*t = now
	return d
}
