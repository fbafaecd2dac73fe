package rerank

import (
	"context"
	"errors"
	"fmt"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/httpc"
)

// DefaultTEIURL is where a text-embeddings-inference container is usually
// published on the local machine (its port 80 mapped to 8080).
const DefaultTEIURL = "http://127.0.0.1:8080"

// DefaultTEIBatchSize is how many texts go into one /rerank request when
// TEIOptions.BatchSize is zero: the server's default
// --max-client-batch-size, above which it answers 413.
const DefaultTEIBatchSize = 32

// TEIOptions configures a text-embeddings-inference reranker. The zero
// value asks for the defaults.
type TEIOptions struct {
	// BaseURL is the server; "" means DefaultTEIURL.
	BaseURL string
	// BatchSize is the number of texts per request; 0 means
	// DefaultTEIBatchSize. Raise it with the server's
	// --max-client-batch-size.
	BatchSize int
	// Truncate asks the server to cut texts longer than the model's
	// context instead of rejecting them.
	Truncate bool
	// HTTP holds timeout, retry, API key and client settings.
	HTTP HTTPOptions
}

// TEI reranks with a Hugging Face text-embeddings-inference server running
// a cross-encoder (sequence classification) model. Scores are the model's
// sigmoid outputs in [0, 1] (raw_scores is false). It is safe for
// concurrent use.
type TEI struct {
	model    string
	endpoint string
	shown    string // endpoint as errors show it
	batch    int
	truncate bool
	client   *httpc.Client
}

var _ fonte.Reranker = (*TEI)(nil)

// NewTEI returns a reranker for a TEI server. model names the model the
// server was started with (e.g. "BAAI/bge-reranker-base"); a TEI server
// serves one model, so the name is not sent, but it identifies the scores
// in Model(). It makes no request.
func NewTEI(model string, o TEIOptions) (*TEI, error) {
	if model == "" {
		return nil, errors.New("rerank: tei: model name is empty")
	}
	if o.BatchSize < 0 {
		return nil, fmt.Errorf("rerank: tei: negative batch size %d", o.BatchSize)
	}
	base := o.BaseURL
	if base == "" {
		base = DefaultTEIURL
	}
	base, err := httpc.CheckBaseURL(base)
	if err != nil {
		return nil, fmt.Errorf("rerank: tei: %v", err)
	}
	r := &TEI{
		model:    model,
		endpoint: base + "/rerank",
		shown:    httpc.Redact(base + "/rerank"),
		batch:    o.BatchSize,
		truncate: o.Truncate,
		client:   httpc.New(o.HTTP, DefaultTimeout),
	}
	if r.batch == 0 {
		r.batch = DefaultTEIBatchSize
	}
	return r, nil
}

// Model identifies the model, e.g. "tei/BAAI/bge-reranker-base".
func (r *TEI) Model() string { return "tei/" + r.model }

// teiRerankRequest is the body of POST /rerank.
type teiRerankRequest struct {
	Query     string   `json:"query"`
	Texts     []string `json:"texts"`
	RawScores bool     `json:"raw_scores"`
	Truncate  bool     `json:"truncate,omitempty"`
}

// teiRank is one element of the answer, which is sorted by score.
type teiRank struct {
	Index *int     `json:"index"`
	Score *float64 `json:"score"`
}

// Rerank returns one score per text, in the order of texts; higher is more
// relevant. Cancelling ctx returns ctx.Err().
func (r *TEI) Rerank(ctx context.Context, query string, texts []string) ([]float64, error) {
	if len(texts) == 0 {
		return []float64{}, nil
	}
	return scoreInBatches(ctx, "rerank: tei/"+r.model, r.shown, texts, r.batch,
		func(ctx context.Context, batch []string) ([]scored, error) {
			return r.scoreBatch(ctx, query, batch)
		})
}

func (r *TEI) scoreBatch(ctx context.Context, query string, batch []string) ([]scored, error) {
	req := teiRerankRequest{Query: query, Texts: batch, RawScores: false, Truncate: r.truncate}
	var ranks []teiRank
	if err := r.client.PostJSON(ctx, r.endpoint, req, &ranks); err != nil {
		return nil, err
	}
	out := make([]scored, len(ranks))
	for i, k := range ranks {
		if k.Index == nil || k.Score == nil {
			return nil, fmt.Errorf("%s returned a rank without index or score", r.shown)
		}
		out[i] = scored{index: *k.Index, score: *k.Score}
	}
	return out, nil
}
