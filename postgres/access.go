package postgres

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/fonte-rag/fonte"
)

// A restricted reader's lexical leg and statistics. The counts in meta
// and term_df, and pg_textsearch's index, cover every chunk, hidden ones
// included, so they never serve a reader who may not read some
// documents. Since schema version 2 every chunk carries its access class
// (chunks.access: the sorted access tags of its document) and every
// commit keeps the counts per class (class_stats, class_df), so a
// reader's statistics are sums over the classes it may read: a few rows
// per query term, whatever the collection's size. Its candidates come
// from the GIN index on chunks.terms, and each is scored with fonte's
// BM25 over those statistics, so nothing a hidden chunk holds moves a
// score or which chunks make the cut.

// classesVersion is the schema version that keeps access classes.
const classesVersion = 2

// accessClass is the access class of a document carrying tags: its
// access tags, distinct and sorted byte-wise (as COLLATE "C" sorts), and
// empty, not nil, for none.
func accessClass(tags []string) []string {
	out := []string{}
	for _, t := range tags {
		if len(t) > len(fonte.AccessTagPrefix) && t[:len(fonte.AccessTagPrefix)] == fonte.AccessTagPrefix {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// heldTags are the access tags of the labels a reader holds.
func heldTags(labels []string) []string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = fonte.AccessTag(l)
	}
	return out
}

// readableSQL is the condition on a chunks row (or a class_stats or
// class_df row, which have an access column too) that a reader holding
// labels may read it: no access label at all, or one it holds.
func (s *Store) readableSQL(labels []string, args *[]any) string {
	*args = append(*args, heldTags(labels))
	if s.classes {
		return fmt.Sprintf("(access && $%d::text[] OR access = '{}')", len(*args))
	}
	return fmt.Sprintf("(tags && $%d::text[] OR NOT EXISTS (SELECT 1 FROM unnest(tags) AS t(v) WHERE starts_with(t.v, '%s') AND t.v <> '%s'))",
		len(*args), fonte.AccessTagPrefix, fonte.AccessTagPrefix)
}

// readerTermStats returns, in one statement, the number of chunks a
// reader holding labels may read, their total length and each term's
// document frequency among them: sums over the readable access classes,
// or, on a version 1 schema, counts over the chunks table.
func (s *Store) readerTermStats(ctx context.Context, q querier, terms []string, labels []string) (fonte.TermStats, error) {
	valid := make([]string, len(terms))
	for i, t := range terms {
		if storable(t) {
			valid[i] = t
		}
	}
	args := []any{valid}
	var sql string
	if s.classes {
		readable := s.readableSQL(labels, &args)
		sql = `SELECT coalesce(sum(chunks), 0)::bigint, coalesce(sum(total_terms), 0)::bigint,
	ARRAY(SELECT coalesce((SELECT sum(df) FROM ` + s.table("class_df") + ` WHERE term = q.term AND ` + readable + `), 0)::bigint
		FROM unnest($1::text[]) WITH ORDINALITY AS q(term, i) ORDER BY q.i)
FROM ` + s.table("class_stats") + ` WHERE ` + readable
	} else {
		chunks := s.table("chunks")
		readable := s.readableSQL(labels, &args)
		sql = `SELECT count(*), coalesce(sum(nterms), 0)::bigint,
	ARRAY(SELECT (SELECT count(*) FROM ` + chunks + ` WHERE terms @> ARRAY[q.term] AND ` + readable + `)
		FROM unnest($1::text[]) WITH ORDINALITY AS q(term, i) ORDER BY q.i)
FROM ` + chunks + ` WHERE ` + readable
	}
	var st fonte.TermStats
	var df []int64
	if err := q.QueryRow(ctx, sql, args...).Scan(&st.Chunks, &st.TotalTerms, &df); err != nil {
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

// candidate is a chunk the restricted lexical leg scored.
type candidate struct {
	doc   string
	pos   int64
	score float64
}

// readerTopK is the lexical leg for a restricted reader: in one
// read-only snapshot, the reader's statistics, then the readable chunks
// holding a query term, scored with fonte's BM25 over those statistics,
// then the K best chunks' columns.
//
// Not every chunk holding a query term is read (MaxScore): a query
// term's contribution to a chunk's score is below idf × (k1+1), so
// once K chunks are scored, the K-th score θ bounds what is left. The
// rarest terms' chunks are scored first, until their frequencies reach
// K; of the other terms, those whose bounds add up to less than θ
// (the commonest first) cannot lift a chunk holding none of the rest
// into the K best, so only chunks holding one of the rest are read.
// Every decision uses the reader's statistics and the scores of
// readable chunks only.
func (s *Store) readerTopK(ctx context.Context, q fonte.LexicalQuery, terms []string) ([]fonte.ScoredChunk, error) {
	tx, err := s.beginSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	st, err := s.readerTermStats(ctx, tx, terms, q.Filter.Labels)
	if err != nil {
		return nil, err
	}
	idf := make(map[string]float64, len(terms))
	df := make(map[string]int, len(terms))
	for i, t := range terms {
		if d := st.DF[i]; d > 0 {
			idf[t] = math.Log(1 + (float64(st.Chunks-d)+0.5)/(float64(d)+0.5))
			df[t] = d
		}
	}
	if len(idf) == 0 {
		return nil, nil
	}
	avgLen := st.AvgLen()
	bound := map[string]float64{}
	for _, t := range q.Terms {
		if w, ok := idf[t]; ok {
			bound[t] += w * (fonte.BM25K1 + 1)
		}
	}
	rarest := make([]string, 0, len(idf))
	for t := range idf {
		rarest = append(rarest, t)
	}
	slices.SortFunc(rarest, func(a, b string) int { return cmp.Or(cmp.Compare(df[a], df[b]), cmp.Compare(a, b)) })

	var cands []candidate
	read := func(some, none []string) error {
		args := []any{some}
		cond := "terms && $1::text[]"
		if len(none) > 0 {
			args = append(args, none)
			cond += " AND NOT terms && $2::text[]"
		}
		rows, err := tx.Query(ctx, `SELECT doc_id, position, terms FROM `+s.table("chunks")+` WHERE `+cond+s.filterSQL(q.Filter, &args), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var c candidate
			var chunkTerms []string
			if err := rows.Scan(&c.doc, &c.pos, &chunkTerms); err != nil {
				return err
			}
			if c.score = bm25Score(q.Terms, chunkTerms, idf, avgLen); c.score > 0 {
				cands = append(cands, c)
			}
		}
		return rows.Err()
	}
	best := func() {
		slices.SortFunc(cands, func(a, b candidate) int {
			return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.doc, b.doc), cmp.Compare(a.pos, b.pos))
		})
	}
	first, sum := 0, 0
	for first < len(rarest) && sum < q.K {
		sum += df[rarest[first]]
		first++
	}
	if err := read(rarest[:first], nil); err != nil {
		return nil, err
	}
	if rest := rarest[first:]; len(rest) > 0 {
		theta := 0.0
		if len(cands) >= q.K {
			best()
			theta = cands[q.K-1].score
		}
		// The commonest terms whose bounds (with room for rounding) add
		// up to less than θ need not be read.
		slices.SortFunc(rest, func(a, b string) int { return cmp.Or(cmp.Compare(bound[a], bound[b]), cmp.Compare(a, b)) })
		skip, total := 0, 0.0
		for skip < len(rest) && (total+bound[rest[skip]])*(1+1e-9) < theta {
			total += bound[rest[skip]]
			skip++
		}
		if skip < len(rest) {
			if err := read(rest[skip:], rarest[:first]); err != nil {
				return nil, err
			}
		}
	}
	best()
	cands = cands[:min(len(cands), q.K)]
	return s.fetchScored(ctx, tx, cands)
}

// fetchScored reads the columns of the scored chunks, in their order.
func (s *Store) fetchScored(ctx context.Context, q querier, cands []candidate) ([]fonte.ScoredChunk, error) {
	if len(cands) == 0 {
		return nil, nil
	}
	docs := make([]string, len(cands))
	pos := make([]int64, len(cands))
	for i, c := range cands {
		docs[i], pos[i] = c.doc, c.pos
	}
	out, err := scanChunks(ctx, q, `SELECT `+chunkColumns+` FROM `+s.table("chunks")+`
	JOIN unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS k(doc, pos, i) ON doc_id = k.doc AND position = k.pos
ORDER BY k.i`, []any{docs, pos}, func(*fonte.ScoredChunk) []any { return nil }, func(*fonte.ScoredChunk) bool { return true })
	if err != nil {
		return nil, err
	}
	if len(out) != len(cands) {
		return nil, fmt.Errorf("postgres: %d of the %d chunks scored were found again in the same snapshot", len(out), len(cands))
	}
	for i := range out {
		out[i].Score = cands[i].score
	}
	return out, nil
}
