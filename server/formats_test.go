package server_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte/ingest"
	"github.com/fonte-rag/fonte/server"
)

// TestReadableFormats: every extension the server lists is one ingest
// parses, and the office formats and images that ingest reads are
// listed, each extension once.
func TestReadableFormats(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range server.ReadableFormats {
		if f.Name == "" || len(f.Extensions) == 0 {
			t.Errorf("format %+v has no name or no extension", f)
		}
		for _, ext := range f.Extensions {
			if seen[ext] {
				t.Errorf("%s is listed twice", ext)
			}
			seen[ext] = true
			if ingest.ParserFor("file"+ext) == nil {
				t.Errorf("%s (%s) is listed but ingest has no parser for it", ext, f.Name)
			}
		}
	}
	for _, ext := range []string{".md", ".txt", ".rst", ".html", ".pdf", ".docx", ".odt", ".pptx", ".png", ".jpg", ".tiff"} {
		if !seen[ext] {
			t.Errorf("ingest reads %s but the list leaves it out", ext)
		}
	}
}

// TestCollectionsFormatsAndRetriever: GET /v1/collections gives the
// page the formats an upload may hold and each collection's retriever.
func TestCollectionsFormatsAndRetriever(t *testing.T) {
	ts := start(t, config{})
	status, raw, _ := ts.call(t, "GET", "/v1/collections", readToken, nil)
	if status != 200 {
		t.Fatalf("%d %s", status, raw)
	}
	var got server.CollectionsResponse
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Collections) != 1 || got.Collections[0].Retriever != "bm25" {
		t.Errorf("collections %s, want default with retriever bm25 (the built-in embedder's)", raw)
	}
	if !slices.EqualFunc(got.Formats, server.ReadableFormats, func(a, b server.Format) bool {
		return a.Name == b.Name && slices.Equal(a.Extensions, b.Extensions) && a.OCR == b.OCR
	}) {
		t.Errorf("formats %+v, want %+v", got.Formats, server.ReadableFormats)
	}
}
