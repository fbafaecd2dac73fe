package postgres

import (
	"context"
	"math"

	"github.com/fonte-rag/fonte"
)

// A restricted reader's lexical leg and statistics. The counts the
// commits keep (meta, term_df) and pg_textsearch's index cover every
// chunk, hidden ones included, so a reader who may not read some
// documents is served from the chunks table itself: the statistics are
// counted over the chunks it may read, and the chunks holding a query
// term are scored exhaustively with them. Nothing a hidden chunk holds
// then moves a score, nor which chunks make the cut. It costs scans
// where the unrestricted leg uses the index.

// readerTermStats counts, in one statement, the chunks a reader under
// access may read, their total length and each term's document
// frequency among them.
func readerTermStats(ctx context.Context, q querier, chunks string, terms []string, access fonte.Filter) (fonte.TermStats, error) {
	valid := make([]string, len(terms))
	for i, t := range terms {
		if storable(t) {
			valid[i] = t
		}
	}
	args := []any{valid}
	readable := filterSQL(fonte.Filter{Restricted: true, Labels: access.Labels}, &args)
	var st fonte.TermStats
	var df []int64
	err := q.QueryRow(ctx, `SELECT count(*), coalesce(sum(nterms), 0)::bigint,
	ARRAY(SELECT (SELECT count(*) FROM `+chunks+` WHERE terms @> ARRAY[q.term]`+readable+`)
		FROM unnest($1::text[]) WITH ORDINALITY AS q(term, i) ORDER BY q.i)
FROM `+chunks+` WHERE true`+readable, args...).Scan(&st.Chunks, &st.TotalTerms, &df)
	if err != nil {
		return fonte.TermStats{}, err
	}
	st.DF = make([]int, len(terms))
	for i := range terms {
		if storable(terms[i]) {
			st.DF[i] = int(df[i])
		}
	}
	return st, nil
}

// readerTopK is the lexical leg for a restricted reader: in one
// read-only snapshot, the reader's statistics and every chunk the filter
// accepts that holds a query term, scored with fonte's BM25 over those
// statistics.
func (s *Store) readerTopK(ctx context.Context, q fonte.LexicalQuery, terms []string) ([]fonte.ScoredChunk, error) {
	tx, err := s.beginSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	st, err := readerTermStats(ctx, tx, s.table("chunks"), terms, q.Filter)
	if err != nil {
		return nil, err
	}
	idf := make(map[string]float64, len(terms))
	for i, t := range terms {
		if df := st.DF[i]; df > 0 {
			idf[t] = math.Log(1 + (float64(st.Chunks-df)+0.5)/(float64(df)+0.5))
		}
	}
	avgLen := st.AvgLen()
	args := []any{terms}
	var chunkTerms []string
	out, err := scanChunks(ctx, tx, `SELECT `+chunkColumns+`, terms FROM `+s.table("chunks")+`
WHERE terms && $1::text[]`+filterSQL(q.Filter, &args), args,
		func(*fonte.ScoredChunk) []any { return []any{&chunkTerms} },
		func(sc *fonte.ScoredChunk) bool {
			sc.Score = bm25Score(q.Terms, chunkTerms, idf, avgLen)
			return sc.Score > 0
		})
	if err != nil {
		return nil, err
	}
	return bestK(out, q.K), nil
}
