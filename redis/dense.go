package redis

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	goredis "github.com/redis/go-redis/v9"

	"github.com/fonte-rag/fonte"
)

// knnSlack is how many hits beyond K the dense leg first asks for, so
// that the few a concurrent commit makes stale, or a filter the engine
// could not apply whole lets through, still leave K.
const knnSlack = 10

// VectorTopK returns the K chunks most similar to q.Vector (cosine)
// among those q.Filter accepts, best first, ties by document ID then
// position. The engine runs the KNN, with the filter as a pre-filter
// (see engineFilter); the scores are recomputed here in float64 from the
// returned vectors, so they and their ties do not depend on the engine's
// float32 arithmetic. Hits of versions that are not live are dropped,
// and the engine is asked for more until K remain or it has no more.
func (s *Store) VectorTopK(ctx context.Context, q fonte.VectorQuery) ([]fonte.ScoredChunk, error) {
	if q.K <= 0 {
		return nil, nil
	}
	var out []fonte.ScoredChunk
	err := s.read(ctx, "vector search", func(st *state) error {
		out = nil
		if st.index == "" || len(st.ids) == 0 {
			return nil
		}
		if len(q.Vector) != st.dim {
			return fmt.Errorf("the query vector has dimension %d, the index %d", len(q.Vector), st.dim)
		}
		cf := engineFilter(st, q.Filter, true)
		if cf.none {
			return nil
		}
		res, err := s.knn(ctx, st, cf, q)
		out = res
		return err
	})
	return out, err
}

type denseHit struct {
	sc    fonte.ScoredChunk
	ver   uint64
	score float64
}

// knn runs the KNN query, widening it until K hits pass the checks (or
// the engine runs out), and cuts exactly: a hit tied with the last one
// kept may sit just beyond the engine's page, so a full page whose last
// score equals the K-th widens too.
//
// The KNN goes with a count of what the filter matches, and a count below
// the live chunks the filter matches fails the leg: the cluster
// coordinator leaves out a shard it cannot reach (or that times out)
// without an error, and an index the engine is still scanning answers
// from the part it has scanned. A node restarted from its append-only
// file builds again, in the background, every index whose FT.CREATE the
// file replays after the chunks it covers (fonte writes the chunks
// first), and answers a KNN from a fraction of them meanwhile.
func (s *Store) knn(ctx context.Context, st *state, cf compiledFilter, q fonte.VectorQuery) ([]fonte.ScoredChunk, error) {
	blob := vectorBytes(q.Vector)
	qn := norm(q.Vector)
	k := q.K + knnSlack
	accepted := map[uint64]bool{}
	accepts := func(ver uint64) bool {
		ok, seen := accepted[ver]
		if !seen {
			id, live := st.byVer[ver]
			ok = live && q.Filter.Accepts(id, st.docs[id].Tags)
			accepted[ver] = ok
		}
		return ok
	}
	for {
		p := s.rdb.Pipeline()
		knn := p.Do(ctx, knnArgs(st, cf, blob, k)...)
		count := p.Do(ctx, "FT.SEARCH", st.index, cf.expr, "LIMIT", 0, 0, "DIALECT", 2)
		err := execPipe(ctx, p)
		if err != nil {
			if isUnknownIndex(err) {
				return nil, errChanged // a commit replaced the index
			}
			return nil, err
		}
		// A commit that deleted chunks since st was loaded also lowers
		// what the engine finds: then the read starts over.
		partial := func(err error) error {
			if errors.Is(err, ErrPartialAnswer) {
				if pr, perr := s.probe(ctx); perr == nil && pr.gen != st.gen {
					return errChanged
				}
			}
			return err
		}
		if err := checkComplete(count, cf.live); err != nil {
			return nil, partial(err)
		}
		raw, err := knn.Slice()
		if err != nil {
			return nil, err
		}
		docs, err := parseSearch(raw)
		if err != nil {
			return nil, err
		}
		// The count and the KNN may be answered by different coordinators:
		// during a failover one may still miss a shard the other reaches.
		if want := min(k, cf.live); len(docs) < want {
			return nil, partial(fmt.Errorf("%w: %w (the KNN of %d returned %d of the %d chunks it should see)",
				fonte.ErrUnavailable, ErrPartialAnswer, k, len(docs), cf.live))
		}
		var hits []denseHit
		lowest := math.Inf(1)
		for _, d := range docs {
			ver, _, ok := s.k.parseDataKey(d.key)
			vec, verr := parseVector(d.fields[fVec])
			if !ok || verr != nil || len(vec) != len(q.Vector) {
				continue // a key of another index's dimension, mid-rebuild
			}
			score := cosine(q.Vector, qn, vec)
			lowest = min(lowest, score)
			if !accepts(ver) {
				continue
			}
			c, lang, err := decodeChunk(d.fields)
			if err != nil {
				return nil, fmt.Errorf("chunk %s: %w", d.key, err)
			}
			hits = append(hits, denseHit{fonte.ScoredChunk{Chunk: c, Lang: lang, Score: score}, ver, score})
		}
		slices.SortFunc(hits, func(a, b denseHit) int {
			if c := cmp.Compare(b.score, a.score); c != 0 {
				return c
			}
			if c := cmp.Compare(a.sc.Chunk.DocID, b.sc.Chunk.DocID); c != 0 {
				return c
			}
			return cmp.Compare(a.sc.Chunk.Position, b.sc.Chunk.Position)
		})
		full := len(docs) >= k
		if full && (len(hits) < q.K || hits[q.K-1].score <= lowest) {
			k *= 4
			continue
		}
		hits = hits[:min(q.K, len(hits))]
		out := make([]fonte.ScoredChunk, len(hits))
		for i, h := range hits {
			out[i] = h.sc
		}
		return out, nil
	}
}

// knnArgs is the FT.SEARCH command of a KNN of k for the query vector
// blob under cf. A restricted reader's KNN over an HNSW index is exact:
// the engine scores every chunk the pre-filter passes (see accessExpr)
// instead of walking a graph hidden chunks shaped.
func knnArgs(st *state, cf compiledFilter, blob []byte, k int) []any {
	policy := ""
	if cf.access && st.dense == denseHNSW {
		policy = " HYBRID_POLICY ADHOC_BF"
	}
	args := []any{"FT.SEARCH", st.index, cf.expr + "=>[KNN $k @" + fVec + " $v" + policy + " AS dist]",
		"PARAMS", 4, "v", blob, "k", k, "SORTBY", "dist", "ASC", "RETURN", len(hitFields) + 1}
	for _, f := range hitFields {
		args = append(args, f)
	}
	return append(args, fVec, "LIMIT", 0, k, "DIALECT", 2)
}

// ErrPartialAnswer is wrapped (with fonte.ErrUnavailable) when the Query
// Engine answered for fewer chunks than the collection holds live: a
// cluster shard is down or timed out, or the vector index is still being
// built (after a restart).
var ErrPartialAnswer = errors.New("redis: the Query Engine answered for part of the collection (a shard missing, or the vector index still being built after a restart)")

func checkComplete(count *goredis.Cmd, live int) error {
	raw, err := count.Slice()
	if err != nil {
		return err
	}
	if len(raw) == 0 {
		return fmt.Errorf("empty FT.SEARCH reply")
	}
	total, ok := raw[0].(int64)
	if !ok {
		return fmt.Errorf("FT.SEARCH reply: total of type %T", raw[0])
	}
	if int(total) < live {
		return fmt.Errorf("%w: %w (it counts %d chunks where %d are live)", fonte.ErrUnavailable, ErrPartialAnswer, total, live)
	}
	return nil
}

func norm(v []float32) float64 {
	s := 0.0
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// cosine is the cosine similarity in float64; 0 against a zero vector.
func cosine(q []float32, qn float64, v []float32) float64 {
	dot := 0.0
	for i, x := range q {
		dot += float64(x) * float64(v[i])
	}
	vn := norm(v)
	if qn == 0 || vn == 0 {
		return 0
	}
	return dot / (qn * vn)
}

// searchDoc is one document of an FT.SEARCH reply.
type searchDoc struct {
	key    string
	fields map[string]string
}

// parseSearch reads a RESP2 FT.SEARCH reply: the total, then each key
// with its returned fields as a flat list.
func parseSearch(raw []any) ([]searchDoc, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("empty FT.SEARCH reply")
	}
	var out []searchDoc
	for i := 1; i < len(raw); i++ {
		key, ok := raw[i].(string)
		if !ok {
			return nil, fmt.Errorf("FT.SEARCH reply: key of type %T", raw[i])
		}
		d := searchDoc{key: key, fields: map[string]string{}}
		if i+1 < len(raw) {
			if list, ok := raw[i+1].([]any); ok {
				i++
				for j := 0; j+1 < len(list); j += 2 {
					f, _ := list[j].(string)
					v, _ := list[j+1].(string)
					d.fields[f] = v
				}
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// vectorsByHash fills out[i] with a vector st holds for a chunk whose
// embedded text has textHashes[i], looking the hashes up in the th TAG
// field, a hundred per query.
func (s *Store) vectorsByHash(ctx context.Context, st *state, textHashes []string, out [][]float32) error {
	want := map[string][]int{}
	var list []string
	for i, h := range textHashes {
		if !tagSafe(h) {
			continue // no exact TAG match possible: a cache miss
		}
		if _, dup := want[h]; !dup {
			list = append(list, h)
		}
		want[h] = append(want[h], i)
	}
	const batch = 100
	for lo := 0; lo < len(list); lo += batch {
		hs := list[lo:min(lo+batch, len(list))]
		esc := make([]string, len(hs))
		for i, h := range hs {
			esc[i] = escapeTag(h)
		}
		limit := 10 * len(hs)
		raw, err := s.rdb.Do(ctx, "FT.SEARCH", st.index, "@"+fHash+":{"+strings.Join(esc, "|")+"}",
			"RETURN", 2, fHash, fVec, "LIMIT", 0, limit, "DIALECT", 2).Slice()
		if err != nil {
			return err
		}
		docs, err := parseSearch(raw)
		if err != nil {
			return err
		}
		for _, d := range docs {
			ver, _, ok := s.k.parseDataKey(d.key)
			if _, live := st.byVer[ver]; !ok || !live {
				continue
			}
			idx := want[d.fields[fHash]]
			if len(idx) == 0 || out[idx[0]] != nil {
				continue
			}
			vec, err := parseVector(d.fields[fVec])
			if err != nil || len(vec) != st.dim {
				continue
			}
			for _, i := range idx {
				out[i] = vec
			}
		}
	}
	return nil
}
