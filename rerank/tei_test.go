package rerank_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/rerank"
)

// quick are HTTP options that keep retry tests fast.
func quick() rerank.HTTPOptions {
	return rerank.HTTPOptions{MaxAttempts: 3, BackoffBase: time.Millisecond, BackoffMax: 2 * time.Millisecond}
}

// rerankServer records requests and answers with handle; n is the 1-based
// attempt.
type rerankServer struct {
	*httptest.Server
	mu      sync.Mutex
	paths   []string
	headers []http.Header
	bodies  []map[string]any
}

func newRerankServer(t *testing.T, handle func(w http.ResponseWriter, n int, body map[string]any)) *rerankServer {
	t.Helper()
	s := &rerankServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Errorf("request body %q: %v", raw, err)
		}
		s.mu.Lock()
		s.paths = append(s.paths, r.Method+" "+r.URL.Path)
		s.headers = append(s.headers, r.Header.Clone())
		s.bodies = append(s.bodies, body)
		n := len(s.bodies)
		s.mu.Unlock()
		handle(w, n, body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *rerankServer) attempts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

func strs(v any) []string {
	raw, _ := v.([]any)
	out := make([]string, len(raw))
	for i, x := range raw {
		out[i], _ = x.(string)
	}
	return out
}

// relevance is the fake model: the share of the text's words that appear
// in the query.
func relevance(query, text string) float64 {
	words := strings.Fields(text)
	hit := 0
	for _, w := range words {
		if strings.Contains(query, w) {
			hit++
		}
	}
	return float64(hit) / float64(len(words))
}

// ranked pairs each text index with its score, best first, as rerank
// servers answer.
func ranked(query string, texts []string) [][2]float64 {
	out := make([][2]float64, len(texts))
	for i, s := range texts {
		out[i] = [2]float64{float64(i), relevance(query, s)}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a][1] > out[b][1] })
	return out
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func teiServer(t *testing.T) *rerankServer {
	return newRerankServer(t, func(w http.ResponseWriter, _ int, body map[string]any) {
		q, _ := body["query"].(string)
		var out []map[string]any
		for _, r := range ranked(q, strs(body["texts"])) {
			out = append(out, map[string]any{"index": int(r[0]), "score": r[1]})
		}
		writeJSON(w, out)
	})
}

var (
	query = "refund policy for damaged goods"
	texts = []string{
		"shipping times vary",
		"refund policy",
		"damaged goods refund policy",
		"opening hours",
		"policy for goods",
	}
)

func wantScores() []float64 {
	out := make([]float64, len(texts))
	for i, s := range texts {
		out[i] = relevance(query, s)
	}
	return out
}

func TestTEIRerankInInputOrder(t *testing.T) {
	srv := teiServer(t)
	r, err := rerank.NewTEI("BAAI/bge-reranker-base", rerank.TEIOptions{BaseURL: srv.URL, BatchSize: 2, Truncate: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Model() != "tei/BAAI/bge-reranker-base" {
		t.Errorf("Model() = %q", r.Model())
	}
	scores, err := r.Rerank(context.Background(), query, texts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(scores, wantScores()) {
		t.Errorf("scores %v, want %v", scores, wantScores())
	}
	if srv.attempts() != 3 {
		t.Fatalf("%d requests, want 3 batches", srv.attempts())
	}
	for i, b := range srv.bodies {
		if srv.paths[i] != "POST /rerank" {
			t.Errorf("request %s", srv.paths[i])
		}
		h := srv.headers[i]
		if h.Get("Content-Type") != "application/json" || h.Get("User-Agent") != "fonte" || h.Get("Authorization") != "" {
			t.Errorf("headers %v", h)
		}
		if b["query"] != query || b["raw_scores"] != false || b["truncate"] != true {
			t.Errorf("body %v", b)
		}
		if _, ok := b["model"]; ok {
			t.Errorf("model sent to TEI: %v", b)
		}
	}
	if got := strs(srv.bodies[2]["texts"]); !reflect.DeepEqual(got, texts[4:]) {
		t.Errorf("last batch %q", got)
	}
}

func TestTEIRerankEmpty(t *testing.T) {
	srv := teiServer(t)
	r, _ := rerank.NewTEI("m", rerank.TEIOptions{BaseURL: srv.URL})
	if scores, err := r.Rerank(context.Background(), query, nil); err != nil || len(scores) != 0 || srv.attempts() != 0 {
		t.Errorf("Rerank(nil) = %v, %v after %d requests", scores, err, srv.attempts())
	}
}

func TestTEIRerankErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		status   int
		body     string
		attempts int
		want     string
	}{
		{"overloaded", 429, `{"error":"Model is overloaded","error_type":"overloaded"}`, 3, "429 Too Many Requests: Model is overloaded (overloaded)"},
		{"batch too large", 413, `{"error":"batch size 64 > maximum allowed batch size 32","error_type":"validation"}`, 1, "maximum allowed batch size 32 (validation)"},
		{"not a reranker", 424, `{"error":"Inference failed","error_type":"backend"}`, 1, "424 Failed Dependency: Inference failed (backend)"},
		{"empty input", 422, `{"error":"` + "`texts` cannot be empty" + `","error_type":"empty"}`, 1, "422 Unprocessable Entity: `texts` cannot be empty (empty)"},
		{"too long", 413, `{"error":"Input validation error: inputs must have less than 512 tokens. Given: 871","error_type":"validation"}`, 1, "413 Request Entity Too Large: Input validation error: inputs must have less than 512 tokens. Given: 871 (validation)"},
		{"gateway", 502, "<html><body>Bad Gateway</body></html>", 3, "502 Bad Gateway: <html><body>Bad Gateway</body></html>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRerankServer(t, func(w http.ResponseWriter, _ int, _ map[string]any) {
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			})
			r, _ := rerank.NewTEI("BAAI/bge-reranker-base", rerank.TEIOptions{BaseURL: srv.URL, HTTP: quick()})
			_, err := r.Rerank(context.Background(), query, texts)
			var he *rerank.HTTPError
			if !errors.As(err, &he) || he.StatusCode != tc.status {
				t.Fatalf("error %v", err)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "rerank: tei/BAAI/bge-reranker-base: POST "+srv.URL+"/rerank: ") {
				t.Errorf("error %q, want %q", err, tc.want)
			}
			if srv.attempts() != tc.attempts {
				t.Errorf("%d attempts, want %d", srv.attempts(), tc.attempts)
			}
		})
	}
}

func TestTEIRerankRetryThenSuccess(t *testing.T) {
	ok := teiServer(t)
	srv := newRerankServer(t, func(w http.ResponseWriter, n int, body map[string]any) {
		if n == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		// Delegate to the working fake.
		raw, _ := json.Marshal(body)
		resp, err := http.Post(ok.URL, "application/json", strings.NewReader(string(raw)))
		if err != nil {
			t.Error(err)
			return
		}
		defer resp.Body.Close()
		io.Copy(w, resp.Body)
	})
	r, _ := rerank.NewTEI("m", rerank.TEIOptions{BaseURL: srv.URL, HTTP: quick()})
	scores, err := r.Rerank(context.Background(), query, texts)
	if err != nil || !reflect.DeepEqual(scores, wantScores()) {
		t.Fatalf("Rerank = %v, %v", scores, err)
	}
	if srv.attempts() != 2 {
		t.Errorf("%d attempts, want 2", srv.attempts())
	}
}

func TestTEIRerankBadAnswers(t *testing.T) {
	for _, tc := range []struct{ name, answer, want string }{
		{"malformed JSON", `[{"index":0,"score":0.5}`, "malformed JSON"},
		{"object instead of list", `{"index":0,"score":0.5}`, "malformed JSON"},
		{"too few", `[{"index":0,"score":0.5}]`, "returned 1 scores for 2 texts"},
		{"duplicate", `[{"index":1,"score":0.5},{"index":1,"score":0.4}]`, "index 1 twice"},
		{"out of range", `[{"index":0,"score":0.5},{"index":7,"score":0.4}]`, "index 7 for a batch of 2"},
		{"no score", `[{"index":0},{"index":1,"score":0.4}]`, "without index or score"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRerankServer(t, func(w http.ResponseWriter, _ int, _ map[string]any) { io.WriteString(w, tc.answer) })
			r, _ := rerank.NewTEI("m", rerank.TEIOptions{BaseURL: srv.URL, HTTP: quick()})
			_, err := r.Rerank(context.Background(), "q", []string{"a", "b"})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), srv.URL+"/rerank") {
				t.Errorf("error %v, want one naming the endpoint and %q", err, tc.want)
			}
		})
	}
}

func TestTEIRerankTimeoutAndCancel(t *testing.T) {
	srv := newRerankServer(t, func(w http.ResponseWriter, _ int, _ map[string]any) { time.Sleep(200 * time.Millisecond) })
	o := quick()
	o.Timeout = 20 * time.Millisecond
	r, _ := rerank.NewTEI("m", rerank.TEIOptions{BaseURL: srv.URL, HTTP: o})
	_, err := r.Rerank(context.Background(), "q", []string{"a"})
	var he *rerank.HTTPError
	if !errors.As(err, &he) || !he.Timeout || srv.attempts() != 1 {
		t.Fatalf("error %v after %d attempts, want one timeout", err, srv.attempts())
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	r2, _ := rerank.NewTEI("m", rerank.TEIOptions{BaseURL: srv.URL})
	if _, err := r2.Rerank(ctx, "q", []string{"a"}); err != context.DeadlineExceeded {
		t.Fatalf("error %v, want the caller's context.DeadlineExceeded itself", err)
	}
}

func TestNewTEIValidates(t *testing.T) {
	if _, err := rerank.NewTEI("", rerank.TEIOptions{}); err == nil {
		t.Error("empty model accepted")
	}
	if _, err := rerank.NewTEI("m", rerank.TEIOptions{BaseURL: "http//x"}); err == nil {
		t.Error("bad URL accepted")
	}
	if _, err := rerank.NewTEI("m", rerank.TEIOptions{BatchSize: -2}); err == nil {
		t.Error("negative batch size accepted")
	}
}
