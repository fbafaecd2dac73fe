package rerank

import (
	"context"
	"fmt"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/httpc"
)

// Base URLs of the hosted /v1/rerank services.
const (
	DefaultCohereURL = "https://api.cohere.com"
	DefaultJinaURL   = "https://api.jina.ai"
)

// DefaultCohereBatchSize is how many texts go into one /v1/rerank request
// when CohereOptions.BatchSize is zero. Cohere recommends at most 1,000
// documents per request; a RAG query rarely reranks more than 100.
const DefaultCohereBatchSize = 100

// CohereOptions configures a /v1/rerank reranker. The zero value asks for
// the defaults; HTTP.APIKey carries the key.
type CohereOptions struct {
	// BaseURL is the server root; the client posts to BaseURL +
	// "/v1/rerank". "" means the constructor's default service.
	BaseURL string
	// BatchSize is the number of texts per request; 0 means
	// DefaultCohereBatchSize.
	BatchSize int
	// HTTP holds timeout, retry, API key and client settings.
	HTTP HTTPOptions
}

// Cohere reranks with the /v1/rerank format Cohere introduced, which Jina
// AI and several self-hosted servers also speak: {"model", "query",
// "documents", "top_n"} in, {"results": [{"index", "relevance_score"}]}
// out. It is safe for concurrent use.
type Cohere struct {
	provider string
	model    string
	endpoint string
	shown    string // endpoint as errors show it
	batch    int
	client   *httpc.Client
}

var _ fonte.Reranker = (*Cohere)(nil)

// NewCohere returns a reranker for a Cohere model (e.g. "rerank-v3.5"),
// at DefaultCohereURL unless o.BaseURL says otherwise. It makes no
// request.
func NewCohere(model string, o CohereOptions) (*Cohere, error) {
	return newV1("cohere", DefaultCohereURL, model, o)
}

// NewJina returns a reranker for a Jina AI model (e.g.
// "jina-reranker-v2-base-multilingual"), at DefaultJinaURL unless
// o.BaseURL says otherwise. It makes no request.
func NewJina(model string, o CohereOptions) (*Cohere, error) {
	return newV1("jina", DefaultJinaURL, model, o)
}

func newV1(provider, defaultURL, model string, o CohereOptions) (*Cohere, error) {
	if model == "" {
		return nil, fmt.Errorf("rerank: %s: model name is empty", provider)
	}
	if o.BatchSize < 0 {
		return nil, fmt.Errorf("rerank: %s: negative batch size %d", provider, o.BatchSize)
	}
	base := o.BaseURL
	if base == "" {
		base = defaultURL
	}
	base, err := httpc.CheckBaseURL(base)
	if err != nil {
		return nil, fmt.Errorf("rerank: %s: %v", provider, err)
	}
	r := &Cohere{
		provider: provider,
		model:    model,
		endpoint: base + "/v1/rerank",
		shown:    httpc.Redact(base + "/v1/rerank"),
		batch:    o.BatchSize,
		client:   httpc.New(o.HTTP, DefaultTimeout),
	}
	if r.batch == 0 {
		r.batch = DefaultCohereBatchSize
	}
	return r, nil
}

// Model identifies the service and model, e.g. "cohere/rerank-v3.5" or
// "jina/jina-reranker-v2-base-multilingual".
func (r *Cohere) Model() string { return r.provider + "/" + r.model }

// cohereRerankRequest is the body of POST /v1/rerank.
type cohereRerankRequest struct {
	Model     string   `json:"model"`
	Query     string   `json:"query"`
	Documents []string `json:"documents"`
	// TopN is the batch size, so every document gets a score.
	TopN int `json:"top_n"`
	// ReturnDocuments is false: the texts are already here, and Jina
	// would otherwise echo them all back.
	ReturnDocuments bool `json:"return_documents"`
}

// cohereRerankResponse is the part of the answer fonte reads; results are
// sorted by relevance.
type cohereRerankResponse struct {
	Results []struct {
		Index          *int     `json:"index"`
		RelevanceScore *float64 `json:"relevance_score"`
	} `json:"results"`
}

// Rerank returns one score per text, in the order of texts; higher is more
// relevant. Cancelling ctx returns ctx.Err().
func (r *Cohere) Rerank(ctx context.Context, query string, texts []string) ([]float64, error) {
	if len(texts) == 0 {
		return []float64{}, nil
	}
	return scoreInBatches(ctx, "rerank: "+r.provider+"/"+r.model, r.shown, texts, r.batch,
		func(ctx context.Context, batch []string) ([]scored, error) {
			return r.scoreBatch(ctx, query, batch)
		})
}

func (r *Cohere) scoreBatch(ctx context.Context, query string, batch []string) ([]scored, error) {
	req := cohereRerankRequest{Model: r.model, Query: query, Documents: batch, TopN: len(batch)}
	var resp cohereRerankResponse
	if err := r.client.PostJSON(ctx, r.endpoint, req, &resp); err != nil {
		return nil, err
	}
	out := make([]scored, len(resp.Results))
	for i, res := range resp.Results {
		if res.Index == nil || res.RelevanceScore == nil {
			return nil, fmt.Errorf("%s returned a result without index or relevance_score", r.shown)
		}
		out[i] = scored{index: *res.Index, score: *res.RelevanceScore}
	}
	return out, nil
}
