package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
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

// gateEmbedder embeds as the built-in embedder does, but once armed it
// holds its next call until released (or the call's context ends).
type gateEmbedder struct {
	fonte.Embedder
	armed            atomic.Bool
	entered, release chan struct{}
}

func newGateEmbedder() *gateEmbedder {
	return &gateEmbedder{Embedder: engine.DefaultEmbedder(), entered: make(chan struct{}), release: make(chan struct{})}
}

func (g *gateEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if g.armed.CompareAndSwap(true, false) {
		close(g.entered)
		select {
		case <-g.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return g.Embedder.Embed(ctx, texts)
}

// generation reopens the default collection's folder and returns its
// generation and whether it holds doc.
func generation(t *testing.T, dir, doc string) (uint64, bool) {
	t.Helper()
	e, err := engine.Open(context.Background(), engine.Settings{Store: dir}, engine.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	st, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range st.Docs {
		if d.ID == doc {
			return st.Generation, true
		}
	}
	return st.Generation, false
}

// TestShutdownDuringUpload stops the server (as SIGTERM does) while an
// upload is being embedded: the upload finishes and commits, and the
// index opens at the new generation with the document whole.
func TestShutdownDuringUpload(t *testing.T) {
	g := newGateEmbedder()
	ts := start(t, config{embedder: g})
	dir := ts.engine.Location()
	before, _ := ts.engine.Status(context.Background())
	g.armed.Store(true)
	got := make(chan int, 1)
	go func() {
		status, _ := ts.upload(t, "/v1/documents", adminToken, map[string]string{"outing.md": markerDoc})
		got <- status
	}()
	<-g.entered
	ts.stop()
	time.Sleep(100 * time.Millisecond)
	close(g.release)
	if status := <-got; status != 200 {
		t.Fatalf("the upload in flight during shutdown: %d", status)
	}
	if err := <-ts.done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	ts.done <- nil // for the cleanup
	ts.engine.Close()
	gen, has := generation(t, dir, "outing.md")
	if gen != before.Generation+1 || !has {
		t.Fatalf("after shutdown: generation %d (was %d), has the upload %v", gen, before.Generation, has)
	}
}

// TestCanceledUploadLeavesNothing: a client that goes away while its
// upload is being embedded leaves the index at the previous generation,
// with nothing of the upload in it.
func TestCanceledUploadLeavesNothing(t *testing.T) {
	g := newGateEmbedder()
	ts := start(t, config{embedder: g})
	before, _ := ts.engine.Status(context.Background())
	g.armed.Store(true)
	ctx, cancel := context.WithCancel(context.Background())
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "outing.md")
	_, _ = io.WriteString(fw, markerDoc)
	_ = mw.Close()
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.url+"/v1/documents", &body)
	req.Header.Set("Authorization", "Bearer "+adminToken)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	errc := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	<-g.entered
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("the canceled request succeeded")
	}
	// The handler sees the cancellation, aborts the commit and releases
	// the writer: the next upload goes through.
	deadline := time.Now().Add(5 * time.Second)
	for {
		status, _ := ts.upload(t, "/v1/documents", adminToken, map[string]string{"other.md": "# Other\n\nThe yak shaving contest is in May.\n"})
		if status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("uploads still fail after the cancel: %d", status)
		}
		time.Sleep(50 * time.Millisecond)
	}
	st, _ := ts.engine.Status(context.Background())
	if st.Generation != before.Generation+1 {
		t.Fatalf("generation %d after one canceled and one good upload (was %d)", st.Generation, before.Generation)
	}
	for _, d := range st.Docs {
		if d.ID == "outing.md" {
			t.Fatal("the canceled upload is in the index")
		}
	}
}
