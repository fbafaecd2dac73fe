package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/fonte-rag/fonte"
)

// formatVersion is the layout this package writes; a collection recording
// a larger one was written by a newer fonte.
const formatVersion = 1

// Fields of the meta hash.
const (
	metaGen       = "gen"       // the generation, +1 per commit
	metaCommitted = "committed" // the commit's time, Unix nanoseconds
	metaChunks    = "chunks"    // live chunks
	metaTerms     = "terms"     // their total length in terms
	metaIndex     = "index"     // the FT index readers query
	metaDense     = "dense"     // its vector algorithm, FLAT or HNSW
	metaDim       = "dim"       // its vector dimension
	metaSeq       = "seq"       // the last version handed out
	metaIdxSeq    = "idxseq"    // the last index number handed out
)

// storedSettings is the settings key's JSON.
type storedSettings struct {
	Format   int                 `json:"format"`
	Settings fonte.IndexSettings `json:"settings"`
}

// docEntry is a document's entry in the document map: its live version,
// chunk count, total length in terms and tags (which filters need without
// reading the document).
type docEntry struct {
	V    uint64   `json:"v"`
	N    int      `json:"n"`
	T    int64    `json:"t"`
	Tags []string `json:"g,omitempty"`
}

// state is one generation as a reader sees it: everything in the meta
// slot, loaded in one MULTI. It is immutable but for the document
// descriptions and the access classes, made on first use.
type state struct {
	gen       uint64
	committed time.Time
	settings  fonte.IndexSettings
	index     string
	dense     string
	dim       int
	chunks    int
	terms     int64
	docs      map[string]docEntry
	ids       []string          // sorted
	byVer     map[uint64]string // live version → document ID

	mu    sync.Mutex
	infos []fonte.DocInfo // in ids order, once loaded

	classesOnce sync.Once
	access      *accessClasses // see classes
}

// withPrefix returns the IDs of the live documents starting with p.
func (st *state) withPrefix(p string) []string {
	i, _ := slices.BinarySearch(st.ids, p)
	j := i
	for j < len(st.ids) && strings.HasPrefix(st.ids[j], p) {
		j++
	}
	return st.ids[i:j]
}

// probe is the cheap look at the meta slot every read starts and ends
// with: the generation, the version counter and the number of pending
// versions, read atomically.
type probe struct {
	gen, seq uint64
	pending  int64
}

func (s *Store) probe(ctx context.Context) (probe, error) {
	var mg *goredis.SliceCmd
	var pl *goredis.IntCmd
	cmds, err := s.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		mg = p.HMGet(ctx, s.k.meta(), metaGen, metaSeq)
		pl = p.HLen(ctx, s.k.pending())
		return nil
	})
	if err = execAbortCause(cmds, err); err != nil {
		return probe{}, err
	}
	vals := mg.Val()
	var pr probe
	pr.gen, _ = uintOf(vals[0])
	pr.seq, _ = uintOf(vals[1])
	pr.pending = pl.Val()
	return pr, nil
}

func uintOf(v any) (uint64, error) {
	s, _ := v.(string)
	if s == "" {
		return 0, nil
	}
	return strconv.ParseUint(s, 10, 64)
}

// stateAt returns the cached state when it is generation gen, and loads
// the latest otherwise.
func (s *Store) stateAt(ctx context.Context, gen uint64) (*state, error) {
	s.mu.Lock()
	st := s.cache
	s.mu.Unlock()
	if st != nil && st.gen == gen {
		return st, nil
	}
	st, err := s.load(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.cache == nil || s.cache.gen < st.gen {
		s.cache = st
	}
	s.mu.Unlock()
	return st, nil
}

// load reads the meta slot whole in one MULTI, so the document map, the
// totals and the settings are one generation's.
func (s *Store) load(ctx context.Context) (*state, error) {
	var meta, docs *goredis.MapStringStringCmd
	var set *goredis.StringCmd
	cmds, err := s.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		meta = p.HGetAll(ctx, s.k.meta())
		docs = p.HGetAll(ctx, s.k.docs())
		set = p.Get(ctx, s.k.settings())
		return nil
	})
	if err = execAbortCause(cmds, err); err != nil && !errors.Is(err, goredis.Nil) {
		return nil, err
	}
	st := &state{docs: map[string]docEntry{}, byVer: map[uint64]string{}}
	m := meta.Val()
	num := func(f string) (uint64, error) {
		if m[f] == "" {
			return 0, nil
		}
		n, err := strconv.ParseUint(m[f], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("meta field %s: %w", f, err)
		}
		return n, nil
	}
	var nums [5]uint64
	for i, f := range []string{metaGen, metaCommitted, metaChunks, metaTerms, metaDim} {
		if nums[i], err = num(f); err != nil {
			return nil, err
		}
	}
	st.gen, st.chunks, st.terms, st.dim = nums[0], int(nums[2]), int64(nums[3]), int(nums[4])
	if nums[1] != 0 {
		st.committed = time.Unix(0, int64(nums[1])).UTC()
	}
	st.index, st.dense = m[metaIndex], m[metaDense]
	if st.settings, err = parseSettings(set.Val()); err != nil {
		return nil, err
	}
	for id, raw := range docs.Val() {
		var e docEntry
		if err := json.Unmarshal([]byte(raw), &e); err != nil {
			return nil, fmt.Errorf("document map entry %q: %w", id, err)
		}
		st.docs[id] = e
		st.byVer[e.V] = id
		st.ids = append(st.ids, id)
	}
	slices.Sort(st.ids)
	return st, nil
}

// parseSettings reads the settings key ("" when absent).
func parseSettings(raw string) (fonte.IndexSettings, error) {
	if raw == "" {
		return fonte.IndexSettings{}, nil
	}
	var ss storedSettings
	if err := json.Unmarshal([]byte(raw), &ss); err != nil {
		return fonte.IndexSettings{}, fmt.Errorf("settings key: %w", err)
	}
	if ss.Format > formatVersion {
		return fonte.IndexSettings{}, fmt.Errorf("the collection has format %d, this fonte reads up to %d: %w", ss.Format, formatVersion, fonte.ErrStoreVersion)
	}
	return ss.Settings, nil
}

// errChanged means a read found a key of its generation gone: a commit
// switched and cleaned up meanwhile, so the read starts over.
var errChanged = errors.New("the collection changed during the read")

// maxReadAttempts bounds how often a read restarts because commits keep
// landing under it.
const maxReadAttempts = 8

// read runs fn against the latest generation and checks, after it, that
// the generation is still the latest: then every key fn read belonged to
// that generation (a commit deletes the keys it replaces only after its
// switch). Otherwise fn runs again on the new generation.
func (s *Store) read(ctx context.Context, what string, fn func(st *state) error) error {
	if s.isClosed() {
		return ErrClosed
	}
	pr, err := s.probe(ctx)
	if err != nil {
		return s.wrapErr(what, err)
	}
	for attempt := 1; ; attempt++ {
		st, err := s.stateAt(ctx, pr.gen)
		if err != nil {
			return s.wrapErr(what, err)
		}
		ferr := fn(st)
		if ferr != nil && !errors.Is(ferr, errChanged) {
			return s.wrapErr(what, ferr)
		}
		if pr, err = s.probe(ctx); err != nil {
			return s.wrapErr(what, err)
		}
		if ferr == nil && pr.gen == st.gen {
			return nil
		}
		if attempt == maxReadAttempts {
			return s.wrapErr(what, fmt.Errorf("%w %d times in a row", errChanged, attempt))
		}
	}
}

// infos describes st's documents in ID order, reading each document's
// description once per generation.
func (s *Store) infos(ctx context.Context, st *state) ([]fonte.DocInfo, error) {
	st.mu.Lock()
	done := st.infos
	st.mu.Unlock()
	if done != nil || len(st.ids) == 0 {
		return done, nil
	}
	out := make([]fonte.DocInfo, len(st.ids))
	for lo := 0; lo < len(st.ids); lo += pipeBatch {
		ids := st.ids[lo:min(lo+pipeBatch, len(st.ids))]
		p := s.rdb.Pipeline()
		cmds := make([]*goredis.StringCmd, len(ids))
		for i, id := range ids {
			cmds[i] = p.HGet(ctx, s.k.doc(st.docs[id].V), docInfo)
		}
		if err := execPipe(ctx, p); err != nil {
			return nil, err
		}
		for i, c := range cmds {
			raw, err := c.Result()
			if errors.Is(err, goredis.Nil) {
				return nil, errChanged
			}
			if err := json.Unmarshal([]byte(raw), &out[lo+i]); err != nil {
				return nil, fmt.Errorf("document %q: %w", ids[i], err)
			}
		}
	}
	// A version's keys never change once written (they are only deleted),
	// so descriptions read whole are st's for good.
	st.mu.Lock()
	st.infos = out
	st.mu.Unlock()
	return out, nil
}

// pipeBatch bounds the commands of one pipeline round trip.
const pipeBatch = 512

// execPipe runs a pipeline; a missing key (redis.Nil) is an answer, not
// an error, and is left to each command.
func execPipe(ctx context.Context, p goredis.Pipeliner) error {
	cmds, err := p.Exec(ctx)
	if err == nil || errors.Is(err, goredis.Nil) {
		for _, c := range cmds {
			if e := c.Err(); e != nil && !errors.Is(e, goredis.Nil) {
				return e
			}
		}
		return nil
	}
	return err
}
