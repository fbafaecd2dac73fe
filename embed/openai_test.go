package embed_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/embed"
)

// openAIEmbedServer answers /v1/embeddings like OpenAI does, but lists the
// data in reverse order, which the API allows.
func openAIEmbedServer(t *testing.T) *remoteServer {
	return newRemoteServer(t, func(w http.ResponseWriter, _ int, body map[string]any) {
		in := remoteInputs(t, body)
		data := make([]map[string]any, 0, len(in))
		for i := len(in) - 1; i >= 0; i-- {
			data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": remoteVector(in[i])})
		}
		remoteWriteJSON(w, map[string]any{
			"object": "list", "data": data, "model": body["model"],
			"usage": map[string]int{"prompt_tokens": 8, "total_tokens": 8},
		})
	})
}

func TestOpenAIEmbedRequestOrderAndBatches(t *testing.T) {
	srv := openAIEmbedServer(t)
	o := remoteQuick()
	o.APIKey = "sk-test"
	e, err := embed.NewOpenAI("text-embedding-3-small", embed.OpenAIOptions{BaseURL: srv.URL, BatchSize: 3, HTTP: o})
	if err != nil {
		t.Fatal(err)
	}
	if e.Model() != "openai/text-embedding-3-small" || e.Dimension() != 0 {
		t.Errorf("Model() = %q, Dimension() = %d", e.Model(), e.Dimension())
	}
	texts := []string{"alpha", "b", "cc", "data", "eagle"}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range texts {
		if !reflect.DeepEqual(vecs[i], remoteVector(s)) {
			t.Errorf("vector %d = %v, want %v (reordered by index)", i, vecs[i], remoteVector(s))
		}
	}
	if e.Dimension() != 3 {
		t.Errorf("Dimension() = %d, want 3", e.Dimension())
	}
	reqs := srv.got()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 batches", len(reqs))
	}
	for i, r := range reqs {
		if r.Method != http.MethodPost || r.Path != "/v1/embeddings" {
			t.Errorf("request %d: %s %s", i, r.Method, r.Path)
		}
		if r.Header.Get("Authorization") != "Bearer sk-test" || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("headers %v", r.Header)
		}
		if r.Body["model"] != "text-embedding-3-small" || r.Body["encoding_format"] != "float" {
			t.Errorf("body %v", r.Body)
		}
		if _, ok := r.Body["dimensions"]; ok {
			t.Errorf("dimensions sent though unset: %v", r.Body)
		}
	}
	if got := remoteInputs(t, reqs[1].Body); !reflect.DeepEqual(got, []string{"data", "eagle"}) {
		t.Errorf("second batch %q", got)
	}
}

func TestOpenAIEmbedDimensions(t *testing.T) {
	srv := openAIEmbedServer(t) // answers with 3 dimensions
	e, _ := embed.NewOpenAI("text-embedding-3-large", embed.OpenAIOptions{BaseURL: srv.URL, Dimensions: 3})
	if e.Model() != "openai/text-embedding-3-large/3" || e.Dimension() != 3 {
		t.Errorf("Model() = %q, Dimension() = %d", e.Model(), e.Dimension())
	}
	if _, err := e.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if d := srv.got()[0].Body["dimensions"]; d != 3.0 {
		t.Errorf("dimensions %v, want 3", d)
	}

	wrong, _ := embed.NewOpenAI("text-embedding-3-large", embed.OpenAIOptions{BaseURL: srv.URL, Dimensions: 256})
	if _, err := wrong.Embed(context.Background(), []string{"x"}); err == nil || !strings.Contains(err.Error(), "dimension 3") {
		t.Errorf("error %v, want a dimension mismatch", err)
	}
}

// openAIError writes an error in the OpenAI shape.
func openAIError(w http.ResponseWriter, status int, message, typ, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error":{"message":%q,"type":%q,"param":null,"code":%q}}`, message, typ, code)
}

func TestOpenAIEmbedRetries(t *testing.T) {
	srv := newRemoteServer(t, func(w http.ResponseWriter, n int, body map[string]any) {
		if n <= 2 {
			openAIError(w, http.StatusTooManyRequests, "Rate limit reached for requests", "requests", "rate_limit_exceeded")
			return
		}
		remoteWriteJSON(w, map[string]any{"data": []map[string]any{{"index": 0, "embedding": []float32{1, 2}}}})
	})
	e, _ := embed.NewOpenAI("m", embed.OpenAIOptions{BaseURL: srv.URL, HTTP: remoteQuick()})
	if _, err := e.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.got()); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
}

func TestOpenAIEmbedGivesUpOn5xx(t *testing.T) {
	srv := newRemoteServer(t, func(w http.ResponseWriter, _ int, _ map[string]any) {
		openAIError(w, http.StatusServiceUnavailable, "The server is overloaded", "server_error", "")
	})
	e, _ := embed.NewOpenAI("m", embed.OpenAIOptions{BaseURL: srv.URL, HTTP: remoteQuick()})
	_, err := e.Embed(context.Background(), []string{"x"})
	var he *embed.HTTPError
	if !errors.As(err, &he) || he.StatusCode != 503 || he.Attempts != 3 || len(srv.got()) != 3 {
		t.Fatalf("error %v after %d attempts", err, len(srv.got()))
	}
	if !strings.Contains(err.Error(), "The server is overloaded (type server_error)") {
		t.Errorf("error %q lacks the server's message", err)
	}
}

func TestOpenAIEmbedBadKeyIsNotRetriedNorLeaked(t *testing.T) {
	const key = "sk-proj-abcdefghijklmnop"
	srv := newRemoteServer(t, func(w http.ResponseWriter, _ int, _ map[string]any) {
		openAIError(w, http.StatusUnauthorized, "Incorrect API key provided: "+key, "invalid_request_error", "invalid_api_key")
	})
	o := remoteQuick()
	o.APIKey = key
	e, _ := embed.NewOpenAI("m", embed.OpenAIOptions{BaseURL: srv.URL, HTTP: o})
	_, err := e.Embed(context.Background(), []string{"x"})
	if err == nil || strings.Contains(err.Error(), key) {
		t.Fatalf("error %v: want one that hides the key", err)
	}
	for _, want := range []string{"embed: openai", srv.URL + "/v1/embeddings", "401", "Incorrect API key provided", "invalid_api_key"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if n := len(srv.got()); n != 1 {
		t.Errorf("%d attempts, want 1", n)
	}
}

func TestOpenAIEmbedBadAnswers(t *testing.T) {
	for _, tc := range []struct {
		name, answer, want string
	}{
		{"malformed JSON", `{"data": [`, "malformed JSON"},
		{"base64 instead of floats", `{"data": [{"index": 0, "embedding": "AAAA"}, {"index": 1, "embedding": "AAAA"}]}`, "malformed JSON"},
		{"too few", `{"data": [{"index": 0, "embedding": [1]}]}`, "returned 1 embeddings for 2 texts"},
		{"no index", `{"data": [{"embedding": [1]}, {"index": 1, "embedding": [1]}]}`, "without an index"},
		{"index out of range", `{"data": [{"index": 0, "embedding": [1]}, {"index": 2, "embedding": [1]}]}`, "index 2 for a batch of 2"},
		{"index twice", `{"data": [{"index": 1, "embedding": [1]}, {"index": 1, "embedding": [1]}]}`, "index 1 twice"},
		{"null embedding", `{"data": [{"index": 0, "embedding": null}, {"index": 1, "embedding": [1]}]}`, "empty vector for text 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRemoteServer(t, func(w http.ResponseWriter, _ int, _ map[string]any) { io.WriteString(w, tc.answer) })
			e, _ := embed.NewOpenAI("m", embed.OpenAIOptions{BaseURL: srv.URL, HTTP: remoteQuick()})
			_, err := e.Embed(context.Background(), []string{"a", "b"})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), srv.URL+"/v1/embeddings") {
				t.Errorf("error %v, want one naming the endpoint and %q", err, tc.want)
			}
		})
	}
}

func TestOpenAIEmbedDimensionChangeBetweenBatches(t *testing.T) {
	srv := newRemoteServer(t, func(w http.ResponseWriter, n int, body map[string]any) {
		vec := []float32{1, 2}
		if n > 1 {
			vec = []float32{1, 2, 3}
		}
		var data []map[string]any
		for i := range remoteInputs(t, body) {
			data = append(data, map[string]any{"index": i, "embedding": vec})
		}
		remoteWriteJSON(w, map[string]any{"data": data})
	})
	e, _ := embed.NewOpenAI("m", embed.OpenAIOptions{BaseURL: srv.URL, BatchSize: 1})
	_, err := e.Embed(context.Background(), []string{"a", "b"})
	if err == nil || !strings.Contains(err.Error(), "dimension 3 for text 1, but earlier vectors have dimension 2") {
		t.Fatalf("error %v", err)
	}
}

func TestOpenAIProbe(t *testing.T) {
	srv := openAIEmbedServer(t)
	e, _ := embed.NewOpenAI("m", embed.OpenAIOptions{BaseURL: srv.URL})
	if n, err := e.Probe(context.Background()); err != nil || n != 3 {
		t.Fatalf("Probe = %d, %v", n, err)
	}
	declared, _ := embed.NewOpenAI("m", embed.OpenAIOptions{BaseURL: srv.URL, Dimensions: 3})
	if n, err := declared.Probe(context.Background()); err != nil || n != 3 {
		t.Fatalf("Probe = %d, %v", n, err)
	}
	if n := len(srv.got()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestNewOpenAIValidates(t *testing.T) {
	if _, err := embed.NewOpenAI("", embed.OpenAIOptions{}); err == nil {
		t.Error("empty model accepted")
	}
	if _, err := embed.NewOpenAI("m", embed.OpenAIOptions{BaseURL: "api.openai.com"}); err == nil {
		t.Error("base URL without scheme accepted")
	}
	if _, err := embed.NewOpenAI("m", embed.OpenAIOptions{Dimensions: -5}); err == nil {
		t.Error("negative dimensions accepted")
	}
}

// TestOpenAIEmbedRequestJSON pins the body of /v1/embeddings byte for byte:
// "input" is always an array, "encoding_format" is "float" (OpenAI's
// clients default to base64), "dimensions" only when asked for.
func TestOpenAIEmbedRequestJSON(t *testing.T) {
	for _, tc := range []struct {
		name  string
		o     embed.OpenAIOptions
		texts []string
		want  string
	}{
		{"one text", embed.OpenAIOptions{}, []string{"solo"},
			`{"model":"text-embedding-3-small","input":["solo"],"encoding_format":"float"}`},
		{"dimensions", embed.OpenAIOptions{Dimensions: 2}, []string{"a", "b"},
			`{"model":"text-embedding-3-small","input":["a","b"],"dimensions":2,"encoding_format":"float"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var raw []byte
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				raw, _ = io.ReadAll(r.Body)
				var data []map[string]any
				for i := range tc.texts {
					data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": []float32{1, 0}})
				}
				remoteWriteJSON(w, map[string]any{"object": "list", "data": data, "model": "text-embedding-3-small"})
			}))
			defer srv.Close()
			tc.o.BaseURL = srv.URL
			e, _ := embed.NewOpenAI("text-embedding-3-small", tc.o)
			if _, err := e.Embed(context.Background(), tc.texts); err != nil {
				t.Fatal(err)
			}
			if string(raw) != tc.want {
				t.Errorf("request\n%s\nwant\n%s", raw, tc.want)
			}
		})
	}
}

// TestOpenAIEmbedErrorShapes answers with the errors OpenAI sends, in its
// shape {"error": {"message", "type", "param", "code"}}; each error names
// the model and the endpoint, never the key.
func TestOpenAIEmbedErrorShapes(t *testing.T) {
	const key = "sk-proj-abcdefghijklmnop"
	for _, tc := range []struct {
		name       string
		status     int
		retryAfter string
		body       string
		attempts   int
		want       string
	}{
		{"bad key", 401, "", `{"error":{"message":"Incorrect API key provided: ` + key + `.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, 1,
			"401 Unauthorized: Incorrect API key provided: [redacted]. (type invalid_request_error, code invalid_api_key)"},
		{"unknown model", 404, "", `{"error":{"message":"The model ` + "`text-embedding-9`" + ` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`, 1,
			"404 Not Found: The model `text-embedding-9` does not exist or you do not have access to it. (type invalid_request_error, code model_not_found)"},
		{"input too long", 400, "", `{"error":{"message":"This model's maximum context length is 8192 tokens, however you requested 9000 tokens (9000 in your prompt; 0 for the completion). Please reduce your prompt; or completion length.","type":"invalid_request_error","param":null,"code":"context_length_exceeded"}}`, 1,
			"400 Bad Request: This model's maximum context length is 8192 tokens"},
		{"rate limited, long pause", 429, "60", `{"error":{"message":"Rate limit reached for text-embedding-9 in organization org-abc on tokens per min (TPM): Limit 1000000, Used 999000, Requested 5000.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}`, 1,
			"(type tokens, code rate_limit_exceeded) (server asked to retry after 1m0s"},
		{"server error", 500, "", `{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}`, 3,
			"500 Internal Server Error: The server had an error while processing your request. Sorry about that! (type server_error) (after 3 attempts)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRemoteServer(t, func(w http.ResponseWriter, _ int, _ map[string]any) {
				w.Header().Set("Content-Type", "application/json")
				if tc.retryAfter != "" {
					w.Header().Set("Retry-After", tc.retryAfter)
				}
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			})
			o := remoteQuick()
			o.APIKey = key
			e, _ := embed.NewOpenAI("text-embedding-9", embed.OpenAIOptions{BaseURL: srv.URL, HTTP: o})
			_, err := e.Embed(context.Background(), []string{"x"})
			var he *embed.HTTPError
			if !errors.As(err, &he) || he.StatusCode != tc.status {
				t.Fatalf("error %v", err)
			}
			if strings.Contains(err.Error(), key) {
				t.Errorf("error %q leaks the key", err)
			}
			if prefix := "embed: openai/text-embedding-9: POST " + srv.URL + "/v1/embeddings: "; !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error\n%s\nwant %q after %q", err, tc.want, prefix)
			}
			if n := len(srv.got()); n != tc.attempts {
				t.Errorf("%d attempts, want %d", n, tc.attempts)
			}
		})
	}
}
