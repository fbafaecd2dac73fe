package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"regexp"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/fonte-rag/fonte/server"
	"github.com/fonte-rag/fonte/wire"
)

const leaveQuestion = "How many vacation days do I get in a year if I work full time?"

// openaiClient is OpenAI's own Go SDK pointed at a test server.
func openaiClient(url, token string) *openai.Client {
	c := openai.NewClient(option.WithBaseURL(url+"/v1/"), option.WithAPIKey(token), option.WithMaxRetries(0))
	return &c
}

// fonteOf reads the fonte extension of a completion or chunk's raw JSON.
func fonteOf(t *testing.T, raw string) wire.Answer {
	t.Helper()
	var body struct {
		Fonte *wire.Answer `json:"fonte"`
	}
	if err := json.Unmarshal([]byte(raw), &body); err != nil || body.Fonte == nil {
		t.Fatalf("no fonte extension in %s: %v", raw, err)
	}
	return *body.Fonte
}

func TestOpenAIModels(t *testing.T) {
	ts := start(t, config{})
	page, err := openaiClient(ts.url, readToken).Models.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Data) != 1 || page.Data[0].ID != "default" || page.Data[0].OwnedBy != "fonte" || page.Data[0].Created == 0 {
		t.Errorf("models %+v", page.Data)
	}
}

func TestOpenAIChatCompletion(t *testing.T) {
	ts := start(t, config{})
	client := openaiClient(ts.url, readToken)
	params := openai.ChatCompletionNewParams{
		Model:       "default",
		Temperature: openai.Float(0.2), // accepted, ignored
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("You are a helpful assistant."),
			openai.UserMessage(leaveQuestion),
		},
	}
	resp, err := client.Chat.Completions.New(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Choices) != 1 || resp.Model != "default" || !strings.HasPrefix(resp.ID, "chatcmpl-") || resp.Object != "chat.completion" {
		t.Fatalf("completion %s", resp.RawJSON())
	}
	ch := resp.Choices[0]
	text := ch.Message.Content
	t.Logf("completion text: %q", text)
	if ch.FinishReason != "stop" || ch.Message.Role != "assistant" || !regexp.MustCompile(`\[1\]`).MatchString(text) ||
		!strings.Contains(text, "\n\nSources:\n[1] ") {
		t.Errorf("choice %s", resp.RawJSON())
	}
	if resp.Usage.TotalTokens == 0 || resp.Usage.TotalTokens != resp.Usage.PromptTokens+resp.Usage.CompletionTokens {
		t.Errorf("usage %+v", resp.Usage)
	}
	a := fonteOf(t, resp.RawJSON())
	if a.Abstained || len(a.Citations) == 0 || a.Citations[0].Chunk == "" || a.Citations[0].Quote == "" || !strings.HasPrefix(text, a.Answer) {
		t.Errorf("fonte %+v", a)
	}
	if !strings.Contains(text, "("+a.Citations[0].Doc+")") {
		t.Errorf("the sources do not name %s: %q", a.Citations[0].Doc, text)
	}

	// Streamed, the same text arrives piece by piece and the stream ends
	// cleanly, its last chunk carrying the answer object.
	stream := client.Chat.Completions.NewStreaming(context.Background(), params)
	var acc openai.ChatCompletionAccumulator
	var last openai.ChatCompletionChunk
	chunks := 0
	for stream.Next() {
		last = stream.Current()
		acc.AddChunk(last)
		chunks++
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if len(acc.Choices) != 1 || acc.Choices[0].Message.Content != text || acc.Choices[0].FinishReason != "stop" || chunks < 3 {
		t.Errorf("streamed %d chunks: %+v\nwant %q", chunks, acc.Choices, text)
	}
	if sa := fonteOf(t, last.RawJSON()); len(sa.Citations) != len(a.Citations) || sa.Answer != a.Answer {
		t.Errorf("stream's fonte %+v", sa)
	}

	// History: earlier user and assistant turns are the conversation.
	follow, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{Model: "default",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(leaveQuestion), openai.AssistantMessage(a.Answer),
			openai.UserMessage("and part time?")}})
	if err != nil {
		t.Fatal(err)
	}
	if fa := fonteOf(t, follow.RawJSON()); fa.Question != "and part time?" || fa.Query == fa.Question {
		t.Errorf("the follow-up was not rewritten: %+v", fa)
	}
}

// TestOpenAIStreamDeltas: a streaming model's pieces arrive as chunks, and
// usage is sent when asked for.
func TestOpenAIStreamDeltas(t *testing.T) {
	ts := start(t, config{gen: streamGen{pieces: leavePieces}})
	stream := openaiClient(ts.url, readToken).Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
		Model: "default", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(leaveQuestion)},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}})
	var pieces []string
	var acc openai.ChatCompletionAccumulator
	for stream.Next() {
		c := stream.Current()
		acc.AddChunk(c)
		if len(c.Choices) > 0 && c.Choices[0].Delta.Content != "" {
			pieces = append(pieces, c.Choices[0].Delta.Content)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	// The model's pieces make one sentence, sent as one delta once it is
	// whole and checked, then the sources.
	if len(pieces) != 2 || pieces[0] != strings.Join(leavePieces, "") || !strings.HasPrefix(pieces[1], "\n\nSources:") {
		t.Errorf("pieces %q", pieces)
	}
	if acc.Usage.TotalTokens == 0 {
		t.Errorf("no usage: %+v", acc.Usage)
	}
}

// TestOpenAIStreamError: a failure mid-stream reaches the SDK as an error,
// without internals, not as a cut connection.
func TestOpenAIStreamError(t *testing.T) {
	ts := start(t, config{gen: streamGen{pieces: leavePieces, failAfter: 2}})
	stream := openaiClient(ts.url, readToken).Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
		Model: "default", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(leaveQuestion)}})
	n := 0
	for stream.Next() {
		n++
	}
	var se *ssestream.StreamError
	if err := stream.Err(); !errors.As(err, &se) || strings.Contains(se.Message, "10.0.0.9") || !strings.Contains(string(se.Event.Data), `"status":500`) {
		t.Fatalf("after %d chunks: %v", n, err)
	}
	if n != 1 { // the role: the two pieces were an unfinished sentence, never shown
		t.Errorf("%d chunks before the error", n)
	}
}

func TestOpenAIErrors(t *testing.T) {
	ts := start(t, config{})
	ask := func(url, token, model string) error {
		_, err := openaiClient(url, token).Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model: model, Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(leaveQuestion)}})
		return err
	}
	status := func(err error) int {
		var apiErr *openai.Error
		if !errors.As(err, &apiErr) {
			t.Fatalf("not an API error: %v", err)
		}
		return apiErr.StatusCode
	}
	if got := status(ask(ts.url, "wrong-token", "default")); got != 401 {
		t.Errorf("wrong token: %d", got)
	}
	if _, err := openaiClient(ts.url, "wrong-token").Models.List(context.Background()); status(err) != 401 {
		t.Errorf("models, wrong token: %v", err)
	}
	if got := status(ask(ts.url, readToken, "nope")); got != 404 {
		t.Errorf("unknown model: %d", got)
	}

	// A token limited to another collection may neither use nor see this one.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	const otherToken = "other-collection-token"
	srv, err := server.New(ts.engine, server.Options{Addr: ln.Addr().String(), AdminToken: adminToken, Logger: slog.New(slog.DiscardHandler),
		Tokens: []server.TokenDigest{{SHA256: server.Digest(otherToken), Scope: server.ScopeRead, Collections: []string{"other"}}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.Serve(ctx, ln, srv, slog.New(slog.DiscardHandler)) }()
	t.Cleanup(func() { stop(); <-done })
	url := "http://" + ln.Addr().String()
	if got := status(ask(url, otherToken, "default")); got != 403 {
		t.Errorf("other collection's token: %d", got)
	}
	if page, err := openaiClient(url, otherToken).Models.List(context.Background()); err != nil || len(page.Data) != 0 {
		t.Errorf("other collection's token sees %+v (%v)", page, err)
	}
}

func TestOpenAIBadRequests(t *testing.T) {
	ts := start(t, config{})
	cases := []struct {
		name, body string
		status     int
		field      string
	}{
		{"malformed", `{"model": `, 400, "body"},
		{"no model", `{"messages": [{"role": "user", "content": "hi"}]}`, 400, "model"},
		{"no messages", `{"model": "default"}`, 400, "messages"},
		{"last not user", `{"model": "default", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]}`, 400, "messages[1].role"},
		{"tool role", `{"model": "default", "messages": [{"role": "tool", "content": "x"}, {"role": "user", "content": "hi"}]}`, 400, "messages[0].role"},
		{"image part", `{"model": "default", "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]}`, 400, "messages[0].content[0].type"},
		{"blank question", `{"model": "default", "messages": [{"role": "user", "content": [{"type": "text", "text": " "}]}]}`, 400, "messages[0].content"},
		{"n 2", `{"model": "default", "n": 2, "messages": [{"role": "user", "content": "hi"}]}`, 400, "n"},
		{"tools", `{"model": "default", "tools": [], "messages": [{"role": "user", "content": "hi"}]}`, 400, "tools"},
		{"unknown model", `{"model": "nope", "messages": [{"role": "user", "content": "hi"}]}`, 404, "model"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body, _ := ts.call(t, "POST", "/v1/chat/completions", readToken, []byte(c.body))
			if p := problemOf(t, body); status != c.status || p.Field != c.field {
				t.Errorf("status %d, problem %+v; want %d naming %q", status, p, c.status, c.field)
			}
		})
	}
	// Content as text parts, sampling fields and stream_options are fine.
	status, body, _ := ts.call(t, "POST", "/v1/chat/completions", readToken, []byte(`{"model": "default", "temperature": 0, "top_p": 1,
		"max_tokens": 100, "max_completion_tokens": 100, "n": 1, "user": "u", "seed": 1, "stop": ["x"], "stream_options": null,
		"messages": [{"role": "developer", "content": "be brief"}, {"role": "user", "content": [{"type": "text", "text": "`+leaveQuestion+`"}]}]}`))
	if status != 200 {
		t.Errorf("parts: %d %s", status, body)
	}
}
