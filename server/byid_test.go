package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/server"
)

// TestHiddenByIDAnswersAsMissing: every by-id route (document, passage,
// MCP get_document) answers a reader about a document it may not read
// exactly as about an id the index does not hold: same status, same body
// but for the id.
func TestHiddenByIDAnswersAsMissing(t *testing.T) {
	ts := start(t, config{publicRead: true})
	hidden := "---\naccess: [hr]\n---\n# Pay\n\nBand three earns 61,500 euros.\n"
	if status, raw := ts.upload(t, "/v1/documents", adminToken, map[string]string{"hr/pay.md": hidden}); status != 200 {
		t.Fatalf("upload: %d %s", status, raw)
	}
	same := func(what string, hiddenOut, missingOut string) {
		t.Helper()
		if strings.ReplaceAll(hiddenOut, "pay.md", "none.md") != missingOut {
			t.Errorf("%s: a hidden document answers otherwise than a missing one:\n%s\n%s", what, hiddenOut, missingOut)
		}
	}
	for _, token := range []string{readToken, ""} {
		for _, route := range []string{"/v1/documents/hr/%s", "/v1/passages/hr/%s%%230", "/v1/collections/default/passages/hr/%s%%230"} {
			hs, hraw, _ := ts.call(t, "GET", fmt.Sprintf(route, "pay.md"), token, nil)
			ms, mraw, _ := ts.call(t, "GET", fmt.Sprintf(route, "none.md"), token, nil)
			if hs != 404 || ms != 404 {
				t.Errorf("%s with %q: hidden %d, missing %d", route, token, hs, ms)
			}
			same(route, string(hraw), string(mraw))
		}
		same("MCP get_document", mcpCall(t, ts, token, "get_document", map[string]any{"id": "hr/pay.md"}),
			mcpCall(t, ts, token, "get_document", map[string]any{"id": "hr/none.md"}))
	}
	if status, raw, _ := ts.call(t, "GET", "/v1/passages/hr/pay.md%230", adminToken, nil); status != 200 {
		t.Errorf("the admin cannot read the passage: %d %s", status, raw)
	}
}

// BenchmarkByIDHiddenAndMissing times GET …/documents/{id} and
// GET …/passages/{chunk} for a read token, on a hidden document of about
// 4.4 MB and on an id the index does not hold:
//
//	go test ./server -run '^$' -bench ByIDHiddenAndMissing -benchtime 200x
func BenchmarkByIDHiddenAndMissing(b *testing.B) {
	ctx := context.Background()
	docs := b.TempDir()
	var big strings.Builder
	big.WriteString("---\naccess: [hr]\n---\n# Salaries\n\n")
	for i := 0; big.Len() < 4_400_000; i++ {
		if i%40 == 0 {
			fmt.Fprintf(&big, "\n## Band %d\n\n", i/40)
		}
		fmt.Fprintf(&big, "Engineer %d in band %d earns %d euros a year, paid in thirteen instalments. ", i, i/40, 40000+i%20000)
	}
	write := func(name, text string) {
		p := filepath.Join(docs, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("hr/salaries.md", big.String())
	write("canteen.md", "# Canteen\n\nLunch is served at noon.\n")
	e, err := engine.Open(ctx, engine.Settings{Store: b.TempDir()}, engine.OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Index(ctx, docs, nil); err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(nil)
	srv, err := server.New(e, server.Options{Addr: hs.Listener.Addr().String(), RateLimit: &server.RateLimit{},
		Tokens: []server.TokenDigest{{SHA256: server.Digest(readToken), Scope: server.ScopeRead}}, AdminToken: adminToken})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	hs.Config.Handler = srv
	hs.Start()
	defer hs.Close()
	get := func(b *testing.B, path string, want int) {
		req, _ := http.NewRequest("GET", hs.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+readToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			b.Fatalf("%s: %d, want %d", path, resp.StatusCode, want)
		}
	}
	for _, c := range []struct{ name, path string }{
		{"document/hidden", "/v1/documents/hr/salaries.md"},
		{"document/missing", "/v1/documents/hr/none.md"},
		{"passage/hidden", "/v1/passages/hr/salaries.md%230"},
		{"passage/missing", "/v1/passages/hr/none.md%230"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				get(b, c.path, http.StatusNotFound)
			}
		})
	}
}
