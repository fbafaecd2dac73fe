package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/server"
	"github.com/fonte-rag/fonte/storetest"
)

// TestHiddenDocumentsMoveNoScore is the attack of issue 21 through the
// real server: a reader searches "hotel W" for words W that occur only in
// documents it may not read. Every response body it gets (hits, scores,
// relevance, answers, the abstain decision, the trace but its timings)
// over the handbook with the hidden documents must be the one it gets
// over the handbook alone, on every route and retriever, for a read
// token with a label, one without, and an anonymous reader under
// --public-read. The handbook's finance folder is labelled too, so the
// readers' statistics already leave out documents both servers hold.
func TestHiddenDocumentsMoveNoScore(t *testing.T) {
	const staffToken = "staff-label-token"
	docs := filepath.Join(t.TempDir(), "handbook")
	storetest.CopyTree(t, "../examples/handbook", docs)
	access := map[string][]string{"finance/": {"finance"}, "hr/": {"hr"}}
	alone := scoresServer(t, docs, access, staffToken)
	hidden := map[string]string{
		"hr/salaries.md": "---\ntitle: Salaries\n---\n# Salaries\n\nThe director's salary is 184500 euros a year. " +
			"Hotel nights for the board are booked at the Grand Hotel; the hotel bill goes to payroll.\n",
		"hr/reviews.md":         "# Reviews\n\nPerformance reviews happen in March. The hotel budget for the review week is 9700 euros.\n",
		"people/secret-plan.md": "---\naccess: [board]\n---\n# Piano\n\nLo stipendio del direttore è di 184500 euro. Trasferta in hotel a Roma.\n",
	}
	for name, text := range hidden {
		p := filepath.Join(docs, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	with := scoresServer(t, docs, access, staffToken)

	queries := []string{"hotel 184500", "hotel 9700", "hotel zanzibar", "hotel salary", "director salary",
		"How much is the hotel allowance on a business trip?", "what is the director's salary?",
		"qual è lo stipendio del direttore?", "who approves a purchase order", "how do I report an incident"}
	type route struct {
		path string
		body func(q, retriever string) any
	}
	routes := []route{
		{"/v1/search", func(q, r string) any { return map[string]any{"query": q, "retriever": r, "trace": true, "k": 8} }},
		{"/v1/ask", func(q, r string) any { return map[string]any{"question": q, "retriever": r, "trace": true} }},
		{"/v1/chat", func(q, r string) any {
			return map[string]any{"question": q, "history": []map[string]string{{"role": "user", "content": "travel"}}, "retriever": r, "trace": true}
		}},
		{"/v1/chat/completions", func(q, _ string) any {
			return map[string]any{"model": "default", "messages": []map[string]string{{"role": "user", "content": q}}}
		}},
	}
	readers := map[string]string{"read token": readToken, "read token with a label": staffToken, "anonymous": ""}
	compared := 0
	for who, token := range readers {
		for _, q := range queries {
			for _, rt := range routes {
				for _, retriever := range []string{"hybrid", "bm25", "tfidf", "vector"} {
					if rt.path == "/v1/chat/completions" && retriever != "hybrid" {
						continue
					}
					body := rt.body(q, retriever)
					gotStatus, got := post(t, with, rt.path, token, body)
					wantStatus, want := post(t, alone, rt.path, token, body)
					if gotStatus != wantStatus || got != want {
						t.Fatalf("%s, %s %s %q: the response with the hidden documents differs from the one without\nwith:    %d %s\nwithout: %d %s",
							who, rt.path, retriever, q, gotStatus, got, wantStatus, want)
					}
					if gotStatus != http.StatusOK {
						t.Fatalf("%s, %s %s %q: %d %s", who, rt.path, retriever, q, gotStatus, got)
					}
					if strings.Contains(got, "salaries.md") || strings.Contains(got, "reviews.md") || strings.Contains(got, "secret-plan.md") {
						t.Fatalf("%s sees a hidden document through %s: %s", who, rt.path, got)
					}
					compared++
				}
			}
		}
	}
	// The MCP tools answer from the same engine calls.
	for _, q := range queries[:4] {
		for _, tool := range []string{"search", "ask"} {
			args := map[string]any{"query": q, "question": q}
			if tool == "search" {
				delete(args, "question")
			} else {
				delete(args, "query")
			}
			if got, want := mcpCall(t, with, readToken, tool, args), mcpCall(t, alone, readToken, tool, args); got != want {
				t.Fatalf("MCP %s %q: with the hidden documents %s\nwithout %s", tool, q, got, want)
			}
		}
	}
	// An admin sees the hidden documents, and its scores count them.
	_, adminWith := post(t, with, "/v1/search", adminToken, map[string]any{"query": "hotel 184500"})
	if !strings.Contains(adminWith, "salaries.md") {
		t.Fatalf("the admin does not find the hr document: %s", adminWith)
	}
	t.Logf("%d responses compared", compared)
}

// scoresServer indexes folder into a new embedded store with access
// rules (as rules that need not match a file: the handbook alone has no
// hr/ folder) and serves it on httptest, with the suite's read and admin
// tokens and a read token holding label "staff".
func scoresServer(t *testing.T, folder string, access map[string][]string, staffToken string) *testServer {
	t.Helper()
	ctx := context.Background()
	settings := engine.Settings{Store: t.TempDir(), InheritedAccess: access}
	e, err := engine.Open(ctx, settings, engine.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if _, err := e.Index(ctx, folder, nil); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(nil)
	settings.Store = ""
	srv, err := server.New(e, server.Options{Addr: hs.Listener.Addr().String(), AdminToken: adminToken, PublicRead: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), DataDir: t.TempDir(), Template: settings, RateLimit: &server.RateLimit{},
		Tokens: []server.TokenDigest{
			{SHA256: server.Digest(readToken), Scope: server.ScopeRead},
			{SHA256: server.Digest(staffToken), Scope: server.ScopeRead, Labels: []string{"staff"}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	hs.Config.Handler = srv
	hs.Start()
	t.Cleanup(hs.Close)
	return &testServer{url: hs.URL, addr: hs.Listener.Addr().String(), engine: e, srv: srv}
}

// post sends body and returns the status and the body with what may
// differ between two servers answering alike removed: durations (ms),
// the completion's id and creation time.
func post(t *testing.T, ts *testServer, path, token string, body any) (int, string) {
	t.Helper()
	status, raw, _ := ts.call(t, "POST", path, token, body)
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v in %s", path, err, raw)
	}
	v = withoutTimings(v)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return status, b.String()
}

func withoutTimings(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch k {
			case "ms", "created", "id", "system_fingerprint":
				if _, isNum := e.(float64); isNum || k == "id" || k == "system_fingerprint" {
					delete(x, k)
					continue
				}
			}
			x[k] = withoutTimings(e)
		}
	case []any:
		for i := range x {
			x[i] = withoutTimings(x[i])
		}
	}
	return v
}
