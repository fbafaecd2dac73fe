package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHealthcheck runs `fonte healthcheck` against a real `fonte serve`
// (exit 0), against a port where nothing listens and a server whose
// /healthz fails (exit 1), and with an address it cannot read (exit 2).
func TestHealthcheck(t *testing.T) {
	t.Setenv("FONTE_ADMIN_TOKEN", "")
	url, _ := serveProcess(t, true, "--index", t.TempDir())
	addr := strings.TrimPrefix(url, "http://")
	run := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := Main(context.Background(), append([]string{"healthcheck"}, args...), &out, &errb)
		return code, out.String() + errb.String()
	}
	if code, out := run("--addr", addr); code != exitOK || !strings.Contains(out, "healthy") {
		t.Errorf("healthcheck of a running serve: exit %d: %s", code, out)
	}
	// FONTE_ADDR is how the container image tells serve and the check the
	// same address.
	t.Setenv("FONTE_ADDR", addr)
	if code, out := run(); code != exitOK {
		t.Errorf("healthcheck with FONTE_ADDR=%s: exit %d: %s", addr, code, out)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	if code, out := run("--addr", closed); code != exitFailure || !strings.Contains(out, "not healthy") {
		t.Errorf("healthcheck with nothing listening: exit %d: %s", code, out)
	}

	sick := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"status":"starting"}`, http.StatusServiceUnavailable)
	}))
	defer sick.Close()
	if code, out := run("--addr", strings.TrimPrefix(sick.URL, "http://")); code != exitFailure || !strings.Contains(out, "503") {
		t.Errorf("healthcheck of a failing /healthz: exit %d: %s", code, out)
	}

	if code, out := run("--addr", "no-port"); code != exitUsage || !strings.Contains(out, "--addr") {
		t.Errorf("healthcheck --addr no-port: exit %d: %s", code, out)
	}
}

// TestHealthzURL reaches a wildcard listener on the loopback of its family.
func TestHealthzURL(t *testing.T) {
	for addr, want := range map[string]string{
		"0.0.0.0:7700":   "http://127.0.0.1:7700/healthz",
		":7700":          "http://127.0.0.1:7700/healthz",
		"[::]:7700":      "http://[::1]:7700/healthz",
		"10.0.0.5:80":    "http://10.0.0.5:80/healthz",
		"localhost:7700": "http://localhost:7700/healthz",
	} {
		got, err := healthzURL(addr)
		if err != nil || got != want {
			t.Errorf("healthzURL(%q) = %q, %v; want %q", addr, got, err, want)
		}
	}
}
