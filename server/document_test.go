package server_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/server"
)

func TestDocument(t *testing.T) {
	ts := start(t, config{})
	const id = "people/leave.md"
	for _, path := range []string{"/v1/documents/" + id, "/v1/collections/default/documents/" + id} {
		status, raw, _ := ts.call(t, "GET", path, readToken, nil)
		if status != 200 {
			t.Fatalf("GET %s: %d %s", path, status, raw)
		}
		var got server.DocumentResponse
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		rec, err := ts.engine.Document(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != id || got.Title != rec.Doc.Title || got.SHA256 != rec.Doc.SHA256 || got.Text != rec.Doc.Text || got.Language == "" {
			t.Errorf("document: %+v", got)
		}
		if len(got.Chunks) == 0 || len(got.Chunks) != len(rec.Chunks) {
			t.Fatalf("%d chunks, want %d", len(got.Chunks), len(rec.Chunks))
		}
		for i, c := range got.Chunks {
			if c.Position != i || c.Chunk != rec.Chunks[i].ID || c.Text != rec.Chunks[i].Text || c.Headings == nil {
				t.Errorf("chunk %d: %+v", i, c)
			}
			if i > 0 && c.Start < got.Chunks[i-1].Start {
				t.Errorf("chunk %d starts before the one before it", i)
			}
		}
		for _, key := range []string{`"id"`, `"title"`, `"language"`, `"source"`, `"updated"`, `"sha256"`, `"tags":[`, `"text"`, `"chunks"`, `"position"`, `"headings":[`, `"page"`, `"start"`, `"end"`} {
			if !strings.Contains(string(raw), key) {
				t.Errorf("no %s in %s", key, raw[:min(len(raw), 300)])
			}
		}
	}
	status, raw, _ := ts.call(t, "GET", "/v1/documents/people/nothing-here.md", readToken, nil)
	if status != 404 || !strings.Contains(string(raw), `"field":"id"`) || !strings.Contains(string(raw), "#not-found") {
		t.Errorf("unknown document: %d %s", status, raw)
	}
	if status, raw, _ := ts.call(t, "GET", "/v1/documents/"+id, "", nil); status != 401 {
		t.Errorf("no token: %d %s", status, raw)
	}
	// The list route still answers beside it.
	if status, raw, _ := ts.call(t, "GET", "/v1/documents", readToken, nil); status != 200 || !strings.Contains(string(raw), id) {
		t.Errorf("GET /v1/documents: %d", status)
	}
}

func TestDocumentAccessLabels(t *testing.T) {
	const hrToken = "hr-label-token"
	ts := start(t, config{publicRead: true, tokens: []server.TokenDigest{
		{SHA256: server.Digest(hrToken), Scope: server.ScopeRead, Labels: []string{"hr"}},
	}})
	secret := "---\ntitle: Salaries\naccess: [hr]\ntags: [pay]\n---\n# Salary bands\n\nThe bonus is 4,200 euros for every engineer in band three.\n"
	if status, raw := ts.upload(t, "/v1/documents", adminToken, map[string]string{"people/salaries.md": secret}); status != 200 {
		t.Fatalf("upload: %d %s", status, raw)
	}
	const path = "/v1/documents/people/salaries.md"
	status, unknown, _ := ts.call(t, "GET", "/v1/documents/people/none.md", readToken, nil)
	if status != 404 {
		t.Fatalf("unknown: %d", status)
	}
	for _, token := range []string{readToken, ""} {
		status, raw, _ := ts.call(t, "GET", path, token, nil)
		if status != 404 || strings.Contains(string(raw), "4,200") {
			t.Errorf("token %q reads the hr document: %d %s", token, status, raw)
		}
		// The same problem as for a document that does not exist, but
		// for the id it names.
		if strings.ReplaceAll(string(raw), "salaries.md", "none.md") != string(unknown) {
			t.Errorf("the hidden document's 404 differs from an unknown one's:\n%s\n%s", raw, unknown)
		}
	}
	for _, token := range []string{adminToken, hrToken} {
		status, raw, _ := ts.call(t, "GET", path, token, nil)
		if status != 200 {
			t.Fatalf("token %s… cannot read the document: %d %s", token[:3], status, raw)
		}
		var got server.DocumentResponse
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got.Text, "4,200") || len(got.Chunks) == 0 {
			t.Errorf("document: %s", raw)
		}
		if !slices.Contains(got.Tags, "pay") {
			t.Errorf("tags %v, want pay among them", got.Tags)
		}
		for _, tag := range got.Tags {
			if strings.HasPrefix(tag, "access:") {
				t.Errorf("tags show an access label: %v", got.Tags)
			}
		}
	}
}
