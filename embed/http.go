package embed

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/fonte-rag/fonte/internal/httpc"
)

// HTTPOptions are the HTTP settings of the remote embedders: per-attempt
// timeout, retries with backoff, API key and http.Client. The same type is
// generate.HTTPOptions and rerank.HTTPOptions, so one value can configure
// every client. Its fields are documented in internal/httpc.Options:
//
//	Timeout      per attempt; zero means DefaultTimeout (60 s)
//	MaxAttempts  tries in all, retrying 429, 5xx and connection failures (default 4)
//	BackoffBase  first wait, doubled per retry, with jitter (default 500 ms)
//	BackoffMax   cap on a wait and on a server's Retry-After (default 30 s)
//	APIKey       sent as "Authorization: Bearer <key>", never shown in errors
//	HTTPClient   the *http.Client to use (default: one over http.DefaultTransport)
type HTTPOptions = httpc.Options

// HTTPError is the error a remote embedder returns when the exchange with
// the server fails: no answer, an error status, a timeout, or an answer
// that is not the JSON expected. It names the endpoint, the HTTP status and
// the server's own message; use errors.As to inspect it. Answers that parse
// but do not fit (a wrong number of vectors, a changed dimension) are plain
// errors that also name the endpoint. Cancellation of the caller's context
// is reported as ctx.Err() itself.
type HTTPError = httpc.Error

// DefaultTimeout bounds one embedding request when HTTPOptions.Timeout is
// zero. A batch of passages takes a local model well under a second, but a
// cold server first loads the model, which can take tens of seconds.
const DefaultTimeout = 60 * time.Second

// remoteDim is the vector length a remote model answers with: declared up
// front, or learned from the first answer and then enforced, because an
// index whose vectors change length mid-way is corrupt.
type remoteDim struct {
	mu sync.Mutex
	n  int
}

func (d *remoteDim) get() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.n
}

// check verifies that every vector has the known length, learning it from
// the first vector when it is not known yet. first is the position of
// vecs[0] among the texts of the Embed call, for the error message.
func (d *remoteDim) check(vecs [][]float32, first int, endpoint string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := d.n
	for i, v := range vecs {
		if len(v) == 0 {
			return fmt.Errorf("%s returned an empty vector for text %d", endpoint, first+i)
		}
		if n == 0 {
			n = len(v)
			continue
		}
		if len(v) != n {
			return fmt.Errorf("%s returned a vector of dimension %d for text %d, but earlier vectors have dimension %d (did the model change?)",
				endpoint, len(v), first+i, n)
		}
	}
	// Learn the length only from an answer that passed as a whole.
	d.n = n
	return nil
}

// embedInBatches embeds texts batch by batch, in order, with one call of
// embedBatch per batch; first is the position of the batch's first text.
func embedInBatches(ctx context.Context, texts []string, size int,
	embedBatch func(ctx context.Context, batch []string, first int) ([][]float32, error)) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += size {
		end := min(start+size, len(texts))
		vecs, err := embedBatch(ctx, texts[start:end], start)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, cerr
			}
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}
