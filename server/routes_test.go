package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/retrieve"
	"github.com/fonte-rag/fonte/server"
	"github.com/fonte-rag/fonte/wire"
)

func TestSearchEqualsEngine(t *testing.T) {
	ts := start(t, config{})
	k := 5
	status, body, hdr := ts.call(t, "POST", "/v1/search", readToken, server.SearchRequest{Query: "vacation days per year", K: &k,
		Filters: &server.Filters{Prefixes: []string{"people/"}}, Retriever: "hybrid"})
	if status != 200 || hdr.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d %s: %s", status, hdr.Get("Content-Type"), body)
	}
	hits, err := ts.engine.Search(context.Background(), "vacation days per year", engine.SearchOptions{K: 5, Mode: retrieve.Hybrid,
		Filter: retrieve.Filter{Prefixes: []string{"people/"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 {
		t.Fatal("the engine found nothing")
	}
	want := compact(t, mustJSON(t, server.SearchResponse{Query: "vacation days per year", Hits: wire.Hits(hits)}))
	if got := compact(t, body); got != want {
		t.Errorf("search:\n got %s\nwant %s", got, want)
	}
	var resp server.SearchResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatal(err)
	}
	for _, h := range resp.Hits {
		if !strings.HasPrefix(h.Doc, "people/") || len(h.Legs) == 0 {
			t.Errorf("hit %+v: outside the filter or without legs", h)
		}
	}
}

func TestAskEqualsEngine(t *testing.T) {
	ts := start(t, config{})
	q := "How many vacation days do I get in a year if I work full time?"
	status, body, _ := ts.call(t, "POST", "/v1/ask", readToken, map[string]any{"question": q})
	if status != 200 {
		t.Fatalf("status %d: %s", status, body)
	}
	a, err := ts.engine.Ask(context.Background(), q, engine.AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Abstained || len(a.Citations) == 0 {
		t.Fatalf("the engine abstained: %+v", a)
	}
	if got, want := compact(t, body), compact(t, mustJSON(t, wire.FromAnswer(a, false))); got != want {
		t.Errorf("ask:\n got %s\nwant %s", got, want)
	}
	// A floor above every relevance makes it abstain.
	_, body, _ = ts.call(t, "POST", "/v1/ask", readToken, map[string]any{"question": q, "floor": 0.999})
	var ab wire.Answer
	if err := json.Unmarshal(body, &ab); err != nil || !ab.Abstained {
		t.Errorf("floor 0.999: %s", body)
	}
}

func TestChatRewritesFollowUp(t *testing.T) {
	ts := start(t, config{})
	history := []server.Message{
		{Role: "user", Content: "How many vacation days do I get in a year if I work full time?"},
		{Role: "assistant", Content: "26 working days [1]."},
	}
	status, body, _ := ts.call(t, "POST", "/v1/chat", readToken, map[string]any{"question": "and part time?", "history": history})
	if status != 200 {
		t.Fatalf("status %d: %s", status, body)
	}
	var resp server.ChatResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatal(err)
	}
	if resp.Question != "and part time?" || resp.Query == resp.Question || resp.Query == "" {
		t.Errorf("the query was not rewritten: question %q, query %q", resp.Question, resp.Query)
	}
	if len(resp.History) != 4 || resp.History[2] != (server.Message{Role: "user", Content: resp.Query}) {
		t.Errorf("history %+v", resp.History)
	}
	status, body, _ = ts.call(t, "POST", "/v1/chat", readToken, map[string]any{"question": "x", "history": []map[string]string{{"role": "system", "content": "y"}}})
	if p := problemOf(t, body); status != 400 || p.Field != "history[0].role" {
		t.Errorf("bad role: %d %s", status, body)
	}
}

// A question that stands on its own is searched as it is, whatever the
// history; a follow-up's query, in the streamed result too, holds its own
// words in place of the ones they replace.
func TestChatSearchesTheQueryItShows(t *testing.T) {
	ts := start(t, config{})
	history := []server.Message{
		{Role: "user", Content: "Quanto posso spendere a notte per un hotel a Londra?"},
		{Role: "assistant", Content: "250 euro [1]."},
	}
	const standalone = "Qual è il codice di abbigliamento per la festa di Natale?"
	status, body, _ := ts.call(t, "POST", "/v1/chat", readToken, map[string]any{"question": standalone, "history": history})
	if status != 200 {
		t.Fatalf("status %d: %s", status, body)
	}
	var resp server.ChatResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatal(err)
	}
	if resp.Query != standalone || len(resp.History) != 4 || resp.History[2].Content != standalone {
		t.Errorf("a standalone question was rewritten: query %q, history %+v", resp.Query, resp.History)
	}

	history[0].Content = "How much can I spend per night on a hotel in London?"
	_, events := ts.stream(t, "/v1/chat", map[string]any{"question": "And for meals?", "history": history})
	var done server.ChatResponse
	for _, e := range events {
		if e.name == "done" {
			if err := json.Unmarshal([]byte(e.data), &done); err != nil {
				t.Fatal(err)
			}
		}
	}
	if q := strings.ToLower(done.Query); !strings.Contains(q, "meals") || !strings.Contains(q, "london") || strings.Contains(q, "hotel") {
		t.Errorf("the streamed follow-up searched %q", done.Query)
	}
	if len(done.History) != 4 || done.History[2].Content != done.Query {
		t.Errorf("the next turn's history does not hold the query searched: %+v", done.History)
	}
}

func TestAskStream(t *testing.T) {
	ts := start(t, config{gen: streamGen{pieces: leavePieces}})
	resp, events := ts.stream(t, "/v1/ask", map[string]any{"question": "How many vacation days do I get in a year if I work full time?"})
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, type %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var names []string
	var text strings.Builder
	for _, e := range events {
		names = append(names, e.name)
		if e.name == "token" {
			var tok struct{ Text string }
			if err := json.Unmarshal([]byte(e.data), &tok); err != nil {
				t.Fatal(err)
			}
			text.WriteString(tok.Text)
		}
	}
	// The model's three pieces make one sentence, which is sent once it
	// is whole and checked: a sentence is never shown before fonte knows
	// it stands behind it.
	if got := strings.Join(names, ","); got != "token,citations,done" {
		t.Fatalf("events %s", got)
	}
	var cites []wire.Citation
	if err := json.Unmarshal([]byte(events[1].data), &cites); err != nil || len(cites) == 0 {
		t.Fatalf("citations %s: %v", events[1].data, err)
	}
	var done wire.Answer
	if err := json.Unmarshal([]byte(events[2].data), &done); err != nil {
		t.Fatal(err)
	}
	if done.Answer != text.String() || done.Answer != strings.Join(leavePieces, "") || done.Model != "fake/stream" || len(done.Citations) != len(cites) {
		t.Errorf("done %+v, streamed %q", done, text.String())
	}
}

func TestAskStreamErrorIsAnEvent(t *testing.T) {
	ts := start(t, config{gen: streamGen{pieces: leavePieces, failAfter: 2}})
	resp, events := ts.stream(t, "/v1/ask", map[string]any{"question": "How many vacation days do I get in a year if I work full time?"})
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	var names []string
	for _, e := range events {
		names = append(names, e.name)
	}
	// The model failed inside its first sentence, so none of it was
	// shown.
	if got := strings.Join(names, ","); got != "error" {
		t.Fatalf("events %s", got)
	}
	p := problemOf(t, []byte(events[0].data))
	if p.Status != 500 || p.Type == "" || strings.Contains(events[0].data, "10.0.0.9") {
		t.Errorf("error event %s: want a 500 problem without internals", events[0].data)
	}
}

func TestBadRequests(t *testing.T) {
	ts := start(t, config{})
	big := `{"query": "` + strings.Repeat("a", server.MaxBodyBytes) + `"}`
	cases := []struct {
		name, path, body string
		status           int
		field            string
	}{
		{"malformed", "/v1/search", `{"query": `, 400, "body"},
		{"not json", "/v1/ask", `hello`, 400, "body"},
		{"empty", "/v1/search", ``, 400, "body"},
		{"trailing", "/v1/search", `{"query": "a"} {}`, 400, "body"},
		{"unknown field", "/v1/search", `{"query": "a", "top_k": 3}`, 400, "top_k"},
		{"unknown filter", "/v1/search", `{"query": "a", "filters": {"folder": "x"}}`, 400, "folder"},
		{"k zero", "/v1/search", `{"query": "a", "k": 0}`, 400, "k"},
		{"k negative", "/v1/ask", `{"question": "a", "k": -1}`, 400, "k"},
		{"k too big", "/v1/search", `{"query": "a", "k": 1001}`, 400, "k"},
		{"k a string", "/v1/search", `{"query": "a", "k": "ten"}`, 400, "k"},
		{"missing query", "/v1/search", `{"k": 3}`, 400, "query"},
		{"blank question", "/v1/ask", `{"question": "  "}`, 400, "question"},
		{"bad retriever", "/v1/search", `{"query": "a", "retriever": "magic"}`, 400, "retriever"},
		{"floor over 1", "/v1/ask", `{"question": "a", "floor": 2}`, 400, "floor"},
		{"oversized", "/v1/search", big, 413, "body"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body, hdr := ts.call(t, "POST", c.path, readToken, []byte(c.body))
			p := problemOf(t, body)
			if status != c.status || p.Status != c.status || p.Field != c.field || p.Title == "" || p.Type == "" || p.Detail == "" {
				t.Errorf("status %d, problem %+v; want %d naming %q", status, p, c.status, c.field)
			}
			if ct := hdr.Get("Content-Type"); ct != "application/problem+json" {
				t.Errorf("content type %s", ct)
			}
			// The retriever problem lists every accepted name, auto
			// (the default) included.
			if c.field == "retriever" && !strings.Contains(p.Detail, "auto, hybrid, bm25, tfidf or vector") {
				t.Errorf("retriever problem %q does not list the accepted names", p.Detail)
			}
		})
	}
}

// TestUnknownFieldListsFields: an unknown field's problem lists the
// fields its object takes, and a top-level "messages" (OpenAI's chat
// format) points to the route that speaks it.
func TestUnknownFieldListsFields(t *testing.T) {
	ts := start(t, config{})
	for _, c := range []struct {
		path, body, field, detail string
	}{
		{"/v1/chat", `{"messages": [{"role": "user", "content": "hi"}]}`, "messages",
			`unknown field "messages"; the fields here are filters, floor, history, k, question, retriever, trace; OpenAI-style messages go to POST /v1/chat/completions`},
		{"/v1/search", `{"query": "a", "top_k": 3}`, "top_k", `unknown field "top_k"; the fields here are filters, k, query, retriever, trace`},
		{"/v1/search", `{"query": "a", "filters": {"folder": "x"}}`, "folder", `unknown field "filters.folder"; the fields here are prefixes, tags`},
	} {
		status, body, _ := ts.call(t, "POST", c.path, readToken, []byte(c.body))
		p := problemOf(t, body)
		if status != 400 || p.Field != c.field || p.Detail != c.detail || !strings.HasSuffix(p.Type, "#unknown-field") {
			t.Errorf("%s %s: %d %+v; want 400 naming %s: %q", c.path, c.body, status, p, c.field, c.detail)
		}
	}
}

func TestHealthReadyOpen(t *testing.T) {
	ts := start(t, config{})
	for _, path := range []string{"/healthz", "/readyz", "/openapi.json"} {
		if status, body, _ := ts.call(t, "GET", path, "", nil); status != 200 {
			t.Errorf("%s: %d %s", path, status, body)
		}
	}
	status, body, _ := ts.call(t, "GET", "/v1/status", readToken, nil)
	var st engine.Status
	if err := json.Unmarshal(body, &st); status != 200 || err != nil || st.Documents == 0 || st.Chunks == 0 {
		t.Errorf("status %d %s", status, body)
	}
	if status, _, _ := ts.call(t, "GET", "/v1/nothing", readToken, nil); status != http.StatusNotFound {
		t.Errorf("unknown route: %d", status)
	}
}

// TestStreamChatAndAbstention: chat streams like ask and its done event
// carries the next history; an abstention still ends with citations, done.
func TestStreamChatAndAbstention(t *testing.T) {
	ts := start(t, config{})
	_, events := ts.stream(t, "/v1/chat", map[string]any{"question": "and part time?",
		"history": []server.Message{{Role: "user", Content: "How many vacation days do I get in a year?"}, {Role: "assistant", Content: "26 [1]."}}})
	if len(events) < 3 || events[len(events)-1].name != "done" || events[len(events)-2].name != "citations" {
		t.Fatalf("chat events %+v", events)
	}
	var chat server.ChatResponse
	if err := json.Unmarshal([]byte(events[len(events)-1].data), &chat); err != nil || len(chat.History) != 4 || chat.Query == chat.Question {
		t.Errorf("chat done %s: %v", events[len(events)-1].data, err)
	}
	_, events = ts.stream(t, "/v1/ask", map[string]any{"question": "How many vacation days?", "floor": 0.999})
	var names []string
	for _, e := range events {
		names = append(names, e.name)
	}
	if got := strings.Join(names, ","); got != "token,citations,done" {
		t.Fatalf("abstention events %s", got)
	}
	var a wire.Answer
	if err := json.Unmarshal([]byte(events[2].data), &a); err != nil || !a.Abstained {
		t.Errorf("abstention done %s: %v", events[2].data, err)
	}
}
