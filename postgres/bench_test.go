package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/eval"
	"github.com/jackc/pgx/v5"
)

// sciFact is BEIR SciFact, beside the repository.
const sciFact = "../../shared/data/scifact"

// sqlBM25 is fonte's BM25 computed in SQL over the stored terms: the
// document frequencies and corpus counts the commits keep, each
// candidate chunk's term frequencies from its terms array. It needs a GIN
// index on terms to find the candidates (the benchmark creates one).
const sqlBM25 = `WITH q AS (SELECT term, count(*)::float8 AS qf FROM unnest($1::text[]) AS term GROUP BY term),
stats AS (SELECT chunks::float8 AS n, total_terms::float8 / greatest(chunks, 1) AS avgdl FROM %[1]s.meta),
w AS (SELECT q.term, q.qf, ln(1 + (stats.n - d.df + 0.5) / (d.df + 0.5)) AS idf FROM q JOIN %[1]s.term_df d USING (term), stats),
cand AS (SELECT doc_id, position, terms, nterms FROM %[1]s.chunks WHERE terms && $1::text[])
SELECT cand.doc_id, sum(w.qf * w.idf * tf.f * %[2]g / (tf.f + %[3]g * (1 - %[4]g + %[4]g * cand.nterms / stats.avgdl))) AS score
FROM cand CROSS JOIN stats
CROSS JOIN LATERAL (SELECT t AS term, count(*)::float8 AS f FROM unnest(cand.terms) AS t GROUP BY t) AS tf
JOIN w ON w.term = tf.term
GROUP BY cand.doc_id, cand.position ORDER BY score DESC, cand.doc_id, cand.position LIMIT $2`

// BenchmarkSciFactLexical loads SciFact's 5,183 abstracts (one chunk
// each, terms from fonte's English analysis) into a collection and runs
// its 300 test queries once through each lexical leg (the store's:
// pg_textsearch's candidates scored again; pg_textsearch's own ranking;
// full-text search; fonte's BM25 over every matching chunk in SQL),
// reporting nDCG@10,
// the share of top-10 lists identical to fonte's own BM25 (in Go, see
// referenceBM25) and the mean time per query; and the time of the two
// ways of computing TermStats. PGlite is PostgreSQL compiled to
// WebAssembly: compare the legs with each other, not with a server.
//
//	go test ./postgres -run '^$' -bench SciFact -benchtime 1x -v
func BenchmarkSciFactLexical(b *testing.B) {
	ctx := context.Background()
	data, err := eval.LoadBEIR(sciFact, "test")
	if err != nil {
		b.Fatal(err)
	}
	an := analysis.English()
	recs := make([]fonte.Record, len(data.Corpus))
	for i, d := range data.Corpus {
		text := d.Title + "\n\n" + d.Text
		recs[i] = record(d.ID, 4, text)
		recs[i].Terms[0] = an.Analyze(text)
	}
	queries := make([][]string, len(data.Queries))
	for i, q := range data.Queries {
		queries[i] = an.Analyze(q.Text)
	}
	u := newCollection(b)
	s := open(b, u, fonte.StoreOptions{Settings: testSettings})
	start := time.Now()
	for lo := 0; lo < len(recs); lo += 500 {
		put(b, s, recs[lo:min(lo+500, len(recs))]...)
	}
	b.Logf("loaded %d chunks in %v (pg_textsearch index maintained row by row)", len(recs), time.Since(start))
	start = time.Now()
	fts := open(b, withParams(b, u, "lexical", "fts"), fonte.StoreOptions{Settings: testSettings})
	b.Logf("built the full-text GIN index in %v", time.Since(start))
	c := rawConn(b)
	schema := quote(schemaName(collectionOf(b, u)))
	start = time.Now()
	if _, err := c.Exec(ctx, "CREATE INDEX ON "+schema+".chunks USING gin (terms)"); err != nil {
		b.Fatal(err)
	}
	b.Logf("built a GIN index on terms in %v", time.Since(start))
	var tableBytes, dfBytes int64
	c.QueryRow(ctx, "SELECT pg_total_relation_size($1), pg_total_relation_size($2)", schemaName(collectionOf(b, u))+".chunks", schemaName(collectionOf(b, u))+".term_df").Scan(&tableBytes, &dfBytes)
	b.Logf("chunks table with indexes: %d bytes; term_df: %d bytes", tableBytes, dfBytes)

	ref := newReferenceBM25(recs)
	reference := make([][]string, len(queries))
	for i, q := range queries {
		for _, h := range ref.topK(q, 10, fonte.Filter{}) {
			reference[i] = append(reference[i], h.doc)
		}
	}
	ndcg := func(ranked [][]string) float64 {
		m, total := eval.NDCGAt(10), 0.0
		for i, q := range data.Queries {
			total += m(ranked[i], data.Qrels[q.ID])
		}
		return total / float64(len(queries))
	}
	same := func(ranked [][]string) float64 {
		n := 0
		for i := range ranked {
			if slices.Equal(ranked[i], reference[i]) {
				n++
			}
		}
		return float64(n) / float64(len(ranked))
	}
	b.Logf("fonte BM25 in Go: nDCG@10 %.4f", ndcg(reference))

	legs := []struct {
		name string
		run  func(q []string) ([]string, error)
	}{
		{"store_leg", func(q []string) ([]string, error) {
			return ids(s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: q, K: 10}))
		}},
		{"pg_textsearch_raw", func(q []string) ([]string, error) {
			tokens := make([]string, len(q))
			for i, term := range q {
				tokens[i] = lexToken(term)
			}
			// The columns the store reads, so that the times compare.
			rows, err := s.pool.Query(ctx, "SELECT "+chunkColumns+" FROM "+s.table("chunks")+
				" ORDER BY lex <@> to_bm25query($1::text, $2::text), doc_id, position LIMIT 10", strings.Join(tokens, " "), s.table(bm25Index))
			if err != nil {
				return nil, err
			}
			return pgx.CollectRows(rows, func(row pgx.CollectableRow) (string, error) {
				var c fonte.Chunk
				var lang string
				err := row.Scan(chunkDest(&c, &lang)...)
				return c.DocID, err
			})
		}},
		{"ts_rank_cd", func(q []string) ([]string, error) {
			return ids(fts.LexicalTopK(ctx, fonte.LexicalQuery{Terms: q, K: 10}))
		}},
		{"sql_bm25", func(q []string) ([]string, error) {
			rows, err := s.pool.Query(ctx, fmt.Sprintf(sqlBM25, schema, fonte.BM25K1+1, fonte.BM25K1, fonte.BM25B), q, 10)
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			var out []string
			for rows.Next() {
				var id string
				var score float64
				if err := rows.Scan(&id, &score); err != nil {
					return nil, err
				}
				out = append(out, id)
			}
			return out, rows.Err()
		}},
	}
	// Each leg answers the 300 queries once; the time per query is that
	// pass's mean.
	for _, leg := range legs {
		b.Run(leg.name, func(b *testing.B) {
			ranked := make([][]string, len(queries))
			start := time.Now()
			for i, q := range queries {
				r, err := leg.run(q)
				if err != nil {
					b.Fatal(err)
				}
				ranked[i] = r
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(len(queries)), "ms/query")
			b.ReportMetric(ndcg(ranked), "nDCG@10")
			b.ReportMetric(same(ranked), "same-top10")
		})
	}

	// TermStats from the term_df table the commits keep, against counting
	// the chunks that hold each term through a GIN index on terms.
	b.Run("termstats_df_table", func(b *testing.B) {
		start := time.Now()
		for _, q := range queries {
			if _, err := s.TermStats(ctx, q, fonte.Filter{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(len(queries)), "ms/query")
	})
	b.Run("termstats_gin_count", func(b *testing.B) {
		var elapsed time.Duration
		for _, q := range queries {
			want, err := s.TermStats(ctx, q, fonte.Filter{})
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			for j, term := range q {
				var n int
				if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM "+schema+".chunks WHERE terms @> ARRAY[$1::text]", term).Scan(&n); err != nil {
					b.Fatal(err)
				}
				if n != want.DF[j] {
					b.Fatalf("df(%q): count %d, term_df %d", term, n, want.DF[j])
				}
			}
			elapsed += time.Since(start)
		}
		b.ReportMetric(float64(elapsed.Microseconds())/1000/float64(len(queries)), "ms/query")
	})
}

// ids lists the document IDs of a leg's hits.
func ids(hits []fonte.ScoredChunk, err error) ([]string, error) {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Chunk.DocID
	}
	return out, err
}

// BenchmarkBM25LegPlans loads SciFact's first 300 abstracts and times the
// pg_textsearch leg's statement on one connection, prepared under a name
// (pgx's default) and sent unnamed (what the store does, see
// plannedForParameters), each after 10 runs and an ANALYZE of the chunks
// (as a commit that writes a tenth of them makes), which makes the
// server plan a named statement again: that plan sorts by the <@>
// operator evaluated row by row, where a statement's first plan takes
// the score of pg_textsearch's index scan (bm25_get_current_score, by
// EXPLAIN ANALYZE EXECUTE). It reports the median of 200 runs.
//
//	go test ./postgres -run '^$' -bench BM25LegPlans -benchtime 1x -v
func BenchmarkBM25LegPlans(b *testing.B) {
	ctx := context.Background()
	data, err := eval.LoadBEIR(sciFact, "test")
	if err != nil {
		b.Fatal(err)
	}
	an := analysis.English()
	recs := make([]fonte.Record, 300)
	for i, d := range data.Corpus[:len(recs)] {
		text := d.Title + "\n\n" + d.Text
		recs[i] = record(d.ID, 4, text)
		recs[i].Terms[0] = an.Analyze(text)
	}
	u := newCollection(b)
	s := open(b, withParams(b, u, "pool_max_conns", "1"), fonte.StoreOptions{Settings: testSettings})
	put(b, s, recs...)
	q := an.Analyze(data.Queries[0].Text)
	tokens := make([]string, len(q))
	for i, term := range q {
		tokens[i] = lexToken(term)
	}
	sql := s.bm25Select() + ` WHERE true ORDER BY lex <@> to_bm25query($2::text, $3::text), doc_id, position LIMIT $4`
	args := []any{q, strings.Join(tokens, " "), s.table(bm25Index), 20}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Release()
	run := func(mode pgx.QueryExecMode) time.Duration {
		start := time.Now()
		rows, err := conn.Query(ctx, sql, append([]any{mode}, args...)...)
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	for _, leg := range []struct {
		name string
		mode pgx.QueryExecMode
	}{{"named", pgx.QueryExecModeCacheStatement}, {"unnamed", pgx.QueryExecModeCacheDescribe}} {
		b.Run(leg.name, func(b *testing.B) {
			for range 10 {
				run(leg.mode)
			}
			if _, err := conn.Exec(ctx, "ANALYZE "+s.table("chunks"), pgx.QueryExecModeSimpleProtocol); err != nil {
				b.Fatal(err)
			}
			times := make([]time.Duration, 200)
			for i := range times {
				times[i] = run(leg.mode)
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/query")
		})
	}
}
