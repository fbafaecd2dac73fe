package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/retrieve"
)

// hitsKey is a search's hits as comparable text: every chunk, score,
// relevance and leg, in order.
func hitsKey(hits []fonte.Hit) string {
	var s string
	for _, h := range hits {
		s += fmt.Sprintf("%s %v %v %+v\n", h.Chunk.ID, h.Score, h.Relevance, h.Legs)
	}
	return s
}

// TestSearchesTakingTurns: many more concurrent searches than processors,
// hybrid ones included (whose dense leg runs on a goroutine of its own
// within the search's turn, internal/admit), all finish, and each returns
// exactly what the same search returns alone.
func TestSearchesTakingTurns(t *testing.T) {
	ctx := context.Background()
	e, qs := handbook(t)
	modes := []retrieve.Mode{retrieve.BM25, retrieve.Dense, retrieve.Hybrid}
	want := map[string]string{}
	for _, q := range qs {
		for _, m := range modes {
			hits, err := e.Search(ctx, q.Question, SearchOptions{K: 10, Mode: m})
			if err != nil {
				t.Fatal(err)
			}
			want[string(m)+" "+q.Question] = hitsKey(hits)
		}
	}
	var wg sync.WaitGroup
	for g := range 4 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range qs {
				q := qs[(i+g)%len(qs)].Question
				m := modes[(i+g)%len(modes)]
				hits, err := e.Search(ctx, q, SearchOptions{K: 10, Mode: m})
				if err != nil {
					t.Error(err)
					return
				}
				if got := hitsKey(hits); got != want[string(m)+" "+q] {
					t.Errorf("%s %q beside other searches:\n%s\nalone:\n%s", m, q, got, want[string(m)+" "+q])
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestSearchCancelledWaiting: a search whose context has ended returns its
// error rather than taking a turn.
func TestSearchCancelledWaiting(t *testing.T) {
	e, _ := handbook(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Search(ctx, "how many days of holiday", SearchOptions{Mode: retrieve.BM25}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled search returned %v, want context.Canceled", err)
	}
}
