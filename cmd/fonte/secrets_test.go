package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/internal/testserver"
	"github.com/fonte-rag/fonte/server"
)

// cliSecret is the password the store and model URLs of TestE2ENoSecretPrinted
// carry; no output of any command may hold it.
const cliSecret = "Cli-Pw-71c2-never-shown"

// TestE2ENoSecretPrinted runs every command that shows a store location
// (index, status, search, ask; text and JSON) against PostgreSQL URLs
// carrying a password in the user info and in password, sslpassword and
// sslkey, commands whose store or model server cannot be reached or whose
// URL is refused (their errors quote it), and fonte serve with such a
// collection (its log): neither stdout nor stderr holds the password.
func TestE2ENoSecretPrinted(t *testing.T) {
	base, stop, err := testserver.StartPostgres()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), cliSecret)
	q := u.Query()
	q.Set("collection", "cli_secrets")
	q.Set("password", cliSecret)
	q.Set("sslpassword", cliSecret)
	q.Set("sslkey", "/nowhere/"+cliSecret+".key")
	u.RawQuery = q.Encode()
	store := u.String()
	docs := copyHandbook(t)

	check := func(r result, wantOK bool, args ...string) {
		t.Helper()
		if strings.Contains(r.stdout+r.stderr, cliSecret) {
			t.Errorf("fonte %s prints the secret:\n%s", strings.Join(args, " "), r)
		}
		if wantOK != (r.code == 0) {
			t.Errorf("fonte %s: %s", strings.Join(args, " "), r)
		}
	}
	for _, args := range [][]string{
		{"index", docs, "--store", store, "--rebuild"},
		{"status", "--store", store},
		{"status", "--store", store, "--json"},
		{"search", "vacation days", "--store", store},
		{"search", "vacation days", "--store", store, "--json"},
		{"ask", "How many vacation days?", "--store", store},
		{"ask", "How many vacation days?", "--store", store, "--json"},
	} {
		r := runFonte(t, args...)
		check(r, true, args...)
		if args[0] == "status" && !strings.Contains(r.stdout, "collection=cli_secrets") {
			t.Errorf("fonte status does not say where the store is:\n%s", r)
		}
	}
	for _, args := range [][]string{
		{"status", "--store", "redis://:" + cliSecret + "@127.0.0.1:1?password=" + cliSecret},
		{"status", "--store", "postgres://fonte:" + cliSecret + "@127.0.0.1:1/x?sslpassword=" + cliSecret + "&connect_timeout=2"},
		{"status", "--store", "ftp://fonte:" + cliSecret + "@host/x?token=" + cliSecret},
		{"index", docs, "--store", store + "&hnsw_m=many"},
		{"index", docs, "--store", t.TempDir(), "--embedder", "ollama:nomic", "--embed-url", "http://fonte:" + cliSecret + "@127.0.0.1:1"},
	} {
		r := runFonte(t, args...)
		check(r, false, args...)
		if !strings.Contains(r.stderr, "xxxxx") && !strings.Contains(r.stderr, "127.0.0.1:1") && !strings.Contains(r.stderr, "hnsw_m") {
			t.Errorf("fonte %s: the error does not say which store or server:\n%s", strings.Join(args, " "), r)
		}
	}

	// fonte serve: a collection on this store and one whose store does
	// not answer; the first's status and the second's failure are logged.
	dir := t.TempDir()
	cfg := filepath.Join(dir, "fonte.yaml")
	yaml := fmt.Sprintf("tokens:\n  - sha256: %s\n    scope: admin\ncollections:\n  pg:\n    store: %q\n  broken:\n    store: %q\nrate-limit: 0\n",
		server.Digest("cli-admin"), store, "redis://:"+cliSecret+"@127.0.0.1:1?password="+cliSecret)
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	logs := serveBinary(t, []string{"--config", cfg, "--store", filepath.Join(dir, "index"), "--data", filepath.Join(dir, "data")},
		func(addr string) {
			for _, path := range []string{"/v1/collections/pg/status", "/v1/collections/broken/status", "/v1/collections"} {
				req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
				req.Header.Set("Authorization", "Bearer cli-admin")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				raw, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if strings.Contains(string(raw), cliSecret) {
					t.Errorf("GET %s: %s", path, raw)
				}
			}
		})
	if strings.Contains(logs, cliSecret) {
		t.Errorf("fonte serve logs the secret:\n%s", logs)
	}
	if !strings.Contains(logs, "redis://:xxxxx@127.0.0.1:1") {
		t.Errorf("fonte serve did not log the broken store's failure:\n%s", logs)
	}
}

// serveBinary runs the built fonte serve with args on a free port, calls
// use with its address, stops it and returns everything it printed.
func serveBinary(t *testing.T, args []string, use func(addr string)) string {
	t.Helper()
	s := startServed(t, "", "", args...)
	use(strings.TrimPrefix(s.url, "http://"))
	s.stop(t)
	return strings.Join(s.stdout, "\n") + "\n" + s.stderr.String()
}
