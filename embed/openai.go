package embed

import (
	"context"
	"fmt"
	"strconv"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/httpc"
)

// DefaultOpenAIURL is the OpenAI API. Other servers that speak the same
// /v1/embeddings format (vLLM, LM Studio, llama.cpp, text-embeddings-
// inference, Ollama) are reached by setting OpenAIOptions.BaseURL.
const DefaultOpenAIURL = "https://api.openai.com"

// DefaultOpenAIBatchSize is how many texts go into one /v1/embeddings
// request when OpenAIOptions.BatchSize is zero: well under OpenAI's limit
// of 2048 inputs, and small enough that a batch of long passages stays
// under the per-request token limit.
const DefaultOpenAIBatchSize = 128

// OpenAIOptions configures an OpenAI-compatible embedder. The zero value
// asks for the defaults; HTTP.APIKey carries the key.
type OpenAIOptions struct {
	// BaseURL is the server root; the client posts to BaseURL +
	// "/v1/embeddings". "" means DefaultOpenAIURL.
	BaseURL string
	// BatchSize is the number of texts per request; 0 means
	// DefaultOpenAIBatchSize.
	BatchSize int
	// Dimensions, when positive, is sent as "dimensions" (models that
	// can shorten their vectors, such as text-embedding-3-*, honour it)
	// and is the length every answer must have. Zero sends nothing and
	// learns the length from the first answer.
	Dimensions int
	// HTTP holds timeout, retry, API key and client settings.
	HTTP HTTPOptions
}

// OpenAI embeds texts with the OpenAI embeddings API or a server
// compatible with it. Like Ollama, it learns the vector length from the
// first answer unless OpenAIOptions.Dimensions sets it; Probe learns it on
// demand. It is safe for concurrent use.
type OpenAI struct {
	model      string
	endpoint   string
	shown      string // endpoint as errors show it
	batch      int
	dimensions int
	client     *httpc.Client
	dim        remoteDim
}

var _ fonte.Embedder = (*OpenAI)(nil)

// NewOpenAI returns an embedder for the named model (e.g.
// "text-embedding-3-small"). It makes no request.
func NewOpenAI(model string, o OpenAIOptions) (*OpenAI, error) {
	if model == "" {
		return nil, fmt.Errorf("embed: openai: model name is empty")
	}
	if o.BatchSize < 0 || o.Dimensions < 0 {
		return nil, fmt.Errorf("embed: openai: negative batch size (%d) or dimensions (%d)", o.BatchSize, o.Dimensions)
	}
	base := o.BaseURL
	if base == "" {
		base = DefaultOpenAIURL
	}
	base, err := httpc.CheckBaseURL(base)
	if err != nil {
		return nil, fmt.Errorf("embed: openai: %v", err)
	}
	e := &OpenAI{
		model:      model,
		endpoint:   base + "/v1/embeddings",
		shown:      httpc.Redact(base + "/v1/embeddings"),
		batch:      o.BatchSize,
		dimensions: o.Dimensions,
		client:     httpc.New(o.HTTP, DefaultTimeout),
	}
	if e.batch == 0 {
		e.batch = DefaultOpenAIBatchSize
	}
	e.dim.n = o.Dimensions
	return e, nil
}

// Model identifies the model, e.g. "openai/text-embedding-3-small", with
// "/<dimensions>" appended when shortened vectors were requested, since
// they do not mix with full-length ones.
func (e *OpenAI) Model() string {
	if e.dimensions > 0 {
		return "openai/" + e.model + "/" + strconv.Itoa(e.dimensions)
	}
	return "openai/" + e.model
}

// Dimension is the vector length: the requested Dimensions, or learned
// from the first answer; 0 while unknown.
func (e *OpenAI) Dimension() int { return e.dim.get() }

// Probe returns the vector length, embedding one short text to learn it if
// no answer has told it yet.
func (e *OpenAI) Probe(ctx context.Context) (int, error) {
	if n := e.dim.get(); n > 0 {
		return n, nil
	}
	if _, err := e.Embed(ctx, []string{"dimension probe"}); err != nil {
		return 0, err
	}
	return e.dim.get(), nil
}

// openAIEmbedRequest is the body of POST /v1/embeddings.
type openAIEmbedRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	Dimensions     int      `json:"dimensions,omitempty"`
	EncodingFormat string   `json:"encoding_format"`
}

// openAIEmbedResponse is the part of the answer fonte reads.
type openAIEmbedResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
	Model string `json:"model"`
}

// Embed returns one vector per text, in order, sending the texts in
// batches. Cancelling ctx returns ctx.Err().
func (e *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return [][]float32{}, nil
	}
	return embedInBatches(ctx, texts, e.batch, e.embedBatch)
}

func (e *OpenAI) embedBatch(ctx context.Context, batch []string, first int) ([][]float32, error) {
	req := openAIEmbedRequest{
		Model:      e.model,
		Input:      batch,
		Dimensions: e.dimensions,
		// Ask for plain floats: the API's clients default to base64,
		// and compatible servers do not all implement it.
		EncodingFormat: "float",
	}
	var resp openAIEmbedResponse
	if err := e.client.PostJSON(ctx, e.endpoint, req, &resp); err != nil {
		return nil, fmt.Errorf("embed: openai/%s: %w", e.model, err)
	}
	if len(resp.Data) != len(batch) {
		return nil, fmt.Errorf("embed: openai/%s: %s returned %d embeddings for %d texts", e.model, e.shown, len(resp.Data), len(batch))
	}
	// The API promises nothing about the order of data; index says which
	// input each vector belongs to.
	vecs := make([][]float32, len(batch))
	for _, d := range resp.Data {
		if d.Index == nil {
			return nil, fmt.Errorf("embed: openai/%s: %s returned an embedding without an index", e.model, e.shown)
		}
		i := *d.Index
		if i < 0 || i >= len(batch) {
			return nil, fmt.Errorf("embed: openai/%s: %s returned index %d for a batch of %d texts", e.model, e.shown, i, len(batch))
		}
		if vecs[i] != nil {
			return nil, fmt.Errorf("embed: openai/%s: %s returned index %d twice", e.model, e.shown, i)
		}
		if d.Embedding == nil {
			d.Embedding = []float32{} // caught as an empty vector below
		}
		vecs[i] = d.Embedding
	}
	if err := e.dim.check(vecs, first, e.shown); err != nil {
		return nil, fmt.Errorf("embed: openai/%s: %v", e.model, err)
	}
	return vecs, nil
}
