package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/server"
)

// TestServeAudit: `fonte serve --audit FILE` records a search in FILE by
// the token's digest prefix, never the token; a bad --audit-max-size is a
// usage error naming the flag.
func TestServeAudit(t *testing.T) {
	const token = "audit-test-read-token"
	t.Setenv("FONTE_ADMIN_TOKEN", "")
	idx, audit := filepath.Join(t.TempDir(), "index"), filepath.Join(t.TempDir(), "audit.jsonl")
	var out, errb bytes.Buffer
	if Main(context.Background(), []string{"index", "--index", idx, copyHandbook(t)}, &out, &errb) != 0 {
		t.Fatalf("index: %s", errb.String())
	}
	url, _ := serveProcess(t, false, "--index", idx, "--audit", audit, "--audit-max-size", "1MiB",
		"--token-digest", server.Digest(token)+":read")
	req, _ := http.NewRequest("POST", url+"/v1/search", strings.NewReader(`{"query": "annual leave"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	// The line is written as the response ends, which the client may see
	// first.
	var raw []byte
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && len(raw) == 0; time.Sleep(20 * time.Millisecond) {
		raw, _ = os.ReadFile(audit)
	}
	var rec struct {
		Token, Route, Query string
		Docs                []string
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatalf("%s: %v: %s", audit, err, raw)
	}
	if rec.Token != "sha256:"+server.Digest(token)[:12] || rec.Route != "POST /v1/search" || rec.Query != "annual leave" || len(rec.Docs) == 0 {
		t.Fatalf("audit line: %s", raw)
	}
	if strings.Contains(string(raw), token) {
		t.Fatalf("the token is in the audit file: %s", raw)
	}

	errb.Reset()
	if code := Main(context.Background(), []string{"serve", "--index", idx, "--audit", audit, "--audit-max-size", "ten"}, &out, &errb); code == 0 ||
		!strings.Contains(errb.String(), "--audit-max-size") {
		t.Fatalf("--audit-max-size ten: exit %d: %s", code, errb.String())
	}
}

func TestParseByteSize(t *testing.T) {
	for in, want := range map[string]int64{"4096": 4096, "64KiB": 64 << 10, "100MiB": 100 << 20, "2GiB": 2 << 30, "5MB": 5e6, "1K": 1024, "7B": 7} {
		if got, err := parseByteSize(in); err != nil || got != want {
			t.Errorf("parseByteSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-5", "1.5MiB", "ten", "MiB", "99999999999GiB"} {
		if got, err := parseByteSize(in); err == nil {
			t.Errorf("parseByteSize(%q) = %d, want an error", in, got)
		}
	}
}
