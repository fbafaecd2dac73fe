package rerank_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/rerank"
)

// v1Server answers /v1/rerank like Cohere and Jina do: results sorted by
// relevance, cut to top_n.
func v1Server(t *testing.T) *rerankServer {
	return newRerankServer(t, func(w http.ResponseWriter, _ int, body map[string]any) {
		q, _ := body["query"].(string)
		topN, _ := body["top_n"].(float64)
		var results []map[string]any
		for _, r := range ranked(q, strs(body["documents"])) {
			results = append(results, map[string]any{"index": int(r[0]), "relevance_score": r[1]})
		}
		results = results[:min(len(results), int(topN))]
		writeJSON(w, map[string]any{
			"id": "07734bd2", "results": results,
			"meta": map[string]any{"api_version": map[string]string{"version": "1"}, "billed_units": map[string]int{"search_units": 1}},
		})
	})
}

func TestCohereRerankInInputOrder(t *testing.T) {
	srv := v1Server(t)
	o := quick()
	o.APIKey = "co-key"
	r, err := rerank.NewCohere("rerank-v3.5", rerank.CohereOptions{BaseURL: srv.URL, BatchSize: 3, HTTP: o})
	if err != nil {
		t.Fatal(err)
	}
	if r.Model() != "cohere/rerank-v3.5" {
		t.Errorf("Model() = %q", r.Model())
	}
	scores, err := r.Rerank(context.Background(), query, texts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(scores, wantScores()) {
		t.Errorf("scores %v, want %v", scores, wantScores())
	}
	if srv.attempts() != 2 {
		t.Fatalf("%d requests, want 2 batches", srv.attempts())
	}
	for i, b := range srv.bodies {
		if srv.paths[i] != "POST /v1/rerank" {
			t.Errorf("request %s", srv.paths[i])
		}
		h := srv.headers[i]
		if h.Get("Authorization") != "Bearer co-key" || h.Get("Content-Type") != "application/json" || h.Get("User-Agent") != "fonte" {
			t.Errorf("headers %v", h)
		}
		docs := strs(b["documents"])
		if b["model"] != "rerank-v3.5" || b["query"] != query || b["top_n"] != float64(len(docs)) || b["return_documents"] != false {
			t.Errorf("body %v", b)
		}
	}
	if got := strs(srv.bodies[1]["documents"]); !reflect.DeepEqual(got, texts[3:]) {
		t.Errorf("second batch %q", got)
	}
}

func TestJinaDefaultsAndModel(t *testing.T) {
	r, err := rerank.NewJina("jina-reranker-v2-base-multilingual", rerank.CohereOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Model() != "jina/jina-reranker-v2-base-multilingual" {
		t.Errorf("Model() = %q", r.Model())
	}
	srv := v1Server(t)
	j, _ := rerank.NewJina("jina-reranker-v2-base-multilingual", rerank.CohereOptions{BaseURL: srv.URL})
	scores, err := j.Rerank(context.Background(), query, texts)
	if err != nil || !reflect.DeepEqual(scores, wantScores()) {
		t.Errorf("Rerank = %v, %v", scores, err)
	}
}

// TestCohereRerankErrors answers with the errors Cohere ({"message": ...})
// and Jina (FastAPI's {"detail": ...}) send.
func TestCohereRerankErrors(t *testing.T) {
	const key = "co-secret-123456"
	for _, tc := range []struct {
		name     string
		provider string
		status   int
		body     string
		attempts int
		want     string
	}{
		{"cohere bad request", "cohere", 400, `{"message":"invalid request: list of documents must not be empty"}`, 1, "400 Bad Request: invalid request: list of documents must not be empty"},
		{"cohere bad key", "cohere", 401, `{"message":"invalid api token"}`, 1, "401 Unauthorized: invalid api token"},
		{"cohere unknown model", "cohere", 404, `{"message":"model 'rerank-v9' not found, make sure the correct model ID was used and that you have access to the model."}`, 1, "404 Not Found: model 'rerank-v9' not found"},
		{"cohere rate limited", "cohere", 429, `{"message":"You are past the per minute request limit, please wait and try again later."}`, 3, "429 Too Many Requests: You are past the per minute request limit, please wait and try again later. (after 3 attempts)"},
		{"cohere server error", "cohere", 500, `{"message":"internal server error"}`, 3, "500 Internal Server Error: internal server error (after 3 attempts)"},
		{"jina bad key", "jina", 401, `{"detail":"Invalid API key: co-secret-123456"}`, 1, "401 Unauthorized: Invalid API key: [redacted]"},
		{"jina validation", "jina", 422, `{"detail":[{"type":"missing","loc":["body","query"],"msg":"Field required","input":{}}]}`, 1, `422 Unprocessable Entity: [{"type":"missing","loc":["body","query"],"msg":"Field required","input":{}}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRerankServer(t, func(w http.ResponseWriter, _ int, _ map[string]any) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			})
			o := quick()
			o.APIKey = key
			newV1, model := rerank.NewCohere, "rerank-v9"
			if tc.provider == "jina" {
				newV1, model = rerank.NewJina, "jina-reranker-v2-base-multilingual"
			}
			r, _ := newV1(model, rerank.CohereOptions{BaseURL: srv.URL, HTTP: o})
			_, err := r.Rerank(context.Background(), query, texts)
			var he *rerank.HTTPError
			if !errors.As(err, &he) || he.StatusCode != tc.status {
				t.Fatalf("error %v", err)
			}
			if strings.Contains(err.Error(), key) {
				t.Errorf("error %q leaks the key", err)
			}
			if want := "rerank: " + tc.provider + "/" + model + ": POST " + srv.URL + "/v1/rerank: "; !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want %q after %q", err, tc.want, want)
			}
			if srv.attempts() != tc.attempts {
				t.Errorf("%d attempts, want %d", srv.attempts(), tc.attempts)
			}
		})
	}
}

func TestCohereRerankBadAnswers(t *testing.T) {
	for _, tc := range []struct{ name, answer, want string }{
		{"malformed JSON", `{"results": [`, "malformed JSON"},
		{"fewer results than top_n", `{"results":[{"index":1,"relevance_score":0.9}]}`, "returned 1 scores for 2 texts"},
		{"no results", `{"id":"x"}`, "returned 0 scores for 2 texts"},
		{"duplicate", `{"results":[{"index":0,"relevance_score":0.9},{"index":0,"relevance_score":0.1}]}`, "index 0 twice"},
		{"negative index", `{"results":[{"index":-1,"relevance_score":0.9},{"index":0,"relevance_score":0.1}]}`, "index -1 for a batch of 2"},
		{"score missing", `{"results":[{"index":0,"score":0.9},{"index":1,"relevance_score":0.1}]}`, "without index or relevance_score"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRerankServer(t, func(w http.ResponseWriter, _ int, _ map[string]any) { io.WriteString(w, tc.answer) })
			r, _ := rerank.NewCohere("m", rerank.CohereOptions{BaseURL: srv.URL, HTTP: quick()})
			_, err := r.Rerank(context.Background(), "q", []string{"a", "b"})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), srv.URL+"/v1/rerank") {
				t.Errorf("error %v, want one naming the endpoint and %q", err, tc.want)
			}
		})
	}
}

func TestCohereRerankCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	srv := newRerankServer(t, func(w http.ResponseWriter, _ int, _ map[string]any) {
		cancel()
		w.WriteHeader(http.StatusServiceUnavailable) // would be retried, but the caller left
	})
	r, _ := rerank.NewCohere("m", rerank.CohereOptions{BaseURL: srv.URL, HTTP: quick()})
	if _, err := r.Rerank(ctx, "q", []string{"a"}); err != context.Canceled {
		t.Fatalf("error %v, want context.Canceled itself", err)
	}
	if srv.attempts() != 1 {
		t.Errorf("%d attempts, want 1", srv.attempts())
	}
}

func TestNewCohereValidates(t *testing.T) {
	if _, err := rerank.NewCohere("", rerank.CohereOptions{}); err == nil {
		t.Error("empty model accepted")
	}
	if _, err := rerank.NewJina("m", rerank.CohereOptions{BaseURL: "api.jina.ai"}); err == nil {
		t.Error("base URL without scheme accepted")
	}
}
