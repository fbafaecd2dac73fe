package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/server"
)

// TestObservabilityIsScoped: /metrics needs an admin token for every
// collection; status and the collection list show a reader no server
// path, generation or commit time, list only the collections its token
// may use, and count only the documents it may read. An admin sees it
// all.
func TestObservabilityIsScoped(t *testing.T) {
	const (
		hrToken      = "scope-hr-reader"
		defaultOnly  = "scope-default-only-reader"
		otherAdminTk = "scope-admin-of-other"
	)
	ts := start(t, config{publicRead: true, folder: "../examples/handbook", tokens: []server.TokenDigest{
		{SHA256: server.Digest(hrToken), Scope: server.ScopeRead, Labels: []string{"hr"}},
		{SHA256: server.Digest(defaultOnly), Scope: server.ScopeRead, Collections: []string{"default"}},
		{SHA256: server.Digest(otherAdminTk), Scope: server.ScopeAdmin, Collections: []string{"other"}},
	}})
	hidden := "---\ntitle: Salaries\naccess: [hr]\n---\n# Salary bands\n\nBand three earns 61,500 euros.\n"
	if status, raw := ts.upload(t, "/v1/documents", adminToken, map[string]string{"people/salaries.md": hidden}); status != 200 {
		t.Fatalf("upload: %d %s", status, raw)
	}
	if status, raw := ts.upload(t, "/v1/collections/other/documents", adminToken, map[string]string{"a.md": "# A\n\nThe other collection.\n"}); status != 200 {
		t.Fatalf("upload to other: %d %s", status, raw)
	}

	// /metrics: an admin for every collection only.
	for token, want := range map[string]int{adminToken: 200, readToken: 403, hrToken: 403, otherAdminTk: 403, "": 401} {
		if status, raw, _ := ts.call(t, "GET", "/metrics", token, nil); status != want {
			t.Errorf("/metrics with %q: %d, want %d: %.300s", token, status, want, raw)
		}
	}

	status := func(token string) map[string]json.RawMessage {
		t.Helper()
		code, raw, _ := ts.call(t, "GET", "/v1/status", token, nil)
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); code != 200 || err != nil {
			t.Fatalf("status with %q: %d %s", token, code, raw)
		}
		return m
	}
	count := func(m map[string]json.RawMessage) (n int) {
		t.Helper()
		if err := json.Unmarshal(m["documents"], &n); err != nil {
			t.Fatalf("documents: %s", m["documents"])
		}
		return n
	}
	all := status(adminToken)
	for _, key := range []string{"dir", "generation", "committed"} {
		if _, ok := all[key]; !ok {
			t.Errorf("the admin's status lacks %s", key)
		}
	}
	for token, seesHidden := range map[string]bool{readToken: false, "": false, hrToken: true, defaultOnly: false} {
		m := status(token)
		for _, key := range []string{"dir", "generation", "committed", "watch"} {
			if v, ok := m[key]; ok {
				t.Errorf("status with %q shows %s: %s", token, key, v)
			}
		}
		want := count(all)
		if !seesHidden {
			want--
		}
		if got := count(m); got != want {
			t.Errorf("status with %q counts %d documents, want %d (the admin sees %d)", token, got, want, count(all))
		}
	}

	collections := func(token string) []map[string]json.RawMessage {
		t.Helper()
		code, raw, _ := ts.call(t, "GET", "/v1/collections", token, nil)
		var resp struct {
			Collections []map[string]json.RawMessage `json:"collections"`
		}
		if err := json.Unmarshal(raw, &resp); code != 200 || err != nil {
			t.Fatalf("collections with %q: %d %s", token, code, raw)
		}
		return resp.Collections
	}
	names := func(cs []map[string]json.RawMessage) []string {
		var out []string
		for _, c := range cs {
			var n string
			_ = json.Unmarshal(c["name"], &n)
			out = append(out, n)
		}
		return out
	}
	adminCols := collections(adminToken)
	if got := names(adminCols); !slices.Equal(got, []string{"default", "other"}) {
		t.Fatalf("the admin's collections: %v", got)
	}
	for _, key := range []string{"store", "folder", "committed"} {
		if _, ok := adminCols[0][key]; !ok {
			t.Errorf("the admin's collection list lacks %s", key)
		}
	}
	adminCount := map[string]int{}
	for _, c := range adminCols {
		adminCount[names([]map[string]json.RawMessage{c})[0]] = count(c)
	}
	for token, want := range map[string][]string{readToken: {"default", "other"}, "": {"default", "other"},
		defaultOnly: {"default"}, otherAdminTk: {"other"}, hrToken: {"default", "other"}} {
		cs := collections(token)
		if got := names(cs); !slices.Equal(got, want) {
			t.Errorf("collections with %q: %v, want %v", token, got, want)
		}
		if token == otherAdminTk {
			continue // an admin of its own collection sees where it is
		}
		for _, c := range cs {
			for _, key := range []string{"store", "folder", "committed"} {
				if v, ok := c[key]; ok {
					t.Errorf("collections with %q show %s: %s", token, key, v)
				}
			}
			name := names([]map[string]json.RawMessage{c})[0]
			want := adminCount[name]
			if name == "default" && token != hrToken {
				want-- // the hr document
			}
			if got := count(c); got != want {
				t.Errorf("collections with %q count %d documents in %s, want %d", token, got, name, want)
			}
		}
	}
	if code, raw, _ := ts.call(t, "GET", "/v1/collections", otherAdminTk, nil); code != http.StatusOK || strings.Contains(string(raw), "handbook") {
		t.Errorf("an admin of another collection sees the default's folder: %s", raw)
	}
}
