// Package rerank holds fonte.Reranker clients for model servers: Hugging
// Face text-embeddings-inference (POST /rerank) and the /v1/rerank format
// of Cohere, also served by Jina AI and by several self-hosted servers.
//
// Every client returns one score per text, in the order of the texts, and
// sends large candidate lists in batches. A cross-encoder scores each
// (query, text) pair on its own, so scores from different batches compare.
package rerank

import (
	"context"
	"fmt"
	"time"

	"github.com/fonte-rag/fonte/internal/httpc"
)

// HTTPOptions are the HTTP settings of the rerankers: per-attempt timeout,
// retries with backoff, API key and http.Client. The same type is
// embed.HTTPOptions and generate.HTTPOptions. Its fields are documented in
// internal/httpc.Options:
//
//	Timeout      per attempt; zero means DefaultTimeout (60 s)
//	MaxAttempts  tries in all, retrying 429, 5xx and connection failures (default 4)
//	BackoffBase  first wait, doubled per retry, with jitter (default 500 ms)
//	BackoffMax   cap on a wait and on a server's Retry-After (default 30 s)
//	APIKey       sent as "Authorization: Bearer <key>", never shown in errors
//	HTTPClient   the *http.Client to use (default: one over http.DefaultTransport)
type HTTPOptions = httpc.Options

// HTTPError is the error a reranker returns when the exchange with the
// server fails: no answer, an error status, a timeout, or an answer that is
// not the JSON expected. Use errors.As to inspect it. Answers that parse but
// do not fit (missing or repeated indexes) are plain errors that name the
// endpoint; cancellation of the caller's context is ctx.Err() itself.
type HTTPError = httpc.Error

// DefaultTimeout bounds one rerank request when HTTPOptions.Timeout is
// zero.
const DefaultTimeout = 60 * time.Second

// scored is one score the server gave, with the index it gave it for.
type scored struct {
	index int
	score float64
}

// scoreInBatches scores texts batch by batch and places each score at its
// text's position. scoreBatch returns scores indexed within its batch;
// every text of the batch must be scored exactly once.
func scoreInBatches(ctx context.Context, prefix, endpoint string, texts []string, size int,
	scoreBatch func(ctx context.Context, batch []string) ([]scored, error)) ([]float64, error) {
	scores := make([]float64, len(texts))
	for start := 0; start < len(texts); start += size {
		end := min(start+size, len(texts))
		got, err := scoreBatch(ctx, texts[start:end])
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, cerr
			}
			return nil, fmt.Errorf("%s: %w", prefix, err)
		}
		n := end - start
		if len(got) != n {
			return nil, fmt.Errorf("%s: %s returned %d scores for %d texts", prefix, endpoint, len(got), n)
		}
		seen := make([]bool, n)
		for _, s := range got {
			if s.index < 0 || s.index >= n {
				return nil, fmt.Errorf("%s: %s returned index %d for a batch of %d texts", prefix, endpoint, s.index, n)
			}
			if seen[s.index] {
				return nil, fmt.Errorf("%s: %s returned index %d twice", prefix, endpoint, s.index)
			}
			seen[s.index] = true
			// The server's index counts within the batch.
			scores[start+s.index] = s.score
		}
	}
	return scores, nil
}
