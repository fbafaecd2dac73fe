package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/embed"
	"github.com/fonte-rag/fonte/server"
)

// upload posts files (name → content) as multipart/form-data.
func (ts *testServer) upload(t *testing.T, path, token string, files map[string]string) (int, []byte) {
	t.Helper()
	status, raw, _ := ts.uploadHeader(t, path, token, files)
	return status, raw
}

// uploadHeader is upload, also returning the response's header.
func (ts *testServer) uploadHeader(t *testing.T, path, token string, files map[string]string) (int, []byte, http.Header) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for name, content := range files {
		fw, err := mw.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(fw, content); err != nil {
			t.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return ts.call(t, "POST", path, token, body.Bytes(), "Content-Type", mw.FormDataContentType())
}

// searchText runs a search and returns the hits' text joined.
func (ts *testServer) searchText(t *testing.T, path, token, query string) (int, string) {
	t.Helper()
	status, raw, _ := ts.call(t, "POST", path, token, map[string]any{"query": query, "k": 20})
	return status, string(raw)
}

// grepDir reports the files under dir whose bytes contain word.
func grepDir(t *testing.T, dir, word string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(raw, []byte(word)) {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

const marker = "Quokkafestival"

var markerDoc = "# Team outing\n\nThe yearly " + marker + " takes place in the second week of June at the river park.\n"

// TestUploadSearchDelete: an upload to a new collection creates it and is
// searchable there (and only there); deleting it leaves no byte of it in
// the collection's folder.
func TestUploadSearchDelete(t *testing.T) {
	data := t.TempDir()
	ts := start(t, config{dataDir: data})
	status, raw := ts.upload(t, "/v1/collections/events/documents", adminToken, map[string]string{"outing.md": markerDoc})
	if status != http.StatusOK {
		t.Fatalf("upload: %d %s", status, raw)
	}
	var up server.UploadResponse
	if err := json.Unmarshal(raw, &up); err != nil || len(up.Indexed) != 1 || up.Indexed[0] != "outing.md" || up.Collection != "events" {
		t.Fatalf("upload response: %s", raw)
	}
	if _, text := ts.searchText(t, "/v1/collections/events/search", readToken, "when is the quokkafestival"); !strings.Contains(text, marker) {
		t.Fatalf("the upload is not searchable: %s", text)
	}
	if _, text := ts.searchText(t, "/v1/search", readToken, "when is the quokkafestival"); strings.Contains(text, marker) {
		t.Fatalf("the default collection sees another collection's document: %s", text)
	}
	status, raw, _ = ts.call(t, "GET", "/v1/collections", readToken, nil)
	var cols server.CollectionsResponse
	if err := json.Unmarshal(raw, &cols); status != 200 || err != nil || len(cols.Collections) != 2 ||
		cols.Collections[0].Name != "default" || cols.Collections[1].Name != "events" || cols.Collections[1].Documents != 1 {
		t.Fatalf("collections: %d %s", status, raw)
	}
	if found := grepDir(t, filepath.Join(data, "events"), marker); len(found) == 0 {
		t.Fatal("the collection's folder does not hold the upload (the grep below would prove nothing)")
	}
	status, raw, _ = ts.call(t, "DELETE", "/v1/collections/events/documents/outing.md", adminToken, nil)
	if status != 200 {
		t.Fatalf("delete: %d %s", status, raw)
	}
	if _, text := ts.searchText(t, "/v1/collections/events/search", readToken, "when is the quokkafestival"); strings.Contains(text, marker) {
		t.Fatalf("deleted, yet found: %s", text)
	}
	if found := grepDir(t, filepath.Join(data, "events"), marker); len(found) != 0 {
		t.Fatalf("bytes of the deleted document remain in %v", found)
	}
}

// TestUploadRefusals: files that cannot be used are refused with their
// reason, the others of the same upload still go in; bad bodies are
// problems.
func TestUploadRefusals(t *testing.T) {
	ts := start(t, config{})
	status, raw := ts.upload(t, "/v1/documents", adminToken, map[string]string{
		"good.md": markerDoc, "broken.pdf": "%PDF-1.7 not really", "../escape.md": markerDoc, "tool.exe": "MZ"})
	var up server.UploadResponse
	if err := json.Unmarshal(raw, &up); status != 200 || err != nil {
		t.Fatalf("upload: %d %s", status, raw)
	}
	if len(up.Indexed) != 1 || up.Indexed[0] != "good.md" || len(up.Refused) != 3 {
		t.Fatalf("indexed %v, refused %+v", up.Indexed, up.Refused)
	}
	for _, r := range up.Refused {
		if r.Reason == "" {
			t.Errorf("refused %s without a reason", r.Path)
		}
	}
	// Every file refused: a 422 problem, like every error, that still
	// lists each file and its reason, at the generation the collection
	// is at (the good upload above committed one).
	status, raw, hdr := ts.uploadHeader(t, "/v1/documents", adminToken, map[string]string{"broken.pdf": "%PDF-1.7 not really", "tool.exe": "MZ"})
	var all server.UploadProblem
	if err := json.Unmarshal(raw, &all); err != nil || status != http.StatusUnprocessableEntity || hdr.Get("Content-Type") != "application/problem+json" ||
		all.Status != status || !strings.HasSuffix(all.Type, "#files-refused") || all.Field != "file" ||
		!strings.Contains(all.Detail, "broken.pdf") || !strings.Contains(all.Detail, "tool.exe") || len(all.Refused) != 2 || all.Refused[0].Reason == "" {
		t.Fatalf("all refused: %d %s %s", status, hdr.Get("Content-Type"), raw)
	}
	status, raw, _ = ts.call(t, "GET", "/v1/status", adminToken, nil)
	var st struct {
		Generation uint64 `json:"generation"`
		Chunks     int    `json:"chunks"`
	}
	if err := json.Unmarshal(raw, &st); err != nil || status != 200 || st.Generation == 0 {
		t.Fatalf("status: %d %s", status, raw)
	}
	if all.Generation != st.Generation || all.Chunks != st.Chunks || all.Collection != "default" {
		t.Errorf("all refused reports generation %d, chunks %d of %q; the collection is at generation %d with %d chunks", all.Generation, all.Chunks, all.Collection, st.Generation, st.Chunks)
	}
	status, raw, _ = ts.call(t, "POST", "/v1/documents", adminToken, `{"file": "x"}`)
	if p := problemOf(t, raw); status != http.StatusUnsupportedMediaType || p.Field != "Content-Type" {
		t.Fatalf("JSON body: %d %s", status, raw)
	}
	status, raw = ts.upload(t, "/v1/documents", readToken, map[string]string{"good2.md": markerDoc})
	if status != http.StatusForbidden {
		t.Fatalf("upload with a read token: %d %s", status, raw)
	}
	status, raw = ts.upload(t, "/v1/documents", "", map[string]string{"good2.md": markerDoc})
	if status != http.StatusUnauthorized {
		t.Fatalf("upload without a token: %d %s", status, raw)
	}
}

// TestCollectionTokens: a token limited to one collection is refused on
// every other (known or not); an unknown collection is a 404 naming it.
func TestCollectionTokens(t *testing.T) {
	const hrAdmin, hrRead = "hr-admin-token", "hr-read-token"
	ts := start(t, config{tokens: []server.TokenDigest{
		{SHA256: server.Digest(hrAdmin), Scope: server.ScopeAdmin, Collections: []string{"hr"}},
		{SHA256: server.Digest(hrRead), Scope: server.ScopeRead, Collections: []string{"hr"}},
	}})
	status, raw, _ := ts.call(t, "POST", "/v1/collections", hrAdmin, map[string]any{"name": "hr", "chunker": "window", "chunk_size": 120, "overlap": 20})
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, raw)
	}
	if status, raw, _ = ts.call(t, "POST", "/v1/collections", hrAdmin, map[string]any{"name": "hr"}); status != http.StatusConflict {
		t.Fatalf("create twice: %d %s", status, raw)
	}
	if status, raw, _ = ts.call(t, "POST", "/v1/collections", hrAdmin, map[string]any{"name": "finance"}); status != http.StatusForbidden {
		t.Fatalf("create outside the token's collections: %d %s", status, raw)
	}
	if status, raw, _ = ts.call(t, "POST", "/v1/collections", adminToken, map[string]any{"name": "Bad Name"}); status != 400 || problemOf(t, raw).Field != "name" {
		t.Fatalf("bad name: %d %s", status, raw)
	}
	if status, raw = ts.upload(t, "/v1/collections/hr/documents", hrAdmin, map[string]string{"outing.md": markerDoc}); status != 200 {
		t.Fatalf("upload: %d %s", status, raw)
	}
	for _, c := range []struct {
		method, path, token string
		want                int
	}{
		{"POST", "/v1/collections/hr/search", hrRead, 200},
		{"POST", "/v1/search", hrRead, 403},
		{"POST", "/v1/collections/finance/search", hrRead, 403},
		{"GET", "/v1/documents", hrAdmin, 403},
		{"DELETE", "/v1/documents/people/leave.md", hrAdmin, 403},
		{"POST", "/v1/collections/nope/search", readToken, 404},
		{"GET", "/v1/collections/nope/documents", adminToken, 404},
		{"POST", "/v1/collections/hr/search", "", 401},
	} {
		status, raw, _ := ts.call(t, c.method, c.path, c.token, map[string]any{"query": "quokkafestival"})
		if status != c.want {
			t.Errorf("%s %s: %d, want %d: %s", c.method, c.path, status, c.want, raw)
		}
		if status == 404 && problemOf(t, raw).Field != "collection" {
			t.Errorf("%s %s: the problem does not name the collection: %s", c.method, c.path, raw)
		}
	}
	// The hr token lists only hr; its chunker is the one it was made with.
	_, raw, _ = ts.call(t, "GET", "/v1/collections", hrRead, nil)
	var cols server.CollectionsResponse
	if err := json.Unmarshal(raw, &cols); err != nil || len(cols.Collections) != 1 || cols.Collections[0].Name != "hr" ||
		!strings.HasPrefix(cols.Collections[0].Chunker, "window") || !strings.Contains(cols.Collections[0].Chunker, "120") {
		t.Fatalf("hr's collections: %s", raw)
	}
}

// TestAccessLabels: a document labelled hr is invisible, through every
// route, to tokens without the label, and visible to those with it.
func TestAccessLabels(t *testing.T) {
	const hrToken = "hr-label-token"
	ts := start(t, config{publicRead: true, tokens: []server.TokenDigest{
		{SHA256: server.Digest(hrToken), Scope: server.ScopeRead, Labels: []string{"hr"}},
	}})
	secret := "---\ntitle: Salaries\naccess: [hr]\n---\n# Salary bands\n\nThe " + marker + " bonus is 4,200 euros for every engineer in band three.\n"
	if status, raw := ts.upload(t, "/v1/documents", adminToken, map[string]string{"people/salaries.md": secret}); status != 200 {
		t.Fatalf("upload: %d %s", status, raw)
	}
	const chunk = "people/salaries.md%230" // #0, escaped in a URL
	hidden := func(token, who string) {
		t.Helper()
		routes := []struct{ method, path string }{
			{"POST", "/v1/search"}, {"POST", "/v1/ask"}, {"POST", "/v1/chat"}, {"GET", "/v1/documents"}, {"GET", "/v1/status"},
		}
		for _, rt := range routes {
			_, raw, _ := ts.call(t, rt.method, rt.path, token, map[string]any{"query": "quokkafestival bonus band three", "question": "How much is the quokkafestival bonus in band three?"})
			if strings.Contains(string(raw), marker) || strings.Contains(string(raw), "salaries.md") || strings.Contains(string(raw), "4,200") {
				t.Errorf("%s sees the hr document through %s %s: %s", who, rt.method, rt.path, raw)
			}
		}
		if status, raw, _ := ts.call(t, "GET", "/v1/passages/"+chunk, token, nil); status != 404 {
			t.Errorf("%s reads the passage: %d %s", who, status, raw)
		}
		// Trace and every other field come from the same filtered legs;
		// the MCP tools too.
		text := mcpCall(t, ts, token, "search", map[string]any{"query": "quokkafestival bonus"}) +
			mcpCall(t, ts, token, "get_document", map[string]any{"id": "people/salaries.md"}) +
			mcpCall(t, ts, token, "ask", map[string]any{"question": "How much is the quokkafestival bonus?"})
		if strings.Contains(text, marker) || strings.Contains(text, "4,200") {
			t.Errorf("%s sees the hr document through MCP: %s", who, text)
		}
	}
	hidden(readToken, "a read token without labels")
	hidden("", "a public reader")
	for _, token := range []string{hrToken, adminToken} {
		if _, text := ts.searchText(t, "/v1/search", token, "quokkafestival bonus band three"); !strings.Contains(text, marker) {
			t.Errorf("token %s… does not find the document it may read: %s", token[:3], text)
		}
		if status, _, _ := ts.call(t, "GET", "/v1/passages/"+chunk, token, nil); status != 200 {
			t.Errorf("token %s… cannot read the passage: %d", token[:3], status)
		}
		if text := mcpCall(t, ts, token, "search", map[string]any{"query": "quokkafestival bonus"}); !strings.Contains(text, marker) {
			t.Errorf("token %s… does not find it through MCP: %s", token[:3], text)
		}
	}
	// The filter runs inside the legs: the passages a reader without the
	// label gets for a query, in order, are those it got before the
	// document existed (TestHiddenDocumentsMoveNoScore checks that the
	// scores do not move either).
	withDoc := ts.chunkIDs(t, readToken, "engineer bonus band")
	if status, raw, _ := ts.call(t, "DELETE", "/v1/documents/people/salaries.md", adminToken, nil); status != 200 {
		t.Fatalf("delete: %d %s", status, raw)
	}
	if without := ts.chunkIDs(t, readToken, "engineer bonus band"); strings.Join(withDoc, " ") != strings.Join(without, " ") {
		t.Errorf("the hidden document changed what others see:\nwith:    %v\nwithout: %v", withDoc, without)
	}
}

// chunkIDs returns the chunk ids of a search's hits, in order.
func (ts *testServer) chunkIDs(t *testing.T, token, query string) []string {
	t.Helper()
	_, raw, _ := ts.call(t, "POST", "/v1/search", token, map[string]any{"query": query, "k": 20})
	var resp server.SearchResponse
	if err := json.Unmarshal(raw, &resp); err != nil || len(resp.Hits) == 0 {
		t.Fatalf("search: %s", raw)
	}
	ids := make([]string, len(resp.Hits))
	for i, h := range resp.Hits {
		ids[i] = h.Chunk
	}
	return ids
}

// mcpCall calls an MCP tool through /mcp with token ("" for none) and
// returns its text content, or the error text.
func mcpCall(t *testing.T, ts *testServer, token, tool string, args map[string]any) string {
	t.Helper()
	rt := http.DefaultTransport
	if token != "" {
		rt = bearer{token, http.DefaultTransport}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "fonte-access-test", Version: "0"}, nil)
	cs, err := client.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: ts.url + "/mcp", HTTPClient: &http.Client{Transport: rt}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	raw, _ := json.Marshal(res.StructuredContent)
	return b.String() + string(raw)
}

// TestRateLimit: past its burst a token gets 429 with Retry-After, and
// another token is not held back by it.
func TestRateLimit(t *testing.T) {
	ts := start(t, config{rate: &server.RateLimit{Rate: 0.5, Burst: 2}})
	for i := range 2 {
		if status, raw, _ := ts.call(t, "GET", "/v1/status", readToken, nil); status != 200 {
			t.Fatalf("request %d: %d %s", i+1, status, raw)
		}
	}
	status, raw, h := ts.call(t, "GET", "/v1/status", readToken, nil)
	if status != http.StatusTooManyRequests || h.Get("Retry-After") == "" || h.Get("Retry-After") == "0" {
		t.Fatalf("over the rate: %d %s (Retry-After %q)", status, raw, h.Get("Retry-After"))
	}
	if status, raw, _ := ts.call(t, "GET", "/v1/status", adminToken, nil); status != 200 {
		t.Fatalf("another token: %d %s", status, raw)
	}
}

// TestIndexFolderStreams: POST /v1/index re-indexes the configured folder
// and streams its progress; without a folder it is a 409 problem.
func TestIndexFolderStreams(t *testing.T) {
	docs := t.TempDir()
	if err := os.WriteFile(filepath.Join(docs, "outing.md"), []byte(markerDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(docs, "second.md"), []byte("# Parking\n\nVisitors park in lot C behind the warehouse.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := start(t, config{folder: docs})
	req, err := http.NewRequest("POST", ts.url+"/v1/index", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+adminToken)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	events := readEvents(t, resp.Body)
	resp.Body.Close()
	if len(events) < 2 || events[0].name != "progress" || events[len(events)-1].name != "done" {
		t.Fatalf("events: %+v", events)
	}
	var last server.IndexProgress
	if err := json.Unmarshal([]byte(events[len(events)-2].data), &last); err != nil || last.Files != 2 || last.Total != 2 {
		t.Fatalf("last progress: %s", events[len(events)-2].data)
	}
	var done server.IndexResponse
	if err := json.Unmarshal([]byte(events[len(events)-1].data), &done); err != nil || len(done.Indexed) != 2 || len(done.Removed) == 0 {
		// The handbook the test server indexed is not in this folder: the
		// run removes it, as `fonte index` would.
		t.Fatalf("done: %s", events[len(events)-1].data)
	}
	if _, text := ts.searchText(t, "/v1/search", readToken, "quokkafestival"); !strings.Contains(text, marker) {
		t.Fatalf("not searchable after the run: %s", text)
	}
	// An upload survives the next run over the folder.
	if status, raw := ts.upload(t, "/v1/documents", adminToken, map[string]string{"uploaded/note.md": "# Note\n\nThe zebracrossing drill is on Friday.\n"}); status != 200 {
		t.Fatalf("upload: %d %s", status, raw)
	}
	status, raw, _ := ts.call(t, "POST", "/v1/index", adminToken, nil)
	if status != 200 || strings.Contains(string(raw), "uploaded/note.md") {
		t.Fatalf("second run: %d %s", status, raw)
	}
	if _, text := ts.searchText(t, "/v1/search", readToken, "zebracrossing drill"); !strings.Contains(text, "zebracrossing") {
		t.Fatalf("the folder run removed an upload: %s", text)
	}
	status, raw, _ = ts.call(t, "POST", "/v1/collections", adminToken, map[string]any{"name": "nofolder"})
	if status != 201 {
		t.Fatalf("create: %d %s", status, raw)
	}
	if status, raw, _ = ts.call(t, "POST", "/v1/collections/nofolder/index", adminToken, nil); status != http.StatusConflict {
		t.Fatalf("index without a folder: %d %s", status, raw)
	}
}

// TestCollectionEmbedder: a collection made with its own embedder records
// it and is searched with it; an embedder the server cannot make is a
// problem naming the field, and nothing is created.
func TestCollectionEmbedder(t *testing.T) {
	ts := start(t, config{embedders: func(spec, _ string) (fonte.Embedder, error) {
		if spec != "small" {
			return nil, fmt.Errorf("unknown embedder %q", spec)
		}
		return embed.NewCharNGram(analysis.CharWB(3, 5), "char_wb-3-5", 128)
	}})
	status, raw, _ := ts.call(t, "POST", "/v1/collections", adminToken, map[string]any{"name": "small", "embedder": "small"})
	if status != http.StatusCreated || !strings.Contains(string(raw), "/128") {
		t.Fatalf("create with an embedder: %d %s", status, raw)
	}
	if status, raw = ts.upload(t, "/v1/collections/small/documents", adminToken, map[string]string{"outing.md": markerDoc}); status != 200 {
		t.Fatalf("upload: %d %s", status, raw)
	}
	status, raw, _ = ts.call(t, "POST", "/v1/collections/small/search", readToken, map[string]any{"query": "quokka festival", "retriever": "vector"})
	if status != 200 || !strings.Contains(string(raw), marker) {
		t.Fatalf("vector search with the collection's embedder: %d %s", status, raw)
	}
	status, raw, _ = ts.call(t, "POST", "/v1/collections", adminToken, map[string]any{"name": "big", "embedder": "ollama:nope"})
	if p := problemOf(t, raw); status != 400 || p.Field != "embedder" {
		t.Fatalf("an embedder the server cannot make: %d %s", status, raw)
	}
	if status, _, _ := ts.call(t, "GET", "/v1/collections/big/status", adminToken, nil); status != 404 {
		t.Fatalf("the refused collection exists: %d", status)
	}
}
