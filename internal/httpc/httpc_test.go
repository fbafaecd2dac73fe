package httpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fast are options that keep retry tests quick.
func fast() Options {
	return Options{MaxAttempts: 3, BackoffBase: time.Millisecond, BackoffMax: 2 * time.Millisecond}
}

func TestPostJSONSendsHeadersAndBody(t *testing.T) {
	var got struct {
		method, path, ctype, accept, ua, auth string
		body                                  map[string]any
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.method, got.path = r.Method, r.URL.Path
		got.ctype, got.accept = r.Header.Get("Content-Type"), r.Header.Get("Accept")
		got.ua, got.auth = r.Header.Get("User-Agent"), r.Header.Get("Authorization")
		if err := json.NewDecoder(r.Body).Decode(&got.body); err != nil {
			t.Errorf("request body: %v", err)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"answer": 42}`)
	}))
	defer srv.Close()

	o := fast()
	o.APIKey = "sk-secret"
	c := New(o, time.Second)
	var out struct{ Answer int }
	if err := c.PostJSON(context.Background(), srv.URL+"/x/y", map[string]any{"q": "hi"}, &out); err != nil {
		t.Fatal(err)
	}
	if out.Answer != 42 {
		t.Errorf("decoded %d, want 42", out.Answer)
	}
	if got.method != http.MethodPost || got.path != "/x/y" {
		t.Errorf("request %s %s, want POST /x/y", got.method, got.path)
	}
	if got.ctype != "application/json" || got.accept != "application/json" || got.ua != "fonte" {
		t.Errorf("headers Content-Type %q Accept %q User-Agent %q", got.ctype, got.accept, got.ua)
	}
	if got.auth != "Bearer sk-secret" {
		t.Errorf("Authorization %q, want Bearer sk-secret", got.auth)
	}
	if got.body["q"] != "hi" {
		t.Errorf("body %v", got.body)
	}
}

func TestNoAuthorizationWithoutKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := r.Header["Authorization"]; ok {
			t.Errorf("Authorization sent without a key: %q", r.Header.Get("Authorization"))
		}
		io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	var out struct{}
	if err := New(fast(), time.Second).PostJSON(context.Background(), srv.URL, struct{}{}, &out); err != nil {
		t.Fatal(err)
	}
}

// statusServer answers with the given statuses in turn, then 200 {}.
func statusServer(t *testing.T, statuses []int, header http.Header, body string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if i < len(statuses) {
			for k, v := range header {
				w.Header()[k] = v
			}
			w.WriteHeader(statuses[i])
			io.WriteString(w, body)
			return
		}
		io.WriteString(w, `{}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestRetriesThenSucceeds(t *testing.T) {
	for _, status := range []int{429, 500, 502, 503, 504} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			srv, n := statusServer(t, []int{status, status}, nil, `{"error":"busy"}`)
			var out struct{}
			if err := New(fast(), time.Second).PostJSON(context.Background(), srv.URL, struct{}{}, &out); err != nil {
				t.Fatal(err)
			}
			if n.Load() != 3 {
				t.Errorf("%d attempts, want 3", n.Load())
			}
		})
	}
}

func TestGivesUpAfterMaxAttempts(t *testing.T) {
	srv, n := statusServer(t, []int{500, 500, 500, 500, 500}, nil, `{"error":"model runner crashed"}`)
	err := New(fast(), time.Second).PostJSON(context.Background(), srv.URL+"/api/embed", struct{}{}, &struct{}{})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want *Error", err, err)
	}
	if n.Load() != 3 || e.Attempts != 3 {
		t.Errorf("%d attempts, Attempts=%d, want 3", n.Load(), e.Attempts)
	}
	if e.StatusCode != 500 || e.Message != "model runner crashed" {
		t.Errorf("StatusCode %d Message %q", e.StatusCode, e.Message)
	}
	for _, want := range []string{srv.URL + "/api/embed", "500 Internal Server Error", "model runner crashed", "3 attempts"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestClientErrorsAreNotRetried(t *testing.T) {
	for _, status := range []int{400, 401, 404, 413, 422, 501} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			srv, n := statusServer(t, []int{status, status, status}, nil, `{"error":"nope"}`)
			err := New(fast(), time.Second).PostJSON(context.Background(), srv.URL, struct{}{}, &struct{}{})
			var e *Error
			if !errors.As(err, &e) || e.StatusCode != status {
				t.Fatalf("error %v, want *Error with status %d", err, status)
			}
			if n.Load() != 1 {
				t.Errorf("%d attempts, want 1", n.Load())
			}
			if strings.Contains(err.Error(), "attempts") {
				t.Errorf("error %q mentions attempts for a single try", err)
			}
		})
	}
}

// recordSleeps replaces c's sleep with one that records the waits.
func recordSleeps(c *Client) *[]time.Duration {
	var mu sync.Mutex
	var waits []time.Duration
	c.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		defer mu.Unlock()
		waits = append(waits, d)
		return ctx.Err()
	}
	return &waits
}

func TestHonoursRetryAfter(t *testing.T) {
	date := time.Now().Add(20 * time.Second).UTC().Format(http.TimeFormat)
	for _, tc := range []struct {
		header   string
		min, max time.Duration
	}{
		{"7", 7 * time.Second, 7 * time.Second},
		{"0", 0, 0},
		{date, 18 * time.Second, 21 * time.Second},
	} {
		t.Run(tc.header, func(t *testing.T) {
			srv, n := statusServer(t, []int{429}, http.Header{"Retry-After": {tc.header}}, `{"error":"slow down"}`)
			c := New(Options{MaxAttempts: 2, BackoffBase: time.Millisecond, BackoffMax: time.Minute}, time.Second)
			waits := recordSleeps(c)
			if err := c.PostJSON(context.Background(), srv.URL, struct{}{}, &struct{}{}); err != nil {
				t.Fatal(err)
			}
			if n.Load() != 2 || len(*waits) != 1 {
				t.Fatalf("%d attempts, waits %v", n.Load(), *waits)
			}
			if w := (*waits)[0]; w < tc.min || w > tc.max {
				t.Errorf("waited %v, want within [%v, %v]", w, tc.min, tc.max)
			}
		})
	}
}

func TestRetryAfterBeyondCapFailsAtOnce(t *testing.T) {
	srv, n := statusServer(t, []int{429, 429}, http.Header{"Retry-After": {"3600"}}, `{"error":"quota"}`)
	c := New(Options{MaxAttempts: 3, BackoffBase: time.Millisecond, BackoffMax: time.Second}, time.Second)
	waits := recordSleeps(c)
	err := c.PostJSON(context.Background(), srv.URL, struct{}{}, &struct{}{})
	if err == nil || !strings.Contains(err.Error(), "retry after 1h0m0s") {
		t.Fatalf("error %v, want one naming the asked pause", err)
	}
	if n.Load() != 1 || len(*waits) != 0 {
		t.Errorf("%d attempts, waits %v; want 1 attempt and no wait", n.Load(), *waits)
	}
}

func TestBackoffGrowsWithJitterAndCap(t *testing.T) {
	c := New(Options{BackoffBase: 100 * time.Millisecond, BackoffMax: time.Second}, time.Second)
	for attempt := 1; attempt <= 40; attempt++ {
		want := min(100*time.Millisecond<<min(attempt-1, 20), time.Second)
		for range 20 {
			d := c.backoff(attempt)
			if d < want/2 || d > want {
				t.Fatalf("attempt %d: backoff %v outside [%v, %v]", attempt, d, want/2, want)
			}
		}
	}
}

func TestConnectionErrorsAreRetried(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			// Drop the connection without an answer.
			conn, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			conn.Close()
			return
		}
		io.WriteString(w, `{"ok":true}`)
	}))
	defer srv.Close()
	var out struct{ OK bool }
	if err := New(fast(), time.Second).PostJSON(context.Background(), srv.URL, struct{}{}, &out); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 2 || !out.OK {
		t.Errorf("%d attempts, ok=%v; want 2, true", n.Load(), out.OK)
	}
}

func TestConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL + "/api/embed"
	srv.Close()
	err := New(fast(), time.Second).PostJSON(context.Background(), url, struct{}{}, &struct{}{})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v, want *Error", err)
	}
	if e.StatusCode != 0 || e.Attempts != 3 || !strings.Contains(err.Error(), url) || !strings.Contains(err.Error(), "connection failed") {
		t.Errorf("error %q (status %d, attempts %d)", err, e.StatusCode, e.Attempts)
	}
}

func TestTimeoutIsNotRetried(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		// The server notices the client leaving only once the body is read.
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	defer srv.Close()
	o := fast()
	o.Timeout = 30 * time.Millisecond
	start := time.Now()
	err := New(o, time.Hour).PostJSON(context.Background(), srv.URL, struct{}{}, &struct{}{})
	var e *Error
	if !errors.As(err, &e) || !e.Timeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want a timeout *Error", err)
	}
	if n.Load() != 1 {
		t.Errorf("%d attempts, want 1", n.Load())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	if !strings.Contains(err.Error(), "30ms") {
		t.Errorf("error %q does not name the timeout", err)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	srv, _ := statusServer(t, []int{503, 503, 503}, nil, "")
	ctx, cancel := context.WithCancel(context.Background())
	c := New(Options{MaxAttempts: 5, BackoffBase: time.Hour, BackoffMax: time.Hour}, time.Second)
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	err := c.PostJSON(ctx, srv.URL, struct{}{}, &struct{}{})
	if err != context.Canceled {
		t.Fatalf("error %v, want context.Canceled itself", err)
	}
}

func TestNoRetrySleepPastDeadline(t *testing.T) {
	srv, n := statusServer(t, []int{503, 503}, nil, "")
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c := New(Options{MaxAttempts: 3, BackoffBase: time.Minute, BackoffMax: time.Minute}, time.Second)
	err := c.PostJSON(ctx, srv.URL, struct{}{}, &struct{}{})
	var e *Error
	if !errors.As(err, &e) || e.StatusCode != 503 {
		t.Fatalf("error %v, want the 503 at once", err)
	}
	if n.Load() != 1 {
		t.Errorf("%d attempts, want 1", n.Load())
	}
}

func TestMalformedJSON(t *testing.T) {
	for _, body := range []string{"<html>oops</html>", `{"embeddings": [[1, 2]`, ""} {
		srv, _ := statusServer(t, nil, nil, "")
		srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) })
		var out struct{ Embeddings [][]float32 }
		err := New(fast(), time.Second).PostJSON(context.Background(), srv.URL, struct{}{}, &out)
		var e *Error
		if !errors.As(err, &e) || e.StatusCode != 200 || !strings.Contains(err.Error(), "malformed JSON") {
			t.Errorf("body %q: error %v, want a malformed-JSON *Error", body, err)
		}
	}
}

func TestErrorsDoNotLeakSecrets(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A careless server echoing the credentials it was given.
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s","type":"invalid_request_error","code":"invalid_api_key"}}`,
			strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	}))
	defer srv.Close()
	o := fast()
	o.APIKey = key
	withSecrets := strings.Replace(srv.URL, "http://", "http://user:hunter2@", 1) + "/v1/embeddings?api_key=qwerty"
	err := New(o, time.Second).PostJSON(context.Background(), withSecrets, struct{}{}, &struct{}{})
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, secret := range []string{key, "hunter2", "qwerty"} {
		if strings.Contains(msg, secret) {
			t.Errorf("error %q leaks %q", msg, secret)
		}
	}
	for _, want := range []string{srv.URL + "/v1/embeddings", "401 Unauthorized", "Incorrect API key provided", "invalid_api_key"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
}

func TestServerMessage(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"error":"model \"x\" not found, try pulling it first"}`, `model "x" not found, try pulling it first`},
		{`{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}`, "Rate limit reached (type requests, code rate_limit_exceeded)"},
		{`{"error":{"message":"bad","type":"invalid_request_error","code":null}}`, "bad (type invalid_request_error)"},
		{`{"error":"Batch size error","error_type":"validation"}`, "Batch size error (validation)"},
		{`{"message":"invalid request: list of documents must not be empty"}`, "invalid request: list of documents must not be empty"},
		{`{"detail":"Invalid API key"}`, "Invalid API key"},
		{`{"detail":[{"loc":["body","query"],"msg":"field required"}]}`, `[{"loc":["body","query"],"msg":"field required"}]`},
		{"upstream   connect error\n", "upstream connect error"},
		{"", ""},
	} {
		if got := ServerMessage([]byte(tc.body)); got != tc.want {
			t.Errorf("ServerMessage(%s) = %q, want %q", tc.body, got, tc.want)
		}
	}
	long := ServerMessage([]byte(strings.Repeat("é", 400)))
	if len(long) > 310 || !strings.HasSuffix(long, "…") {
		t.Errorf("long body gives %d bytes: %q", len(long), long)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		v    string
		want time.Duration
	}{
		{"", -1}, {"soon", -1}, {"-3", -1}, {"0", 0}, {" 12 ", 12 * time.Second},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{"99999999999999", (1 << 20) * time.Second},
	} {
		if got := parseRetryAfter(tc.v, now); got != tc.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

func TestCheckBaseURL(t *testing.T) {
	if got, err := CheckBaseURL("http://h:1/"); err != nil || got != "http://h:1" {
		t.Errorf("CheckBaseURL = %q, %v", got, err)
	}
	for _, bad := range []string{"localhost:11434", "ftp://h", "http://", "::", "http://h/?key=1", "http://h/#x"} {
		if _, err := CheckBaseURL(bad); err == nil {
			t.Errorf("CheckBaseURL(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"ftp://u:hunter2@h", "http://u:hunter2@h:port", "http://u:hunter2@h/?q"} {
		if _, err := CheckBaseURL(bad); err == nil || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("CheckBaseURL(%q): error %v leaks the password", bad, err)
		}
	}
}

func TestStreamLines(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept") != "application/x-ndjson" {
			t.Errorf("Accept %q", r.Header.Get("Accept"))
		}
		io.WriteString(w, "one\r\ntwo\n\n"+strings.Repeat("x", 100<<10)+"\nlast")
	}))
	defer srv.Close()
	st, err := New(fast(), time.Second).PostStream(context.Background(), srv.URL, struct{}{}, "application/x-ndjson")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var lines []string
	for {
		line, err := st.ReadLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(line))
	}
	if len(lines) != 5 || lines[0] != "one" || lines[1] != "two" || lines[2] != "" || len(lines[3]) != 100<<10 || lines[4] != "last" {
		t.Errorf("lines %q", lines)
	}
}

func TestStreamRetriesOnlyBeforeItStarts(t *testing.T) {
	srv, n := statusServer(t, []int{503}, nil, `{"error":"loading"}`)
	st, err := New(fast(), time.Second).PostStream(context.Background(), srv.URL, struct{}{}, "text/event-stream")
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if n.Load() != 2 {
		t.Errorf("%d attempts, want 2", n.Load())
	}
}

// blockingStream sends one line, then holds the stream open until the
// client goes away.
func blockingStream(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, "first\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestStreamTimeout(t *testing.T) {
	srv := blockingStream(t)
	o := fast()
	o.Timeout = 50 * time.Millisecond
	st, err := New(o, time.Hour).PostStream(context.Background(), srv.URL, struct{}{}, "application/x-ndjson")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if line, err := st.ReadLine(); err != nil || string(line) != "first" {
		t.Fatalf("first line %q, %v", line, err)
	}
	_, err = st.ReadLine()
	var e *Error
	if !errors.As(err, &e) || !e.Timeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want a timeout *Error", err)
	}
}

func TestStreamCancel(t *testing.T) {
	srv := blockingStream(t)
	ctx, cancel := context.WithCancel(context.Background())
	st, err := New(fast(), time.Hour).PostStream(ctx, srv.URL, struct{}{}, "application/x-ndjson")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.ReadLine(); err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	if _, err := st.ReadLine(); err != context.Canceled {
		t.Fatalf("error %v, want context.Canceled itself", err)
	}
}

func TestRedact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://u:pw@h:1/v1/embeddings?key=k#f", "http://h:1/v1/embeddings"},
		{"http://u:pw@h:port/x?key=k", "http://h:port/x"},
		{"https://api.openai.com/v1/chat/completions", "https://api.openai.com/v1/chat/completions"},
		{"u:pw@h:port", "u:h:port"},
	} {
		if got := Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
