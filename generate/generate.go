// Package generate holds fonte.Generator clients for model servers: Ollama's
// /api/chat and the OpenAI-compatible /v1/chat/completions, both streamed.
//
// Every client calls onDelta with each piece of text as it arrives and
// returns the whole text at the end. Cancelling the context stops reading
// at once and returns ctx.Err(). Other failures are errors that name the
// endpoint, the HTTP status and the server's own message (see HTTPError),
// including failures the server reports in the middle of a stream.
package generate

import (
	"sync"
	"time"

	"github.com/fonte-rag/fonte/internal/httpc"
)

// HTTPOptions are the HTTP settings of the generators: per-attempt
// timeout, retries with backoff, API key and http.Client. The same type is
// embed.HTTPOptions and rerank.HTTPOptions. Its fields are documented in
// internal/httpc.Options:
//
//	Timeout      per attempt, the whole stream included; zero means DefaultTimeout (5 min)
//	MaxAttempts  tries in all, retrying 429, 5xx and connection failures (default 4)
//	BackoffBase  first wait, doubled per retry, with jitter (default 500 ms)
//	BackoffMax   cap on a wait and on a server's Retry-After (default 30 s)
//	APIKey       sent as "Authorization: Bearer <key>", never shown in errors
//	HTTPClient   the *http.Client to use (default: one over http.DefaultTransport)
//
// Retries happen only before the stream starts: once text has arrived, a
// failure is returned, since repeating the request would repeat the text.
type HTTPOptions = httpc.Options

// HTTPError is the error a generator returns when the server fails, reports
// an error in the stream, or streams nonsense. Use errors.As to inspect it.
type HTTPError = httpc.Error

// DefaultTimeout bounds one generation, the whole stream included, when
// HTTPOptions.Timeout is zero. A long answer from a local model on a CPU
// can take minutes; a stalled server should still fail eventually.
const DefaultTimeout = 5 * time.Minute

// Finish is how a generation ended, as the server reported it.
type Finish struct {
	// Reason is the server's word for why the text ended: "stop" for a
	// natural end, "length" when the token limit cut it short; "" when
	// the server did not say.
	Reason string
	// PromptTokens and OutputTokens count tokens as the server reported
	// them; 0 when it did not.
	PromptTokens int
	OutputTokens int
}

// UsageReporter is implemented by the generators of this package: Usage
// returns how the last successful generation ended, with the token counts
// the server reported (the usage chunk of an OpenAI-compatible stream,
// prompt_eval_count and eval_count of Ollama's final line). It is the zero
// Finish before the first success. Callers holding a fonte.Generator
// check for it with a type assertion. Generations that run concurrently
// on one generator overwrite each other's record; the OnFinish option
// reports each of them instead.
type UsageReporter interface {
	Usage() Finish
}

// lastFinish holds the Finish of a generator's last successful generation.
type lastFinish struct {
	mu sync.Mutex
	f  Finish
}

func (l *lastFinish) get() Finish {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f
}

func (l *lastFinish) set(f Finish) {
	l.mu.Lock()
	l.f = f
	l.mu.Unlock()
}
