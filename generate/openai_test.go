package generate_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/generate"
)

// sseChunk is one chat.completion.chunk event carrying content.
func sseChunk(content string) string {
	return fmt.Sprintf(`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1732547798,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":%q},"logprobs":null,"finish_reason":null}]}`+"\n\n", content)
}

const (
	sseRole   = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1732547798,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]}` + "\n\n"
	sseFinish = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1732547798,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"length"}]}` + "\n\n"
	sseUsage  = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1732547798,"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":31,"completion_tokens":9,"total_tokens":40}}` + "\n\n"
	sseDone   = "data: [DONE]\n\n"
)

func TestOpenAIGenerateStreams(t *testing.T) {
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Type", "text/event-stream")
		sendLines(w,
			": keep-alive\n\n",
			sseRole,
			sseChunk("Rayleigh"),
			": OPENROUTER PROCESSING\n\n",
			"event: message\nid: 7\n"+strings.TrimSuffix(sseChunk(" scattering"), "\n\n")+"\r\n\r\n",
			"retry: 1000\n\n",
			sseChunk(""),
			sseChunk("."),
			sseFinish,
			sseUsage,
			sseDone,
		)
	})
	var finish generate.Finish
	o := quick()
	o.APIKey = "sk-test"
	g, err := generate.NewOpenAI("gpt-4o-mini", generate.OpenAIOptions{
		BaseURL:     srv.URL,
		Temperature: new(0.0),
		MaxTokens:   128,
		OnFinish:    func(f generate.Finish) { finish = f },
		HTTP:        o,
	})
	if err != nil {
		t.Fatal(err)
	}
	if g.Model() != "openai/gpt-4o-mini" {
		t.Errorf("Model() = %q", g.Model())
	}
	var deltas []string
	text, err := g.Generate(context.Background(), conversation, func(d string) { deltas = append(deltas, d) })
	if err != nil {
		t.Fatal(err)
	}
	if text != "Rayleigh scattering." || !reflect.DeepEqual(deltas, []string{"Rayleigh", " scattering", "."}) {
		t.Errorf("text %q, deltas %q", text, deltas)
	}
	if finish != (generate.Finish{Reason: "length", PromptTokens: 31, OutputTokens: 9}) {
		t.Errorf("finish %+v", finish)
	}

	if srv.paths[0] != "POST /v1/chat/completions" {
		t.Errorf("request %s", srv.paths[0])
	}
	h := srv.headers[0]
	if h.Get("Authorization") != "Bearer sk-test" || h.Get("Content-Type") != "application/json" || h.Get("Accept") != "text/event-stream" || h.Get("User-Agent") != "fonte" {
		t.Errorf("headers %v", h)
	}
	body := srv.bodies[0]
	want := map[string]any{
		"model": "gpt-4o-mini",
		"messages": []any{
			map[string]any{"role": "system", "content": "Answer from the sources."},
			map[string]any{"role": "user", "content": "Why is the sky blue?"},
		},
		"stream":                true,
		"stream_options":        map[string]any{"include_usage": true},
		"temperature":           0.0, // zero is a setting, not an absence
		"max_completion_tokens": 128.0,
	}
	if !reflect.DeepEqual(body, want) {
		t.Errorf("body %v, want %v", body, want)
	}
	if u := g.Usage(); u != finish {
		t.Errorf("Usage() = %+v, want %+v", u, finish)
	}
}

// TestOpenAIGenerateRequestJSON pins the request body byte for byte: the
// field names and their order are what OpenAI's /v1/chat/completions
// documents, and a rename (max_tokens for max_completion_tokens) would
// otherwise pass unnoticed by servers that ignore unknown fields.
func TestOpenAIGenerateRequestJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    generate.OpenAIOptions
		want string
	}{
		{"defaults", generate.OpenAIOptions{},
			`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hi"}],"stream":true,"stream_options":{"include_usage":true}}`},
		{"temperature and cap", generate.OpenAIOptions{Temperature: new(0.2), MaxTokens: 300},
			`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hi"}],"stream":true,"stream_options":{"include_usage":true},"temperature":0.2,"max_completion_tokens":300}`},
		{"legacy cap", generate.OpenAIOptions{MaxTokens: 300, LegacyMaxTokens: true},
			`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hi"}],"stream":true,"stream_options":{"include_usage":true},"max_tokens":300}`},
		{"legacy without cap", generate.OpenAIOptions{LegacyMaxTokens: true},
			`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hi"}],"stream":true,"stream_options":{"include_usage":true}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var raw []byte
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				raw, _ = io.ReadAll(r.Body)
				io.WriteString(w, sseChunk("ok")+sseDone)
			}))
			defer srv.Close()
			tc.o.BaseURL = srv.URL
			g, _ := generate.NewOpenAI("gpt-4o-mini", tc.o)
			if _, err := g.Generate(context.Background(), []fonte.Message{{Role: "user", Content: "Hi"}}, nil); err != nil {
				t.Fatal(err)
			}
			if string(raw) != tc.want {
				t.Errorf("request\n%s\nwant\n%s", raw, tc.want)
			}
		})
	}
}

// TestOpenAIGenerateUsageChunk follows what include_usage makes OpenAI
// send: "usage": null on every chunk, then after the finish_reason one
// chunk with "choices": [] and the counts, then [DONE].
func TestOpenAIGenerateUsageChunk(t *testing.T) {
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		nullUsage := func(ev string) string { return strings.Replace(ev, `"choices"`, `"usage":null,"choices"`, 1) }
		sendLines(w, nullUsage(sseRole), nullUsage(sseChunk("Blue")), nullUsage(strings.Replace(sseFinish, `"length"`, `"stop"`, 1)),
			`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1732547798,"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_0ba0d124f1","choices":[],"usage":{"prompt_tokens":1117,"completion_tokens":46,"total_tokens":1163,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}`+"\n\n",
			sseDone)
	})
	var calls int
	g, _ := generate.NewOpenAI("gpt-4o-mini", generate.OpenAIOptions{BaseURL: srv.URL, OnFinish: func(generate.Finish) { calls++ }})
	if u := g.Usage(); u != (generate.Finish{}) {
		t.Errorf("Usage() before any generation = %+v", u)
	}
	var gen fonte.Generator = g
	text, err := gen.Generate(context.Background(), conversation, nil)
	if err != nil || text != "Blue" {
		t.Fatalf("Generate = %q, %v", text, err)
	}
	ur, ok := gen.(generate.UsageReporter)
	if !ok {
		t.Fatal("*OpenAI is not a generate.UsageReporter")
	}
	if u := ur.Usage(); u != (generate.Finish{Reason: "stop", PromptTokens: 1117, OutputTokens: 46}) {
		t.Errorf("Usage() = %+v", u)
	}
	if calls != 1 {
		t.Errorf("OnFinish called %d times", calls)
	}
}

func TestOpenAIGenerateOmitsUnsetFields(t *testing.T) {
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		sendLines(w, sseChunk("ok"), sseDone)
	})
	g, _ := generate.NewOpenAI("m", generate.OpenAIOptions{BaseURL: srv.URL})
	if text, err := g.Generate(context.Background(), conversation, nil); err != nil || text != "ok" {
		t.Fatalf("Generate = %q, %v", text, err)
	}
	for _, k := range []string{"temperature", "max_tokens", "max_completion_tokens"} {
		if _, ok := srv.bodies[0][k]; ok {
			t.Errorf("%q sent though unset", k)
		}
	}
	if srv.headers[0].Get("Authorization") != "" {
		t.Error("Authorization sent without a key")
	}
}

// TestOpenAIGenerateErrorStatus answers with the errors OpenAI sends, in
// its shape {"error": {"message", "type", "param", "code"}}.
func TestOpenAIGenerateErrorStatus(t *testing.T) {
	const key = "sk-proj-very-secret-key"
	for _, tc := range []struct {
		name        string
		status      int
		retryAfter  string
		message     string
		typ, param  string
		code        string // "" sends null
		attempts    int
		wantInError []string
	}{
		{"bad key", http.StatusUnauthorized, "",
			"Incorrect API key provided: " + key + ". You can find your API key at https://platform.openai.com/account/api-keys.",
			"invalid_request_error", "", "invalid_api_key", 1,
			[]string{"401 Unauthorized", "Incorrect API key provided: [redacted]", "code invalid_api_key"}},
		{"unknown model", http.StatusNotFound, "",
			"The model `gpt-9-mini` does not exist or you do not have access to it.",
			"invalid_request_error", "", "model_not_found", 1,
			[]string{"404 Not Found", "The model `gpt-9-mini` does not exist", "code model_not_found"}},
		{"context too long", http.StatusBadRequest, "",
			"This model's maximum context length is 128000 tokens. However, your messages resulted in 130211 tokens. Please reduce the length of the messages.",
			"invalid_request_error", "messages", "context_length_exceeded", 1,
			[]string{"400 Bad Request", "maximum context length is 128000 tokens", "code context_length_exceeded"}},
		{"rate limited, pause too long", http.StatusTooManyRequests, "20",
			"Rate limit reached for gpt-9-mini in organization org-abc on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.",
			"requests", "", "rate_limit_exceeded", 1,
			[]string{"429 Too Many Requests", "Rate limit reached", "code rate_limit_exceeded", "server asked to retry after 20s"}},
		{"rate limited", http.StatusTooManyRequests, "0",
			"Rate limit reached for gpt-9-mini in organization org-abc on tokens per min (TPM).",
			"tokens", "", "rate_limit_exceeded", 3,
			[]string{"429 Too Many Requests", "type tokens", "code rate_limit_exceeded", "after 3 attempts"}},
		{"server error", http.StatusInternalServerError, "",
			"The server had an error while processing your request. Sorry about that!",
			"server_error", "", "", 3,
			[]string{"500 Internal Server Error", "The server had an error", "type server_error", "after 3 attempts"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
				w.Header().Set("Content-Type", "application/json")
				if tc.retryAfter != "" {
					w.Header().Set("Retry-After", tc.retryAfter)
				}
				w.WriteHeader(tc.status)
				e := map[string]any{"message": tc.message, "type": tc.typ, "param": nil, "code": nil}
				if tc.param != "" {
					e["param"] = tc.param
				}
				if tc.code != "" {
					e["code"] = tc.code
				}
				json.NewEncoder(w).Encode(map[string]any{"error": e})
			})
			o := quick()
			o.APIKey = key
			g, _ := generate.NewOpenAI("gpt-9-mini", generate.OpenAIOptions{BaseURL: srv.URL, HTTP: o})
			_, err := g.Generate(context.Background(), conversation, nil)
			var he *generate.HTTPError
			if !errors.As(err, &he) || he.StatusCode != tc.status {
				t.Fatalf("error %v", err)
			}
			msg := err.Error()
			if strings.Contains(msg, key) {
				t.Errorf("error %q leaks the key", msg)
			}
			want := append([]string{"generate: openai/gpt-9-mini: POST " + srv.URL + "/v1/chat/completions"}, tc.wantInError...)
			for _, w := range want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if srv.attempts() != tc.attempts {
				t.Errorf("%d attempts, want %d", srv.attempts(), tc.attempts)
			}
		})
	}
}

func TestOpenAIGenerateRetriesThenStreams(t *testing.T) {
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}`)
			return
		}
		sendLines(w, sseChunk("fine"), sseDone)
	})
	g, _ := generate.NewOpenAI("m", generate.OpenAIOptions{BaseURL: srv.URL, HTTP: quick()})
	if text, err := g.Generate(context.Background(), conversation, nil); err != nil || text != "fine" {
		t.Fatalf("Generate = %q, %v", text, err)
	}
	if srv.attempts() != 2 {
		t.Errorf("%d attempts, want 2", srv.attempts())
	}
}

func TestOpenAIGenerateBadStreams(t *testing.T) {
	for _, tc := range []struct{ name, stream, want string }{
		{"error event", sseChunk("a") + `data: {"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}` + "\n\n", "error in stream: The server had an error while processing your request. Sorry about that! (type server_error)"},
		{"error event named", sseChunk("a") + "event: error\n" + `data: {"error":{"message":"Request too large for gpt-4o-mini","type":"tokens","param":null,"code":"rate_limit_exceeded"}}` + "\n\n", "error in stream: Request too large for gpt-4o-mini (type tokens, code rate_limit_exceeded)"},
		{"malformed event", sseChunk("a") + "data: {\"choices\": [\n\n", "malformed JSON event"},
		{"cut short", sseChunk("a") + sseChunk("b"), "stream ended before data: [DONE]"},
		{"cut mid-event", sseChunk("a") + `data: {"choices":[{"index":0,"delta":{"content":"b"}`, "malformed JSON event"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) { io.WriteString(w, tc.stream) })
			g, _ := generate.NewOpenAI("m", generate.OpenAIOptions{BaseURL: srv.URL, HTTP: quick()})
			_, err := g.Generate(context.Background(), conversation, nil)
			var he *generate.HTTPError
			if !errors.As(err, &he) || he.StatusCode != 200 || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want an HTTPError with %q", err, tc.want)
			}
			if err != nil && !strings.Contains(err.Error(), "generate: openai/m: POST "+srv.URL+"/v1/chat/completions: 200 OK: ") {
				t.Errorf("error %q does not name the model and the server", err)
			}
			if u := g.Usage(); u != (generate.Finish{}) {
				t.Errorf("Usage() after a failure = %+v", u)
			}
			if srv.attempts() != 1 {
				t.Errorf("%d attempts, want 1", srv.attempts())
			}
		})
	}
}

func TestOpenAIGenerateAcceptsFinishWithoutDone(t *testing.T) {
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		io.WriteString(w, sseChunk("short")+strings.TrimSuffix(sseFinish, "\n\n"))
	})
	var finish generate.Finish
	g, _ := generate.NewOpenAI("m", generate.OpenAIOptions{BaseURL: srv.URL, OnFinish: func(f generate.Finish) { finish = f }})
	text, err := g.Generate(context.Background(), conversation, nil)
	if err != nil || text != "short" || finish.Reason != "length" {
		t.Fatalf("Generate = %q, %v, finish %+v", text, err, finish)
	}
}

func TestOpenAIGenerateMultiLineData(t *testing.T) {
	// SSE joins the data lines of one event with "\n"; JSON allows the
	// newline between tokens.
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		io.WriteString(w, "data: {\"choices\":\ndata: [{\"index\":0,\"delta\":{\"content\":\"split\"}}]}\n\n"+sseDone)
	})
	g, _ := generate.NewOpenAI("m", generate.OpenAIOptions{BaseURL: srv.URL})
	if text, err := g.Generate(context.Background(), conversation, nil); err != nil || text != "split" {
		t.Fatalf("Generate = %q, %v", text, err)
	}
}

func TestOpenAIGenerateCancelMidStream(t *testing.T) {
	srv := newChatServer(t, stallingHandler(sseChunk("Once")))
	g, _ := generate.NewOpenAI("m", generate.OpenAIOptions{BaseURL: srv.URL})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	text, err := g.Generate(ctx, conversation, func(string) { cancel() })
	if err != context.Canceled || text != "" {
		t.Fatalf("Generate = %q, %v; want context.Canceled itself", text, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to notice the cancellation", d)
	}
}

func TestOpenAIGenerateTimeoutMidStream(t *testing.T) {
	srv := newChatServer(t, stallingHandler(sseChunk("Once")))
	o := quick()
	o.Timeout = 50 * time.Millisecond
	g, _ := generate.NewOpenAI("m", generate.OpenAIOptions{BaseURL: srv.URL, HTTP: o})
	_, err := g.Generate(context.Background(), conversation, nil)
	var he *generate.HTTPError
	if !errors.As(err, &he) || !he.Timeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want a timeout", err)
	}
}

func TestOpenAIGenerateValidates(t *testing.T) {
	if _, err := generate.NewOpenAI("", generate.OpenAIOptions{}); err == nil {
		t.Error("empty model accepted")
	}
	if _, err := generate.NewOpenAI("m", generate.OpenAIOptions{MaxTokens: -1}); err == nil {
		t.Error("negative MaxTokens accepted")
	}
	g, _ := generate.NewOpenAI("m", generate.OpenAIOptions{})
	if _, err := g.Generate(context.Background(), nil, nil); err == nil {
		t.Error("empty conversation accepted")
	}
}
