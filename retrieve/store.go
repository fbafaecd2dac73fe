package retrieve

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/fusion"
)

// StoreSearch runs Index.Search's retrieval over a fonte.Store whose
// legs run in the database (PostgreSQL, Redis): each leg's top list comes
// from the store, and the rest happens here exactly as in Index.Search
// (queries analysed per language, BM25 shares, fusion by RRF, relevance
// over content words), so the same data answers the same way on every
// store. Relevance needs only the hits' text and the store's term
// statistics.
type StoreSearch struct {
	Store fonte.Store
	An    Analyzers
	// Langs are the corpus's languages, sorted ("" for unknown).
	Langs []string
	// Docs, when set, are the corpus's documents' languages and tags: a
	// restricted reader's query is then analysed in the languages of the
	// documents it may read only, so a hidden document's language moves
	// nothing it is shown.
	Docs []DocLang
	// Dim is the index's vector dimension; 0 means no dense leg.
	Dim int
}

// storeHit is one chunk a leg returned.
type storeHit struct {
	chunk fonte.Chunk
	lang  string
	score float64
	// share is the lexical leg's BM25 share when score adds proximity
	// (Request.Proximity), else unset: the relevance falls back on it.
	share float64
}

// fusionKey orders chunks as the embedded store's corpus does (document
// ID, then position), so ties break alike on every store.
func fusionKey(c fonte.Chunk) string { return fmt.Sprintf("%s\x00%010d", c.DocID, c.Position) }

// DocLang is one document's language and tags (see StoreSearch.Docs).
type DocLang struct {
	Lang string
	Tags []string
}

func (s *StoreSearch) queryLangs(lang string, f Filter) []string {
	if lang != "" {
		return []string{lang}
	}
	if langs := s.Languages(f); len(langs) > 0 {
		return langs
	}
	return []string{""}
}

// Languages returns the languages of the documents a reader under f may
// read, sorted ("" for unknown): the corpus's for an unrestricted reader,
// else those of the documents f's access labels let it read.
func (s *StoreSearch) Languages(f Filter) []string {
	if !f.Restricted || s.Docs == nil {
		return s.Langs
	}
	var langs []string
	for _, d := range s.Docs {
		if f.Readable(d.Tags) && !slices.Contains(langs, d.Lang) {
			langs = append(langs, d.Lang)
		}
	}
	slices.Sort(langs)
	return langs
}

// idf is BM25's idf, the expression lexical.BM25 uses.
func idf(n, df int) float64 { return math.Log(1 + (float64(n-df)+0.5)/(float64(df)+0.5)) }

// maxScore is lexical.BM25.MaxScoreTokens over a store's statistics.
func maxScore(st fonte.TermStats) float64 {
	total := 0.0
	for _, df := range st.DF {
		total += idf(st.Chunks, df) * (fonte.BM25K1 + 1)
	}
	return total
}

// Search runs the request against the store.
func (s *StoreSearch) Search(ctx context.Context, req Request) ([]fonte.Hit, error) {
	req.defaults()
	if req.Mode == TFIDF {
		return nil, fmt.Errorf("retrieve: the tfidf retriever runs on the embedded store only (a baseline for evaluations)")
	}
	if req.Mode != BM25 && s.Dim == 0 {
		if req.Mode == Dense {
			return nil, fmt.Errorf("retrieve: the index has no vectors for the dense leg")
		}
		req.Mode = BM25
	}
	if req.Mode != BM25 && len(req.Vector) != s.Dim {
		return nil, fmt.Errorf("retrieve: query vector has dimension %d, the index has %d", len(req.Vector), s.Dim)
	}

	tr := req.Trace
	var t0 time.Time
	if tr != nil {
		tr.Mode, tr.Depth = req.Mode, req.Depth
		t0 = time.Now()
	}
	var lexHits, denseHits []storeHit
	var lexShares map[string]float64 // BM25 shares when lexHits' scores add proximity
	var content []contentTerms
	if req.Mode != Dense {
		qs, err := s.analyse(ctx, req)
		if err != nil {
			return nil, err
		}
		if lexHits, err = s.lexicalTop(ctx, req, qs); err != nil {
			return nil, err
		}
		if req.Proximity {
			lexShares = make(map[string]float64, len(lexHits))
			for _, h := range lexHits {
				lexShares[fusionKey(h.chunk)] = h.share
			}
		}
		for _, q := range qs {
			if m := maxScore(q.contentStats); m > 0 {
				content = append(content, contentTerms{q.content, q.contentStats, m})
			}
		}
		if tr != nil {
			tr.LexicalTime = since(&t0)
			tr.Lexical = storeCandidates(lexHits)
		}
	}
	if req.Mode != BM25 {
		res, err := s.Store.VectorTopK(ctx, fonte.VectorQuery{Vector: req.Vector, K: req.Depth, Filter: req.Filter})
		if err != nil {
			return nil, err
		}
		for _, r := range res {
			denseHits = append(denseHits, storeHit{chunk: r.Chunk, lang: r.Lang, score: r.Score})
		}
		if tr != nil {
			tr.DenseTime = since(&t0)
			tr.Dense = storeCandidates(denseHits)
		}
	}
	if tr != nil {
		defer func() { tr.FusionTime = since(&t0) }()
	}
	relevance := func(h storeHit, lex, dense float64) float64 {
		if req.Mode == Dense {
			return max(dense, 0)
		}
		if c := s.share(content, h); c > 0 || lex == 0 {
			return c
		}
		if lexShares != nil {
			return lexShares[fusionKey(h.chunk)]
		}
		return lex
	}
	single := func(list []storeHit, leg string, rel func(storeHit) float64) []fonte.Hit {
		var out []fonte.Hit
		for i, h := range list {
			if i == req.K {
				break
			}
			out = append(out, fonte.Hit{Chunk: h.chunk, Score: h.score, Relevance: rel(h),
				Legs: []fonte.Leg{{Name: leg, Rank: i + 1, Score: h.score}}})
		}
		return out
	}
	switch req.Mode {
	case BM25:
		return single(lexHits, "bm25", func(h storeHit) float64 { return relevance(h, h.score, 0) }), nil
	case Dense:
		return single(denseHits, "vector", func(h storeHit) float64 { return relevance(h, 0, h.score) }), nil
	}

	byKey := map[string]storeHit{}
	ids := func(list []storeHit) ([]string, map[string]float64) {
		out := make([]string, len(list))
		scores := make(map[string]float64, len(list))
		for i, h := range list {
			k := fusionKey(h.chunk)
			out[i], scores[k] = k, h.score
			byKey[k] = h
		}
		return out, scores
	}
	lexIDs, lexScore := ids(lexHits)
	denseIDs, denseScore := ids(denseHits)
	lw, dw := req.LexicalWeight, req.DenseWeight
	if lw == 0 && dw == 0 {
		lw, dw = 1, 1
	}
	fused := fusion.RRF([][]string{lexIDs, denseIDs}, fusion.Options{K: req.RRFK, Weights: []float64{lw, dw}})
	var out []fonte.Hit
	for _, f := range fused {
		if len(out) == req.K {
			break
		}
		h := byKey[f.ID]
		ls, ds := lexScore[f.ID], denseScore[f.ID]
		out = append(out, fusedHit(h.chunk, f, ls, ds, relevance(h, ls, ds)))
	}
	return out, nil
}

// storeCandidates records a leg's list for a trace.
func storeCandidates(list []storeHit) []Candidate {
	return candidates(list, func(h storeHit) (fonte.Chunk, float64) { return h.chunk, h.score })
}

// langQuery is the query analysed in one language: its ranking terms and
// its content words, each with their statistics.
type langQuery struct {
	terms, content          []string
	termStats, contentStats fonte.TermStats
}

// analyse analyses the query in each of its languages and reads the
// statistics of every term involved in one TermStats call, one round
// trip to the store however many languages and lists there are.
func (s *StoreSearch) analyse(ctx context.Context, req Request) ([]langQuery, error) {
	var qs []langQuery
	var all []string
	at := map[string]int{}
	for _, l := range s.queryLangs(req.Lang, req.Filter) {
		q := langQuery{terms: s.An.rankTerms(req.Query, l), content: s.An.contentOf(l).Analyze(req.Query)}
		for _, list := range [][]string{q.terms, q.content} {
			for _, t := range list {
				if _, ok := at[t]; !ok {
					at[t] = len(all)
					all = append(all, t)
				}
			}
		}
		qs = append(qs, q)
	}
	if len(all) == 0 {
		return qs, nil
	}
	st, err := s.Store.TermStats(ctx, all, req.Filter)
	if err != nil {
		return nil, err
	}
	of := func(list []string) fonte.TermStats {
		out := fonte.TermStats{Chunks: st.Chunks, TotalTerms: st.TotalTerms, DF: make([]int, len(list))}
		for i, t := range list {
			out.DF[i] = st.DF[at[t]]
		}
		return out
	}
	for i := range qs {
		qs[i].termStats, qs[i].contentStats = of(qs[i].terms), of(qs[i].content)
	}
	return qs, nil
}

// lexicalTop is Index.lexicalTop over the store: per query language, the
// store's BM25 top list divided by the query's MaxScore, each chunk
// keeping its best share.
func (s *StoreSearch) lexicalTop(ctx context.Context, req Request, qs []langQuery) ([]storeHit, error) {
	best := map[string]storeHit{}
	for _, q := range qs {
		if len(q.terms) == 0 {
			continue
		}
		m := maxScore(q.termStats)
		fetch := req.Depth
		if req.Proximity {
			fetch = max(fetch, ProximityDepth)
		}
		res, err := s.Store.LexicalTopK(ctx, fonte.LexicalQuery{Terms: q.terms, K: fetch, Filter: req.Filter})
		if err != nil {
			return nil, err
		}
		var add []float64
		if req.Proximity {
			add = s.byProximity(q, res)
		}
		list := make([]storeHit, 0, len(res))
		for i, r := range res {
			if m <= 0 || r.Score <= 0 {
				continue
			}
			h := storeHit{chunk: r.Chunk, lang: r.Lang, score: r.Score / m}
			if req.Proximity {
				h.share = h.score
			}
			if i < len(add) {
				h.score += add[i]
			}
			list = append(list, h)
		}
		if req.Proximity {
			// Proximity reorders the language's list before it is cut to
			// the search's depth, as Index.lexicalTop does.
			sortStoreHits(list)
			list = list[:min(req.Depth, len(list))]
		}
		// A chunk keeps its best score, and its best share, over the
		// query's languages.
		for _, h := range list {
			k := fusionKey(h.chunk)
			old, ok := best[k]
			if ok && old.score >= h.score {
				h, h.share = old, max(old.share, h.share)
			} else if ok {
				h.share = max(old.share, h.share)
			}
			best[k] = h
		}
	}
	out := make([]storeHit, 0, len(best))
	for _, h := range best {
		out = append(out, h)
	}
	sortStoreHits(out)
	return out[:min(req.Depth, len(out))], nil
}

// sortStoreHits orders hits best first, ties as the embedded store's
// corpus orders chunks.
func sortStoreHits(list []storeHit) {
	slices.SortFunc(list, func(a, b storeHit) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(fusionKey(a.chunk), fusionKey(b.chunk))
	})
}

// contentTerms are one query language's content words with their
// statistics and the score they could reach at most.
type contentTerms struct {
	terms []string
	stats fonte.TermStats
	max   float64
}

// share is Index.share: the BM25 score of the content words in the hit's
// chunk, analysed again from its text, divided by their MaxScore; the
// best over the query's languages.
func (s *StoreSearch) share(content []contentTerms, h storeHit) float64 {
	if len(content) == 0 {
		return 0
	}
	terms := s.An.of(h.lang).Analyze(chunk.Enriched(h.chunk))
	tf := make(map[string]int, len(terms))
	for _, t := range terms {
		tf[t]++
	}
	k1, b := fonte.BM25K1, fonte.BM25B
	best := 0.0
	for _, c := range content {
		avg := c.stats.AvgLen()
		score := 0.0
		for i, tok := range c.terms {
			f := float64(tf[tok])
			if f == 0 {
				continue
			}
			// The expression of lexical.BM25.ScoreDoc, for the same bits.
			score += idf(c.stats.Chunks, c.stats.DF[i]) * f * (k1 + 1) / (f + k1*(1-b+b*float64(len(terms))/avg))
		}
		best = max(best, score/c.max)
	}
	return best
}
