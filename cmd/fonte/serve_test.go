package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	o := newOptions()
	cmd := newServe(o)
	pr, pw := io.Pipe()
	cmd.SetOut(pw)
	cmd.SetErr(io.Discard)
	cmd.SetArgs([]string{"--index", idx, "--addr", "127.0.0.1:0"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx); pw.Close() }()

	lines := bufio.NewScanner(pr)
	var url, token string
	for lines.Scan() {
		line := lines.Text()
		if u, ok := strings.CutPrefix(line, "fonte: listening on "); ok {
			url = u
		}
		if i := strings.LastIndex(line, "kept only in memory): "); i >= 0 {
			token = line[i+len("kept only in memory): "):]
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
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
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}
