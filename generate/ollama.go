package generate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/httpc"
)

// DefaultOllamaURL is where a local Ollama server listens by default.
const DefaultOllamaURL = "http://127.0.0.1:11434"

// OllamaOptions configures an Ollama generator. The zero value asks for the
// defaults.
type OllamaOptions struct {
	// BaseURL is the server; "" means DefaultOllamaURL.
	BaseURL string
	// Temperature, when set, is sent as options.temperature; nil leaves
	// the model's default. For grounded answers a low value such as
	// new(0.0) keeps the model close to the sources.
	Temperature *float64
	// MaxTokens, when positive, caps the answer's length (sent as
	// options.num_predict).
	MaxTokens int
	// ModelOptions are further model parameters sent in "options", e.g.
	// {"num_ctx": 8192, "seed": 42}. Temperature and MaxTokens, when set,
	// take precedence over the same keys here.
	ModelOptions map[string]any
	// KeepAlive is sent as "keep_alive": how long the server keeps the
	// model loaded after the request, e.g. "10m"; "" leaves the server's
	// default (5 minutes).
	KeepAlive string
	// OnFinish, when set, is called once per successful generation with
	// the final message's done_reason and token counts.
	OnFinish func(Finish)
	// HTTP holds timeout, retry, API key and client settings.
	HTTP HTTPOptions
}

// Ollama generates answers with an Ollama server's /api/chat endpoint,
// streamed as newline-delimited JSON. It is safe for concurrent use.
type Ollama struct {
	model     string
	endpoint  string
	options   map[string]any
	keepAlive string
	onFinish  func(Finish)
	client    *httpc.Client
	last      lastFinish
}

var (
	_ fonte.Generator = (*Ollama)(nil)
	_ UsageReporter   = (*Ollama)(nil)
)

// NewOllama returns a generator for the named model (e.g. "llama3.2"). It
// makes no request.
func NewOllama(model string, o OllamaOptions) (*Ollama, error) {
	if model == "" {
		return nil, fmt.Errorf("generate: ollama: model name is empty")
	}
	if o.MaxTokens < 0 {
		return nil, fmt.Errorf("generate: ollama: negative MaxTokens %d", o.MaxTokens)
	}
	base := o.BaseURL
	if base == "" {
		base = DefaultOllamaURL
	}
	base, err := httpc.CheckBaseURL(base)
	if err != nil {
		return nil, fmt.Errorf("generate: ollama: %v", err)
	}
	// Copy, so later changes to the caller's map do not race with requests.
	opts := maps.Clone(o.ModelOptions)
	if o.Temperature != nil || o.MaxTokens > 0 {
		if opts == nil {
			opts = map[string]any{}
		}
		if o.Temperature != nil {
			opts["temperature"] = *o.Temperature
		}
		if o.MaxTokens > 0 {
			opts["num_predict"] = o.MaxTokens
		}
	}
	return &Ollama{
		model:     model,
		endpoint:  base + "/api/chat",
		options:   opts,
		keepAlive: o.KeepAlive,
		onFinish:  o.OnFinish,
		client:    httpc.New(o.HTTP, DefaultTimeout),
	}, nil
}

// Model identifies the model, e.g. "ollama/llama3.2".
func (g *Ollama) Model() string { return "ollama/" + g.model }

// Usage is how the last successful generation ended: the final line's
// done_reason, prompt_eval_count and eval_count. It is the zero Finish
// before the first success.
func (g *Ollama) Usage() Finish { return g.last.get() }

// ollamaMessage is one message of a chat, in both directions.
type ollamaMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ollamaChatRequest is the body of POST /api/chat.
type ollamaChatRequest struct {
	Model     string          `json:"model"`
	Messages  []ollamaMessage `json:"messages"`
	Stream    bool            `json:"stream"`
	Options   map[string]any  `json:"options,omitempty"`
	KeepAlive string          `json:"keep_alive,omitempty"`
}

// ollamaChatChunk is one line of the streamed answer. A failure mid-stream
// arrives as a line holding only "error".
type ollamaChatChunk struct {
	Message         *ollamaMessage  `json:"message"`
	Done            bool            `json:"done"`
	DoneReason      string          `json:"done_reason"`
	PromptEvalCount int             `json:"prompt_eval_count"`
	EvalCount       int             `json:"eval_count"`
	Error           json.RawMessage `json:"error"`
}

// Generate streams an answer to messages, calling onDelta (when not nil)
// with each piece of text, and returns the whole text once the server
// sends its final "done" line. Cancelling ctx stops reading and returns
// ctx.Err().
func (g *Ollama) Generate(ctx context.Context, messages []fonte.Message, onDelta func(string)) (string, error) {
	if len(messages) == 0 {
		return "", errors.New("generate: ollama: no messages to answer")
	}
	req := ollamaChatRequest{
		Model:     g.model,
		Messages:  make([]ollamaMessage, len(messages)),
		Stream:    true,
		Options:   g.options,
		KeepAlive: g.keepAlive,
	}
	for i, m := range messages {
		req.Messages[i] = ollamaMessage{Role: m.Role, Content: m.Content}
	}
	st, err := g.client.PostStream(ctx, g.endpoint, req, "application/x-ndjson")
	if err != nil {
		return "", g.wrap(ctx, err)
	}
	defer st.Close()

	var text strings.Builder
	for {
		line, err := st.ReadLine()
		if errors.Is(err, io.EOF) {
			return "", g.wrap(ctx, st.Fail(`stream ended before the final "done" message`))
		}
		if err != nil {
			return "", g.wrap(ctx, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var c ollamaChatChunk
		if err := json.Unmarshal(line, &c); err != nil {
			return "", g.wrap(ctx, st.Fail(fmt.Sprintf("malformed JSON line: %v", err)))
		}
		if len(c.Error) > 0 && string(c.Error) != "null" {
			return "", g.wrap(ctx, st.Fail("error in stream: "+httpc.ServerMessage(line)))
		}
		if c.Message != nil && c.Message.Content != "" {
			text.WriteString(c.Message.Content)
			if onDelta != nil {
				onDelta(c.Message.Content)
			}
		}
		if c.Done {
			f := Finish{Reason: c.DoneReason, PromptTokens: c.PromptEvalCount, OutputTokens: c.EvalCount}
			g.last.set(f)
			if g.onFinish != nil {
				g.onFinish(f)
			}
			return text.String(), nil
		}
	}
}

// wrap returns ctx.Err() when the caller cancelled, the error with the
// package's prefix otherwise.
func (g *Ollama) wrap(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	return fmt.Errorf("generate: ollama/%s: %w", g.model, err)
}
