package redis

import (
	"context"
	"errors"
	"fmt"
	"sync"

	goredis "github.com/redis/go-redis/v9"

	"github.com/fonte-rag/fonte"
)

// Store is one collection of a Redis server or cluster with the Query
// Engine. Its methods are safe for concurrent use; any number of Stores,
// in any number of processes, may read a collection while one writes.
type Store struct {
	cfg  config
	rdb  goredis.UniversalClient
	k    keys
	opts fonte.StoreOptions

	writer chan struct{} // held by the Update or Purge running in this process

	mu      sync.Mutex
	cache   *state
	rebuild bool // the next commit starts from an empty collection
	closed  bool
}

var (
	_ fonte.Store             = (*Store)(nil)
	_ fonte.LanguageTermStats = (*Store)(nil)
)

// Open connects to the Redis server or cluster url names and opens one
// collection of it:
//
//	redis://[:password@]host:port[/db]?collection=NAME
//	redis://host1:port1?addr=host2:port2&addr=host3:port3&collection=NAME   (a cluster)
//
// A single address that turns out to be a cluster node (INFO cluster says
// cluster_enabled:1) is used as a cluster too. Besides go-redis's own
// parameters (dial_timeout, pool_size, …), the URL may carry
// collection (default "default"), hnsw_above (the chunk count from which
// the vector index is HNSW, default DefaultHNSWAbove), lock_timeout
// (default DefaultLockTimeout), wait_replicas (replicas of every master
// that acknowledge a commit before it returns, default 0) and
// wait_timeout (default DefaultWaitTimeout).
//
// A collection holding an index built with other settings than
// o.Settings is refused with an error wrapping fonte.ErrSettingsMismatch,
// unless o.Rebuild; zero settings accept whatever it holds.
func Open(ctx context.Context, url string, o fonte.StoreOptions) (*Store, error) {
	if o.ReadOnly && o.Rebuild {
		return nil, errors.New("redis: StoreOptions.ReadOnly and StoreOptions.Rebuild exclude each other")
	}
	if !o.Settings.IsZero() || o.Rebuild {
		// A rebuild creates an index: it needs settings to create it with.
		if err := o.Settings.Validate(); err != nil {
			return nil, fmt.Errorf("redis: %w", err)
		}
	}
	cfg, err := parseURL(url)
	if err != nil {
		return nil, err
	}
	quietClientLog.Do(func() { goredis.SetLogger(discardLog{}) })
	rdb, err := connect(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	s := &Store{cfg: cfg, rdb: rdb, k: newKeys(cfg.collection), opts: o, writer: make(chan struct{}, 1), rebuild: o.Rebuild}
	if err := s.init(ctx); err != nil {
		rdb.Close()
		return nil, err
	}
	return s, nil
}

// quietClientLog silences go-redis's own log (it printed every failed
// dial to standard error, beside the error fonte returns and reports
// once, naming the server).
var quietClientLog sync.Once

type discardLog struct{}

func (discardLog) Printf(context.Context, string, ...any) {}

// init checks the server has the Query Engine and the collection's
// settings agree with the requested ones.
func (s *Store) init(ctx context.Context) error {
	if err := s.rdb.Do(ctx, "FT._LIST").Err(); err != nil {
		if isUnavailable(err) {
			return s.wrapErr("connecting", err)
		}
		return fmt.Errorf("redis %s: %w: %w", s.cfg.where(), ErrNoQueryEngine, err)
	}
	stored, err := s.Settings(ctx)
	if err != nil {
		return err
	}
	if !s.opts.Rebuild && !stored.IsZero() && !s.opts.Settings.IsZero() && stored != s.opts.Settings {
		return s.mismatch(stored)
	}
	return nil
}

// mismatch is the error for a collection built with other settings.
func (s *Store) mismatch(stored fonte.IndexSettings) error {
	msg := fmt.Sprintf("redis %s: %v", s.cfg.where(), fonte.ErrSettingsMismatch)
	for _, d := range stored.Diff(s.opts.Settings) {
		msg += "; " + d
	}
	return fmt.Errorf("%s; rebuild it (fonte index --rebuild) or query with its settings: %w", msg, fonte.ErrSettingsMismatch)
}

func (s *Store) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Close releases the store's connections. An Update running in another
// goroutine fails.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	return s.rdb.Close()
}

// Backend names the kind of store: "redis" or "redis-cluster".
func (s *Store) Backend() string {
	if s.cfg.cluster {
		return "redis-cluster"
	}
	return "redis"
}

// Collection is the name of the collection the store opened.
func (s *Store) Collection() string { return s.cfg.collection }

// Settings returns what the collection was built with; the zero value
// for a collection that holds no index yet.
func (s *Store) Settings(ctx context.Context) (fonte.IndexSettings, error) {
	if s.isClosed() {
		return fonte.IndexSettings{}, ErrClosed
	}
	raw, err := s.rdb.Get(ctx, s.k.settings()).Result()
	if err != nil && !errors.Is(err, goredis.Nil) {
		return fonte.IndexSettings{}, s.wrapErr("reading the settings", err)
	}
	set, err := parseSettings(raw)
	if err != nil {
		return fonte.IndexSettings{}, s.wrapErr("reading the settings", err)
	}
	return set, nil
}

// Status describes the collection and its latest commit.
func (s *Store) Status(ctx context.Context) (fonte.StoreStatus, error) {
	var out fonte.StoreStatus
	err := s.read(ctx, "status", func(st *state) error {
		out = fonte.StoreStatus{
			Backend: s.Backend(), Location: s.cfg.location, Generation: st.gen, Committed: st.committed,
			Documents: len(st.docs), Chunks: st.chunks,
			Lexical: fmt.Sprintf("fonte BM25 (k1 %g, b %g) computed in Go over term postings kept in Redis", fonte.BM25K1, fonte.BM25B),
			Dense:   s.denseStatus(st),
		}
		return nil
	})
	return out, err
}

// Documents describes every document, sorted by ID.
func (s *Store) Documents(ctx context.Context) ([]fonte.DocInfo, error) {
	var out []fonte.DocInfo
	err := s.read(ctx, "listing the documents", func(st *state) error {
		infos, err := s.infos(ctx, st)
		out = infos
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return []fonte.DocInfo{}, nil
	}
	return cloneInfos(out), nil
}

// Document returns one document whole, with its chunks, text hashes,
// vectors and terms.
func (s *Store) Document(ctx context.Context, id string) (fonte.Record, error) {
	var out fonte.Record
	found := true
	err := s.read(ctx, "reading document "+fmt.Sprintf("%q", id), func(st *state) error {
		e, ok := st.docs[id]
		if !ok {
			found = false
			return nil
		}
		found = true
		r, err := s.readRecord(ctx, e)
		out = r
		return err
	})
	if err != nil {
		return fonte.Record{}, err
	}
	if !found {
		return fonte.Record{}, fmt.Errorf("redis %s: document %q: %w", s.cfg.where(), id, fonte.ErrNotFound)
	}
	return out, nil
}
