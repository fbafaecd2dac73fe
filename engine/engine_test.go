package engine

import (
	"context"
	"github.com/fonte-rag/fonte/embed"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/retrieve"
)

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

const refunds = `---
title: Support handbook
tags: [support]
---
# Support handbook

## Refunds

An approved refund is returned to the original payment method within 5 working days.
International refunds take up to 10 working days because of bank clearing.

## Returns

An item may be returned within 30 days of delivery if it is unused.
Sale items are returned under the same window as everything else.
`

const ferie = `---
title: Ferie
lang: it
---
# Ferie

La richiesta delle ferie va inviata al responsabile almeno quindici giorni prima della data di inizio.
Le ferie non godute si conservano fino al 30 giugno dell'anno successivo.
`

func open(t *testing.T, idx string) *Engine {
	t.Helper()
	e, err := Open(context.Background(), Settings{IndexDir: idx}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestLibraryUse is what a Go program embedding fonte does: index a
// folder, search, ask, re-index after edits, delete, evaluate.
func TestLibraryUse(t *testing.T) {
	ctx := context.Background()
	docs, idx := t.TempDir(), filepath.Join(t.TempDir(), "index")
	write(t, docs, "support.md", refunds)
	write(t, docs, "it/ferie.md", ferie)
	write(t, docs, "notes.bin", "\x00\x01binary")
	e := open(t, idx)

	rep, err := e.Index(ctx, docs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Indexed) != 2 || rep.Unchanged != 0 || rep.ChunksEmbedded != rep.Chunks || rep.Skipped != 1 {
		t.Fatalf("first run %+v", rep)
	}
	rep, err = e.Index(ctx, docs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Indexed) != 0 || rep.Unchanged != 2 || rep.ChunksEmbedded != 0 {
		t.Fatalf("second run %+v", rep)
	}

	hits, err := e.Search(ctx, "how long do international refunds take", SearchOptions{K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Chunk.DocID != "support.md" {
		t.Fatalf("search %+v", hits)
	}
	// The two short sections merge into one chunk under the document's
	// heading, which repeats the title and so is not repeated in the path.
	if len(hits[0].Chunk.Headings) != 0 || !strings.Contains(hits[0].Chunk.Text, "Returns") {
		t.Errorf("headings %q, text %q", hits[0].Chunk.Headings, hits[0].Chunk.Text)
	}
	a, err := e.Ask(ctx, "how long do international refunds take?", AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Abstained || !strings.Contains(a.Text, "10 working days") || !strings.Contains(a.Text, "[1]") {
		t.Fatalf("answer %q", a.Text)
	}
	if c := a.Citations[0]; c.Title != "Support handbook" || c.Updated.IsZero() || !strings.Contains(refunds, c.Quote) {
		t.Fatalf("citation %+v", c)
	}
	a, err = e.Ask(ctx, "what is on the canteen menu", AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Abstained {
		t.Fatalf("unanswerable question answered: %q (relevance %.2f)", a.Text, a.Relevance)
	}
	// Italian question, Italian stems.
	a, err = e.Ask(ctx, "a chi devo inviare la richiesta delle ferie?", AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Abstained || !strings.Contains(a.Text, "al responsabile") {
		t.Fatalf("italian answer %q", a.Text)
	}

	// Edit one section: only its chunk is embedded again.
	write(t, docs, "support.md", strings.Replace(refunds, "30 days", "45 days", 1))
	rep, err = e.Index(ctx, docs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Indexed) != 1 || rep.ChunksEmbedded != 1 {
		t.Fatalf("edit run %+v", rep)
	}
	// Remove a file: its chunks go.
	if err := os.Remove(filepath.Join(docs, "it", "ferie.md")); err != nil {
		t.Fatal(err)
	}
	rep, err = e.Index(ctx, docs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Removed) != 1 || rep.Removed[0] != "it/ferie.md" {
		t.Fatalf("removal run %+v", rep)
	}
	hits, _ = e.Search(ctx, "ferie responsabile", SearchOptions{Mode: retrieve.BM25})
	for _, h := range hits {
		if h.Chunk.DocID == "it/ferie.md" {
			t.Fatal("a removed document is still found")
		}
	}

	// Evaluate with a gold quote and an unanswerable question.
	qs := []eval.Question{
		{ID: "q1", Question: "how long do international refunds take", Gold: []eval.Gold{{Doc: "support.md", Quote: "International refunds take up to 10 working days"}}, Answer: "10 working days"},
		{ID: "q2", Question: "do you sell gift cards", Unanswerable: true},
	}
	res, err := e.EvalQuestions(ctx, qs, EvalOptions{Generation: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.Retrieval.Hit1 != 1 || res.Report.Generation == nil || res.Report.Generation.GivenGold != 1 || res.Report.Abstain == nil {
		t.Fatalf("eval %+v %+v", res.Report, res.Report.Generation)
	}

	// Delete: the text leaves the index.
	deleted, err := e.Delete(ctx, []string{"support.*"})
	if err != nil || len(deleted) != 1 {
		t.Fatalf("delete %v %v", deleted, err)
	}
	st, err := e.Status(ctx)
	if err != nil || st.Documents != 0 {
		t.Fatalf("status after delete %+v %v", st, err)
	}
}

func TestOpenRefusesOtherSettings(t *testing.T) {
	ctx := context.Background()
	docs, idx := t.TempDir(), filepath.Join(t.TempDir(), "index")
	write(t, docs, "a.md", refunds)
	e := open(t, idx)
	if _, err := e.Index(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	e.Close()
	_, err := Open(ctx, Settings{IndexDir: idx, ChunkSize: 50, Overlap: 5}, OpenOptions{})
	if err == nil || !strings.Contains(err.Error(), "rebuild") {
		t.Fatalf("other chunker accepted: %v", err)
	}
	if _, err := Open(ctx, Settings{IndexDir: filepath.Join(t.TempDir(), "none")}, OpenOptions{ReadOnly: true}); err == nil {
		t.Fatal("read-only open of a missing index succeeded")
	}
	e2, err := Open(ctx, Settings{IndexDir: idx, ChunkSize: 50, Overlap: 5}, OpenOptions{Rebuild: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	rep, err := e2.Index(ctx, docs, nil)
	if err != nil || len(rep.Indexed) != 1 {
		t.Fatalf("rebuild %+v %v", rep, err)
	}
}

func TestIndexDocumentsWhole(t *testing.T) {
	ctx := context.Background()
	e := open(t, filepath.Join(t.TempDir(), "index"))
	docs := []fonte.Document{
		{ID: "1", Title: "Biomaterials", Text: "Zero-dimensional biomaterials show inductive properties in bone repair."},
		{ID: "2", Title: "Cells", Text: "Stem cells differentiate under mechanical load."},
	}
	rep, err := e.IndexDocuments(ctx, docs, true, nil)
	if err != nil || rep.Chunks != 2 {
		t.Fatalf("%+v %v", rep, err)
	}
	b := &eval.BEIR{Corpus: docs, Queries: []eval.Query{{ID: "q", Text: "biomaterials inductive"}}, Qrels: eval.Qrels{"q": {"1": 1}}}
	res, err := e.EvalBEIR(ctx, b, retrieve.BM25, 10)
	if err != nil || res.Retrieval.NDCG10 != 1 {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestOpenExistingAsksTheEmbedderNothing: opening an index for a write
// that embeds nothing (OpenOptions.Existing, as a deletion does) takes
// the settings the index records, whatever embedder the settings name,
// and asks that embedder nothing: its server may be down.
func TestOpenExistingAsksTheEmbedderNothing(t *testing.T) {
	ctx := context.Background()
	dir, e := indexedOne(t, "open.md", "# Canteen\n\nLunch is served at noon.\n")
	e.Close()
	down, err := embed.NewOllama("nomic-embed-text", embed.OllamaOptions{BaseURL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	e, err = Open(ctx, Settings{Store: dir, Embedder: down}, OpenOptions{Existing: true})
	if err != nil {
		t.Fatalf("opening for a deletion with an embedder whose server is down: %v", err)
	}
	defer e.Close()
	deleted, err := e.Delete(ctx, []string{"open.md"})
	if err != nil || len(deleted) != 1 {
		t.Errorf("delete: %v, %v", deleted, err)
	}
}
