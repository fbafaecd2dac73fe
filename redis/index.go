package redis

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// HNSW parameters of the vector index above the hnsw_above threshold.
const (
	hnswM              = 16
	hnswEfConstruction = 200
	hnswEfRuntime      = 100
)

// Vector index algorithms, as recorded in the meta hash.
const (
	denseFlat = "FLAT"
	denseHNSW = "HNSW"
)

// createIndex creates an FT index over the collection's chunk hashes.
//
// The TEXT field holds fonte's own terms (already analysed in the
// document's language: folded, stemmed, stop words removed), with the
// engine's stemming and stop words off, so the engine's text index has
// exactly the vocabulary fonte's queries and statistics use. The
// lexical leg itself does not rank with it (see lexical.go); it is there
// for FT.SEARCH by hand and for measuring the engine's scorers. Offsets
// are not kept: nothing here asks for phrases.
func (s *Store) createIndex(ctx context.Context, name string, dim int, algo string) error {
	tag := func(field string, caseSensitive bool) []any {
		a := []any{field, "TAG", "SEPARATOR", tagSep}
		if caseSensitive {
			a = append(a, "CASESENSITIVE")
		}
		return a
	}
	args := []any{"FT.CREATE", name, "ON", "HASH", "PREFIX", 1, s.k.chunkPrefix(), "NOOFFSETS", "STOPWORDS", 0, "SCHEMA",
		fTerms, "TEXT", "NOSTEM"}
	args = append(args, tag(fDoc, true)...)
	args = append(args, tag(fDir, true)...)
	args = append(args, tag(fVer, false)...)
	args = append(args, tag(fTags, true)...)
	args = append(args, tag(fLang, true)...)
	args = append(args, tag(fHash, true)...)
	args = append(args, fUpdated, "NUMERIC")
	vec := []any{"TYPE", "FLOAT32", "DIM", dim, "DISTANCE_METRIC", "COSINE"}
	if algo == denseHNSW {
		vec = append(vec, "M", hnswM, "EF_CONSTRUCTION", hnswEfConstruction, "EF_RUNTIME", hnswEfRuntime)
	}
	args = append(args, fVec, "VECTOR", algo, len(vec))
	args = append(args, vec...)
	return s.rdb.Do(ctx, args...).Err()
}

// waitIndexed waits until the index has scanned the keys that existed
// when it was created (FT.CREATE indexes them in the background; under
// the cluster coordinator FT.INFO sums every shard's state).
func (s *Store) waitIndexed(ctx context.Context, name string) error {
	delay := 5 * time.Millisecond
	for {
		info, err := s.ftInfo(ctx, name)
		if err != nil {
			return err
		}
		if fmt.Sprint(info["indexing"]) == "0" {
			if pct, err := strconv.ParseFloat(fmt.Sprint(info["percent_indexed"]), 64); err != nil || pct >= 1 {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for index %s to scan the collection: %w", name, ctx.Err())
		case <-time.After(delay):
		}
		delay = min(2*delay, 200*time.Millisecond)
	}
}

// ftInfo returns FT.INFO's top-level fields.
func (s *Store) ftInfo(ctx context.Context, name string) (map[string]any, error) {
	res, err := s.rdb.Do(ctx, "FT.INFO", name).Slice()
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for i := 0; i+1 < len(res); i += 2 {
		if k, ok := res[i].(string); ok {
			out[k] = res[i+1]
		}
	}
	return out, nil
}

// dropIndex drops an index, keeping the hashes (the commit deletes what
// is dead itself). An index already gone is no error.
func (s *Store) dropIndex(ctx context.Context, name string) error {
	err := s.rdb.Do(ctx, "FT.DROPINDEX", name).Err()
	if err != nil && isUnknownIndex(err) {
		return nil
	}
	return err
}

func isUnknownIndex(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "unknown index") || strings.Contains(msg, "no such index")
}

// listIndexes returns the collection's FT indexes.
func (s *Store) listIndexes(ctx context.Context) ([]string, error) {
	res, err := s.rdb.Do(ctx, "FT._LIST").StringSlice()
	if err != nil && err != goredis.Nil {
		return nil, err
	}
	var out []string
	for _, name := range res {
		if strings.HasPrefix(name, s.k.indexPrefix()) {
			out = append(out, name)
		}
	}
	return out, nil
}

// denseStatus says how the dense leg runs for Status.
func (s *Store) denseStatus(st *state) string {
	where := "RediSearch KNN"
	if s.cfg.cluster {
		where = "RediSearch KNN through the cluster coordinator (every shard searched, results merged)"
	}
	switch st.dense {
	case denseFlat:
		return fmt.Sprintf("FLAT, exact cosine (%s; HNSW from %d chunks)", where, s.cfg.hnswAbove)
	case denseHNSW:
		return fmt.Sprintf("HNSW (m=%d, ef_construction=%d, ef_runtime=%d; %s)", hnswM, hnswEfConstruction, hnswEfRuntime, where)
	}
	return fmt.Sprintf("none yet (FLAT below %d chunks, HNSW from there on)", s.cfg.hnswAbove)
}
