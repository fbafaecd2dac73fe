package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestKeepAliveWhileHeld: while an answer is held back to be checked, a
// stream sends comments that keep proxies from closing it, and none once
// stopped.
func TestKeepAliveWhileHeld(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ev := &sse{w: w, rc: http.NewResponseController(w)}
		if err := ev.begin(); err != nil {
			t.Error(err)
			return
		}
		stop := ev.keepAlive(10 * time.Millisecond)
		time.Sleep(80 * time.Millisecond) // the model writes, the checks run
		stop()
		time.Sleep(30 * time.Millisecond) // a stopped keep-alive stays quiet
		_ = ev.send("done", map[string]string{"answer": "checked"})
	}))
	defer ts.Close()
	resp, err := http.Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	body := string(raw)
	held, after, ok := strings.Cut(body, "event: done\n")
	if !ok || strings.Contains(after, ": checking") {
		t.Fatalf("body %q", body)
	}
	if n := strings.Count(held, ": checking the answer\n\n"); n < 3 {
		t.Errorf("%d keep-alive comments in 80 ms at one per 10 ms: %q", n, body)
	}
}
