package generate_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

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
		"stream":      true,
		"temperature": 0.0, // zero is a setting, not an absence
		"max_tokens":  128.0,
	}
	if !reflect.DeepEqual(body, want) {
		t.Errorf("body %v, want %v", body, want)
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
	for _, k := range []string{"temperature", "max_tokens"} {
		if _, ok := srv.bodies[0][k]; ok {
			t.Errorf("%q sent though unset", k)
		}
	}
	if srv.headers[0].Get("Authorization") != "" {
		t.Error("Authorization sent without a key")
	}
}

func TestOpenAIGenerateErrorStatus(t *testing.T) {
	const key = "sk-very-secret-key"
	for _, tc := range []struct {
		status, attempts int
		typ, code        string
	}{
		{http.StatusBadRequest, 1, "invalid_request_error", "context_length_exceeded"},
		{http.StatusUnauthorized, 1, "invalid_request_error", "invalid_api_key"},
		{http.StatusTooManyRequests, 3, "requests", "rate_limit_exceeded"},
		{http.StatusInternalServerError, 3, "server_error", "internal"},
	} {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				fmt.Fprintf(w, `{"error":{"message":"failure number %d for %s","type":%q,"param":null,"code":%q}}`,
					tc.status, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), tc.typ, tc.code)
			})
			o := quick()
			o.APIKey = key
			g, _ := generate.NewOpenAI("m", generate.OpenAIOptions{BaseURL: srv.URL, HTTP: o})
			_, err := g.Generate(context.Background(), conversation, nil)
			var he *generate.HTTPError
			if !errors.As(err, &he) || he.StatusCode != tc.status {
				t.Fatalf("error %v", err)
			}
			msg := err.Error()
			if strings.Contains(msg, key) {
				t.Errorf("error %q leaks the key", msg)
			}
			for _, want := range []string{"generate: openai", srv.URL + "/v1/chat/completions", fmt.Sprintf("failure number %d", tc.status), "type " + tc.typ, "code " + tc.code} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q lacks %q", msg, want)
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
		{"error event", sseChunk("a") + `data: {"error":{"message":"The server had an error while processing your request","type":"server_error","code":null}}` + "\n\n", "error in stream: The server had an error while processing your request (type server_error)"},
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
