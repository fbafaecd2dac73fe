package server_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/server"
)

const uploadBody = "--XYZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"notes/new.md\"\r\n" +
	"Content-Type: text/markdown\r\n\r\n# New\n\nA new note about the canteen.\n\r\n--XYZ--\r\n"

var multipartHeader = []string{"Content-Type", "multipart/form-data; boundary=XYZ"}

// routeCalls is one request per route, each valid for an admin; every
// collection route is called at /v1/… and at /v1/collections/default/….
var routeCalls = []struct {
	method, path, body string
	scope              string   // "" public, "read", "admin"
	header             []string // extra request headers, name then value
	global             bool     // not about one collection
}{
	{"POST", "/v1/search", `{"query": "vacation"}`, "read", nil, false},
	{"POST", "/v1/collections/default/search", `{"query": "vacation"}`, "read", nil, false},
	{"POST", "/v1/ask", `{"question": "How many vacation days?"}`, "read", nil, false},
	{"POST", "/v1/collections/default/ask", `{"question": "How many vacation days?"}`, "read", nil, false},
	{"POST", "/v1/chat", `{"question": "and part time?", "history": [{"role": "user", "content": "vacation days"}]}`, "read", nil, false},
	{"POST", "/v1/collections/default/chat", `{"question": "and part time?", "history": [{"role": "user", "content": "vacation days"}]}`, "read", nil, false},
	{"GET", "/v1/documents", ``, "read", nil, false},
	{"GET", "/v1/collections/default/documents", ``, "read", nil, false},
	{"POST", "/v1/documents", uploadBody, "admin", multipartHeader, false},
	{"POST", "/v1/collections/default/documents", uploadBody, "admin", multipartHeader, false},
	{"GET", "/v1/status", ``, "read", nil, false},
	{"GET", "/v1/collections/default/status", ``, "read", nil, false},
	{"GET", "/v1/passages/people/leave.md%230", ``, "read", nil, false},
	{"GET", "/v1/collections/default/passages/people/leave.md%230", ``, "read", nil, false},
	{"POST", "/v1/index", ``, "admin", nil, false},
	{"POST", "/v1/collections/default/index", ``, "admin", nil, false},
	{"GET", "/v1/documents/people/leave.md", ``, "read", nil, false},
	{"GET", "/v1/collections/default/documents/people/leave.md", ``, "read", nil, false},
	{"GET", "/v1/eval/files", ``, "admin", nil, false},
	{"GET", "/v1/collections/default/eval/files", ``, "admin", nil, false},
	{"POST", "/v1/eval", evalBody, "admin", nil, false},
	{"POST", "/v1/collections/default/eval", evalBody, "admin", nil, false},
	{"DELETE", "/v1/documents/finance/fatture.md", ``, "admin", nil, false},
	{"DELETE", "/v1/collections/default/documents/security/backup.md", ``, "admin", nil, false},
	{"GET", "/v1/collections", ``, "read", nil, true},
	{"POST", "/v1/collections", `{"name": "made"}`, "admin", nil, true},
	{"GET", "/v1/models", ``, "read", nil, true},
	{"POST", "/v1/chat/completions", `{"model": "default", "messages": [{"role": "user", "content": "How many vacation days?"}]}`, "read", nil, true},
	{"GET", "/metrics", ``, "admin", nil, true},
	{"GET", "/healthz", ``, "", nil, true},
	{"GET", "/readyz", ``, "", nil, true},
	{"GET", "/openapi.json", ``, "", nil, true},
	{"POST", "/mcp", `{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}`, "read", []string{"Accept", "application/json, text/event-stream"}, true},
}

// evalBody is a question set of one question, without generation.
const evalBody = `{"questions": "{\"id\": \"leave\", \"question\": \"How many vacation days?\", \"gold\": [{\"doc\": \"people/leave.md\", \"quote\": \"26 working days\"}]}", "generation": false}`

// otherAdmin is an admin token limited to another collection.
const otherAdmin = "admin-of-another-collection"

// TestTokensAndScopes calls every route without a token, with an unknown
// one, a read token, an admin token for another collection and an admin
// token, with and without public reads.
func TestTokensAndScopes(t *testing.T) {
	for _, public := range []bool{false, true} {
		ts := start(t, config{publicRead: public, folder: "../examples/handbook",
			tokens: []server.TokenDigest{{SHA256: server.Digest(otherAdmin), Scope: server.ScopeAdmin, Collections: []string{"other"}}}})
		for _, token := range []string{"", "not-a-token", readToken, otherAdmin, adminToken} {
			for _, c := range routeCalls {
				var body any
				if c.body != "" {
					body = c.body
				}
				status, raw, hdr := ts.call(t, c.method, c.path, token, body, c.header...)
				var want int
				switch {
				case c.scope == "", token == adminToken:
					want = 200
				case token == otherAdmin && c.global && c.path == "/v1/chat/completions":
					want = http.StatusForbidden // the model named is a collection it may not use
				case token == otherAdmin && c.global && c.path == "/v1/collections" && c.method == "POST":
					want = http.StatusForbidden // it may not make "made"
				case token == otherAdmin && c.path == "/metrics":
					want = http.StatusForbidden // the metrics count every collection
				case token == otherAdmin && c.global:
					want = 200 // lists and tools show it nothing of other collections
				case token == otherAdmin:
					want = http.StatusForbidden
				case c.scope == "read" && token == readToken, c.scope == "read" && public && token == "":
					want = 200
				case token == readToken:
					want = http.StatusForbidden
				default:
					want = http.StatusUnauthorized
				}
				if (status >= 200 && status < 300) != (want == 200) || (want != 200 && status != want) {
					t.Errorf("public %v, token %q, %s %s: %d, want %d: %s", public, token, c.method, c.path, status, want, raw)
					continue
				}
				if want == 401 || want == 403 {
					p := problemOf(t, raw)
					if p.Field != "Authorization" && p.Field != "model" {
						t.Errorf("%s %s: problem %+v does not name the Authorization", c.method, c.path, p)
					}
					if token != otherAdmin && !strings.Contains(p.Detail, "scope "+c.scope) {
						t.Errorf("%s %s: problem %+v does not name scope %s", c.method, c.path, p, c.scope)
					}
					if want == 401 && !strings.Contains(hdr.Get("WWW-Authenticate"), "Bearer") {
						t.Errorf("401 without WWW-Authenticate")
					}
					// An unknown token and no token get the same answer.
					if strings.Contains(string(raw), "not-a-token") {
						t.Errorf("the problem echoes the token: %s", raw)
					}
				}
			}
		}
	}
}

// TestEveryRouteCalled: TestTokensAndScopes covers each registered route.
func TestEveryRouteCalled(t *testing.T) {
	ts := start(t, config{})
	called := map[string]bool{}
	for _, c := range routeCalls {
		called[c.method+" "+c.path] = true
	}
	for _, pattern := range ts.srv.Routes() {
		method, path, _ := strings.Cut(pattern, " ")
		re := "^" + method + " " + strings.NewReplacer("{collection}", "default", "{id...}", ".+").Replace(path) + "$"
		found := false
		for c := range called {
			if ok, _ := regexp.MatchString(re, c); ok {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("no call in routeCalls for %s", pattern)
		}
	}
}

func TestGeneratedToken(t *testing.T) {
	ts := start(t, config{})
	srv, err := server.New(ts.engine, server.Options{Addr: ts.addr})
	if err != nil {
		t.Fatal(err)
	}
	tok := srv.GeneratedToken()
	if len(tok) < 40 {
		t.Fatalf("generated token %q", tok)
	}
	other, _ := server.New(ts.engine, server.Options{Addr: ts.addr})
	if other.GeneratedToken() == tok {
		t.Error("two servers made the same token")
	}
	configured, _ := server.New(ts.engine, server.Options{Addr: ts.addr, AdminToken: "x"})
	if configured.GeneratedToken() != "" {
		t.Error("a token was generated although one is configured")
	}
	if _, err := server.New(ts.engine, server.Options{Tokens: []server.TokenDigest{{SHA256: "abc", Scope: "read"}}}); err == nil {
		t.Error("a malformed digest was accepted")
	}
	if _, err := server.New(ts.engine, server.Options{Tokens: []server.TokenDigest{{SHA256: server.Digest("t"), Scope: "write"}}}); err == nil {
		t.Error("an unknown scope was accepted")
	}
}

func TestHostHeader(t *testing.T) {
	ts := start(t, config{})
	for host, want := range map[string]int{
		ts.addr:                           200,
		"localhost:" + portOf(ts.addr):    200,
		"evil.example":                    http.StatusMisdirectedRequest,
		"evil.example:" + portOf(ts.addr): http.StatusMisdirectedRequest,
		"127.0.0.1.nip.io":                http.StatusMisdirectedRequest,
	} {
		status, raw, _ := ts.call(t, "GET", "/v1/documents", readToken, nil, "Host", host)
		if status != want {
			t.Errorf("Host %s: %d, want %d: %s", host, status, want, raw)
		}
		if want != 200 {
			if p := problemOf(t, raw); p.Field != "Host" {
				t.Errorf("Host %s: problem %+v", host, p)
			}
		}
	}
	// No CORS: a cross-origin browser request gets no permission headers.
	_, _, hdr := ts.call(t, "GET", "/healthz", "", nil, "Origin", "https://evil.example")
	if hdr.Get("Access-Control-Allow-Origin") != "" {
		t.Error("CORS header sent")
	}
}

func portOf(addr string) string { return addr[strings.LastIndex(addr, ":")+1:] }

func TestDeleteRemovesDocument(t *testing.T) {
	ts := start(t, config{})
	const id = "people/leave.md"
	docs := func() []string {
		_, raw, _ := ts.call(t, "GET", "/v1/documents", readToken, nil)
		var resp server.DocumentsResponse
		if err := json.Unmarshal(raw, &resp); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, d := range resp.Documents {
			if d.Chunks == 0 || d.Title == "" || d.Updated.IsZero() {
				t.Errorf("document %+v", d)
			}
			ids = append(ids, d.ID)
		}
		return ids
	}
	searchDocs := func() string {
		_, raw, _ := ts.call(t, "POST", "/v1/search", readToken, `{"query": "annual leave vacation days", "k": 50}`)
		return string(raw)
	}
	if !strings.Contains(strings.Join(docs(), ","), id) || !strings.Contains(searchDocs(), `"doc":"`+id+`"`) {
		t.Fatalf("%s is not indexed", id)
	}
	// A glob in the id deletes nothing: ids are exact.
	if status, raw, _ := ts.call(t, "DELETE", "/v1/documents/people/*", adminToken, nil); status != 404 {
		t.Fatalf("glob delete: %d %s", status, raw)
	}
	status, raw, _ := ts.call(t, "DELETE", "/v1/documents/"+id, adminToken, nil)
	if status != 200 || !strings.Contains(string(raw), id) {
		t.Fatalf("delete: %d %s", status, raw)
	}
	if strings.Contains(strings.Join(docs(), ","), id) {
		t.Error("deleted document still listed")
	}
	if strings.Contains(searchDocs(), `"doc":"`+id+`"`) {
		t.Error("deleted document still found")
	}
	if status, raw, _ := ts.call(t, "DELETE", "/v1/documents/"+id, adminToken, nil); status != 404 || problemOf(t, raw).Field != "id" {
		t.Errorf("second delete: %d %s", status, raw)
	}
}

func TestMetrics(t *testing.T) {
	ts := start(t, config{})
	ts.call(t, "POST", "/v1/search", readToken, `{"query": "vacation"}`)
	ts.call(t, "POST", "/v1/search", readToken, `{"k": 0}`)
	ts.call(t, "POST", "/v1/ask", readToken, `{"question": "what does the canteen serve on fridays?"}`)
	ts.call(t, "DELETE", "/v1/documents/people/leave.md", adminToken, nil)
	status, raw, _ := ts.call(t, "GET", "/metrics", adminToken, nil)
	if status != 200 {
		t.Fatalf("metrics: %d", status)
	}
	text := string(raw)
	for _, want := range []string{
		`fonte_http_request_duration_seconds_bucket{route="POST /v1/search",status="200",le="0.001"}`,
		`fonte_http_request_duration_seconds_count{route="POST /v1/search",status="400"} 1`,
		`fonte_http_request_duration_seconds_count{route="DELETE /v1/documents/{id...}",status="200"} 1`,
		`fonte_abstentions_total{collection="default"} 1`,
		`fonte_documents{collection="default"} `,
		`fonte_chunks{collection="default"} `,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if strings.Contains(text, "people/leave.md") {
		t.Error("a raw path leaked into a label")
	}
}
