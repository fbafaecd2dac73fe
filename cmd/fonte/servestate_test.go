package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// servedBinary is one `fonte serve` process of the built binary.
type servedBinary struct {
	cmd    *exec.Cmd
	url    string
	lines  *bufio.Scanner // its stdout
	stdout []string       // the lines read so far
	stderr *syncBuffer
}

// startServed runs `fonte serve --addr 127.0.0.1:0 args…` in dir (""
// for the test's own) with the admin token token ("" for none: serve
// makes one) and waits for its URL.
func startServed(t *testing.T, dir, token string, args ...string) *servedBinary {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, fonteBin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Dir = dir
	cmd.Env = baseEnv()
	if token != "" {
		cmd.Env = append(cmd.Env, "FONTE_ADMIN_TOKEN="+token)
	}
	s := &servedBinary{cmd: cmd, stderr: &syncBuffer{}}
	cmd.Stderr = s.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.lines = bufio.NewScanner(out)
	for s.url == "" && s.lines.Scan() {
		s.stdout = append(s.stdout, s.lines.Text())
		if u, ok := strings.CutPrefix(s.lines.Text(), "fonte: listening on "); ok {
			s.url = u
		}
	}
	if s.url == "" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("serve printed no URL:\n%s\n%s", strings.Join(s.stdout, "\n"), s.stderr.String())
	}
	return s
}

// stop interrupts the server as Ctrl-C does, reads the rest of its
// stdout and returns its exit code.
func (s *servedBinary) stop(t *testing.T) int {
	t.Helper()
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	for s.lines.Scan() {
		s.stdout = append(s.stdout, s.lines.Text())
	}
	if err := s.cmd.Wait(); err != nil && s.cmd.ProcessState == nil {
		t.Fatal(err)
	}
	return s.cmd.ProcessState.ExitCode()
}

// call sends a request with token and returns the status.
func (s *servedBinary) call(t *testing.T, method, path, token, body string) int {
	t.Helper()
	req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range list {
		names = append(names, e.Name())
	}
	return names
}

// TestServeLogsAndKeepsItsState runs the binary: serve logs JSON lines
// per request and at start and shutdown, without the token; exits 0 on
// Ctrl-C; keeps the collections it makes in the store folder, never in
// the working directory; and moves the .fonte-collections folder an
// older serve left in the working directory there.
func TestServeLogsAndKeepsItsState(t *testing.T) {
	t.Parallel()
	const token = "fonte_test_admin_token_never_logged"
	work := t.TempDir()
	idx := filepath.Join(t.TempDir(), "idx")
	writeFile(t, filepath.Join(work, "docs", "leave.md"), []byte("# Leave\n\nAnnual leave is 26 working days a year.\n"))
	mustOK(t, run{dir: work}, "index", "docs", "--index", idx)
	before := entries(t, work)

	s := startServed(t, work, token, "--index", idx, "--log-format", "json")
	if st := s.call(t, "POST", "/v1/collections", token, `{"name": "support"}`); st != http.StatusCreated {
		t.Fatalf("POST /v1/collections: %d", st)
	}
	if st := s.call(t, "GET", "/v1/search", token, ""); st != http.StatusMethodNotAllowed {
		t.Errorf("GET /v1/search: %d, want 405", st)
	}
	if code := s.stop(t); code != exitOK {
		t.Fatalf("serve after SIGINT: exit %d\n%s", code, s.stderr.String())
	}
	logs := s.stderr.String()
	var msgs []string
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		var l logLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("--log-format json wrote a line that is not JSON: %q", line)
		}
		msgs = append(msgs, l.Msg+" "+l.Route)
	}
	for _, want := range []string{"serving ", "request POST /v1/collections", "request unmatched", "shut down "} {
		if !slices.Contains(msgs, want) {
			t.Errorf("no %q line in the log:\n%s", want, logs)
		}
	}
	if strings.Contains(logs+strings.Join(s.stdout, "\n"), token) {
		t.Errorf("serve printed or logged the token:\n%s", logs)
	}
	if after := entries(t, work); !slices.Equal(after, before) {
		t.Errorf("serve changed the working directory: %v, before %v", after, before)
	}
	if _, err := os.Stat(filepath.Join(idx, "collections", "support")); err != nil {
		t.Errorf("the new collection is not in the store folder: %v", err)
	}

	// An older serve kept its collections in ./.fonte-collections.
	old := t.TempDir()
	idx2 := filepath.Join(t.TempDir(), "idx")
	mustOK(t, run{dir: work}, "index", "docs", "--index", idx2)
	s = startServed(t, old, token, "--index", idx2, "--data", ".fonte-collections")
	if st := s.call(t, "POST", "/v1/collections", token, `{"name": "legacy"}`); st != http.StatusCreated {
		t.Fatalf("POST /v1/collections with --data .fonte-collections: %d", st)
	}
	if code := s.stop(t); code != exitOK {
		t.Fatalf("serve after SIGINT: exit %d", code)
	}
	s = startServed(t, old, token, "--index", idx2)
	if !slices.Contains(s.stdout, "fonte: moved the collections from .fonte-collections to "+filepath.Join(idx2, "collections")) {
		t.Errorf("serve did not say it moved .fonte-collections: %q", s.stdout)
	}
	if st := s.call(t, "GET", "/v1/collections/legacy/status", token, ""); st != http.StatusOK {
		t.Errorf("the moved collection legacy: status %d", st)
	}
	if code := s.stop(t); code != exitOK {
		t.Fatalf("serve after SIGINT: exit %d", code)
	}
	if names := entries(t, old); len(names) != 0 {
		t.Errorf("the working directory still holds %v", names)
	}
}

// logLine is the part of a JSON log line the tests read.
type logLine struct {
	Msg   string `json:"msg"`
	Route string `json:"route"`
}
