package server_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fonte-rag/fonte/server"
)

// auditLine is one line of the audit log as a reader of the file sees it.
type auditLine struct {
	Time       string   `json:"time"`
	Token      string   `json:"token"`
	Remote     string   `json:"remote"`
	Route      string   `json:"route"`
	Collection string   `json:"collection"`
	Status     int      `json:"status"`
	Tool       string   `json:"tool"`
	Query      string   `json:"query"`
	Docs       []string `json:"docs"`
	Abstained  *bool    `json:"abstained"`
}

// shutdown stops ts's server and waits for Serve to return, so every
// request has ended and been recorded; the test's cleanup still sees
// Serve's result.
func (ts *testServer) shutdown(t *testing.T) {
	t.Helper()
	ts.stop()
	err := <-ts.done
	ts.done <- err
}

// readAudit reads an audit file line by line, strictly.
func readAudit(t *testing.T, path string) []auditLine {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []auditLine
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	for sc.Scan() {
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		var l auditLine
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("%s: line %d is not an audit record: %v: %s", path, len(out)+1, err, sc.Text())
		}
		out = append(out, l)
	}
	return out
}

// TestAuditLogSaysWhoSawWhat: every route that reads documents leaves one
// line naming the token by a digest prefix, the collection, the route,
// the question and the documents returned or cited; routes that read no
// document leave none; refusals are recorded too; the token is nowhere
// in the file, which only its owner may read.
func TestAuditLogSaysWhoSawWhat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	ts := start(t, config{audit: server.AuditOptions{Path: path}, noErrors: true})
	readID, adminID := "sha256:"+server.Digest(readToken)[:12], "sha256:"+server.Digest(adminToken)[:12]

	calls := []struct {
		method, path, token, body string
		header                    []string
	}{
		{"POST", "/v1/search", readToken, `{"query": "vacation days", "k": 3}`, nil},
		{"POST", "/v1/collections/default/ask", readToken, `{"question": "How many days of annual leave do full-time employees accrue?"}`, nil},
		{"POST", "/v1/chat/completions", readToken, `{"model": "default", "messages": [{"role": "user", "content": "What is the hotel limit in London?"}]}`, nil},
		{"GET", "/v1/documents/people/leave.md", readToken, ``, nil},
		{"GET", "/v1/passages/people/leave.md%230", adminToken, ``, nil},
		{"GET", "/v1/documents", readToken, ``, nil},
		{"GET", "/v1/status", readToken, ``, nil},                         // reads no document
		{"POST", "/v1/search", "", `{"query": "salary"}`, nil},            // refused: no token
		{"POST", "/v1/search", "not-a-token", `{"query": "salary"}`, nil}, // refused: unknown token
		{"POST", "/v1/ask", readToken, `{"question": "x", "k": 0}`, nil},  // refused: bad k
		{"POST", "/mcp", readToken, `{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}`, []string{"Accept", "application/json, text/event-stream"}},
	}
	for _, c := range calls {
		status, raw, _ := ts.call(t, c.method, c.path, c.token, c.body, c.header...)
		if status >= 500 {
			t.Fatalf("%s %s: %d %s", c.method, c.path, status, raw)
		}
	}
	// A streamed answer is recorded once it has ended.
	if resp, evs := ts.stream(t, "/v1/chat", map[string]any{"question": "What colour is the moon of Neptune?"}); resp.StatusCode != 200 || len(evs) == 0 {
		t.Fatalf("stream: %d %v", resp.StatusCode, evs)
	}
	// An MCP tool call, through the SDK's own client.
	client := sdk.NewClient(&sdk.Implementation{Name: "audit-test", Version: "0"}, nil)
	cs, err := client.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: ts.url + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{readToken, http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "get_document", Arguments: map[string]any{"id": "finance/travel-and-expenses-policy.pdf"}}); err != nil || res.IsError {
		t.Fatalf("get_document: %+v %v", res, err)
	}
	cs.Close()
	ts.shutdown(t)

	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{readToken, adminToken, "not-a-token", server.Digest(readToken), server.Digest(adminToken)} {
		if strings.Contains(string(raw), secret) {
			t.Fatalf("the audit log holds a token or a whole digest (%q):\n%s", secret, raw)
		}
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("audit file mode: %v %v", info.Mode(), err)
	}
	lines := readAudit(t, path)
	type want struct {
		route, token, collection, tool, query string
		status                                int
		doc                                   string // a document the line must name ("" none, "*" any: an abstention's nearest)
		abstained                             *bool
	}
	no, yes := false, true
	wants := []want{
		{"POST /v1/search", readID, "default", "", "vacation days", 200, "people/leave.md", nil},
		{"POST /v1/collections/{collection}/ask", readID, "default", "", "How many days of annual leave do full-time employees accrue?", 200, "people/leave.md", &no},
		{"POST /v1/chat/completions", readID, "default", "", "What is the hotel limit in London?", 200, "finance/travel-and-expenses-policy.pdf", &no},
		{"GET /v1/documents/{id...}", readID, "default", "", "people/leave.md", 200, "people/leave.md", nil},
		{"GET /v1/passages/{id...}", adminID, "default", "", "people/leave.md#0", 200, "people/leave.md", nil},
		{"GET /v1/documents", readID, "default", "", "", 200, "finance/travel-and-expenses-policy.pdf", nil},
		{"POST /v1/search", "none", "default", "", "", 401, "", nil},
		{"POST /v1/search", "unknown", "default", "", "", 401, "", nil},
		{"POST /v1/ask", readID, "default", "", "", 400, "", nil},
		{"POST /v1/chat", readID, "default", "", "What colour is the moon of Neptune?", 200, "*", &yes},
		{"POST /mcp", readID, "default", "get_document", "finance/travel-and-expenses-policy.pdf", 200, "finance/travel-and-expenses-policy.pdf", nil},
	}
	if len(lines) != len(wants) {
		t.Fatalf("%d audit lines, want %d:\n%s", len(lines), len(wants), raw)
	}
	for i, w := range wants {
		l := lines[i]
		if l.Route != w.route || l.Token != w.token || l.Collection != w.collection || l.Tool != w.tool || l.Query != w.query || l.Status != w.status {
			t.Errorf("line %d: %+v\nwant %+v", i+1, l, w)
		}
		if l.Time == "" || l.Remote != "127.0.0.1" || l.Docs == nil {
			t.Errorf("line %d: time %q, remote %q, docs %v", i+1, l.Time, l.Remote, l.Docs)
		}
		if (w.doc == "") != (len(l.Docs) == 0) || (w.doc != "" && w.doc != "*" && !slices.Contains(l.Docs, w.doc)) {
			t.Errorf("line %d (%s): docs %v, want %q among them", i+1, w.route, l.Docs, w.doc)
		}
		if (w.abstained == nil) != (l.Abstained == nil) || (w.abstained != nil && *w.abstained != *l.Abstained) {
			t.Errorf("line %d (%s): abstained %v, want %v", i+1, w.route, deref(l.Abstained), deref(w.abstained))
		}
	}
}

// TestAuditLogRotatesBySize: past MaxSize the file moves to FILE.1, the
// older ones one further, and only Keep of them stay; every line is whole
// and the newest request is in the live file.
func TestAuditLogRotatesBySize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	const maxSize = 700
	ts := start(t, config{audit: server.AuditOptions{Path: path, MaxSize: maxSize, Keep: 2}, noErrors: true})
	for i := range 12 {
		if status, raw, _ := ts.call(t, "POST", "/v1/search", readToken, fmt.Sprintf(`{"query": "vacation days %d", "k": 1}`, i)); status != 200 {
			t.Fatalf("search %d: %d %s", i, status, raw)
		}
	}
	ts.shutdown(t)
	var queries []string
	for _, p := range []string{path + ".2", path + ".1", path} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatalf("after 12 requests of about 250 bytes at a limit of %d: %v", maxSize, err)
		}
		if info.Size() > maxSize || info.Mode().Perm() != 0o600 {
			t.Errorf("%s: %d bytes (limit %d), mode %v", p, info.Size(), maxSize, info.Mode())
		}
		for _, l := range readAudit(t, p) {
			queries = append(queries, l.Query)
		}
	}
	if _, err := os.Stat(path + ".3"); !os.IsNotExist(err) {
		t.Errorf("a third old file was kept (Keep 2): %v", err)
	}
	// The three files hold the last requests, oldest first, none lost
	// between them.
	if len(queries) < 3 || queries[len(queries)-1] != "vacation days 11" {
		t.Fatalf("queries across the files: %q", queries)
	}
	first := 12 - len(queries)
	for i, q := range queries {
		if q != fmt.Sprintf("vacation days %d", first+i) {
			t.Fatalf("queries across the files: %q", queries)
		}
	}
}

// TestAuditLogConcurrentRequests: requests at once each leave one whole
// line (run it with -race).
func TestAuditLogConcurrentRequests(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	ts := start(t, config{audit: server.AuditOptions{Path: path, MaxSize: 4 << 10, Keep: 100}, noErrors: true})
	const n = 24
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("POST", ts.url+"/v1/search", strings.NewReader(fmt.Sprintf(`{"query": "hotel %d"}`, i)))
			req.Header.Set("Authorization", "Bearer "+readToken)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				errs <- err.Error()
				return
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				errs <- resp.Status
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	ts.shutdown(t)
	files, _ := filepath.Glob(path + "*")
	seen := map[string]bool{}
	for _, f := range files {
		for _, l := range readAudit(t, f) {
			seen[l.Query] = true
		}
	}
	for i := range n {
		if !seen[fmt.Sprintf("hotel %d", i)] {
			t.Errorf("request %d has no audit line (%d files, %d lines)", i, len(files), len(seen))
		}
	}
}

// TestAuditWriteFailureStaysInTheLog: when the audit file cannot be
// written (a full disk: /dev/full), the client still gets its answer and
// nothing of the failure; the server logs it, without the token.
func TestAuditWriteFailureStaysInTheLog(t *testing.T) {
	logs := &lockedBuffer{}
	ts := start(t, config{audit: server.AuditOptions{Path: "/dev/full"}, logs: logs})
	status, raw, _ := ts.call(t, "POST", "/v1/search", readToken, `{"query": "vacation days"}`)
	if status != 200 || !strings.Contains(string(raw), "people/leave.md") {
		t.Fatalf("search with a failing audit log: %d %s", status, raw)
	}
	ts.shutdown(t)
	out := logs.String()
	if !strings.Contains(out, "level=ERROR") || !strings.Contains(out, "audit log: a record was not written") || !strings.Contains(out, "no space left on device") {
		t.Fatalf("the failed write was not logged: %s", out)
	}
	// The request line names the caller by digest prefix, as the audit
	// log does; the failure's own line names only the file.
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "audit log: a record was not written") && strings.Contains(line, server.Digest(readToken)[:12]) {
			t.Fatalf("the audit failure names the token: %s", line)
		}
	}
}

func deref(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}
