package redis

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
)

// liveVersions maps each live document to its version.
func liveVersions(t *testing.T, s *Store) map[string]uint64 {
	t.Helper()
	st, err := s.load(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]uint64{}
	for id, e := range st.docs {
		out[id] = e.V
	}
	return out
}

// assertOnlyLive fails if any chunk, document or posting of a version
// that is not live is left, or any version is pending.
func assertOnlyLive(t *testing.T, s *Store) {
	t.Helper()
	live := map[uint64]bool{}
	for _, v := range liveVersions(t, s) {
		live[v] = true
	}
	for _, key := range collectionKeys(t, s) {
		if ver, _, ok := s.k.parseDataKey(key); ok && !live[ver] {
			t.Fatalf("key %s of a version that is not live", key)
		}
	}
	for _, f := range postingFields(t, s) {
		v, _, _ := strings.Cut(f[strings.LastIndexByte(f, '/')+1:], ".")
		ver, err := parseVer(v)
		if err != nil || !live[ver] {
			t.Fatalf("posting %s of a version that is not live", f)
		}
	}
	if n, err := s.rdb.HLen(ctxT(t), s.k.pending()).Result(); err != nil || n != 0 {
		t.Fatalf("%d versions pending (%v)", n, err)
	}
}

func TestFailedUpdateLeavesNothing(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		s := open(t, url, newCollection(t), fonte.StoreOptions{Settings: testSettings})
		put(t, s, genDoc("keep/a", 2, 8, 1), genDoc("keep/b", 3, 8, 2))
		before, _ := s.Status(ctxT(t))
		versions := liveVersions(t, s)
		boom := errors.New("boom")
		err := s.Update(ctxT(t), func(tx fonte.StoreTx) error {
			for i := range 5 {
				if err := tx.Put(ctxT(t), genDoc(fmt.Sprintf("new/%d", i), 3, 8, uint64(10+i))); err != nil {
					return err
				}
			}
			if err := tx.Put(ctxT(t), genDoc("keep/a", 4, 8, 99)); err != nil {
				return err
			}
			if _, err := tx.Delete(ctxT(t), "keep/b"); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Update = %v, want fn's error", err)
		}
		after, _ := s.Status(ctxT(t))
		if after.Generation != before.Generation || after.Documents != 2 || after.Chunks != 5 {
			t.Fatalf("a failed Update changed the store: %+v → %+v", before, after)
		}
		if got := liveVersions(t, s); !mapsEqual(got, versions) {
			t.Fatalf("live versions %v, want %v", got, versions)
		}
		assertOnlyLive(t, s)
		// A cancelled context is a failure too.
		ctx, cancel := context.WithCancel(ctxT(t))
		err = s.Update(ctx, func(tx fonte.StoreTx) error {
			err := tx.Put(ctx, genDoc("new/cancelled", 1, 8, 5))
			cancel()
			return err
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Update with a cancelled context = %v", err)
		}
		assertOnlyLive(t, s)
		// A Put after the function returned is refused.
		var leaked fonte.StoreTx
		put(t, s) // an empty commit changes nothing
		if err := s.Update(ctxT(t), func(tx fonte.StoreTx) error { leaked = tx; return nil }); err != nil {
			t.Fatal(err)
		}
		if err := leaked.Put(ctxT(t), genDoc("late", 1, 8, 1)); !errors.Is(err, ErrTxDone) {
			t.Fatalf("Put after the transaction = %v", err)
		}
		if st, _ := s.Status(ctxT(t)); st.Generation != before.Generation {
			t.Fatalf("commits that change nothing moved the generation to %d", st.Generation)
		}
	})
}

func mapsEqual[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestCommitVisibleWhole replaces every document in each commit while
// readers check that each answer is one generation's: every chunk they
// get carries the same batch marker, and there are all of them.
func TestCommitVisibleWhole(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		coll := newCollection(t)
		w := open(t, url, coll, fonte.StoreOptions{Settings: testSettings})
		r := open(t, url, coll, fonte.StoreOptions{ReadOnly: true})
		c := batches{docs: 12, chunksPer: 3}
		const commits = 6
		if err := c.commit(ctxT(t), w, 0); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		var wg sync.WaitGroup
		var checks [3]int
		var mu sync.Mutex
		fail := func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			t.Errorf(format, args...)
		}
		for g := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-done:
						return
					default:
					}
					ctx := context.Background()
					var err error
					switch g {
					case 0:
						var hits []fonte.ScoredChunk
						if hits, err = r.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{"everywhere"}, K: 1000}); err == nil {
							_, err = c.batchOf(hits)
						}
					case 1:
						var hits []fonte.ScoredChunk
						if hits, err = r.VectorTopK(ctx, fonte.VectorQuery{Vector: []float32{1, 0, 0, 0, 0, 0, 0, 0}, K: 1000}); err == nil {
							_, err = c.batchOf(hits)
						}
					case 2:
						var ts fonte.TermStats
						if ts, err = r.TermStats(ctx, termsUpTo(commits), fonte.Filter{}); err == nil {
							_, err = c.statsBatch(ts)
						}
					}
					if err != nil {
						fail("reader %d: %v", g, err)
						return
					}
					mu.Lock()
					checks[g]++
					mu.Unlock()
				}
			}()
		}
		for b := 1; b <= commits; b++ {
			if err := c.commit(ctxT(t), w, b); err != nil {
				t.Fatal(err)
			}
		}
		close(done)
		wg.Wait()
		t.Logf("reads checked during %d commits: lexical %d, vector %d, term stats %d", commits, checks[0], checks[1], checks[2])
		assertOnlyLive(t, w)
	})
}

func TestIncremental(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		s := open(t, url, newCollection(t), fonte.StoreOptions{Settings: testSettings})
		a, b, c := genDoc("a", 2, 8, 1), genDoc("b", 3, 8, 2), genDoc("c", 1, 8, 3)
		put(t, s, a, b, c)
		v1 := liveVersions(t, s)
		b2 := genDoc("b", 2, 8, 22)
		b2.TextHashes[0] = a.TextHashes[1] // a text embedded before: the cache has it
		err := s.Update(ctxT(t), func(tx fonte.StoreTx) error {
			base, err := tx.Base(ctxT(t))
			if err != nil {
				return err
			}
			if len(base) != 3 || base[0].ID != "a" || base[1].ID != "b" || base[2].ID != "c" || base[1].Chunks != 3 || base[1].SHA256 != b.Doc.SHA256 {
				t.Errorf("Base = %+v", base)
			}
			vecs, err := tx.Vectors(ctxT(t), []string{a.TextHashes[1], "unknown", c.TextHashes[0], a.TextHashes[1]})
			if err != nil {
				return err
			}
			if !slices.Equal(vecs[0], a.Vectors[1]) || vecs[1] != nil || !slices.Equal(vecs[2], c.Vectors[0]) || !slices.Equal(vecs[3], a.Vectors[1]) {
				t.Errorf("Vectors = %v", vecs)
			}
			if was, err := tx.Delete(ctxT(t), "nope"); was || err != nil {
				t.Errorf("Delete of an absent document = %v, %v", was, err)
			}
			return tx.Put(ctxT(t), b2)
		})
		if err != nil {
			t.Fatal(err)
		}
		v2 := liveVersions(t, s)
		if v2["a"] != v1["a"] || v2["c"] != v1["c"] || v2["b"] == v1["b"] {
			t.Fatalf("versions %v → %v: only b should change", v1, v2)
		}
		got, err := s.Document(ctxT(t), "b")
		if err != nil || len(got.Chunks) != 2 || got.Doc.SHA256 != b2.Doc.SHA256 {
			t.Fatalf("b after its update: %d chunks, %v", len(got.Chunks), err)
		}
		if st, _ := s.Status(ctxT(t)); st.Generation != 2 || st.Chunks != 5 || st.Documents != 3 {
			t.Fatalf("Status = %+v", st)
		}
		assertOnlyLive(t, s)
		// Put then Delete in one transaction, and Delete then Put.
		err = s.Update(ctxT(t), func(tx fonte.StoreTx) error {
			tx.Put(ctxT(t), genDoc("d", 1, 8, 4))
			if was, _ := tx.Delete(ctxT(t), "d"); !was {
				t.Error("Delete of a document put in the transaction said it was not there")
			}
			if was, _ := tx.Delete(ctxT(t), "a"); !was {
				t.Error("Delete of a base document said it was not there")
			}
			if was, _ := tx.Delete(ctxT(t), "a"); was {
				t.Error("a second Delete said it was there")
			}
			tx.Delete(ctxT(t), "c")
			return tx.Put(ctxT(t), genDoc("c", 2, 8, 33))
		})
		if err != nil {
			t.Fatal(err)
		}
		docs, _ := s.Documents(ctxT(t))
		if len(docs) != 2 || docs[0].ID != "b" || docs[1].ID != "c" || docs[1].Chunks != 2 {
			t.Fatalf("Documents = %+v", docs)
		}
		assertOnlyLive(t, s)
	})
}

func TestDeletePurge(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		s := open(t, url, newCollection(t), fonte.StoreOptions{Settings: testSettings})
		gone := genDoc("gone/doc", 4, 8, 1)
		for i := range gone.Terms {
			gone.Terms[i] = append(gone.Terms[i], "zanzibarite")
		}
		put(t, s, gone, genDoc("kept", 2, 8, 2))
		ver := liveVersions(t, s)["gone/doc"]
		err := s.Update(ctxT(t), func(tx fonte.StoreTx) error {
			_, err := tx.Delete(ctxT(t), "gone/doc")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		// What a crashed writer leaves: a registered version with keys, a
		// stray chunk of an unknown version, an index nobody queries.
		d, err := prepare(genDoc("crashed", 3, 8, 3), 8)
		if err != nil {
			t.Fatal(err)
		}
		v, err := registerScript.Run(ctxT(t), s.rdb, []string{s.k.meta(), s.k.pending()}, metaSeq, 3).Uint64()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.writeVersion(ctxT(t), v, d); err != nil {
			t.Fatal(err)
		}
		stray := s.k.chunk(v+1000, 0)
		if err := s.rdb.HSet(ctxT(t), stray, fTerms, "zanzibarite w01", fDoc, "stray").Err(); err != nil {
			t.Fatal(err)
		}
		s.rdb.HSet(ctxT(t), s.k.term("zanzibarite"), postingField(v+1000, 0), postingValue(1, 2))
		if err := s.createIndex(ctxT(t), s.k.index(999), 8, denseFlat); err != nil {
			t.Fatal(err)
		}
		if res, _ := s.LexicalTopK(ctxT(t), fonte.LexicalQuery{Terms: []string{"zanzibarite"}, K: 10}); len(res) != 0 {
			t.Fatalf("deleted or uncommitted chunks are searchable: %v", hitsOf(res))
		}
		if err := s.Purge(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		assertOnlyLive(t, s)
		for _, key := range collectionKeys(t, s) {
			if v, _, ok := s.k.parseDataKey(key); ok && v == ver || strings.Contains(key, "zanzibarite") {
				t.Fatalf("key %s of the deleted document is left", key)
			}
		}
		if idx, _ := s.listIndexes(ctxT(t)); len(idx) != 1 {
			t.Fatalf("indexes after Purge: %v", idx)
		}
		if docs, _ := s.Documents(ctxT(t)); len(docs) != 1 || docs[0].ID != "kept" {
			t.Fatalf("Documents = %v", docs)
		}
	})
}

func TestConcurrentWriters(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		coll := newCollection(t)
		s1 := open(t, url, coll, fonte.StoreOptions{Settings: testSettings})
		s2 := open(t, url, coll, fonte.StoreOptions{Settings: testSettings})
		var wg sync.WaitGroup
		errs := make(chan error, 20)
		for w, s := range []*Store{s1, s2, s1} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 4 {
					errs <- s.Update(context.Background(), func(tx fonte.StoreTx) error {
						return tx.Put(context.Background(), genDoc(fmt.Sprintf("w%d-%d", w, i), 2, 8, uint64(10*w+i)))
					})
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		// Puts from several goroutines of one transaction.
		err := s2.Update(ctxT(t), func(tx fonte.StoreTx) error {
			errs := make(chan error, 8)
			for i := range 8 {
				go func() { errs <- tx.Put(ctxT(t), genDoc(fmt.Sprintf("par-%d", i), 3, 8, uint64(500+i))) }()
			}
			for range 8 {
				if err := <-errs; err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		st, _ := s2.Status(ctxT(t))
		if st.Generation != 13 || st.Documents != 20 || st.Chunks != 48 {
			t.Fatalf("Status after 13 commits = %+v", st)
		}
		assertOnlyLive(t, s1)

		// A writer that cannot get the lock in time gives up with ErrLocked.
		s3 := open(t, url, coll, fonte.StoreOptions{Settings: testSettings}, "lock_timeout=200ms")
		hold, release := make(chan struct{}), make(chan struct{})
		go s1.Update(context.Background(), func(tx fonte.StoreTx) error {
			close(hold)
			<-release
			return errors.New("released")
		})
		<-hold
		start := time.Now()
		err = s3.Update(ctxT(t), func(tx fonte.StoreTx) error { return nil })
		close(release)
		if !errors.Is(err, ErrLocked) || time.Since(start) > 5*time.Second {
			t.Fatalf("Update while another writer holds the lock = %v after %v", err, time.Since(start))
		}
	})
}

// TestManyReadersTwoWriters runs 32 readers (over two Stores, as two
// server processes would) while two writers (two more Stores) each
// commit five read-modify-write updates of one collection: every answer
// is one generation's, whole, and no update is lost (each commit reads
// the batch it starts from and writes the next, so the last batch is the
// number of commits).
func TestManyReadersTwoWriters(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		coll := newCollection(t)
		c := batches{docs: 12, chunksPer: 3}
		w1 := open(t, url, coll, fonte.StoreOptions{Settings: testSettings})
		w2 := open(t, url, coll, fonte.StoreOptions{Settings: testSettings})
		readers := []*Store{open(t, url, coll, fonte.StoreOptions{ReadOnly: true}), open(t, url, coll, fonte.StoreOptions{ReadOnly: true})}
		if _, err := c.commitNext(ctxT(t), w1); err != nil {
			t.Fatal(err)
		}
		const perWriter, goroutines = 5, 32
		done := make(chan struct{})
		var reads atomic.Int64
		var wg sync.WaitGroup
		errs := make(chan error, goroutines+2)
		for g := range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-done:
						return
					default:
					}
					if _, _, _, err := c.everyLeg(context.Background(), readers[g%2], 2*perWriter); err != nil {
						errs <- fmt.Errorf("reader %d: %w", g, err)
						return
					}
					reads.Add(1)
				}
			}()
		}
		var writers sync.WaitGroup
		for _, w := range []*Store{w1, w2} {
			writers.Add(1)
			go func() {
				defer writers.Done()
				for range perWriter {
					if _, err := c.commitNext(context.Background(), w); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		writers.Wait()
		close(done)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		st, err := readers[0].Status(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		lex, dense, stats, err := c.everyLeg(ctxT(t), readers[1], 2*perWriter)
		if err != nil || st.Generation != 1+2*perWriter || lex != 2*perWriter || dense != lex || stats != lex {
			t.Fatalf("after %d commits: generation %d, batches %d, %d, %d (%v); want generation %d, batch %d",
				2*perWriter, st.Generation, lex, dense, stats, err, 1+2*perWriter, 2*perWriter)
		}
		t.Logf("%d whole reads by %d goroutines during %d commits of two writers", reads.Load(), goroutines, 2*perWriter)
		assertOnlyLive(t, w1)
	})
}

// TestLockFair has one writer commit in a loop, taking the lock again as
// soon as it released it, while a second writer waits with a lock
// timeout a few of those commits long: the waiting writer gets its turn
// (the lock goes to the longest-waiting writer) instead of giving up with
// ErrLocked.
func TestLockFair(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		coll := newCollection(t)
		busy := open(t, url, coll, fonte.StoreOptions{Settings: testSettings})
		waiting := open(t, url, coll, fonte.StoreOptions{Settings: testSettings}, "lock_timeout=1500ms")
		put(t, busy, genDoc("first", 1, 8, 1))
		stop := make(chan struct{})
		loops := make(chan int)
		go func() {
			n := 0
			defer func() { loops <- n }()
			for {
				select {
				case <-stop:
					return
				default:
				}
				err := busy.Update(context.Background(), func(tx fonte.StoreTx) error {
					time.Sleep(300 * time.Millisecond) // a commit that takes a while
					return tx.Put(context.Background(), genDoc(fmt.Sprintf("busy-%d", n), 1, 8, uint64(10+n)))
				})
				if err != nil {
					t.Error(err)
					return
				}
				n++
			}
		}()
		time.Sleep(100 * time.Millisecond) // the busy writer holds the lock
		start := time.Now()
		err := waiting.Update(ctxT(t), func(tx fonte.StoreTx) error {
			return tx.Put(ctxT(t), genDoc("waited", 1, 8, 2))
		})
		close(stop)
		n := <-loops
		if err != nil {
			t.Fatalf("the waiting writer, after %v (the busy one committed %d times): %v", time.Since(start), n, err)
		}
		t.Logf("the waiting writer committed after %v", time.Since(start).Round(time.Millisecond))
	})
}
