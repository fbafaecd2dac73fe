package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/fonte-rag/fonte/server"
	"github.com/fonte-rag/fonte/wire"
)

// TestPassagesKeepCitations: a citation carries its chunk id and document
// hash; GET /v1/passages/{chunk} finds the passage, says it is not stale
// for that hash and stale for another, and an unknown passage or document
// is a 404 problem.
func TestPassagesKeepCitations(t *testing.T) {
	ts := start(t, config{})
	status, raw, _ := ts.call(t, "POST", "/v1/ask", readToken, `{"question": "How much can I spend per night on a hotel in London?"}`)
	if status != 200 {
		t.Fatalf("ask: %d %s", status, raw)
	}
	var a wire.Answer
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatal(err)
	}
	if len(a.Citations) == 0 {
		t.Fatalf("no citation: %s", raw)
	}
	c := a.Citations[0]
	if c.Chunk == "" || len(c.DocSHA256) != 64 {
		t.Fatalf("citation without chunk id or document hash: %+v", c)
	}
	path := "/v1/passages/" + url.PathEscape(c.Chunk)
	status, raw, _ = ts.call(t, "GET", path+"?doc_sha256="+c.DocSHA256, readToken, nil)
	if status != 200 {
		t.Fatalf("passage: %d %s", status, raw)
	}
	var p server.PassageResponse
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	if p.Chunk != c.Chunk || p.Doc != c.Doc || p.Stale || p.DocSHA256 != c.DocSHA256 || p.Start > c.Start || p.End < c.End {
		t.Fatalf("passage %+v for citation %+v", p, c)
	}
	status, raw, _ = ts.call(t, "GET", path+"?doc_sha256=0000", readToken, nil)
	if err := json.Unmarshal(raw, &p); err != nil || status != 200 || !p.Stale {
		t.Fatalf("another hash: %d stale %v %s", status, p.Stale, raw)
	}
	for _, bad := range []string{"/v1/passages/" + url.PathEscape(c.Doc+"#999"), "/v1/passages/" + url.PathEscape("no/such.md#0")} {
		status, raw, _ = ts.call(t, "GET", bad, readToken, nil)
		if status != http.StatusNotFound || problemOf(t, raw).Field != "id" {
			t.Errorf("%s: %d %s", bad, status, raw)
		}
	}
	if status, raw, _ = ts.call(t, "GET", "/v1/passages/no-hash-sign", readToken, nil); status != http.StatusBadRequest {
		t.Errorf("an id without #: %d %s", status, raw)
	}
}
