package embed

import (
	"context"
	"fmt"
	"maps"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/httpc"
)

// DefaultOllamaURL is where a local Ollama server listens by default.
const DefaultOllamaURL = "http://127.0.0.1:11434"

// DefaultOllamaBatchSize is how many texts go into one /api/embed request
// when OllamaOptions.BatchSize is zero.
const DefaultOllamaBatchSize = 32

// OllamaOptions configures an Ollama embedder. The zero value asks for the
// defaults.
type OllamaOptions struct {
	// BaseURL is the server, e.g. "http://gpu-box:11434"; "" means
	// DefaultOllamaURL.
	BaseURL string
	// BatchSize is the number of texts per request; 0 means
	// DefaultOllamaBatchSize.
	BatchSize int
	// KeepAlive is sent as "keep_alive": how long the server keeps the
	// model loaded after the request, as a duration string such as "10m"
	// ("0" unloads at once, a negative duration keeps it loaded). ""
	// leaves the server's default (5 minutes).
	KeepAlive string
	// Truncate, when set, is sent as "truncate". The server's default
	// (true) cuts inputs longer than the model's context; false makes such
	// inputs an error instead of a silently shortened vector.
	Truncate *bool
	// ModelOptions are sent as "options": model parameters from the
	// Modelfile, e.g. {"num_ctx": 8192}.
	ModelOptions map[string]any
	// Dimension, when positive, is the vector length the model must
	// produce: Dimension() reports it before any request, and answers of
	// another length are errors. Zero learns the length from the first
	// answer (see Ollama.Dimension and Ollama.Probe).
	Dimension int
	// HTTP holds timeout, retry, API key and client settings.
	HTTP HTTPOptions
}

// Ollama embeds texts with an Ollama server's /api/embed endpoint.
//
// The vector length is not known until the server has answered once:
// Dimension returns 0 until then, unless OllamaOptions.Dimension declared
// it. Call Probe to learn it before indexing when the caller needs it up
// front. Once known, every answer must keep it.
//
// Ollama is safe for concurrent use.
type Ollama struct {
	model        string
	endpoint     string
	shown        string // endpoint as errors show it
	batch        int
	keepAlive    string
	truncate     *bool
	modelOptions map[string]any
	client       *httpc.Client
	dim          remoteDim
}

var _ fonte.Embedder = (*Ollama)(nil)

// NewOllama returns an embedder for the named model (e.g.
// "nomic-embed-text"). It makes no request.
func NewOllama(model string, o OllamaOptions) (*Ollama, error) {
	if model == "" {
		return nil, fmt.Errorf("embed: ollama: model name is empty")
	}
	if o.BatchSize < 0 || o.Dimension < 0 {
		return nil, fmt.Errorf("embed: ollama: negative batch size (%d) or dimension (%d)", o.BatchSize, o.Dimension)
	}
	base := o.BaseURL
	if base == "" {
		base = DefaultOllamaURL
	}
	base, err := httpc.CheckBaseURL(base)
	if err != nil {
		return nil, fmt.Errorf("embed: ollama: %v", err)
	}
	e := &Ollama{
		model:        model,
		endpoint:     base + "/api/embed",
		shown:        httpc.Redact(base + "/api/embed"),
		batch:        o.BatchSize,
		keepAlive:    o.KeepAlive,
		truncate:     o.Truncate,
		modelOptions: maps.Clone(o.ModelOptions), // later changes by the caller must not race with requests
		client:       httpc.New(o.HTTP, DefaultTimeout),
	}
	if e.batch == 0 {
		e.batch = DefaultOllamaBatchSize
	}
	e.dim.n = o.Dimension
	return e, nil
}

// Model identifies the model, e.g. "ollama/nomic-embed-text".
func (e *Ollama) Model() string { return "ollama/" + e.model }

// Dimension is the vector length: declared in the options, or learned from
// the first answer; 0 while unknown.
func (e *Ollama) Dimension() int { return e.dim.get() }

// Probe returns the vector length, embedding one short text to learn it if
// no answer has told it yet.
func (e *Ollama) Probe(ctx context.Context) (int, error) {
	if n := e.dim.get(); n > 0 {
		return n, nil
	}
	if _, err := e.Embed(ctx, []string{"dimension probe"}); err != nil {
		return 0, err
	}
	return e.dim.get(), nil
}

// ollamaEmbedRequest is the body of POST /api/embed.
type ollamaEmbedRequest struct {
	Model     string         `json:"model"`
	Input     []string       `json:"input"`
	KeepAlive string         `json:"keep_alive,omitempty"`
	Truncate  *bool          `json:"truncate,omitempty"`
	Options   map[string]any `json:"options,omitempty"`
}

// ollamaEmbedResponse is the part of the answer fonte reads.
type ollamaEmbedResponse struct {
	Model      string      `json:"model"`
	Embeddings [][]float32 `json:"embeddings"`
}

// Embed returns one vector per text, in order, sending the texts in
// batches. Cancelling ctx returns ctx.Err().
func (e *Ollama) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return [][]float32{}, nil
	}
	return embedInBatches(ctx, texts, e.batch, e.embedBatch)
}

func (e *Ollama) embedBatch(ctx context.Context, batch []string, first int) ([][]float32, error) {
	req := ollamaEmbedRequest{
		Model:     e.model,
		Input:     batch,
		KeepAlive: e.keepAlive,
		Truncate:  e.truncate,
		Options:   e.modelOptions,
	}
	var resp ollamaEmbedResponse
	if err := e.client.PostJSON(ctx, e.endpoint, req, &resp); err != nil {
		return nil, fmt.Errorf("embed: ollama/%s: %w", e.model, err)
	}
	if len(resp.Embeddings) != len(batch) {
		return nil, fmt.Errorf("embed: ollama/%s: %s returned %d embeddings for %d texts", e.model, e.shown, len(resp.Embeddings), len(batch))
	}
	if err := e.dim.check(resp.Embeddings, first, e.shown); err != nil {
		return nil, fmt.Errorf("embed: ollama/%s: %v", e.model, err)
	}
	return resp.Embeddings, nil
}
