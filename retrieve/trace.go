package retrieve

import (
	"time"

	"github.com/fonte-rag/fonte"
)

// TraceCap bounds how many candidates of each leg a trace keeps: the
// fusion depth, but never more than this.
const TraceCap = 50

// LegTrace is what a traced search records (Request.Trace): each leg's
// top candidates as they went into the fusion and the time each step
// took. A nil Request.Trace records nothing and costs nothing.
type LegTrace struct {
	// Mode is the mode that ran: the requested one, or BM25 when the
	// index has no dense leg for a hybrid request.
	Mode Mode `json:"mode"`
	// Depth is how many candidates each leg could contribute.
	Depth int `json:"depth"`
	// Lexical and Dense are the legs' top candidates, best first, at most
	// TraceCap each. The lexical score is the BM25 share (the TF-IDF
	// cosine in tfidf mode), the dense one the cosine similarity.
	Lexical []Candidate `json:"lexical,omitempty"`
	Dense   []Candidate `json:"dense,omitempty"`
	// LexicalTime covers the query's analysis, the lexical top list and
	// the content words' statistics; DenseTime the dense top list;
	// FusionTime the fusion and the relevance of the hits returned.
	LexicalTime time.Duration `json:"-"`
	DenseTime   time.Duration `json:"-"`
	FusionTime  time.Duration `json:"-"`
}

// Candidate is one chunk a leg ranked.
type Candidate struct {
	ChunkID string  `json:"chunk_id"`
	DocID   string  `json:"doc_id"`
	Rank    int     `json:"rank"` // 1-based, in the leg
	Score   float64 `json:"score"`
}

// candidates records a leg's list, at most TraceCap of it.
func candidates[T any](list []T, of func(T) (fonte.Chunk, float64)) []Candidate {
	out := make([]Candidate, 0, min(len(list), TraceCap))
	for i, x := range list[:min(len(list), TraceCap)] {
		c, s := of(x)
		out = append(out, Candidate{ChunkID: c.ID, DocID: c.DocID, Rank: i + 1, Score: s})
	}
	return out
}

// since returns the time elapsed from *t and moves *t to now.
func since(t *time.Time) time.Duration {
	now := time.Now()
	d := now.Sub(*t)
	*t = now
	return d
}
