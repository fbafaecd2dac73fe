package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/ingest"
	"github.com/fonte-rag/fonte/retrieve"
)

// TestIndexScans indexes a scanned PDF and a TIFF page (made from real
// pages by ingest/testdata/ocr/generate.go) and a page of noise: the
// scans are read by OCR, their record keeps each page's confidence under
// the "ocr" metadata and the "ocr" tag, the report counts OCR pages, a
// sentence of the scan is found, and the noise is refused.
func TestIndexScans(t *testing.T) {
	ctx := context.Background()
	src, idx := ingestTestdata(t, "ocr", "en-scan.pdf", "it-page.tiff", "noise.png"), t.TempDir()
	e, err := Open(ctx, Settings{IndexDir: idx}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rep, err := e.Index(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Indexed) != 2 || len(rep.Refused) != 1 || !strings.Contains(rep.Refused[0].Reason, string(ingest.ReasonLowConfidence)) {
		t.Fatalf("indexed %v, refused %v; want the two scans indexed and the noise refused for low confidence", rep.Indexed, rep.Refused)
	}
	for _, f := range rep.Files {
		if want := map[string]int{"en-scan.pdf": 1, "it-page.tiff": 1}[f.Path]; f.OCRPages != want {
			t.Errorf("report of %s: %d OCR pages, want %d", f.Path, f.OCRPages, want)
		}
	}
	for _, id := range []string{"en-scan.pdf", "it-page.tiff"} {
		rec, err := e.Document(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		pages, err := ingest.DecodeOCR(rec.Meta[ingest.OCRMeta])
		if err != nil || len(pages) != 1 || pages[0].Page != 1 || pages[0].Confidence < ingest.OCRFloor {
			t.Errorf("%s: OCR metadata %q (%v), want page 1 above the floor", id, rec.Meta[ingest.OCRMeta], err)
		}
		if !slices.Contains(rec.Doc.Tags, ingest.OCRTag) {
			t.Errorf("%s: tags %v lack %q", id, rec.Doc.Tags, ingest.OCRTag)
		}
		for _, c := range rec.Chunks {
			if c.Page != 1 {
				t.Errorf("%s: chunk %d on page %d, want 1 (its OCR page)", id, c.Position, c.Page)
			}
		}
	}
	hits, err := e.Search(ctx, "when did eight PIFs leave the fellowship to become GSA employees", SearchOptions{K: 1, Mode: retrieve.BM25})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Chunk.DocID != "en-scan.pdf" || !strings.Contains(hits[0].Chunk.Text, "December 2013, eight PIFs left the fellowship") {
		t.Errorf("hits %+v, want the scan's paragraph", hits)
	}
}
