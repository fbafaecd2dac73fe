package postgres

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/fonte-rag/fonte"
	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"
)

// maxHNSWDim is the largest dimension pgvector's HNSW index takes for the
// vector type; above it the dense leg stays exact.
const maxHNSWDim = 2000

// ensureHNSW creates the HNSW index once schema holds at least
// exact_below chunks. It runs in the commit's transaction: the index
// appears with the data that called for it.
func (s *Store) ensureHNSW(ctx context.Context, tx pgx.Tx, schema string, chunks int64, dim int) error {
	if chunks < int64(s.cfg.exactBelow) || dim > maxHNSWDim {
		return nil
	}
	_, err := tx.Exec(ctx, fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s.chunks USING hnsw (embedding vector_cosine_ops) WITH (m = %d, ef_construction = %d)",
		hnswIndex, quote(schema), s.cfg.hnswM, s.cfg.efConstruction))
	return err
}

// efSearch is the HNSW candidate list for a top-k query: at least 100
// and twice K, within pgvector's bound of 1000.
func efSearch(k int) int { return min(max(100, 2*k), 1000) }

// VectorTopK returns the K chunks whose vectors are nearest q.Vector by
// cosine distance (score 1 − distance) among those the filter accepts,
// best first, ties by document ID then position. Below exact_below chunks
// the scan is exact; above, the HNSW index answers with ef_search =
// max(100, 2K), and with pgvector 0.8's relaxed iterative scan a filtered
// query keeps searching the graph until K chunks pass the filter. A
// restricted reader's query is always an exact scan (see setSearch).
func (s *Store) VectorTopK(ctx context.Context, q fonte.VectorQuery) ([]fonte.ScoredChunk, error) {
	return readAgain(ctx, s, func() ([]fonte.ScoredChunk, error) { return s.vectorTopKOnce(ctx, q) })
}

// vectorTopKOnce is one try of VectorTopK.
func (s *Store) vectorTopKOnce(ctx context.Context, q fonte.VectorQuery) ([]fonte.ScoredChunk, error) {
	if s.closed.Load() {
		return nil, errClosed
	}
	if q.K <= 0 {
		return nil, nil
	}
	if len(q.Vector) == 0 {
		return nil, fmt.Errorf("postgres: vector search with an empty query vector")
	}
	for i, x := range q.Vector {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("postgres: the query vector has the non-finite value %v at entry %d", x, i)
		}
	}
	sql, args := s.vectorSQL(q)
	var out []fonte.ScoredChunk
	err := s.snapshot(ctx, "vector search", func(tx pgx.Tx) error {
		if err := s.setSearch(ctx, tx, q); err != nil {
			return err
		}
		var err error
		// A zero vector has no direction: its distance is NaN.
		out, err = s.scored(ctx, tx, sql, args, func(score float64) bool { return !math.IsNaN(score) })
		return err
	})
	return out, err
}

// vectorSQL is the dense leg's query for q and its arguments. The inner
// query is what the HNSW index (when there is one) answers; a relaxed
// iterative scan may return its rows slightly out of order, so the outer
// query sorts them again. Without the index the inner query is an exact
// scan whose ties are cut by ID and position.
func (s *Store) vectorSQL(q fonte.VectorQuery) (string, []any) {
	args := []any{pgvector.NewVector(q.Vector), q.K}
	where := s.filterSQL(q.Filter, &args)
	return `WITH hits AS MATERIALIZED (
	SELECT ` + chunkColumns + `, embedding <=> $1 AS distance FROM ` + s.table("chunks") + ` WHERE true` + where + `
	ORDER BY embedding <=> $1, doc_id, position LIMIT $2)
SELECT ` + chunkColumns + `, 1 - distance FROM hits ORDER BY distance, doc_id, position`, args
}

// setSearch sets how the rest of tx searches for q: the HNSW search
// parameters, or, for a restricted reader, no index scan at all. The HNSW
// graph's links were shaped by every chunk, hidden ones included, so
// which readable chunks a filtered walk reaches could depend on chunks
// the reader may not read; without an index scan the planner answers
// with an exact scan of the readable rows (and their top K by a sort),
// as it does below exact_below, costing a pass over the table.
func (s *Store) setSearch(ctx context.Context, tx pgx.Tx, q fonte.VectorQuery) error {
	if q.Filter.Restricted {
		_, err := tx.Exec(ctx, "SELECT set_config('enable_indexscan', 'off', true)")
		return err
	}
	// pgvector before 0.8 reserves the hnsw. prefix without
	// iterative_scan: setting it there would be an error.
	set := "SELECT set_config('hnsw.ef_search', $1, true)"
	if s.iterative {
		set += ", set_config('hnsw.iterative_scan', 'relaxed_order', true)"
	}
	_, err := tx.Exec(ctx, set, strconv.Itoa(efSearch(q.K)))
	return err
}
