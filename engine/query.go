package engine

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/internal/yield"
	"github.com/fonte-rag/fonte/retrieve"
)

// SearchOptions refine one search; zero fields take the engine's settings.
type SearchOptions struct {
	K      int
	Mode   retrieve.Mode
	Filter retrieve.Filter
	// Lang is the query's language; "" detects it (searchLanguage), and
	// analyses the query in every language of the corpus when the
	// evidence is not decisive.
	Lang string
	// Trace, when set, is reset and filled with what the search (or the
	// question) did and why (see Trace); nil traces nothing.
	Trace *Trace
}

// Search retrieves the chunks that best match query.
func (e *Engine) Search(ctx context.Context, query string, o SearchOptions) ([]fonte.Hit, error) {
	defer yield.Searching()() // a write beside it gives way (internal/yield)
	v, err := e.view(ctx)
	if err != nil {
		return nil, err
	}
	if o.Trace != nil {
		*o.Trace = Trace{}
	}
	return e.search(ctx, v, query, o)
}

func (e *Engine) search(ctx context.Context, v *view, query string, o SearchOptions) ([]fonte.Hit, error) {
	s := e.settings
	req := retrieve.Request{Query: query, K: o.K, Mode: o.Mode, Filter: o.Filter, Lang: o.Lang,
		LexicalWeight: s.LexicalWeight, DenseWeight: s.DenseWeight, Proximity: s.Proximity}
	if req.K <= 0 {
		req.K = s.K
	}
	if req.Mode == "" {
		req.Mode = s.Mode
	}
	if req.Lang == "" {
		req.Lang = searchLanguage(query)
	}
	req.Lang = e.analysisLanguage(req.Lang, v.readableLanguages(o.Filter))
	tr := o.Trace
	var t0 time.Time
	if tr != nil {
		tr.Query, tr.Lang, tr.Mode, tr.K = query, req.Lang, req.Mode, req.K
		req.Trace = &retrieve.LegTrace{}
	}
	if v.chunks == 0 {
		return nil, nil
	}
	if req.Mode != retrieve.BM25 && req.Mode != retrieve.TFIDF && v.hasDense() {
		if tr != nil {
			t0 = time.Now()
		}
		qv, err := s.Embedder.Embed(ctx, []string{query})
		if err != nil {
			return nil, fmt.Errorf("embedding the query with %s: %w", s.Embedder.Model(), err)
		}
		if len(qv) != 1 {
			return nil, fmt.Errorf("embedding the query with %s: %d vectors for 1 text", s.Embedder.Model(), len(qv))
		}
		req.Vector = normalised(qv[0])
		if tr != nil {
			tr.stage("embed_query", time.Since(t0))
		}
	}
	hits, err := v.search(ctx, req)
	if err != nil {
		return nil, err
	}
	if v.snap != nil {
		// Their text goes out (to the caller, a reranker, a model): the
		// files that hold it are checked first.
		ids := make([]string, len(hits))
		for i, h := range hits {
			ids[i] = h.Chunk.DocID
		}
		if err := e.local.VerifyDocuments(v.snap, ids...); err != nil {
			return nil, err
		}
	}
	if tr != nil {
		tr.legs(req.Trace, req.K)
		tr.Fused = ranking(hits)
	}
	if s.Reranker != nil && len(hits) > 1 {
		if tr != nil {
			t0 = time.Now()
		}
		if hits, err = rerank(ctx, s.Reranker, query, hits); err != nil {
			return nil, err
		}
		if tr != nil {
			tr.stage("rerank", time.Since(t0))
			tr.Reranked = ranking(hits)
		}
	}
	return hits, nil
}

// rerank reorders hits by a cross-encoder's scores, keeping each hit's
// relevance (the floor stays calibrated) and recording the new leg.
func rerank(ctx context.Context, r fonte.Reranker, query string, hits []fonte.Hit) ([]fonte.Hit, error) {
	texts := make([]string, len(hits))
	for i, h := range hits {
		texts[i] = chunk.Enriched(h.Chunk)
	}
	scores, err := r.Rerank(ctx, query, texts)
	if err != nil {
		return nil, fmt.Errorf("reranking with %s: %w", r.Model(), err)
	}
	if len(scores) != len(hits) {
		return nil, fmt.Errorf("reranking with %s: %d scores for %d texts", r.Model(), len(scores), len(hits))
	}
	out := slices.Clone(hits)
	for i := range out {
		out[i].Score = scores[i]
		out[i].Legs = append(slices.Clone(out[i].Legs), fonte.Leg{Name: "rerank", Score: scores[i]})
	}
	slices.SortStableFunc(out, func(a, b fonte.Hit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	for i := range out {
		out[i].Legs[len(out[i].Legs)-1].Rank = i + 1
	}
	return out, nil
}

// AskOptions refine one question.
type AskOptions struct {
	SearchOptions
	// History is the conversation so far; the question is rewritten into a
	// standalone query with it before searching.
	History []fonte.Message
	// All sends every chunk of the index instead of retrieving, for a
	// corpus small enough to fit the budget (seed 002: "when RAG is the
	// wrong tool"). It fails when the corpus does not fit.
	All bool
	// OnDelta receives the answer as it streams: only the checked answer,
	// its pieces joining into Answer.Text (a model's is held back until
	// every check has run on it; see answer.Hold).
	OnDelta func(string)
	// Floor overrides the engine's abstain floor for this question when
	// non-zero; a negative one never abstains (as Settings.Floor).
	Floor float64
}

// Ask answers a question from the index, with citations, or abstains.
func (e *Engine) Ask(ctx context.Context, question string, o AskOptions) (*fonte.Answer, error) {
	s := e.settings
	v, err := e.view(ctx)
	if err != nil {
		return nil, err
	}
	tr := o.Trace
	var t0 time.Time
	if tr != nil {
		*tr = Trace{Question: question}
		t0 = time.Now()
	}
	query, err := answer.Rewrite(ctx, o.History, question, s.Generator)
	if err != nil {
		return nil, err
	}
	if tr != nil {
		tr.stage("rewrite", time.Since(t0))
		tr.Query = query
	}
	var hits []fonte.Hit
	if o.All {
		total := 0
		for _, id := range v.docIDs() {
			chunks, err := e.chunksOf(ctx, id)
			if err != nil {
				return nil, err
			}
			for _, c := range chunks {
				total += answer.Tokens(c.Text)
				hits = append(hits, fonte.Hit{Chunk: c, Score: 1, Relevance: 1})
			}
			if total > s.Budget {
				break
			}
		}
		if total > s.Budget {
			return nil, fmt.Errorf("--all: the index holds about %d tokens of text, over the %d-token budget; retrieve instead, or raise --budget", total, s.Budget)
		}
		if tr != nil {
			tr.Mode, tr.K, tr.Fused = "all", len(hits), ranking(hits)
		}
	} else {
		k := o.K
		if k <= 0 {
			k = max(s.K, 10)
		}
		o.SearchOptions.K = k
		if hits, err = e.search(ctx, v, query, o.SearchOptions); err != nil {
			return nil, err
		}
	}
	docs := v.docsOf(hits)
	langs := v.readableLanguages(o.Filter)
	lang := o.Lang
	if lang == "" {
		lang = answerLanguage(query, hits, docs, langs)
	}
	floor := e.floorFor(floorLanguage(query, hits, docs))
	if o.Floor != 0 {
		floor = max(o.Floor, 0)
	}
	cfg := answer.Config{Floor: floor, Budget: s.Budget, Generator: s.Generator, OnDelta: o.OnDelta, Lang: lang}
	if o.All {
		cfg.Budget = 1 << 30 // already checked against the budget, in document order
	} else if cfg.Coverage, err = e.coverage(ctx, v, query, e.analysisLanguage(lang, langs), hits, o.Filter); err != nil {
		return nil, err
	}
	if tr != nil {
		cfg.Trace = &answer.Trace{}
	}
	// The answer stage sees the standalone query: a follow-up's own words
	// ("and for a domestic one?") cannot tell the answerer, or a model
	// that sees no history, what is asked.
	a, err := answer.Ask(ctx, query, hits, docs, cfg)
	if err != nil {
		return nil, err
	}
	if tr != nil {
		tr.answer(cfg.Trace)
	}
	switch {
	case a.Abstained && len(hits) == 0 && (v.chunks == 0 || len(langs) == 0):
		// Nothing to answer from: say so, or the abstention reads as the
		// documents' silence on the question.
		a.Notice = answer.NoDocumentsNotice(lang, o.Filter.Restricted)
	case a.Abstained && len(hits) == 0 && a.Notice == "":
		a.Notice = e.nothingFoundNotice(lang, langs)
	}
	a.Question, a.Query = question, query
	return a, nil
}

// DocStatus describes one indexed document.
type DocStatus struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Language string `json:"language"`
	// Analysis is the lexical analysis the document's chunks get (see
	// retrieve.Analyzers.Analysis): "en" (English, and text whose
	// language was not told), "it", "cjk" (character bigrams: Chinese,
	// Japanese, Korean, Thai) or "neutral" (any other language).
	Analysis string    `json:"analysis"`
	Chunks   int       `json:"chunks"`
	Updated  time.Time `json:"updated"`
}

// Status describes the index.
type Status struct {
	Dir        string      `json:"dir,omitempty"` // the store's location (kept under its old name)
	Backend    string      `json:"backend"`
	Lexical    string      `json:"lexical"`
	Dense      string      `json:"dense"`
	Generation uint64      `json:"generation,omitempty"`
	Committed  time.Time   `json:"committed,omitzero"`
	Documents  int         `json:"documents"`
	Chunks     int         `json:"chunks"`
	Analyzer   string      `json:"analyzer"`
	Chunker    string      `json:"chunker"`
	Embedder   string      `json:"embedder"`
	Dimension  int         `json:"dimension"`
	Docs       []DocStatus `json:"docs"`
	// Labels counts the documents carrying each access label (admins
	// only: the server drops it for a restricted reader).
	Labels map[string]int `json:"labels,omitempty"`
	// Replica says how far behind its primary a replica store serves
	// (a PostgreSQL hot standby); absent for a primary.
	Replica *fonte.ReplicaStatus `json:"replica,omitempty"`
}

// Status reports what the index holds.
func (e *Engine) Status(ctx context.Context) (*Status, error) {
	ss, err := e.store.Status(ctx)
	if err != nil {
		return nil, err
	}
	cfg, err := e.store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	docs, err := e.store.Documents(ctx)
	if err != nil {
		return nil, err
	}
	st := &Status{Dir: e.Location(), Backend: ss.Backend, Lexical: ss.Lexical, Dense: ss.Dense, Generation: ss.Generation,
		Committed: ss.Committed, Documents: ss.Documents, Chunks: ss.Chunks, Analyzer: e.an.Name(), Chunker: cfg.Chunker,
		Embedder: cfg.Embedder, Dimension: cfg.Dim, Replica: ss.Replica}
	for _, d := range docs {
		st.Docs = append(st.Docs, DocStatus{ID: d.ID, Title: d.Title, Language: d.Language,
			Analysis: e.an.Analysis(d.Language), Chunks: d.Chunks, Updated: d.Updated})
	}
	if counts := labelCounts(docs); len(counts) > 0 {
		st.Labels = counts
	}
	return st, nil
}
