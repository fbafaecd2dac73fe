package postgres

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
	"github.com/jackc/pgx/v5"
)

// The lexical leg indexes fonte's own terms, never PostgreSQL's analysis:
// fonte's analysis (English and Italian stemming, folding, identifiers
// such as sop-014 kept whole) must give the same terms on every store.
// PostgreSQL's text-search parser would split "sop-014" or "tnf-alpha"
// and treat accented or non-Latin letters its own way, so each term is
// written into the lex column as one token the default parser reads whole
// and the simple configuration keeps as it is:
//
//	t + the term's bytes, where a-y and 0-9 stand for themselves and
//	    every other byte (z included) is z followed by two hex digits
//
// so "sop-014" is "tsopz2d014" and "città" is "tcittzc3za0". The encoding is
// injective (z always starts an escape) and every token starts with a
// letter and holds only a-z and 0-9: one asciiword or numword token.
// PostgreSQL drops words of 2048 bytes or more, so a term whose encoding
// would exceed maxLexToken is written as h + the first 32 hex digits of
// its SHA-256 instead (h never starts an ordinary token).
const maxLexToken = 2000

// lexToken encodes one term as a parser-safe token.
func lexToken(term string) string {
	const digits = "0123456789abcdef"
	var b strings.Builder
	b.Grow(len(term) + 1)
	b.WriteByte('t')
	for i := 0; i < len(term); i++ {
		c := term[i]
		if c >= 'a' && c <= 'y' || c >= '0' && c <= '9' {
			b.WriteByte(c)
		} else {
			b.WriteByte('z')
			b.WriteByte(digits[c>>4])
			b.WriteByte(digits[c&15])
		}
		if b.Len() > maxLexToken {
			sum := sha256.Sum256([]byte(term))
			return "h" + hex.EncodeToString(sum[:16])
		}
	}
	return b.String()
}

// lexText is the lex column of a chunk with terms: one token per term,
// in order, separated by spaces.
func lexText(terms []string) string {
	var b strings.Builder
	for i, t := range terms {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(lexToken(t))
	}
	return b.String()
}

// bm25IndexSQL creates pg_textsearch's index on the lex column, with the
// simple configuration (lower-casing only, no stop words, no stemming:
// the tokens are fonte's terms already) and fonte's k1 and b.
func bm25IndexSQL(schema string) string {
	return fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s.chunks USING bm25 (lex) WITH (text_config = 'simple', k1 = %g, b = %g)",
		bm25Index, quote(schema), fonte.BM25K1, fonte.BM25B)
}

// addFTS gives schema's chunks what full-text search ranks with: a stored
// tsvector of the lex column (ts_rank_cd reads it instead of parsing lex
// again for every matching chunk, about fourteen times faster on
// SciFact) and a GIN index on it.
func addFTS(ctx context.Context, tx pgx.Tx, schema string) error {
	q := quote(schema)
	_, err := tx.Exec(ctx, fmt.Sprintf(`ALTER TABLE %[1]s.chunks ADD COLUMN IF NOT EXISTS %[2]s tsvector
	GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, lex)) STORED`, q, ftsColumn))
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s.chunks USING gin (%s)", ftsIndex, q, ftsColumn))
	return err
}

// ftsExprSlow is what full-text search matches and ranks when the
// collection has no tsvector column (a read-only store opened before any
// full-text writer added it).
const ftsExprSlow = "to_tsvector('simple'::regconfig, lex)"

// initLexical chooses the lexical leg (pg_textsearch where it is
// installed or can be, unless the URL says lexical=fts) and creates its
// index when the store may write.
func (s *Store) initLexical(ctx context.Context) error {
	write := !s.opts.ReadOnly
	if s.cfg.lexical != lexicalFTS {
		version, err := s.extension(ctx, "pg_textsearch", write)
		if err != nil {
			return err
		}
		switch {
		case version == "":
			s.lexicalNote = "the pg_textsearch extension is not installed"
		case write:
			has, _, err := s.lexicalIndexes(ctx, s.pool, s.schema)
			if err != nil {
				return s.cfg.wrap(ctx, "looking up the lexical index", err)
			}
			if !has {
				err = s.inTx(ctx, "creating the pg_textsearch index", func(tx pgx.Tx) error {
					if err := s.lock(ctx, tx); err != nil {
						return err
					}
					_, err := tx.Exec(ctx, bm25IndexSQL(s.schema))
					return err
				})
			}
			if errors.Is(err, fonte.ErrUnavailable) {
				return err
			}
			if err != nil {
				s.lexicalNote = "creating the pg_textsearch index failed: " + err.Error()
			} else {
				s.bm25 = true
			}
		default:
			has, _, err := s.lexicalIndexes(ctx, s.pool, s.schema)
			if err != nil {
				return s.cfg.wrap(ctx, "looking up the lexical index", err)
			}
			s.bm25 = has
			if !has {
				s.lexicalNote = "the collection has no pg_textsearch index yet"
			}
		}
		if !s.bm25 && s.cfg.lexical == lexicalBM25 {
			return s.cfg.errorf(nil, "postgres %s, collection %s: lexical=pg_textsearch, but %s", s.cfg.server, s.cfg.collection, s.lexicalNote)
		}
	}
	if s.bm25 {
		return nil
	}
	_, has, err := s.lexicalIndexes(ctx, s.pool, s.schema)
	if err != nil {
		return s.cfg.wrap(ctx, "looking up the full-text index", err)
	}
	if has {
		s.ftsExpr = ftsColumn
		return nil
	}
	if !write {
		s.ftsExpr = ftsExprSlow
		return nil
	}
	s.ftsExpr = ftsColumn
	return s.inTx(ctx, "adding the full-text column and index", func(tx pgx.Tx) error {
		if err := s.lock(ctx, tx); err != nil {
			return err
		}
		return addFTS(ctx, tx, s.schema)
	})
}

// LexicalTopK returns the K chunks with the highest lexical score for the
// query's terms among those the filter accepts, best first, ties by
// document ID then position. With pg_textsearch, its index finds the
// candidates (its own BM25 with fonte's k1 and b over fonte's terms) and
// each is scored again with fonte's exact BM25 from the counts the
// commits keep, so scores are the embedded store's (the package
// documentation says why pg_textsearch's own differ). Without it the
// score is ts_rank_cd. Filters are conditions of the same SQL query,
// applied before the LIMIT.
func (s *Store) LexicalTopK(ctx context.Context, q fonte.LexicalQuery) ([]fonte.ScoredChunk, error) {
	return readAgain(ctx, s, func() ([]fonte.ScoredChunk, error) { return s.lexicalTopKOnce(ctx, q) })
}

// lexicalTopKOnce is one try of LexicalTopK.
func (s *Store) lexicalTopKOnce(ctx context.Context, q fonte.LexicalQuery) ([]fonte.ScoredChunk, error) {
	if s.closed.Load() {
		return nil, errClosed
	}
	if q.K <= 0 || len(q.Terms) == 0 {
		return nil, nil
	}
	tokens := make([]string, len(q.Terms))
	var terms []string // the terms a chunk can hold
	for i, t := range q.Terms {
		tokens[i] = lexToken(t)
		if storable(t) {
			terms = append(terms, t)
		}
	}
	if q.Filter.Restricted {
		out, err := s.readerTopK(ctx, q, terms)
		return out, s.cfg.wrap(ctx, "lexical search", err)
	}
	if s.bm25 {
		out, err := s.bm25TopK(ctx, q, tokens, terms)
		return out, s.cfg.wrap(ctx, "lexical search", err)
	}
	args := []any{strings.Join(tokens, " | "), q.K}
	sql := `SELECT ` + chunkColumns + `, ts_rank_cd(` + s.ftsExpr + `, query) AS score
FROM ` + s.table("chunks") + `, to_tsquery('simple'::regconfig, $1::text) AS query
WHERE ` + s.ftsExpr + ` @@ query` + s.filterSQL(q.Filter, &args) + `
ORDER BY score DESC, doc_id, position
LIMIT $2`
	out, err := s.scored(ctx, s.pool, sql, args, func(score float64) bool { return score > 0 })
	return out, s.cfg.wrap(ctx, "lexical search", err)
}

// bm25TopK is the lexical leg on pg_textsearch. Its index scan orders by
// pg_textsearch's score (negated: it returns -BM25 so that ascending
// order is best first) and yields matching chunks only; a plan that
// filters first scores every filtered chunk, and those without a query
// term come last. pg_textsearch ranks with rounded lengths (and, in its
// memtable, picks by exact ones), so it is asked for bm25Slack(K) more
// candidates than K, which come back with their terms and, in the same
// statement (so from the same commit), the corpus counts and the query
// terms' document frequencies; each candidate is then scored with
// fonte's BM25, the same expression in the same order as package
// lexical.
//
// An index scan that yields fewer rows than it was asked for says every
// chunk it could match is among them. That claim is checked against the
// counts the commits keep: without a filter, as many chunks match as the
// commonest query term is in, at least, so a scan that yields fewer has
// lost rows, and every chunk holding a query term is then scored from
// the table (found through the GIN index on terms). A server dying
// under a commit once made the scan yield nothing while every chunk of
// the collection was there (CI, TestKillMidCommitAndRestart). With a
// filter the counts say nothing, and a short scan is checked that way
// every time.
func (s *Store) bm25TopK(ctx context.Context, q fonte.LexicalQuery, tokens, terms []string) ([]fonte.ScoredChunk, error) {
	limit := q.K + bm25Slack(q.K)
	args := []any{terms, strings.Join(tokens, " "), s.table(bm25Index), limit}
	// One flat statement (the same query inside a CTE took three times
	// as long on SciFact); its uncorrelated subqueries run once.
	out, scan, err := s.bm25Scored(ctx, q.Terms, terms, s.bm25Select()+` WHERE true`+s.filterSQL(q.Filter, &args)+`
ORDER BY lex <@> to_bm25query($2::text, $3::text), doc_id, position
LIMIT $4`, append(s.plannedForParameters(), args...))
	if err != nil || scan.rows >= limit || len(terms) == 0 {
		return bestK(out, q.K), err
	}
	if q.Filter.Empty() {
		if scan.rows == 0 {
			// No row carried the counts.
			err := s.pool.QueryRow(ctx, `SELECT coalesce(max(df), 0) FROM `+s.table("term_df")+` WHERE term = ANY($1::text[])`, terms).Scan(&scan.maxDF)
			if err != nil {
				return nil, err
			}
		}
		if scan.rows >= min(limit, scan.maxDF) {
			return bestK(out, q.K), nil
		}
	}
	args = []any{terms}
	out, _, err = s.bm25Scored(ctx, q.Terms, terms, s.bm25Select()+` WHERE terms && $1::text[]`+s.filterSQL(q.Filter, &args), args)
	return bestK(out, q.K), err
}

// bm25Select is the start of the pg_textsearch leg's statements: a
// chunk's columns and terms, the corpus counts and the document
// frequencies of the terms in $1, in the order given.
func (s *Store) bm25Select() string {
	return `SELECT ` + chunkColumns + `, terms,
	(SELECT chunks FROM ` + s.table("meta") + `), (SELECT total_terms FROM ` + s.table("meta") + `),
	ARRAY(SELECT coalesce(d.df, 0) FROM unnest($1::text[]) WITH ORDINALITY AS q(term, i)
		LEFT JOIN ` + s.table("term_df") + ` AS d ON d.term = q.term ORDER BY q.i)
FROM ` + s.table("chunks")
}

// plannedForParameters is the query mode in which the server parses and
// plans a statement afresh each time it runs: an unnamed statement with
// its description cached, where the pool would otherwise prepare it
// under a name (pgx's default; a pool in the simple protocol, or with a
// mode the URL chose, is left as it is). For the pg_textsearch leg's
// statement this matters: its first plan takes each row's score from
// pg_textsearch's index scan (bm25_get_current_score), but once the
// server plans a named statement again (after an ANALYZE, as a commit
// that writes a tenth of the chunks makes), or runs it with a generic
// plan, the plan sorts by the <@> operator evaluated row by row: 3.1 ms
// a query against 0.8 on 300 chunks (BenchmarkBM25LegPlans), on every
// later query of that connection. The other statements keep their
// names: the generic plans of those on the terms index read the index,
// where a plan made for a term in one chunk of twenty scans every
// chunk's terms (on SciFact's 5,183 chunks, counting the chunks that
// hold each term of 50 queries, three times, took 24.7 s planned each
// time against 0.77 s prepared).
func (s *Store) plannedForParameters() []any {
	if !s.namedStatements {
		return nil
	}
	return []any{pgx.QueryExecModeCacheDescribe}
}

// bm25Yield is what a bm25Select statement yielded besides its chunks:
// how many rows, and the largest document frequency of a query term
// (when it yielded any).
type bm25Yield struct{ rows, maxDF int }

// bm25Scored runs a bm25Select statement and scores each chunk it yields
// with fonte's BM25 for query; terms are the storable terms, which $1
// holds. It returns the chunks that score above zero.
func (s *Store) bm25Scored(ctx context.Context, query, terms []string, sql string, args []any) ([]fonte.ScoredChunk, bm25Yield, error) {
	var y bm25Yield
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, y, err
	}
	defer rows.Close()
	var idf map[string]float64
	var avgLen float64
	var out []fonte.ScoredChunk
	for rows.Next() {
		y.rows++
		var sc fonte.ScoredChunk
		var chunkTerms []string
		var n, total int64
		var df []int32
		if err := rows.Scan(append(chunkDest(&sc.Chunk, &sc.Lang), &chunkTerms, &n, &total, &df)...); err != nil {
			return nil, y, err
		}
		if idf == nil {
			idf = make(map[string]float64, len(terms))
			for i, t := range terms {
				y.maxDF = max(y.maxDF, int(df[i]))
				if df[i] > 0 {
					idf[t] = math.Log(1 + (float64(n-int64(df[i]))+0.5)/(float64(df[i])+0.5))
				}
			}
			avgLen = float64(total) / float64(n)
		}
		if sc.Score = bm25Score(query, chunkTerms, idf, avgLen); sc.Score > 0 {
			out = append(out, sc)
		}
	}
	return out, y, rows.Err()
}

// bm25Score is fonte's BM25 score of a chunk holding chunkTerms for the
// query's terms, given each term's idf (those no chunk holds absent) and
// the mean chunk length: package lexical's expression in its order, so
// the same bits.
func bm25Score(query, chunkTerms []string, idf map[string]float64, avgLen float64) float64 {
	tf := make(map[string]int, len(idf))
	for _, t := range chunkTerms {
		if _, ok := idf[t]; ok {
			tf[t]++
		}
	}
	const k1, b = fonte.BM25K1, fonte.BM25B
	norm := k1 * (1 - b + b*float64(len(chunkTerms))/avgLen)
	score := 0.0
	for _, t := range query {
		if f := float64(tf[t]); f > 0 {
			score += idf[t] * f * (k1 + 1) / (f + norm)
		}
	}
	return score
}

// bestK sorts scored chunks best first, ties by document ID then
// position, and keeps k.
func bestK(out []fonte.ScoredChunk, k int) []fonte.ScoredChunk {
	slices.SortFunc(out, func(a, b fonte.ScoredChunk) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Chunk.DocID, b.Chunk.DocID), cmp.Compare(a.Chunk.Position, b.Chunk.Position))
	})
	return out[:min(len(out), k)]
}

// bm25Slack is how many candidates beyond K the pg_textsearch leg asks
// for, so that a chunk its rounded lengths rank a little below the K-th
// is still scored exactly.
func bm25Slack(k int) int { return max(10, k) }

// filterSQL renders f as " AND …" conditions on the chunks table,
// appending their arguments to args.
func (s *Store) filterSQL(f fonte.Filter, args *[]any) string {
	var b strings.Builder
	if len(f.Prefixes) > 0 {
		*args = append(*args, f.Prefixes)
		fmt.Fprintf(&b, " AND doc_id ^@ ANY($%d::text[])", len(*args))
	}
	if len(f.Tags) > 0 {
		*args = append(*args, f.Tags)
		fmt.Fprintf(&b, " AND tags @> $%d::text[]", len(*args))
	}
	if f.Restricted {
		b.WriteString(" AND " + s.readableSQL(f.Labels, args))
	}
	return b.String()
}

// scored runs a leg's query, whose columns are chunkColumns and a score,
// and keeps the rows whose score keep accepts.
func (s *Store) scored(ctx context.Context, q querier, sql string, args []any, keep func(score float64) bool) ([]fonte.ScoredChunk, error) {
	return scanChunks(ctx, q, sql, args, func(sc *fonte.ScoredChunk) []any { return []any{&sc.Score} },
		func(sc *fonte.ScoredChunk) bool { return keep(sc.Score) })
}

// scanChunks runs a query whose columns are chunkColumns and then those
// extra gives destinations for, and keeps the rows keep accepts (which
// may set the score from the extra columns).
func scanChunks(ctx context.Context, q querier, sql string, args []any, extra func(*fonte.ScoredChunk) []any, keep func(*fonte.ScoredChunk) bool) ([]fonte.ScoredChunk, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []fonte.ScoredChunk
	for rows.Next() {
		var sc fonte.ScoredChunk
		if err := rows.Scan(append(chunkDest(&sc.Chunk, &sc.Lang), extra(&sc)...)...); err != nil {
			return nil, err
		}
		if keep(&sc) {
			out = append(out, sc)
		}
	}
	return out, rows.Err()
}

// TermStats returns the number of chunks, their total number of terms and
// each term's document frequency, exactly: the counts are kept by every
// commit in the meta row and the term_df table, and read in one
// statement, so they describe one generation.
//
// A reader restricted by access gets the counts of the chunks it may
// read instead, counted by the statement (see readerTermStats).
func (s *Store) TermStats(ctx context.Context, terms []string, access fonte.Filter) (fonte.TermStats, error) {
	return readAgain(ctx, s, func() (fonte.TermStats, error) { return s.termStatsOnce(ctx, terms, access) })
}

// termStatsOnce is one try of TermStats.
func (s *Store) termStatsOnce(ctx context.Context, terms []string, access fonte.Filter) (fonte.TermStats, error) {
	if s.closed.Load() {
		return fonte.TermStats{}, errClosed
	}
	st, err := s.termStatsWith(ctx, s.pool, terms, access)
	return st, s.cfg.wrap(ctx, "reading term statistics", err)
}

// termStatsWith reads TermStats through q.
func (s *Store) termStatsWith(ctx context.Context, q querier, terms []string, access fonte.Filter) (fonte.TermStats, error) {
	if access.Restricted {
		return s.readerTermStats(ctx, q, terms, access.Labels)
	}
	// A term PostgreSQL's text cannot hold (invalid UTF-8, NUL) was
	// refused by Put, so no chunk holds it.
	valid := make([]string, len(terms))
	for i, t := range terms {
		if storable(t) {
			valid[i] = t
		} else {
			valid[i] = ""
		}
	}
	var st fonte.TermStats
	var df []int32
	err := q.QueryRow(ctx, `SELECT m.chunks, m.total_terms,
	ARRAY(SELECT coalesce(d.df, 0) FROM unnest($1::text[]) WITH ORDINALITY AS q(term, i)
		LEFT JOIN `+s.table("term_df")+` d ON d.term = q.term ORDER BY q.i)
FROM `+s.table("meta")+" m", valid).Scan(&st.Chunks, &st.TotalTerms, &df)
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

// TermStatsIn is TermStats whose document frequencies count only the
// chunks of documents in one of langs (see fonte.LanguageTermStats), in
// one read-only snapshot. The chunks, their length and the readable ones
// are as TermStats reads them; the frequencies are counted over the
// chunks table through its terms index (term_df and class_df keep no
// language), so a term costs a pass over the chunks holding it.
func (s *Store) TermStatsIn(ctx context.Context, terms []string, access fonte.Filter, langs []string) (fonte.TermStats, error) {
	if len(langs) == 0 {
		return s.TermStats(ctx, terms, access)
	}
	return readAgain(ctx, s, func() (fonte.TermStats, error) {
		if s.closed.Load() {
			return fonte.TermStats{}, errClosed
		}
		st, err := s.termStatsIn(ctx, terms, access, langs)
		return st, s.cfg.wrap(ctx, "reading term statistics", err)
	})
}

// termStatsIn is one try of TermStatsIn.
func (s *Store) termStatsIn(ctx context.Context, terms []string, access fonte.Filter, langs []string) (fonte.TermStats, error) {
	tx, err := s.beginSnapshot(ctx)
	if err != nil {
		return fonte.TermStats{}, err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	st, err := s.termStatsWith(ctx, tx, terms, access)
	if err != nil {
		return fonte.TermStats{}, err
	}
	valid := make([]string, len(terms))
	for i, t := range terms {
		if storable(t) {
			valid[i] = t
		}
	}
	args := []any{valid, langs}
	where := "language = ANY($2::text[])"
	if access.Restricted {
		where += " AND " + s.readableSQL(access.Labels, &args)
	}
	var df []int64
	err = tx.QueryRow(ctx, `SELECT ARRAY(SELECT (SELECT count(*) FROM `+s.table("chunks")+` WHERE terms @> ARRAY[q.term] AND `+where+`)
	FROM unnest($1::text[]) WITH ORDINALITY AS q(term, i) ORDER BY q.i)`, args...).Scan(&df)
	if err != nil {
		return fonte.TermStats{}, err
	}
	for i := range terms {
		st.DF[i] = 0
		if storable(terms[i]) {
			st.DF[i] = int(df[i])
		}
	}
	return st, nil
}

// storable reports whether PostgreSQL's text type can hold s.
func storable(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }
