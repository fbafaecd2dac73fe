package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/server"
)

// logLine is one JSON line of the server's log.
type logLine struct {
	Level      string   `json:"level"`
	Msg        string   `json:"msg"`
	Method     string   `json:"method"`
	Route      string   `json:"route"`
	Status     int      `json:"status"`
	Bytes      int64    `json:"bytes"`
	DurationMS *float64 `json:"duration_ms"`
	Token      string   `json:"token"`
}

// TestAccessLog: every request leaves one JSON line with its method,
// route pattern (not the path), status, bytes, duration and the token's
// digest prefix, never the token; start and shutdown are logged too.
func TestAccessLog(t *testing.T) {
	logs := &lockedBuffer{}
	ts := start(t, config{logs: logs, logJSON: true})
	for _, r := range []struct{ method, path, token, body string }{
		{"POST", "/v1/search", readToken, `{"query": "hotel limit in London", "k": 2}`},
		{"GET", "/v1/documents/secret-plan.md", readToken, ""},
		{"GET", "/v1/documents", "", ""},
		{"GET", "/no/such/route", adminToken, ""},
		{"GET", "/v1/search", readToken, ""},
		{"GET", "/healthz", "", ""},
	} {
		var body any
		if r.body != "" {
			body = r.body
		}
		ts.call(t, r.method, r.path, r.token, body)
	}
	ts.shutdown(t)

	out := logs.String()
	var lines []logLine
	for _, raw := range strings.Split(strings.TrimSpace(out), "\n") {
		var l logLine
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatalf("a log line that is not JSON: %q: %v", raw, err)
		}
		lines = append(lines, l)
	}
	reader := "sha256:" + server.Digest(readToken)[:12]
	admin := "sha256:" + server.Digest(adminToken)[:12]
	for _, want := range []logLine{
		{Level: "INFO", Method: "POST", Route: "POST /v1/search", Status: http.StatusOK, Token: reader},
		{Level: "INFO", Method: "GET", Route: "GET /v1/documents/{id...}", Status: http.StatusNotFound, Token: reader},
		{Level: "INFO", Method: "GET", Route: "GET /v1/documents", Status: http.StatusUnauthorized, Token: "none"},
		{Level: "INFO", Method: "GET", Route: "unmatched", Status: http.StatusNotFound, Token: admin},
		{Level: "INFO", Method: "GET", Route: "unmatched", Status: http.StatusMethodNotAllowed, Token: reader},
		{Level: "DEBUG", Method: "GET", Route: "GET /healthz", Status: http.StatusOK, Token: "none"},
	} {
		found := false
		for _, l := range lines {
			if l.Msg == "request" && l.Level == want.Level && l.Method == want.Method && l.Route == want.Route && l.Status == want.Status && l.Token == want.Token {
				found = true
				if l.Bytes <= 0 || l.DurationMS == nil || *l.DurationMS < 0 {
					t.Errorf("%s %s: bytes %d, duration %v; want both", want.Method, want.Route, l.Bytes, l.DurationMS)
				}
			}
		}
		if !found {
			t.Errorf("no log line %+v in:\n%s", want, out)
		}
	}
	for _, msg := range []string{"serving", "shutting down: no new connections; requests in flight may finish", "shut down"} {
		if !strings.Contains(out, `"msg":"`+msg+`"`) {
			t.Errorf("no %q line in:\n%s", msg, out)
		}
	}
	// The route pattern stands for the path: a document's name never
	// reaches the log, nor a token.
	for _, secret := range []string{"secret-plan", "/no/such/route", readToken, adminToken} {
		if strings.Contains(out, secret) {
			t.Errorf("the log holds %q:\n%s", secret, out)
		}
	}
}

// TestUnmatchedRoutesAreProblems: a path no route has and a method a
// route does not answer get RFC 9457 problems like every other error (the
// 405 with Allow), not the mux's plain text; a handler's own 404 is left
// as it was.
func TestUnmatchedRoutesAreProblems(t *testing.T) {
	ts := start(t, config{})
	for _, c := range []struct {
		method, path string
		status       int
		slug, allow  string
	}{
		{"GET", "/no/such/route", http.StatusNotFound, "no-route", ""},
		{"POST", "/v2/search", http.StatusNotFound, "no-route", ""},
		{"GET", "/v1/search", http.StatusMethodNotAllowed, "method-not-allowed", "POST"},
		{"DELETE", "/v1/status", http.StatusMethodNotAllowed, "method-not-allowed", "GET, HEAD"},
		{"PUT", "/v1/collections/support/status", http.StatusMethodNotAllowed, "method-not-allowed", "GET, HEAD"},
		{"GET", "/v1/documents/no-such.md", http.StatusNotFound, "not-found", ""},
	} {
		status, raw, h := ts.call(t, c.method, c.path, adminToken, nil)
		if status != c.status || h.Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s %s: %d %s %s; want %d application/problem+json", c.method, c.path, status, h.Get("Content-Type"), raw, c.status)
			continue
		}
		var p server.Problem
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Errorf("%s %s: not one problem: %v: %s", c.method, c.path, err, raw)
			continue
		}
		if p.Status != c.status || !strings.HasSuffix(p.Type, "#"+c.slug) || p.Title == "" || p.Detail == "" {
			t.Errorf("%s %s: problem %+v; want status %d, type #%s, a title and a detail", c.method, c.path, p, c.status, c.slug)
		}
		if got := h.Get("Allow"); got != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, got, c.allow)
		}
	}
}
