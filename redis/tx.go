package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/fonte-rag/fonte"
)

// registerScript hands out a new version and records it as pending in
// one step, before any of its keys exist: a version is always either live
// (in the document map) or pending, so a crash leaves nothing that the
// next commit or Purge cannot find.
var registerScript = goredis.NewScript(`local v = redis.call('hincrby', KEYS[1], ARGV[1], 1)
redis.call('hset', KEYS[2], tostring(v), ARGV[2])
return v`)

// verRef is a version and its number of chunks: what deleting its keys
// needs.
type verRef struct {
	ver uint64
	n   int
}

// storeTx is a write transaction. Put writes the document's keys at once,
// under a new version nobody reads; the commit makes the versions live.
type storeTx struct {
	s        *Store
	base     *state
	rebuild  bool
	settings fonte.IndexSettings

	mu         sync.Mutex
	puts       map[string]docEntry // document ID → its new version
	dels       map[string]bool     // base documents deleted
	registered []verRef            // every version this transaction created
	done       bool
}

// Update runs fn in a write transaction and commits what it put and
// deleted atomically when fn returns nil (see the package documentation
// for what atomic means across shards). Writers exclude each other with
// the collection's lock; a second Update waits up to the lock timeout.
// When fn fails, or the commit does, nothing changes and the versions the
// transaction wrote are deleted (or, if the server cannot be reached, left
// invisible for the next commit or Purge to delete).
func (s *Store) Update(ctx context.Context, fn func(tx fonte.StoreTx) error) error {
	l, release, err := s.beginWrite(ctx, "write")
	if err != nil {
		return err
	}
	defer release()

	base, err := s.load(ctx)
	if err != nil {
		return s.wrapErr("reading the collection", err)
	}
	s.mu.Lock()
	rebuild := s.rebuild
	s.mu.Unlock()
	set := s.opts.Settings
	if set.IsZero() {
		set = base.settings
	}
	if set.IsZero() {
		return fmt.Errorf("redis %s: %w: the collection holds no index, and the store was opened without settings to create one", s.cfg.where(), fonte.ErrInvalidSettings)
	}
	if !rebuild && !base.settings.IsZero() && base.settings != set {
		return s.mismatch(base.settings)
	}
	// A writer that crashed left versions nobody reads, and maybe an
	// index nobody queries.
	if err := s.collectGarbage(ctx, base); err != nil {
		return s.wrapErr("deleting what an earlier writer left", err)
	}

	tx := &storeTx{s: s, base: base, rebuild: rebuild, settings: set, puts: map[string]docEntry{}, dels: map[string]bool{}}
	err = fn(tx)
	tx.mu.Lock()
	tx.done = true
	tx.mu.Unlock()
	if err == nil && ctx.Err() != nil {
		err = fmt.Errorf("redis %s: update cancelled: %w", s.cfg.where(), ctx.Err())
	}
	if err != nil {
		tx.discard(tx.registered)
		return err
	}
	return tx.commit(ctx, l)
}

// Base describes the documents the transaction started from, sorted by
// ID: none in a rebuild.
func (tx *storeTx) Base(ctx context.Context) ([]fonte.DocInfo, error) {
	if tx.rebuild || len(tx.base.ids) == 0 {
		return []fonte.DocInfo{}, nil
	}
	infos, err := tx.s.infos(ctx, tx.base)
	if err != nil {
		return nil, tx.s.wrapErr("listing the base documents", err)
	}
	return cloneInfos(infos), nil
}

// Vectors returns, per text hash, a vector the base generation holds for
// a chunk embedded from that text, or nil.
func (tx *storeTx) Vectors(ctx context.Context, textHashes []string) ([][]float32, error) {
	out := make([][]float32, len(textHashes))
	if tx.rebuild || tx.base.index == "" || len(tx.base.ids) == 0 {
		return out, nil
	}
	if err := tx.s.vectorsByHash(ctx, tx.base, textHashes, out); err != nil {
		return nil, tx.s.wrapErr("looking up cached vectors", err)
	}
	return out, nil
}

// Put validates r and writes it under a new version, which the commit
// makes live. Its keys are written before Put returns: the chunk hashes
// in one pipeline, then the postings.
func (tx *storeTx) Put(ctx context.Context, r fonte.Record) error {
	d, err := prepare(r, tx.settings.Dim)
	if err != nil {
		return err
	}
	tx.mu.Lock()
	done := tx.done
	tx.mu.Unlock()
	if done {
		return ErrTxDone
	}
	s := tx.s
	ver, err := registerScript.Run(ctx, s.rdb, []string{s.k.meta(), s.k.pending()}, metaSeq, len(d.chunks)).Uint64()
	if err != nil {
		return s.wrapErr(fmt.Sprintf("putting document %q", d.id), err)
	}
	tx.mu.Lock()
	tx.registered = append(tx.registered, verRef{ver, len(d.chunks)})
	tx.mu.Unlock()
	if err := s.writeVersion(ctx, ver, d); err != nil {
		return s.wrapErr(fmt.Sprintf("writing document %q", d.id), err)
	}
	d.entry.V = ver
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.done {
		return ErrTxDone
	}
	tx.puts[d.id] = d.entry
	return nil
}

// Delete removes a document and reports whether it was there (in the
// base, or put earlier in the transaction).
func (tx *storeTx) Delete(ctx context.Context, docID string) (bool, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.done {
		return false, ErrTxDone
	}
	_, put := tx.puts[docID]
	delete(tx.puts, docID)
	inBase := false
	if !tx.rebuild {
		_, inBase = tx.base.docs[docID]
	}
	was := put || inBase && !tx.dels[docID]
	if inBase {
		tx.dels[docID] = true
	}
	return was, nil
}

// discard deletes versions nobody will read, with a context of its own
// (the caller's may be what ended the transaction). Failures leave them
// pending for the next commit or Purge.
func (tx *storeTx) discard(vers []verRef) {
	if len(vers) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tx.s.deleteVersions(ctx, vers)
}

// commit switches the collection to the transaction's documents in one
// MULTI/EXEC on the meta slot, then deletes the versions it replaced.
func (tx *storeTx) commit(ctx context.Context, l *writeLock) error {
	s, base := tx.s, tx.base
	docs := map[string]docEntry{}
	var old []verRef
	if tx.rebuild {
		for _, e := range base.docs {
			old = append(old, verRef{e.V, e.N})
		}
	} else {
		maps.Copy(docs, base.docs)
	}
	var gone []string
	for id := range tx.dels {
		if e, ok := docs[id]; ok {
			old = append(old, verRef{e.V, e.N})
			delete(docs, id)
			if _, put := tx.puts[id]; !put {
				gone = append(gone, id)
			}
		}
	}
	live := map[uint64]bool{}
	for id, e := range tx.puts {
		if prev, ok := docs[id]; ok {
			old = append(old, verRef{prev.V, prev.N})
		}
		docs[id] = e
		live[e.V] = true
	}
	var garbage []verRef
	for _, v := range tx.registered {
		if !live[v.ver] {
			garbage = append(garbage, v)
		}
	}
	if len(tx.puts) == 0 && len(old) == 0 && !tx.rebuild {
		tx.discard(garbage)
		return nil
	}
	chunks, terms := 0, int64(0)
	for _, e := range docs {
		chunks += e.N
		terms += e.T
	}

	// The vector index: FLAT below hnsw_above chunks, HNSW from there on
	// (never back: a shrinking collection keeps its graph). An index of
	// another dimension or kind is replaced by a new one over the same
	// prefix, built before the switch and swapped in by it.
	index, dense := base.index, base.dense
	algo := denseFlat
	if chunks >= s.cfg.hnswAbove || dense == denseHNSW {
		algo = denseHNSW
	}
	newIndex := index == "" || base.dim != tx.settings.Dim || dense != algo
	if newIndex {
		n, err := s.rdb.HIncrBy(ctx, s.k.meta(), metaIdxSeq, 1).Result()
		if err == nil {
			index, dense = s.k.index(uint64(n)), algo
			err = s.createIndex(ctx, index, tx.settings.Dim, algo)
			if err == nil {
				err = s.waitIndexed(ctx, index)
			}
		}
		if err != nil {
			tx.discard(tx.registered)
			if index != base.index {
				s.dropIndex(context.Background(), index) // else the next writer drops it
			}
			return s.wrapErr("creating the vector index", err)
		}
	}

	// With wait_replicas, the documents reach the replicas before they
	// become live: a failover after the switch cannot leave a live
	// version whose keys the new master never got.
	if err := s.syncReplicas(ctx); err != nil {
		tx.discard(tx.registered)
		if newIndex {
			s.dropIndex(context.Background(), index)
		}
		return s.wrapErr("waiting for the replicas; nothing was committed", err)
	}

	setJSON, _ := json.Marshal(storedSettings{Format: formatVersion, Settings: tx.settings})
	checked := false // the switch's checks passed: an error after them may hide an applied EXEC
	acked := -1      // replicas that acknowledged the switch (WAIT on its connection)
	err := s.rdb.Watch(ctx, func(t *goredis.Tx) error {
		tok, err := t.Get(ctx, s.k.lock()).Result()
		if err != nil && !errors.Is(err, goredis.Nil) {
			return err
		}
		if tok != l.token {
			return ErrLostLock
		}
		g, err := t.HGet(ctx, s.k.meta(), metaGen).Result()
		if err != nil && !errors.Is(err, goredis.Nil) {
			return err
		}
		if g != "" && g != strconv.FormatUint(base.gen, 10) || g == "" && base.gen != 0 {
			return ErrLostLock
		}
		checked = true
		var cmds []goredis.Cmder
		cmds, err = t.TxPipelined(ctx, func(p goredis.Pipeliner) error {
			p.HSet(ctx, s.k.meta(), metaGen, base.gen+1, metaCommitted, time.Now().UnixNano(),
				metaChunks, chunks, metaTerms, terms, metaIndex, index, metaDense, dense, metaDim, tx.settings.Dim)
			p.Set(ctx, s.k.settings(), setJSON, 0)
			if tx.rebuild {
				p.Del(ctx, s.k.docs())
			}
			for lo := 0; lo < len(gone); lo += pipeBatch {
				p.HDel(ctx, s.k.docs(), gone[lo:min(lo+pipeBatch, len(gone))]...)
			}
			var pairs []any
			flush := func() {
				if len(pairs) > 0 {
					p.HSet(ctx, s.k.docs(), pairs...)
					pairs = pairs[:0:0]
				}
			}
			for id, e := range tx.puts {
				raw, _ := json.Marshal(e)
				pairs = append(pairs, id, raw)
				if len(pairs) >= 2*pipeBatch {
					flush()
				}
			}
			flush()
			var nowLive []string
			for v := range live {
				nowLive = append(nowLive, strconv.FormatUint(v, 10))
			}
			for lo := 0; lo < len(nowLive); lo += pipeBatch {
				p.HDel(ctx, s.k.pending(), nowLive[lo:min(lo+pipeBatch, len(nowLive))]...)
			}
			for _, v := range old {
				pairs = append(pairs, strconv.FormatUint(v.ver, 10), v.n)
				if len(pairs) >= 2*pipeBatch {
					p.HSet(ctx, s.k.pending(), pairs...)
					pairs = pairs[:0:0]
				}
			}
			if len(pairs) > 0 {
				p.HSet(ctx, s.k.pending(), pairs...)
			}
			return nil
		})
		err = execAbortCause(cmds, err)
		if err == nil && s.cfg.waitReplicas > 0 {
			n, werr := t.Wait(ctx, s.cfg.waitReplicas, s.cfg.waitTimeout).Result()
			if werr == nil {
				acked = int(n)
			}
		}
		return err
	}, s.k.lock(), s.k.meta())
	if err != nil {
		if errors.Is(err, goredis.TxFailedErr) || errors.Is(err, ErrLostLock) || !checked {
			// Nothing was applied: what this commit wrote goes.
			tx.discard(tx.registered)
			if newIndex {
				s.dropIndex(context.Background(), index)
			}
			if errors.Is(err, goredis.TxFailedErr) || errors.Is(err, ErrLostLock) {
				return fmt.Errorf("redis %s: %w; nothing was committed", s.cfg.where(), ErrLostLock)
			}
		}
		// Otherwise the EXEC may or may not have been applied: either way
		// the versions are pending and the next writer sorts them out.
		return s.wrapErr("committing", err)
	}
	s.mu.Lock()
	s.rebuild = false
	s.mu.Unlock()
	if s.cfg.waitReplicas > 0 && acked < s.cfg.waitReplicas {
		// The replaced versions stay: a replica promoted now still has
		// the previous generation, which names them. The next commit
		// deletes them.
		return fmt.Errorf("redis %s: %w: generation %d is committed on the master, but %d of %d replicas acknowledged it within %v; a failover before they catch up would go back to generation %d",
			s.cfg.where(), ErrNotReplicated, base.gen+1, max(acked, 0), s.cfg.waitReplicas, s.cfg.waitTimeout, base.gen)
	}

	// The switch is done; what follows only frees memory. A failure here
	// leaves the dead versions pending, for the next commit or Purge.
	ctx2, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	s.deleteVersions(ctx2, append(old, garbage...))
	if newIndex && base.index != "" {
		s.dropIndex(ctx2, base.index)
	}
	return nil
}

func cloneInfos(in []fonte.DocInfo) []fonte.DocInfo {
	out := make([]fonte.DocInfo, len(in))
	for i, d := range in {
		d.Tags = append([]string(nil), d.Tags...)
		d.Meta = maps.Clone(d.Meta)
		out[i] = d
	}
	return out
}

// beginWrite takes this process's writer slot and the collection's lock,
// for an Update or a Purge (what names it in errors); release gives both
// back.
func (s *Store) beginWrite(ctx context.Context, what string) (l *writeLock, release func(), err error) {
	if s.opts.ReadOnly {
		return nil, nil, fmt.Errorf("redis %s: %w", s.cfg.where(), fonte.ErrReadOnly)
	}
	if s.isClosed() {
		return nil, nil, ErrClosed
	}
	select {
	case s.writer <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, fmt.Errorf("redis %s: waiting to %s: %w", s.cfg.where(), what, ctx.Err())
	}
	l, err = s.lock(ctx)
	if err != nil {
		<-s.writer
		return nil, nil, err
	}
	return l, func() {
		l.unlock()
		<-s.writer
	}, nil
}
