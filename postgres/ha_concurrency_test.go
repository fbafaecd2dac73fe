package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
)

// TestConcurrentWritersAndReaders runs what several `fonte serve`
// processes with pools of 16 do on one collection of a native server:
// four stores (four pools, as four processes) opened at once on a
// collection that does not exist yet, 24 writers each committing four
// read-modify-write transactions (read a counter document from the base,
// put it back incremented, add a document of their own), and 16 readers
// checking every commit is whole meanwhile. No update is lost (the
// counter ends at the number of commits, every document is there, one
// generation per commit), none deadlocks (the test's deadline), and no
// read sees half a commit.
func TestConcurrentWritersAndReaders(t *testing.T) {
	primary := startNative(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	u := withParams(t, primary.URL, "collection", "busy", "pool_max_conns", "16")
	const processes, writersPer, commitsPer, readers = 4, 6, 4, 16
	stores := make([]*Store, processes)
	var opening sync.WaitGroup
	for i := range stores {
		opening.Add(1)
		go func() {
			defer opening.Done()
			s, err := Open(ctx, u, fonte.StoreOptions{Settings: testSettings})
			if err != nil {
				t.Errorf("opening store %d at once with the others: %v", i, err)
				return
			}
			stores[i] = s
		}()
	}
	opening.Wait()
	for _, s := range stores {
		if s != nil {
			t.Cleanup(func() { s.Close() })
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	// Each found or made the BM25 index, none fell back to full-text
	// search because another made it first.
	for i, s := range stores {
		if lex := status(t, s).Lexical; !strings.HasPrefix(lex, "pg_textsearch") {
			t.Errorf("store %d opened at once with the others searches with %s", i, lex)
		}
	}
	put(t, stores[0], counterRecord(0))

	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, processes*writersPer+readers)
	for r := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := stores[r%processes]
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := countsAgree(ctx, s); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var writers sync.WaitGroup
	for w := range processes * writersPer {
		writers.Add(1)
		go func() {
			defer writers.Done()
			s := stores[w%processes]
			for c := range commitsPer {
				if err := incrementAndAdd(ctx, s, fmt.Sprintf("w%02d-%d", w, c)); err != nil {
					errs <- fmt.Errorf("writer %d, commit %d: %w", w, c, err)
					return
				}
			}
		}()
	}
	writers.Wait()
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	const commits = processes * writersPer * commitsPer
	docs, err := stores[1].Documents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n, added := counterOf(docs)
	if n != commits || added != commits {
		t.Errorf("after %d commits: the counter is %d and %d documents were added; an update was lost", commits, n, added)
	}
	if st := status(t, stores[2]); st.Generation != commits+1 || st.Documents != commits+1 {
		t.Errorf("status after %d commits: generation %d, %d documents; want %d and %d", commits, st.Generation, st.Documents, commits+1, commits+1)
	}
}

// counterRecord is the counter document at n.
func counterRecord(n int) fonte.Record {
	r := record("counter", testSettings.Dim, "counter value "+strconv.Itoa(n))
	r.Meta = map[string]string{"n": strconv.Itoa(n)}
	return r
}

// counterOf reads the counter from a document list and counts the other
// documents.
func counterOf(docs []fonte.DocInfo) (n, others int) {
	n = -1
	for _, d := range docs {
		if d.ID == "counter" {
			n, _ = strconv.Atoi(d.Meta["n"])
		} else {
			others++
		}
	}
	return n, others
}

// incrementAndAdd is one read-modify-write commit: the counter read from
// the transaction's base, written back plus one, and a new document id.
func incrementAndAdd(ctx context.Context, s *Store, id string) error {
	return s.Update(ctx, func(tx fonte.StoreTx) error {
		base, err := tx.Base(ctx)
		if err != nil {
			return err
		}
		n, _ := counterOf(base)
		if n < 0 {
			return fmt.Errorf("the base has no counter")
		}
		if err := tx.Put(ctx, counterRecord(n+1)); err != nil {
			return err
		}
		return tx.Put(ctx, record(id, testSettings.Dim, "wdoc "+strings.ReplaceAll(id, "-", " ")))
	})
}

// countsAgree checks that one read of the documents, and one of the term
// statistics, each see a whole commit: the counter equals the documents
// added, and every chunk but the counter's holds "wdoc".
func countsAgree(ctx context.Context, s *Store) error {
	docs, err := s.Documents(ctx)
	if err != nil {
		return err
	}
	if n, added := counterOf(docs); n != added {
		return fmt.Errorf("one read of the documents: counter %d, %d documents added", n, added)
	}
	st, err := s.TermStats(ctx, []string{"wdoc", "counter"}, fonte.Filter{})
	if err != nil {
		return err
	}
	if st.DF[1] != 1 || st.DF[0] != st.Chunks-1 {
		return fmt.Errorf("one read of the term statistics: %d chunks, df(wdoc) %d, df(counter) %d", st.Chunks, st.DF[0], st.DF[1])
	}
	return nil
}
