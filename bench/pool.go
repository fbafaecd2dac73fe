package main

// What the connection pool's size does on a PostgreSQL server with a
// backend per connection: the stores worker searches one collection from
// many goroutines at once through pools of a few sizes.

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	fonteengine "github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/retrieve"
)

// poolSizes are the pgxpool sizes (pool_max_conns) the worker tries.
var poolSizes = []int{1, 4, 16}

// poolClients is how many goroutines search at once, each one query at a
// time, as a server's request handlers would.
const poolClients = 16

// poolRows are the stores part's rows for the pool sizes.
func poolRows() []row {
	var rows []row
	for _, n := range poolSizes {
		rows = append(rows,
			row{label: fmt.Sprintf("searches/s, %d clients at once, pool_max_conns=%d (native PostgreSQL)", poolClients, n), mode: "run", key: fmt.Sprintf("pool%d_qps", n), format: "%.0f", better: "higher"},
			row{label: fmt.Sprintf("search latency p50, ms, %d clients, pool_max_conns=%d", poolClients, n), mode: "run", key: fmt.Sprintf("pool%d_p50_ms", n), format: "%.1f", better: "lower"},
			row{label: fmt.Sprintf("search latency p99, ms, %d clients, pool_max_conns=%d", poolClients, n), mode: "run", key: fmt.Sprintf("pool%d_p99_ms", n), format: "%.1f", better: "lower"})
	}
	return rows
}

// measurePools opens the collection at location (a postgres:// URL) read
// only once per pool size and runs every query once (hybrid, top 10) from
// poolClients goroutines, printing the searches per second and each
// search's p50 and p99 latency (its wait for a connection included).
func measurePools(ctx context.Context, location string, queries []eval.Query) error {
	for _, n := range poolSizes {
		u, err := url.Parse(location)
		if err != nil {
			return fmt.Errorf("the PostgreSQL URL does not parse")
		}
		q := u.Query()
		q.Set("pool_max_conns", fmt.Sprint(n))
		u.RawQuery = q.Encode()
		e, err := fonteengine.Open(ctx, fonteengine.Settings{Store: u.String()}, fonteengine.OpenOptions{ReadOnly: true})
		if err != nil {
			return fmt.Errorf("pool_max_conns=%d: %w", n, err)
		}
		lat, took, err := searchAtOnce(ctx, e, queries)
		e.Close()
		if err != nil {
			return fmt.Errorf("pool_max_conns=%d: %w", n, err)
		}
		slices.Sort(lat)
		fmt.Printf("pool%d_qps %.1f\npool%d_p50_ms %.3f\npool%d_p99_ms %.3f\n",
			n, float64(len(lat))/took.Seconds(), n, percentile(lat, 0.50), n, percentile(lat, 0.99))
	}
	return nil
}

// searchAtOnce runs every query once from poolClients goroutines and
// returns each search's latency in milliseconds and the wall time.
func searchAtOnce(ctx context.Context, e *fonteengine.Engine, queries []eval.Query) ([]float64, time.Duration, error) {
	var next atomic.Int64
	lat := make([]float64, len(queries))
	errs := make([]error, poolClients)
	var wg sync.WaitGroup
	start := time.Now()
	for c := range poolClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(queries) {
					return
				}
				t0 := time.Now()
				if _, err := e.Search(ctx, queries[i].Text, fonteengine.SearchOptions{K: 10, Mode: retrieve.Hybrid, Lang: "en"}); err != nil {
					errs[c] = fmt.Errorf("query %s: %w", queries[i].ID, err)
					return
				}
				lat[i] = float64(time.Since(t0).Microseconds()) / 1e3
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	for _, err := range errs {
		if err != nil {
			return nil, 0, err
		}
	}
	return lat, took, nil
}
