package redis

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"

	goredis "github.com/redis/go-redis/v9"
)

// deleteVersions deletes every key of the given versions: first the
// postings (found through the chunks' terms), then the chunk and
// document hashes, then their pending entries. Done in this order, an
// interrupted deletion can be resumed from the pending entries alone.
func (s *Store) deleteVersions(ctx context.Context, vers []verRef) error {
	for len(vers) > 0 {
		// One round of at most pipeBatch chunk keys (and at least one version).
		n, chunks := 0, 0
		for n < len(vers) && (n == 0 || chunks+vers[n].n <= pipeBatch) {
			chunks += vers[n].n
			n++
		}
		var keys []string
		var fields []string
		for _, v := range vers[:n] {
			for i := range v.n {
				keys = append(keys, s.k.chunk(v.ver, i))
				fields = append(fields, postingField(v.ver, i))
			}
		}
		if err := s.deleteChunks(ctx, keys, fields); err != nil {
			return err
		}
		p := s.rdb.Pipeline()
		pend := make([]string, n)
		for i, v := range vers[:n] {
			p.Unlink(ctx, s.k.doc(v.ver))
			pend[i] = strconv.FormatUint(v.ver, 10)
		}
		p.HDel(ctx, s.k.pending(), pend...)
		if err := execPipe(ctx, p); err != nil {
			return err
		}
		vers = vers[n:]
	}
	return nil
}

// deleteChunks deletes chunk hashes and their postings (fields[i] is the
// posting field of keys[i]).
func (s *Store) deleteChunks(ctx context.Context, keys, fields []string) error {
	for lo := 0; lo < len(keys); lo += pipeBatch {
		hi := min(lo+pipeBatch, len(keys))
		p := s.rdb.Pipeline()
		cmds := make([]*goredis.SliceCmd, hi-lo)
		for i, key := range keys[lo:hi] {
			cmds[i] = p.HMGet(ctx, key, fTerms, fTermList)
		}
		if err := execPipe(ctx, p); err != nil {
			return err
		}
		byTerm := map[string][]string{}
		for i, c := range cmds {
			m := map[string]string{}
			for j, f := range []string{fTerms, fTermList} {
				if v, ok := c.Val()[j].(string); ok {
					m[f] = v
				}
			}
			if len(m) == 0 {
				continue // never written, or already deleted
			}
			terms, err := decodeTerms(m)
			if err != nil {
				return fmt.Errorf("chunk %s: %w", keys[lo+i], err)
			}
			slices.Sort(terms)
			for _, t := range slices.Compact(terms) {
				byTerm[t] = append(byTerm[t], fields[lo+i])
			}
		}
		for t, f := range byTerm {
			p.HDel(ctx, s.k.term(t), f...)
			if p.Len() >= pipeBatch {
				if err := execPipe(ctx, p); err != nil {
					return err
				}
			}
		}
		for _, key := range keys[lo:hi] {
			p.Unlink(ctx, key)
		}
		if err := execPipe(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// collectGarbage deletes the pending versions st does not hold live (what
// a failed or crashed writer left) and the collection's indexes other
// than st's. The caller holds the write lock.
func (s *Store) collectGarbage(ctx context.Context, st *state) error {
	pend, err := s.rdb.HGetAll(ctx, s.k.pending()).Result()
	if err != nil {
		return err
	}
	var dead []verRef
	var stillLive []string
	for f, n := range pend {
		ver, err1 := strconv.ParseUint(f, 10, 64)
		chunks, err2 := strconv.Atoi(n)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("pending entry %q → %q is malformed", f, n)
		}
		if _, ok := st.byVer[ver]; ok {
			stillLive = append(stillLive, f)
			continue
		}
		dead = append(dead, verRef{ver, chunks})
	}
	if len(stillLive) > 0 {
		// Cannot happen with this package's commits; never delete live data.
		if err := s.rdb.HDel(ctx, s.k.pending(), stillLive...).Err(); err != nil {
			return err
		}
	}
	if err := s.deleteVersions(ctx, dead); err != nil {
		return err
	}
	names, err := s.listIndexes(ctx)
	if err != nil {
		return err
	}
	for _, name := range names {
		if name != st.index {
			if err := s.dropIndex(ctx, name); err != nil {
				return err
			}
		}
	}
	return nil
}

// Purge removes every key that deleted or replaced documents left: the
// pending versions, then any chunk or document hash (with its postings)
// of a version that is not live, found by SCAN on every master, and the
// collection's unused indexes. Commits already delete what they replace;
// Purge is what guarantees it after a failed or crashed writer.
func (s *Store) Purge(ctx context.Context) error {
	_, release, err := s.beginWrite(ctx, "purge")
	if err != nil {
		return err
	}
	defer release()
	st, err := s.load(ctx)
	if err != nil {
		return s.wrapErr("purging", err)
	}
	if err := s.collectGarbage(ctx, st); err != nil {
		return s.wrapErr("purging", err)
	}
	var keys, fields, docKeys []string
	err = s.scan(ctx, s.k.data+"[cd]:*", func(key string) {
		ver, i, ok := s.k.parseDataKey(key)
		if !ok {
			return
		}
		if _, live := st.byVer[ver]; live {
			return
		}
		if i < 0 {
			docKeys = append(docKeys, key)
			return
		}
		keys = append(keys, key)
		fields = append(fields, postingField(ver, i))
	})
	if err != nil {
		return s.wrapErr("purging", err)
	}
	if err := s.deleteChunks(ctx, keys, fields); err != nil {
		return s.wrapErr("purging", err)
	}
	p := s.rdb.Pipeline()
	for _, key := range docKeys {
		p.Unlink(ctx, key)
	}
	if err := execPipe(ctx, p); err != nil {
		return s.wrapErr("purging", err)
	}
	return nil
}

// scan calls fn with every key matching pattern, on every master of a
// cluster (one at a time: fn need not be safe for concurrent use).
func (s *Store) scan(ctx context.Context, pattern string, fn func(key string)) error {
	var mu sync.Mutex
	each := func(ctx context.Context, c *goredis.Client) error {
		it := c.Scan(ctx, 0, pattern, 1000).Iterator()
		for it.Next(ctx) {
			mu.Lock()
			fn(it.Val())
			mu.Unlock()
		}
		return it.Err()
	}
	if cc, ok := s.rdb.(*goredis.ClusterClient); ok {
		return cc.ForEachMaster(ctx, each)
	}
	return each(ctx, s.rdb.(*goredis.Client))
}
