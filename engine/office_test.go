package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/retrieve"
)

// TestIndexOfficeDocuments indexes the Word, OpenDocument and PowerPoint
// files pandoc and LibreOffice made (ingest/testdata/office) and searches
// them: a table row is found by a cell's words, as "Column: value" pairs
// with the heading path it sits under; so is a footnote.
func TestIndexOfficeDocuments(t *testing.T) {
	ctx := context.Background()
	src, idx := ingestTestdata(t, "office", "guide-en.docx", "guida-it.odt", "lo-guida-it.docx", "slides-en.pptx"), t.TempDir()
	// Small chunks, so a chunk keeps to its section in these short files.
	e, err := Open(ctx, Settings{IndexDir: idx, ChunkSize: 24, Overlap: 4}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rep, err := e.Index(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Indexed) != 4 || len(rep.Refused) != 0 {
		t.Fatalf("indexed %v, refused %v", rep.Indexed, rep.Refused)
	}
	for _, c := range []struct {
		query, doc, text string
		path             []string
	}{
		{"which zone keeps dairy and fresh juice chilled", "guide-en.docx", "Zone: B | Temperature: chilled | Goods: dairy and fresh juice", []string{"Receiving", "Storage zones"}},
		{"giorni di ferie oltre cinque anni", "guida-it.odt", "Anzianità: oltre cinque anni | Giorni di ferie: ventisei | Permessi retribuiti: quaranta ore", []string{"Ferie e permessi", "Giorni spettanti"}},
		{"orari biblioteca sabato mattina", "lo-guida-it.docx", "Giorno: Sabato | Mattina: dalle nove alle tredici | Pomeriggio: chiuso", []string{"Prestiti", "Orari di apertura"}},
		{"signage cost euro", "slides-en.pptx", "Item: Signage | Cost: 1200 euro", []string{"Budget"}},
		{"deliveries without a note refused at the gate", "guide-en.docx", "[1] Deliveries without a note", []string{"Receiving"}},
	} {
		hits, err := e.Search(ctx, c.query, SearchOptions{K: 3, Mode: retrieve.BM25})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 {
			t.Errorf("%q: no hits", c.query)
			continue
		}
		h := hits[0].Chunk
		if h.DocID != c.doc || !strings.Contains(h.Text, c.text) || !slices.Equal(h.Headings, c.path) {
			t.Errorf("%q: top hit %s %q under %q, want %s with %q under %q", c.query, h.DocID, h.Text, h.Headings, c.doc, c.text, c.path)
		}
	}
}
