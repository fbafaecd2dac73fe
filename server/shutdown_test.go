package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/wire"
)

// slowGen blocks in Generate until release is closed.
type slowGen struct{ entered, release chan struct{} }

func (g slowGen) Generate(ctx context.Context, _ []fonte.Message, onDelta func(string)) (string, error) {
	close(g.entered)
	<-g.release
	return "26 working days [1].", nil
}

func (slowGen) Model() string { return "fake/slow" }

// TestShutdownFinishesInFlight cancels the server's context while an
// answer is being generated: the request still gets its answer, new
// connections are refused, and Serve returns nil.
func TestShutdownFinishesInFlight(t *testing.T) {
	g := slowGen{entered: make(chan struct{}), release: make(chan struct{})}
	ts := start(t, config{gen: g})
	type reply struct {
		status int
		body   []byte
	}
	got := make(chan reply, 1)
	go func() {
		req, _ := http.NewRequest("POST", ts.url+"/v1/ask", strings.NewReader(`{"question": "How many vacation days do I get in a year if I work full time?"}`))
		req.Header.Set("Authorization", "Bearer "+readToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- reply{status: -1, body: []byte(err.Error())}
			return
		}
		defer resp.Body.Close()
		var a wire.Answer
		_ = json.NewDecoder(resp.Body).Decode(&a)
		got <- reply{resp.StatusCode, []byte(a.Answer)}
	}()
	<-g.entered
	ts.stop()
	time.Sleep(100 * time.Millisecond) // Shutdown has closed the listener
	if _, err := http.Get(ts.url + "/healthz"); err == nil {
		t.Error("a new connection was accepted during shutdown")
	}
	close(g.release)
	r := <-got
	if r.status != 200 || string(r.body) != "26 working days [1]." {
		t.Errorf("in-flight request: %d %s", r.status, r.body)
	}
	if err := <-ts.done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	ts.done <- nil // for the cleanup
}
