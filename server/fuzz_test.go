package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/server"
)

// fuzzRoutes are the request bodies of `fonte serve` the fuzzer writes:
// every POST route's, the upload as multipart with a fixed boundary.
var fuzzRoutes = []struct{ path, contentType string }{
	{"/v1/search", "application/json"},
	{"/v1/ask", "application/json"},
	{"/v1/chat", "application/json"},
	{"/v1/eval", "application/json"},
	{"/v1/collections", "application/json"},
	{"/v1/chat/completions", "application/json"},
	{"/v1/documents", "multipart/form-data; boundary=BOUNDARY"},
	{"/v1/collections/other/search", "application/json"},
}

// fuzzServer is a server over an index of the example handbook, built
// once for the fuzz target. It has no data folder, so a valid collection
// request stops at "no data folder" instead of creating one per input.
func fuzzServer(f *testing.F) http.Handler {
	ctx := context.Background()
	settings := engine.Settings{Store: f.TempDir()}
	e, err := engine.Open(ctx, settings, engine.OpenOptions{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { e.Close() })
	if _, err := e.Index(ctx, "../examples/handbook", nil); err != nil {
		f.Fatal(err)
	}
	settings.Store = ""
	srv, err := server.New(e, server.Options{Addr: "127.0.0.1:8080", AdminToken: adminToken,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Template: settings, RateLimit: &server.RateLimit{}})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { srv.Close() })
	return srv
}

// FuzzRequestBodies posts arbitrary bodies to every route that reads one:
// the server never fails (no 5xx), refuses with an RFC 9457 problem whose
// status is the response's and which names the field at fault for every
// bad request, and answers success with JSON (or an event stream).
func FuzzRequestBodies(f *testing.F) {
	seeds := map[int][]string{
		0: {`{"query":"how many vacation days","k":3,"filters":{"prefixes":["people/"],"tags":["hr"]},"retriever":"bm25","trace":true}`,
			`{"query":"","k":0}`, `{"query":"x","k":1001}`, `{"query":"x","extra":1}`, `{"query":1}`, `{"query":"x"} {}`, ``, `[`},
		1: {`{"question":"How many vacation days do I get?","history":[{"role":"user","content":"hi"}],"k":5,"floor":0.2,"trace":true}`,
			`{"question":"x","stream":true}`, `{"question":"x","floor":-1,"retriever":"nope"}`},
		2: {`{"question":"and in Italy?","history":[{"role":"user","content":"leave"},{"role":"assistant","content":"26 days"}]}`},
		3: {`{"questions":"{\"id\":\"a\",\"question\":\"How many vacation days?\",\"gold\":[{\"doc\":\"people/leave.md\",\"quote\":\"26 working days\"}]}","retrievers":["bm25"],"k":5,"depth":10,"target":0.9,"generation":false}`,
			`{"file":"../x.jsonl"}`, `{"questions":"not json"}`, `{"questions":"","file":"a"}`},
		4: {`{"name":"docs","chunker":"window","chunk_size":100,"overlap":10,"embedder":""}`, `{"name":"../x"}`, `{"name":"a","chunk_size":-1}`, `{"name":"a","chunker":"x"}`},
		5: {`{"model":"default","messages":[{"role":"user","content":"How many vacation days?"}],"temperature":0.2,"stream":false}`,
			`{"model":"default","messages":[{"role":"user","content":[{"type":"text","text":"leave"}]}],"stream":true,"stream_options":{"include_usage":true}}`,
			`{"messages":[],"n":2,"response_format":{"type":"json_object"}}`},
		6: {"--BOUNDARY\r\nContent-Disposition: form-data; name=\"file\"; filename=\"note.md\"\r\nContent-Type: text/markdown\r\n\r\n# Note\n\nParking is free on Fridays.\r\n--BOUNDARY--\r\n",
			"--BOUNDARY\r\nContent-Disposition: form-data; name=\"field\"\r\n\r\nvalue\r\n--BOUNDARY--\r\n",
			"--BOUNDARY\r\nContent-Disposition: form-data; name=\"file\"; filename=\"../../etc/passwd.txt\"\r\n\r\nx\r\n--BOUNDARY--\r\n",
			"--BOUNDARY\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.exe\"\r\n\r\n\x00\x01\r\n--BOUNDARY"},
		7: {`{"query":"x"}`},
	}
	for route, bodies := range seeds {
		for _, b := range bodies {
			f.Add(uint8(route), []byte(b))
		}
	}
	h := fuzzServer(f)
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		rt := fuzzRoutes[int(route)%len(fuzzRoutes)]
		req := httptest.NewRequest(http.MethodPost, rt.path, bytes.NewReader(body))
		req.Host = "127.0.0.1:8080"
		req.Header.Set("Content-Type", rt.contentType)
		req.Header.Set("Authorization", "Bearer "+adminToken)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		res := rec.Result()
		out := rec.Body.Bytes()
		ct := res.Header.Get("Content-Type")
		if testing.Verbose() {
			t.Logf("POST %s: %d", rt.path, res.StatusCode)
		}
		if res.StatusCode >= 500 {
			t.Fatalf("POST %s %q: %d %s", rt.path, body, res.StatusCode, out)
		}
		if res.StatusCode == http.StatusUnprocessableEntity && rt.path == "/v1/documents" && bytes.Contains(out, []byte("#files-refused")) {
			// Every file refused: a problem whose report says why, file
			// by file.
			var up server.UploadProblem
			if err := json.Unmarshal(out, &up); err != nil || ct != "application/problem+json" || up.Field != "file" || len(up.Indexed) > 0 || len(up.Refused) == 0 {
				t.Fatalf("POST %s %q: 422 with %s", rt.path, body, out)
			}
			for _, r := range up.Refused {
				if r.Path == "" || r.Reason == "" {
					t.Fatalf("POST %s %q: refusal without a path or reason: %s", rt.path, body, out)
				}
			}
			return
		}
		if res.StatusCode >= 400 {
			if ct != "application/problem+json" {
				t.Fatalf("POST %s %q: %d with Content-Type %q: %s", rt.path, body, res.StatusCode, ct, out)
			}
			var p server.Problem
			if err := json.Unmarshal(out, &p); err != nil {
				t.Fatalf("POST %s %q: problem is not JSON: %v: %s", rt.path, body, err, out)
			}
			if p.Status != res.StatusCode || p.Type == "" || p.Title == "" {
				t.Fatalf("POST %s %q: %d with problem %+v", rt.path, body, res.StatusCode, p)
			}
			// A key named "" is an unknown field whose name is empty.
			if res.StatusCode == http.StatusBadRequest && p.Field == "" && !strings.HasPrefix(p.Detail, `unknown field ""`) {
				t.Fatalf("POST %s %q: a bad request names no field: %+v", rt.path, body, p)
			}
			return
		}
		if strings.HasPrefix(ct, "text/event-stream") {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("POST %s %q: %d with a body that is not JSON (%q): %s", rt.path, body, res.StatusCode, ct, out)
		}
	})
}
