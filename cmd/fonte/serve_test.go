package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/server"
)

// TestServe runs `fonte serve` in-process on a free port: it prints the
// URL and a generated admin token once, answers with that token, refuses
// without it, and returns cleanly when its context ends (SIGINT/SIGTERM in
// main).
func TestServe(t *testing.T) {
	docs := copyHandbook(t)
	idx := filepath.Join(t.TempDir(), "index")
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"index", "--index", idx, docs}, &out, &errb); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errb.String())
	}
	t.Setenv("FONTE_ADMIN_TOKEN", "")
	url, token := serveProcess(t, true, "--index", idx)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || len(token) < 40 {
		t.Fatalf("serve printed url %q, token %q", url, token)
	}
	get := func(path, tok string) int {
		req, _ := http.NewRequest("GET", url+path, nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := get("/readyz", ""); s != 200 {
		t.Errorf("readyz: %d", s)
	}
	if s := get("/v1/documents", ""); s != 401 {
		t.Errorf("documents without a token: %d", s)
	}
	if s := get("/v1/documents", token); s != 200 {
		t.Errorf("documents with the printed token: %d", s)
	}
}

// serveProcess runs `fonte serve args…` in-process and returns its URL
// and, with generated, the admin token it printed; the server stops (and
// must return nil) at the end of the test.
func serveProcess(t *testing.T, generated bool, args ...string) (url, token string) {
	t.Helper()
	root := newRoot(io.Discard, io.Discard)
	pr, pw := io.Pipe()
	root.SetOut(pw)
	root.SetArgs(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx); pw.Close() }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve returned %v", err)
			}
		case <-time.After(time.Minute):
			t.Error("serve did not stop")
		}
	})
	lines := bufio.NewScanner(pr)
	for lines.Scan() {
		line := lines.Text()
		if u, ok := strings.CutPrefix(line, "fonte: listening on "); ok {
			url = u
			if !generated {
				break
			}
		}
		if _, tok, ok := strings.Cut(line, "kept only in memory): "); ok {
			token = tok
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if url == "" {
		cancel()
		err := <-done
		done <- nil // for the cleanup
		t.Fatalf("serve printed no URL: %v", err)
	}
	return url, token
}

// TestServeConfigAndWatch: fonte.yaml's tokens (by digest, with labels),
// folder access rules and collections reach the server; --watch re-indexes
// a collection's folder when a file changes, and /v1/status shows the run.
func TestServeConfigAndWatch(t *testing.T) {
	docs := t.TempDir()
	for name, text := range map[string]string{
		"public/parking.md": "# Parking\n\nVisitors park in lot C behind the warehouse.\n",
		"hr/bonus.md":       "# Bonus\n\nThe Quokkafestival bonus is 4,200 euros.\n",
	} {
		p := filepath.Join(docs, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "fonte.yaml")
	yamlText := fmt.Sprintf(`tokens:
  - sha256: %s
    scope: read
  - sha256: %s
    scope: read
    labels: [hr]
  - sha256: %s
    scope: admin
access:
  hr/: [hr]
collections:
  team:
    folder: %s
rate-limit: 0
`, server.Digest("plain-reader"), server.Digest("hr-reader"), server.Digest("the-admin"), docs)
	if err := os.WriteFile(cfg, []byte(yamlText), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FONTE_ADMIN_TOKEN", "")
	url, _ := serveProcess(t, false, "--config", cfg, "--index", filepath.Join(dir, "index"), "--data", filepath.Join(dir, "data"), "--watch")
	call := func(method, path, token, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(raw)
	}
	if status, body := call("POST", "/v1/collections/team/index", "the-admin", ""); status != 200 {
		t.Fatalf("first index: %d %s", status, body)
	}
	search := func(token, query string) string {
		t.Helper()
		status, body := call("POST", "/v1/collections/team/search", token, `{"query": "`+query+`"}`)
		if status != 200 {
			t.Fatalf("search: %d %s", status, body)
		}
		return body
	}
	if body := search("plain-reader", "quokkafestival bonus"); strings.Contains(body, "4,200") {
		t.Errorf("the folder rule did not hide hr/: %s", body)
	}
	if body := search("hr-reader", "quokkafestival bonus"); !strings.Contains(body, "4,200") {
		t.Errorf("a token with the hr label does not see hr/: %s", body)
	}
	if status, body := call("POST", "/v1/collections/team/search", "unknown-token", `{"query": "x"}`); status != 401 {
		t.Errorf("an unknown token: %d %s", status, body)
	}
	// A change in the folder is indexed without anyone asking.
	if err := os.WriteFile(filepath.Join(docs, "public", "canteen.md"), []byte("# Canteen\n\nThe zebracrossing lunch is served at noon.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(search("plain-reader", "zebracrossing lunch"), "served at noon") {
		if time.Now().After(deadline) {
			t.Fatal("the watcher did not index the new file")
		}
		time.Sleep(100 * time.Millisecond)
	}
	status, body := call("GET", "/v1/collections/team/status", "the-admin", "")
	if status != 200 || !strings.Contains(body, `"watch"`) || !strings.Contains(body, "canteen.md") {
		t.Errorf("status after a watched run: %d %s", status, body)
	}
	// The run names the folder and the hidden documents it indexed.
	if status, body := call("GET", "/v1/collections/team/status", "plain-reader", ""); status != 200 || strings.Contains(body, `"watch"`) {
		t.Errorf("a reader's status after a watched run: %d %s", status, body)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
// waitForOutput waits until out holds what, failing the test (after
// cancelling the command) when it does not within limit.
func waitForOutput(t *testing.T, out *syncBuffer, cancel func(), what string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !strings.Contains(out.String(), what) {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("no %q in: %s", what, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestIndexWatch: `fonte index --watch DIR` indexes, then re-indexes on a
// change (one run for the burst, deletions included) until interrupted.
func TestIndexWatch(t *testing.T) {
	docs := t.TempDir()
	if err := os.WriteFile(filepath.Join(docs, "a.md"), []byte("# A\n\nThe first note.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	idx := filepath.Join(t.TempDir(), "index")
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- Main(ctx, []string{"index", "--watch", "--index", idx, docs}, out, io.Discard) }()
	waitFor := func(what string) { t.Helper(); waitForOutput(t, out, cancel, what, time.Minute) }
	waitFor("watching " + docs)
	if err := os.WriteFile(filepath.Join(docs, "b.md"), []byte("# B\n\nThe second note.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(docs, "a.md")); err != nil {
		t.Fatal(err)
	}
	waitFor("re-indexed: indexed 1, removed 1")
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d: %s", code, out.String())
	}
}

// TestIndexWatchSaysEachRunOnce: the binary's `fonte index --watch`
// prints one line per run on stdout, and does not log the same run again
// on stderr (the watcher's own log, at info, went to the default logger).
func TestIndexWatchSaysEachRunOnce(t *testing.T) {
	docs := t.TempDir()
	if err := os.WriteFile(filepath.Join(docs, "a.md"), []byte("# A\n\nThe first note.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(fonteBin, "index", "--watch", "--index", filepath.Join(t.TempDir(), "index"), docs)
	cmd.Env = baseEnv()
	out, errb := &syncBuffer{}, &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill := func() { cmd.Process.Kill(); cmd.Wait() }
	waitForOutput(t, out, kill, "watching "+docs, time.Minute)
	if err := os.WriteFile(filepath.Join(docs, "b.md"), []byte("# B\n\nThe second note.\n"), 0o644); err != nil {
		kill()
		t.Fatal(err)
	}
	waitForOutput(t, out, kill, "re-indexed: indexed 1", time.Minute)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		kill()
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("fonte index --watch, interrupted: %v\n%s", err, errb.String())
	}
	if strings.Contains(errb.String(), "re-indexed") {
		t.Errorf("the run is said on stdout and again on stderr:\nstdout:\n%s\nstderr:\n%s", out.String(), errb.String())
	}
}
