package server_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestDecoderIsStrict: the body means what it says. Field names match in
// their exact case, a key twice in one object is refused naming it, an
// integral number (1e3, 10.0) is a valid integer and a fraction is
// refused as "not a whole number".
func TestDecoderIsStrict(t *testing.T) {
	ts := start(t, config{})
	cases := []struct {
		name, path, body string
		status           int
		field, detail    string // the problem's field and a part of its detail
	}{
		{"field in another case", "/v1/search", `{"Query": "vacation days"}`, 400, "Query", `did you mean "query"`},
		{"nested field in another case", "/v1/ask", `{"question": "q", "history": [{"role": "user", "Content": "x"}]}`, 400, "history[0].Content", `did you mean "content"`},
		{"filter in another case", "/v1/search", `{"query": "q", "filters": {"Prefixes": ["people/"]}}`, 400, "filters.Prefixes", `did you mean "prefixes"`},
		{"duplicate key", "/v1/search", `{"query": "salary", "query": "vacation days"}`, 400, "query", "query appears twice"},
		{"duplicate nested key", "/v1/ask", `{"question": "q", "history": [{"role": "user", "role": "assistant", "content": "x"}]}`, 400, "history[0].role", "appears twice"},
		{"duplicate inside a raw field", "/v1/chat/completions", `{"model": "default", "messages": [{"role": "user", "content": "q"}], "metadata": {"a": "1", "a": "2"}}`, 400, "metadata.a", "appears twice"},
		{"fraction for k", "/v1/search", `{"query": "q", "k": 1.5}`, 400, "k", "k must be a whole number"},
		{"integral k too large", "/v1/search", `{"query": "q", "k": 1e4}`, 400, "k", "between 1 and 1000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body, _ := ts.call(t, "POST", c.path, readToken, []byte(c.body))
			p := problemOf(t, body)
			if status != c.status || p.Field != c.field || !strings.Contains(p.Detail, c.detail) {
				t.Errorf("status %d, problem %+v; want %d naming %q with %q", status, p, c.status, c.field, c.detail)
			}
		})
	}
	// 1e3 and 10.0 are the integers 1000 and 10: the same answer as
	// written plainly.
	for written, plain := range map[string]string{"1e3": "1000", "10.0": "10", "2E1": "20"} {
		s1, b1, _ := ts.call(t, "POST", "/v1/search", readToken, []byte(`{"query": "vacation days", "k": `+written+`}`))
		s2, b2, _ := ts.call(t, "POST", "/v1/search", readToken, []byte(`{"query": "vacation days", "k": `+plain+`}`))
		if s1 != 200 || s2 != 200 || string(b1) != string(b2) {
			t.Errorf("k %s: %d %.200s\nk %s: %d %.200s", written, s1, b1, plain, s2, b2)
		}
	}
	// Exact names and numbers inside free-form fields pass as they are.
	if status, body, _ := ts.call(t, "POST", "/v1/chat/completions", readToken,
		[]byte(`{"model": "default", "messages": [{"role": "user", "content": "How many days of annual leave?"}], "temperature": 0.5, "metadata": {"A": "1", "a": "2"}}`)); status != 200 {
		t.Errorf("a valid completion request: %d %s", status, body)
	}
}

// TestSlowBodyIs408: a body that stops arriving before the server's read
// timeout is a 408 problem that says so, not a 400 with the socket's
// error, for JSON bodies and uploads alike.
func TestSlowBodyIs408(t *testing.T) {
	ts := start(t, config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// The same handler behind a server with a short read timeout.
	hs := &http.Server{Handler: ts.srv, ReadTimeout: 300 * time.Millisecond}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { hs.Close() })
	for _, c := range []struct{ path, token, contentType, start string }{
		{"/v1/search", readToken, "application/json", `{"query": `},
		{"/v1/documents", adminToken, "multipart/form-data; boundary=XYZ", "--XYZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.md\"\r\n\r\n# A"},
	} {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\nContent-Length: 1000\r\n\r\n%s",
			c.path, ts.addr, c.token, c.contentType, c.start)
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		p := problemOf(t, body)
		if resp.StatusCode != http.StatusRequestTimeout || !strings.HasSuffix(p.Type, "#request-timeout") || p.Field != "body" || strings.Contains(p.Detail, "i/o timeout") {
			t.Errorf("a slow body to %s: %d %s", c.path, resp.StatusCode, body)
		}
	}
}
