package generate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/httpc"
)

// DefaultOpenAIURL is the OpenAI API. Other servers that speak the same
// /v1/chat/completions format (vLLM, llama.cpp, LM Studio, Ollama,
// OpenRouter, ...) are reached by setting OpenAIOptions.BaseURL.
const DefaultOpenAIURL = "https://api.openai.com"

// OpenAIOptions configures an OpenAI-compatible generator. The zero value
// asks for the defaults; HTTP.APIKey carries the key.
type OpenAIOptions struct {
	// BaseURL is the server root; the client posts to BaseURL +
	// "/v1/chat/completions". "" means DefaultOpenAIURL.
	BaseURL string
	// Temperature, when set, is sent as "temperature"; nil leaves the
	// server's default.
	Temperature *float64
	// MaxTokens, when positive, caps the answer's length. It is sent as
	// "max_completion_tokens", the field OpenAI's API reference names
	// today: "max_tokens" is deprecated there and refused by the
	// reasoning models (o1, o3, gpt-5, ...), which count their hidden
	// reasoning tokens against the cap.
	MaxTokens int
	// LegacyMaxTokens sends MaxTokens as "max_tokens" instead, for
	// OpenAI-compatible servers that know only the old field and
	// silently ignore the new one, so that the cap would not apply:
	// vLLM 0.5 and older, llama.cpp's llama-server before February 2026
	// (ggml-org/llama.cpp#19831), llama-cpp-python, koboldcpp, Ray Serve
	// LLM, and Azure OpenAI API versions before 2024-09-01-preview.
	LegacyMaxTokens bool
	// OnFinish, when set, is called once per successful generation with
	// the finish_reason of the last chunk and the token counts of the
	// usage chunk, which the client asks for with
	// "stream_options": {"include_usage": true}.
	OnFinish func(Finish)
	// HTTP holds timeout, retry, API key and client settings.
	HTTP HTTPOptions
}

// OpenAI generates answers with the OpenAI chat completions API or a server
// compatible with it, streamed as server-sent events. It is safe for
// concurrent use.
type OpenAI struct {
	model       string
	endpoint    string
	temperature *float64
	maxTokens   int
	legacyMax   bool
	onFinish    func(Finish)
	client      *httpc.Client
	last        lastFinish
}

var (
	_ fonte.Generator = (*OpenAI)(nil)
	_ UsageReporter   = (*OpenAI)(nil)
)

// NewOpenAI returns a generator for the named model (e.g. "gpt-4o-mini").
// It makes no request.
func NewOpenAI(model string, o OpenAIOptions) (*OpenAI, error) {
	if model == "" {
		return nil, fmt.Errorf("generate: openai: model name is empty")
	}
	if o.MaxTokens < 0 {
		return nil, fmt.Errorf("generate: openai: negative MaxTokens %d", o.MaxTokens)
	}
	base := o.BaseURL
	if base == "" {
		base = DefaultOpenAIURL
	}
	base, err := httpc.CheckBaseURL(base)
	if err != nil {
		return nil, fmt.Errorf("generate: openai: %v", err)
	}
	g := &OpenAI{
		model:     model,
		endpoint:  base + "/v1/chat/completions",
		maxTokens: o.MaxTokens,
		legacyMax: o.LegacyMaxTokens,
		onFinish:  o.OnFinish,
		client:    httpc.New(o.HTTP, DefaultTimeout),
	}
	if o.Temperature != nil {
		t := *o.Temperature // copy: the caller's variable may change later
		g.temperature = &t
	}
	return g, nil
}

// Model identifies the model, e.g. "openai/gpt-4o-mini".
func (g *OpenAI) Model() string { return "openai/" + g.model }

// Usage is how the last successful generation ended: its finish_reason
// and the token counts of the server's usage chunk (zero when the server
// sent none). It is the zero Finish before the first success. With
// concurrent generations, use OpenAIOptions.OnFinish to tell them apart.
func (g *OpenAI) Usage() Finish { return g.last.get() }

// openAIMessage is one message of the conversation sent.
type openAIMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// openAIChatRequest is the body of POST /v1/chat/completions.
type openAIChatRequest struct {
	Model               string               `json:"model"`
	Messages            []openAIMessage      `json:"messages"`
	Stream              bool                 `json:"stream"`
	StreamOptions       *openAIStreamOptions `json:"stream_options,omitempty"`
	Temperature         *float64             `json:"temperature,omitempty"`
	MaxCompletionTokens int                  `json:"max_completion_tokens,omitempty"`
	MaxTokens           int                  `json:"max_tokens,omitempty"`
}

// openAIStreamOptions asks for one more chunk before "data: [DONE]", with
// "choices": [] and the usage of the whole request; every other chunk
// then carries "usage": null.
type openAIStreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// openAIChunk is the data of one event of the stream: a
// chat.completion.chunk, or an error object.
type openAIChunk struct {
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content *string `json:"content"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// Generate streams an answer to messages, calling onDelta (when not nil)
// with each piece of text, and returns the whole text once the server
// sends "data: [DONE]" (or closes the stream after a finish_reason).
// Cancelling ctx stops reading and returns ctx.Err().
func (g *OpenAI) Generate(ctx context.Context, messages []fonte.Message, onDelta func(string)) (string, error) {
	if len(messages) == 0 {
		return "", errors.New("generate: openai: no messages to answer")
	}
	req := openAIChatRequest{
		Model:         g.model,
		Messages:      make([]openAIMessage, len(messages)),
		Stream:        true,
		StreamOptions: &openAIStreamOptions{IncludeUsage: true},
		Temperature:   g.temperature,
	}
	if g.legacyMax {
		req.MaxTokens = g.maxTokens
	} else {
		req.MaxCompletionTokens = g.maxTokens
	}
	for i, m := range messages {
		req.Messages[i] = openAIMessage{Role: m.Role, Content: m.Content}
	}
	st, err := g.client.PostStream(ctx, g.endpoint, req, "text/event-stream")
	if err != nil {
		return "", g.wrap(ctx, err)
	}
	defer st.Close()

	var (
		text   strings.Builder
		finish Finish
		data   []byte // the data of the event being read
		inData bool   // whether the event has a data field yet
	)
	for {
		line, err := st.ReadLine()
		eof := errors.Is(err, io.EOF)
		if err != nil && !eof {
			return "", g.wrap(ctx, err)
		}
		// A blank line ends an event; so does the end of the stream.
		if eof || len(line) == 0 {
			if inData {
				done, err := g.event(st, data, &text, &finish, onDelta)
				if err != nil {
					return "", g.wrap(ctx, err)
				}
				if done {
					g.finished(finish)
					return text.String(), nil
				}
				data, inData = data[:0], false
			}
			if eof {
				// Accept a server that omits [DONE] after a finish_reason;
				// without either, the stream was cut short.
				if finish.Reason != "" {
					g.finished(finish)
					return text.String(), nil
				}
				return "", g.wrap(ctx, st.Fail("stream ended before data: [DONE]"))
			}
			continue
		}
		if line[0] == ':' {
			continue // a comment: servers send these to keep the connection alive
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		if string(field) != "data" {
			continue // event, id and retry fields carry nothing fonte needs
		}
		if inData {
			data = append(data, '\n') // the SSE rule for multi-line data
		}
		data = append(data, value...)
		inData = true
	}
}

// finished records how a successful generation ended and reports it.
func (g *OpenAI) finished(f Finish) {
	g.last.set(f)
	if g.onFinish != nil {
		g.onFinish(f)
	}
}

// event handles the data of one event and reports whether it ended the
// stream.
func (g *OpenAI) event(st *httpc.Stream, data []byte, text *strings.Builder, finish *Finish, onDelta func(string)) (bool, error) {
	if string(bytes.TrimSpace(data)) == "[DONE]" {
		return true, nil
	}
	var c openAIChunk
	if err := json.Unmarshal(data, &c); err != nil {
		return false, st.Fail(fmt.Sprintf("malformed JSON event: %v", err))
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return false, st.Fail("error in stream: " + httpc.ServerMessage(data))
	}
	if c.Usage != nil {
		finish.PromptTokens = c.Usage.PromptTokens
		finish.OutputTokens = c.Usage.CompletionTokens
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue // only one answer is asked for; ignore any other
		}
		if ch.Delta.Content != nil && *ch.Delta.Content != "" {
			text.WriteString(*ch.Delta.Content)
			if onDelta != nil {
				onDelta(*ch.Delta.Content)
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			finish.Reason = *ch.FinishReason
		}
	}
	return false, nil
}

// wrap returns ctx.Err() when the caller cancelled, the error with the
// package's prefix otherwise.
func (g *OpenAI) wrap(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	return fmt.Errorf("generate: openai/%s: %w", g.model, err)
}
