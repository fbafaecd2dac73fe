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

// TestListeningURL: serve prints a URL a user can open; a wildcard
// address (which the system reports as [::], even for 0.0.0.0) is shown
// on the loopback, with a line saying every interface listens.
func TestListeningURL(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		requested string
		actual    net.Addr
		want      string
	}{
		{"0.0.0.0:0", &net.TCPAddr{IP: net.IPv6zero, Port: 44967}, "fonte: listening on http://127.0.0.1:44967\nfonte: reachable on every interface at port 44967: from another machine, use this machine's IP address (a name needs --host)\n"},
		{":7700", &net.TCPAddr{IP: net.IPv6zero, Port: 7700}, "fonte: listening on http://127.0.0.1:7700\nfonte: reachable on every interface at port 7700: from another machine, use this machine's IP address (a name needs --host)\n"},
		{"[::]:0", &net.TCPAddr{IP: net.IPv6zero, Port: 5}, "fonte: listening on http://[::1]:5\nfonte: reachable on every interface at port 5: from another machine, use this machine's IP address (a name needs --host)\n"},
		{"127.0.0.1:0", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}, "fonte: listening on http://127.0.0.1:80\n"},
		{"localhost:0", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}, "fonte: listening on http://127.0.0.1:80\n"},
	} {
		var b strings.Builder
		printListening(&b, c.requested, c.actual)
		if b.String() != c.want {
			t.Errorf("--addr %s listening on %s: printed %q; want %q", c.requested, c.actual, b.String(), c.want)
		}
	}
}

// TestServeOnEveryInterface: `fonte serve --addr 0.0.0.0:0` prints the
// loopback URL, and it answers.
func TestServeOnEveryInterface(t *testing.T) {
	t.Parallel()
	url, _ := serveProcess(t, false, "--index", t.TempDir(), "--addr", "0.0.0.0:0")
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("serve --addr 0.0.0.0:0 printed %q; want a loopback URL", url)
	}
	resp, err := http.Get(url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("%s/healthz: %d", url, resp.StatusCode)
	}
}
