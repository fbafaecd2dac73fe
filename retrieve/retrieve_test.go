package retrieve

import (
	"context"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/embed"
)

func corpus(t *testing.T) (Corpus, *embed.CharNGram) {
	t.Helper()
	docs := []struct{ id, lang, heading, text string }{
		{"en/expenses.md", "en", "Expense claims", "The expense claim must be submitted within thirty days of the trip, with the original receipts attached."},
		{"en/purchases.md", "en", "Purchases", "Purchases over five hundred euros require the approval of the administrative director. See SOP-014."},
		{"en/keys.md", "en", "Archive keys", "The archive keys are kept by the front office and handed over only with a signature."},
		{"it/ferie.md", "it", "Ferie", "La richiesta delle ferie va inviata al responsabile almeno quindici giorni prima."},
		{"it/copie.md", "it", "Copie", "Le copie giornaliere dei dati si conservano per trenta giorni."},
	}
	emb, err := embed.NewCharNGram(analysis.CharWB(3, 5), "char_wb-3-5", 256)
	if err != nil {
		t.Fatal(err)
	}
	var c Corpus
	var texts []string
	for i, d := range docs {
		ch := fonte.Chunk{ID: d.id + "#0", DocID: d.id, Title: d.heading, Headings: []string{d.heading}, Text: d.text, Position: 0}
		c.Chunks = append(c.Chunks, ch)
		c.Langs = append(c.Langs, d.lang)
		tags := []string{d.lang}
		if i == 1 {
			tags = append(tags, "finance")
		}
		c.Tags = append(c.Tags, tags)
		texts = append(texts, ch.Text)
	}
	vs, err := emb.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	c.Dim = emb.Dimension()
	for _, v := range vs {
		c.Vectors = append(c.Vectors, v...)
	}
	return c, emb
}

func search(t *testing.T, ix *Index, emb *embed.CharNGram, req Request) []fonte.Hit {
	t.Helper()
	v, _ := emb.Embed(context.Background(), []string{req.Query})
	req.Vector = v[0]
	hits, err := ix.Search(req)
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

func TestHybridExplainsAndFinds(t *testing.T) {
	c, emb := corpus(t)
	ix, err := New(c, DefaultAnalyzers())
	if err != nil {
		t.Fatal(err)
	}
	hits := search(t, ix, emb, Request{Query: "SOP-014", K: 3})
	if len(hits) == 0 || hits[0].Chunk.DocID != "en/purchases.md" {
		t.Fatalf("identifier query: %+v", hits)
	}
	h := hits[0]
	if len(h.Legs) != 2 || h.Legs[0].Name != "bm25" || h.Legs[0].Rank != 1 || h.Legs[1].Name != "vector" {
		t.Fatalf("legs %+v", h.Legs)
	}
	want := 1/61.0 + 1/float64(60+h.Legs[1].Rank)
	if h.Legs[1].Rank == 0 {
		want = 1 / 61.0
	}
	if d := h.Score - want; d > 1e-12 || d < -1e-12 {
		t.Errorf("fused score %v, want %v", h.Score, want)
	}
	if h.Relevance <= 0 || h.Relevance >= 1 {
		t.Errorf("relevance %v", h.Relevance)
	}
	// Italian stems: "conservate" meets "conservano" only through stemming.
	hits = search(t, ix, emb, Request{Query: "per quanto tempo conservate le copie", K: 1, Mode: BM25})
	if len(hits) != 1 || hits[0].Chunk.DocID != "it/copie.md" {
		t.Fatalf("italian query: %+v", hits)
	}
}

func TestFilterAppliesInsideBothLegs(t *testing.T) {
	c, emb := corpus(t)
	ix, _ := New(c, DefaultAnalyzers())
	for _, mode := range []Mode{Hybrid, BM25, Dense} {
		hits := search(t, ix, emb, Request{Query: "keys archive expense", K: 5, Mode: mode, Filter: Filter{Prefixes: []string{"it/"}}})
		for _, h := range hits {
			if !strings.HasPrefix(h.Chunk.DocID, "it/") {
				t.Errorf("%s: %s passed a prefix filter", mode, h.Chunk.DocID)
			}
		}
		hits = search(t, ix, emb, Request{Query: "approval director", K: 5, Mode: mode, Filter: Filter{Tags: []string{"finance"}}})
		if len(hits) != 1 || hits[0].Chunk.DocID != "en/purchases.md" {
			t.Errorf("%s: tag filter gave %d hits", mode, len(hits))
		}
	}
}

func TestAbsentWordsLowerRelevance(t *testing.T) {
	c, emb := corpus(t)
	ix, _ := New(c, DefaultAnalyzers())
	in := search(t, ix, emb, Request{Query: "archive keys signature", K: 1, Mode: BM25})
	out := search(t, ix, emb, Request{Query: "canteen menu today keys", K: 1, Mode: BM25})
	if len(in) == 0 || len(out) == 0 || in[0].Relevance <= out[0].Relevance {
		t.Fatalf("relevance: matched %v, mostly unmatched %v", in, out)
	}
}

func TestErrors(t *testing.T) {
	c, _ := corpus(t)
	ix, _ := New(c, DefaultAnalyzers())
	if _, err := ix.Search(Request{Query: "x", Vector: []float32{1, 2}}); err == nil || !strings.Contains(err.Error(), "dimension") {
		t.Errorf("wrong query dimension: %v", err)
	}
	bad := c
	bad.Vectors = bad.Vectors[:10]
	if _, err := New(bad, DefaultAnalyzers()); err == nil {
		t.Error("short vectors accepted")
	}
	if _, err := ParseMode("semantic"); err == nil || !strings.Contains(err.Error(), "want auto, hybrid, bm25, tfidf or vector") {
		t.Errorf("unknown mode: %v; want an error listing every accepted name, auto (the default) included", err)
	}
	noVec := c
	noVec.Vectors = nil
	ix2, _ := New(noVec, DefaultAnalyzers())
	if hits, err := ix2.Search(Request{Query: "archive keys"}); err != nil || len(hits) == 0 || len(hits[0].Legs) != 1 {
		t.Errorf("hybrid without vectors should fall back to BM25: %v %v", hits, err)
	}
}
