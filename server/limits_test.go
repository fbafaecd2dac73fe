package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/ingest"
	"github.com/fonte-rag/fonte/internal/bombdoc"
	"github.com/fonte-rag/fonte/server"
)

// generation returns the default collection's generation and chunk count.
func (ts *testServer) generation(t *testing.T) (uint64, int) {
	t.Helper()
	code, raw, _ := ts.call(t, "GET", "/v1/status", adminToken, nil)
	if code != http.StatusOK {
		t.Fatalf("status: %d %s", code, raw)
	}
	var st struct {
		Generation uint64 `json:"generation"`
		Chunks     int    `json:"chunks"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	return st.Generation, st.Chunks
}

// wantProblem checks a problem's status, type and that its detail says
// each of words.
func wantProblem(t *testing.T, code int, raw []byte, status int, slug string, words ...string) {
	t.Helper()
	var p server.Problem
	if err := json.Unmarshal(raw, &p); err != nil || code != status || !strings.HasSuffix(p.Type, "#"+slug) {
		t.Fatalf("got %d %s, want %d %s", code, raw, status, slug)
	}
	for _, w := range words {
		if !strings.Contains(p.Detail, w) {
			t.Errorf("the detail does not say %q: %s", w, p.Detail)
		}
	}
}

// Issue 21's upload, scaled down (ten small Word files of many chunks),
// is refused with 422 naming the chunk limit, and a 42 KB body that
// inflates past the expanded-bytes limit with 413; the index is unchanged
// either way. (engine's TestAddRefusesARunOverItsLimits runs the full
// size under the default limits.)
func TestUploadOverItsLimits(t *testing.T) {
	ts := start(t, config{limits: ingest.Limits{ExpandedBytes: 1 << 20, Chunks: 2000}, noErrors: true})
	gen, chunks := ts.generation(t)
	files := map[string]string{}
	for i := range 10 {
		files[fmt.Sprintf("spese-%02d.docx", i)] = string(bombdoc.DOCX(1500, i))
	}
	code, raw := ts.upload(t, "/v1/documents", adminToken, files)
	wantProblem(t, code, raw, http.StatusUnprocessableEntity, "over-limit", "max-chunks 2000", "reached at spese-", "nothing of it was indexed")

	big := bombdoc.DOCX(15000, 0)
	code, raw = ts.upload(t, "/v1/documents", adminToken, map[string]string{"grande.docx": string(big)})
	wantProblem(t, code, raw, http.StatusRequestEntityTooLarge, "over-limit", fmt.Sprintf("max-expanded-bytes %d", 1<<20), "grande.docx")
	if len(big) > 64<<10 {
		t.Errorf("the body was %d bytes: the test means a small one that inflates", len(big))
	}
	if g, c := ts.generation(t); g != gen || c != chunks {
		t.Errorf("the index changed: generation %d→%d, chunks %d→%d", gen, g, chunks, c)
	}
}

// A re-index of a folder over a limit (POST /v1/index, and Reindex, which
// a folder watcher calls) is refused with the limit named and the
// previous index kept.
func TestReindexOverItsLimits(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "spese.docx"), bombdoc.DOCX(3000, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := start(t, config{folder: dir, limits: ingest.Limits{Chunks: 2000}, noErrors: true})
	gen, chunks := ts.generation(t)
	code, raw, _ := ts.call(t, "POST", "/v1/index", adminToken, nil)
	wantProblem(t, code, raw, http.StatusUnprocessableEntity, "over-limit", "max-chunks 2000", "spese.docx", "previous index is kept")

	_, err := ts.srv.Reindex(context.Background(), server.DefaultCollection)
	var le *ingest.LimitError
	if !errors.As(err, &le) || le.Limit != ingest.LimitChunks {
		t.Errorf("Reindex (a watcher's run) over the limit: %v", err)
	}
	if g, c := ts.generation(t); g != gen || c != chunks {
		t.Errorf("the index changed: generation %d→%d, chunks %d→%d", gen, g, chunks, c)
	}
}

// A collection takes Options.UploadSlots uploads at once: one more waits,
// then gets 503 with Retry-After; once a slot frees, uploads go through.
func TestUploadSlots(t *testing.T) {
	ts := start(t, config{uploads: 1, noErrors: true})
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	req, err := http.NewRequest("POST", ts.url+"/v1/documents", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+adminToken)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	// The body goes only once the handler reads it, that is once it
	// holds the slot: 100 Continue tells the client so.
	req.Header.Set("Expect", "100-continue")
	reading := make(chan struct{})
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{Got100Continue: func() { close(reading) }}))
	client := &http.Client{Transport: &http.Transport{ExpectContinueTimeout: time.Minute}}
	first := make(chan int, 1)
	go func() {
		resp, err := client.Do(req)
		if err != nil {
			t.Error(err)
			first <- 0
			return
		}
		resp.Body.Close()
		first <- resp.StatusCode
	}()
	<-reading

	code, raw, h := ts.call(t, "POST", "/v1/documents", adminToken, uploadOf(t, "b.md", "# B\n\nSecond upload.\n"), "Content-Type", "multipart/form-data; boundary=XYZ")
	wantProblem(t, code, raw, http.StatusServiceUnavailable, "uploads-busy", "max-uploads")
	if h.Get("Retry-After") != "5" {
		t.Errorf("Retry-After %q, want 5", h.Get("Retry-After"))
	}

	fw, err := mw.CreateFormFile("file", "a.md")
	if err == nil {
		_, err = io.WriteString(fw, "# A\n\nThe first upload, sent slowly.\n")
	}
	if err == nil {
		err = mw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if got := <-first; got != http.StatusOK {
		t.Fatalf("the slow upload: %d", got)
	}
	code, raw, _ = ts.call(t, "POST", "/v1/documents", adminToken, uploadOf(t, "c.md", "# C\n\nThird upload.\n"), "Content-Type", "multipart/form-data; boundary=XYZ")
	if code != http.StatusOK {
		t.Fatalf("an upload after the slot freed: %d %s", code, raw)
	}
}

// uploadOf is a multipart body of one file with the boundary XYZ.
func uploadOf(t *testing.T, name, content string) []byte {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	if err := mw.SetBoundary("XYZ"); err != nil {
		t.Fatal(err)
	}
	fw, err := mw.CreateFormFile("file", name)
	if err == nil {
		_, err = io.WriteString(fw, content)
	}
	if err == nil {
		err = mw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// leaveEmbedder is the built-in embedder that, once armed, holds the first
// batch of a marked text until its context ends, and counts the marked
// batches it is given after that. It embeds whatever the context, as a
// model server does with a batch it was sent: the engine, not the
// embedder, must stop asking.
type leaveEmbedder struct {
	fonte.Embedder
	mark    string
	armed   chan struct{}
	started chan struct{}
	once    sync.Once

	mu    sync.Mutex
	after int // marked batches asked for once the first one's context ended
	ended bool
}

func (g *leaveEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	marked := false
	for _, s := range texts {
		marked = marked || strings.Contains(s, g.mark)
	}
	select {
	case <-g.armed:
	default:
		marked = false
	}
	if marked {
		g.mu.Lock()
		if g.ended {
			g.after++
		}
		g.mu.Unlock()
		first := false
		g.once.Do(func() { first = true })
		if first {
			close(g.started)
			select {
			case <-ctx.Done():
			case <-time.After(time.Minute):
				return nil, errors.New("the upload's context did not end a minute after its client left")
			}
			g.mu.Lock()
			g.ended = true
			g.mu.Unlock()
		}
	}
	return g.Embedder.Embed(context.WithoutCancel(ctx), texts)
}

// A client that leaves in the middle of an upload stops its work: no
// batch is embedded after it left, nothing is committed, and the server
// logs no error.
func TestUploadStopsWhenTheClientLeaves(t *testing.T) {
	g := &leaveEmbedder{Embedder: engine.DefaultEmbedder(), mark: "voce 7", armed: make(chan struct{}), started: make(chan struct{})}
	ts := start(t, config{embedder: g, noErrors: true})
	gen, chunks := ts.generation(t)
	close(g.armed)

	conn, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	body := uploadOf(t, "spese.docx", string(bombdoc.DOCX(3000, 7)))
	req, err := http.NewRequest("POST", ts.url+"/v1/documents", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+adminToken)
	req.Header.Set("Content-Type", "multipart/form-data; boundary=XYZ")
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	<-g.started
	conn.Close()

	// The next upload takes the collection's writer turn once the first
	// has given it up.
	code, raw, _ := ts.call(t, "POST", "/v1/documents", adminToken, uploadOf(t, "dopo.md", "# Dopo\n\nCaricato dopo.\n"), "Content-Type", "multipart/form-data; boundary=XYZ")
	if code != http.StatusOK {
		t.Fatalf("the next upload: %d %s", code, raw)
	}
	g.mu.Lock()
	after, ended := g.after, g.ended
	g.mu.Unlock()
	if !ended || after != 0 {
		t.Errorf("the first batch saw its context end: %v; %d batches of the document were embedded after the client left (of %d)", ended, after, 3001/64+1)
	}
	g2, c2 := ts.generation(t)
	if g2 != gen+1 || c2 != chunks+1 {
		t.Errorf("generation %d→%d, chunks %d→%d: want only the next upload's one chunk committed", gen, g2, chunks, c2)
	}
	_, list, _ := ts.call(t, "GET", "/v1/documents", adminToken, nil)
	if strings.Contains(string(list), "spese.docx") {
		t.Errorf("the abandoned upload was indexed: %s", list)
	}
}
