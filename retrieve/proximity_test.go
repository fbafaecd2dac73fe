package retrieve

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// proximityCorpus holds chunks with the same words, the same number of
// times and the same length, only arranged differently, and fillers that
// give the words an idf. The far chunk comes first, so that BM25's tie
// (by corpus position) puts it ahead.
func proximityCorpus(t *testing.T) *Index {
	t.Helper()
	texts := []string{
		"retention policy alpha bravo charlie delta echo foxtrot golf hotel india juliet backup",
		"alpha bravo charlie delta echo backup retention policy foxtrot golf hotel india juliet",
		"alpha bravo charlie delta echo backup retention policy foxtrot golf hotel india juliet",
	}
	for i := range 6 {
		texts = append(texts, fmt.Sprintf("filler kilo lima mike november oscar papa quebec %d", i))
	}
	var c Corpus
	for i, s := range texts {
		c.Chunks = append(c.Chunks, fonte.Chunk{ID: fmt.Sprintf("d%d#0", i), DocID: fmt.Sprintf("d%d", i), Text: s})
		c.Langs = append(c.Langs, "en")
	}
	ix, err := New(c, DefaultAnalyzers())
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func ids(hits []fonte.Hit) string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Chunk.ID)
	}
	return strings.Join(out, " ")
}

// TestProximityReorders: BM25 ties the three chunks that hold "backup
// retention policy" and orders them by position; with proximity the two
// that hold the words side by side come first, in corpus order (their
// tie is kept), with the far one after them, and every hit keeps the
// relevance it had without proximity.
func TestProximityReorders(t *testing.T) {
	ix := proximityCorpus(t)
	req := Request{Query: "backup retention policy", Mode: BM25, K: 3}
	plain, err := ix.Search(req)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(plain); got != "d0#0 d1#0 d2#0" {
		t.Fatalf("BM25 alone: %s, want the tie in corpus order", got)
	}
	req.Proximity = true
	prox, err := ix.Search(req)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(prox); got != "d1#0 d2#0 d0#0" {
		t.Fatalf("with proximity: %s, want d1#0 d2#0 d0#0", got)
	}
	if !(prox[0].Score == prox[1].Score && prox[1].Score > prox[2].Score && prox[2].Score > plain[0].Score) {
		t.Fatalf("scores %v %v %v (BM25 %v): want the adjacent pair tied above the far chunk, itself above BM25",
			prox[0].Score, prox[1].Score, prox[2].Score, plain[0].Score)
	}
	rel := map[string]float64{}
	for _, h := range plain {
		rel[h.Chunk.ID] = h.Relevance
	}
	for _, h := range prox {
		if h.Relevance != rel[h.Chunk.ID] {
			t.Fatalf("%s: relevance %v with proximity, %v without", h.Chunk.ID, h.Relevance, rel[h.Chunk.ID])
		}
	}
}

// TestProximityOneTerm: a query of one term, and one whose words match
// nothing, search as they do without proximity, scores included.
func TestProximityOneTerm(t *testing.T) {
	ix := proximityCorpus(t)
	for _, q := range []string{"retention", "zulu yankee", ""} {
		req := Request{Query: q, Mode: BM25, K: 10}
		plain, err := ix.Search(req)
		if err != nil {
			t.Fatal(err)
		}
		req.Proximity = true
		prox, err := ix.Search(req)
		if err != nil {
			t.Fatal(err)
		}
		if ids(plain) != ids(prox) {
			t.Fatalf("%q: %s with proximity, %s without", q, ids(prox), ids(plain))
		}
		for i := range plain {
			if plain[i].Score != prox[i].Score || plain[i].Relevance != prox[i].Relevance {
				t.Fatalf("%q hit %d: %+v with proximity, %+v without", q, i, prox[i], plain[i])
			}
		}
	}
}

// BenchmarkProximityRescore re-scores one question's first
// ProximityDepth candidates, chunks of 180 English words: the analysis of
// each chunk's enriched text and its proximity score, the whole cost
// Request.Proximity adds to a search.
func BenchmarkProximityRescore(b *testing.B) {
	words := strings.Fields(`the service must keep logs of every request for thirty days and
		rotate the keys used to sign tokens when a team member leaves the project while
		deployments run through the pipeline with approval from an owner of the repository`)
	var c Corpus
	for i := range ProximityDepth {
		var sb strings.Builder
		for j := range 180 {
			sb.WriteString(words[(i*31+j*17+j*j)%len(words)])
			sb.WriteByte(' ')
		}
		c.Chunks = append(c.Chunks, fonte.Chunk{ID: fmt.Sprintf("d%d#0", i), DocID: fmt.Sprintf("d%d", i),
			Title: "Operations", Headings: []string{"Logging and keys"}, Text: sb.String()})
		c.Langs = append(c.Langs, "en")
	}
	ix, err := New(c, DefaultAnalyzers())
	if err != nil {
		b.Fatal(err)
	}
	const q = "How long must the service keep the logs of a request?"
	cv := ix.corpusFor(Filter{})
	toks := ix.an.rankTerms(q, "en")
	rs := ix.bm25.TopKShare(toks, ProximityDepth, nil)
	if len(rs) != ProximityDepth {
		b.Fatalf("%d candidates, want %d", len(rs), ProximityDepth)
	}
	b.ReportAllocs()
	for b.Loop() {
		ix.byProximity(toks, rs, cv)
	}
}
