package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/internal/testserver"
	"github.com/fonte-rag/fonte/retrieve"
)

// This file holds the store phase (-stores): the filtered phase's
// documents, labels and readers on the PostgreSQL and Redis stores, so
// that their restricted readers' recall and latency stand beside the
// embedded store's. The truth of their dense recall is the embedded
// index of the same size opened with the exact dense leg.

// storeLocationEnv carries the store phase's URL to its child: never in
// argv, which failure messages print, since a URL may hold a password.
const storeLocationEnv = "FONTE_SCALE_STORE"

var (
	storesFlag = flag.String("stores", "", "also run the filtered phase's readers on these stores, comma-separated: "+
		"postgres (native PostgreSQL of ../shared/postgres, or $"+testserver.PostgresURLEnv+"), "+
		"redis (Redis Query Engine, one node, of ../shared/redis, or $"+testserver.EnvRedisURL+"); needs -filters")
	storeQueries = flag.Int("store-queries", 50, "queries per retrieval mode and reader in the store phase (a restricted reader's search there scans tables)")
	storeDrop    = flag.Bool("store-drop", false, "internal: the store phase empties its collection at the end (a server this run did not start)")
)

// storeKind is a store -stores names: the variable naming a server of
// one's own, and testserver's starter.
type storeKind struct {
	id, name, env string
	start         func() (string, func(), error)
}

// storeKinds are the stores -stores names, in table order.
var storeKinds = []storeKind{
	{"postgres", "PostgreSQL (native)", testserver.PostgresURLEnv, testserver.StartPostgres},
	{"redis", "Redis Query Engine (one node)", testserver.EnvRedisURL, testserver.StartRedis},
}

// storeResult is what the store phase reports for one store.
type storeResult struct {
	Store   string  `json:"store"`
	Lexical string  `json:"lexical"` // how the store computes each leg (Store.Status)
	Dense   string  `json:"dense"`
	Chunks  int     `json:"chunks"`
	BuildS  float64 `json:"build_s"` // IndexDocuments of the labelled corpus, built-in embedding included
	// Filtered is the readers' figures, Filtered.PeakRSSMiB the client's
	// (the server's memory is not in it).
	Filtered filteredResult `json:"filtered"`
}

// storeServer is a server the parent runs the store phase against.
type storeServer struct {
	id, name, base string
	ours           bool // started by this run, its files removed when it stops
}

// storeServers parses -stores and starts (or finds in the environment)
// each server; stop stops those it started, also on an interrupt.
func storeServers(list string) (servers []storeServer, stop func(), err error) {
	var mu sync.Mutex
	var stops []func()
	stop = func() {
		mu.Lock()
		defer mu.Unlock()
		for _, s := range stops {
			s()
		}
		stops = nil
	}
	var ids []string
	for _, id := range strings.Split(list, ",") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		if !slices.ContainsFunc(storeKinds, func(k storeKind) bool { return k.id == id }) {
			return nil, stop, fmt.Errorf("-stores %q: want postgres or redis", id)
		}
	}
	if len(ids) == 0 {
		return nil, stop, nil
	}
	interrupted := make(chan os.Signal, 1)
	signal.Notify(interrupted, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-interrupted
		stop()
		os.Exit(130)
	}()
	for _, k := range storeKinds {
		if !slices.Contains(ids, k.id) {
			continue
		}
		t := time.Now()
		ours := os.Getenv(k.env) == ""
		u, st, err := k.start()
		if err != nil {
			return nil, stop, fmt.Errorf("starting %s: %w", k.name, err)
		}
		mu.Lock()
		stops = append(stops, st)
		mu.Unlock()
		if ours {
			fmt.Fprintf(os.Stderr, "started %s in %.1f s\n", k.name, time.Since(t).Seconds())
		}
		servers = append(servers, storeServer{id: k.id, name: k.name, base: u, ours: ours})
	}
	return servers, stop, nil
}

// collection returns the server's URL naming a collection of its own for
// a corpus of n chunks.
func (s storeServer) collection(n int) (string, error) {
	u, err := url.Parse(s.base)
	if err != nil {
		return "", fmt.Errorf("the %s URL does not parse", s.name)
	}
	q := u.Query()
	q.Set("collection", fmt.Sprintf("scale_%d_n%d", os.Getpid(), n))
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// storePhases runs the store phase of an n-chunk corpus on every server,
// in a child each, with the embedded index at dir as the truth.
func (r *sizeResult) storePhases(servers []storeServer, o options, dir string) error {
	for _, s := range servers {
		loc, err := s.collection(r.N)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%d chunks: %s, indexing and restricted readers (load %s)\n", r.N, s.name, loadavg())
		os.Setenv(storeLocationEnv, loc)
		res := storeResult{Store: s.name}
		err = r.phase("store-"+s.id, &res, &res.Filtered.PeakRSSMiB, "-n", fmt.Sprint(r.N), "-dir", dir, "-seed", fmt.Sprint(o.seed),
			"-filters", o.filters, "-filter-queries", fmt.Sprint(o.storeQueries), fmt.Sprintf("-store-drop=%t", !s.ours))
		os.Unsetenv(storeLocationEnv)
		if err != nil {
			return err
		}
		res.Store = s.name
		r.Stores = append(r.Stores, res)
	}
	return nil
}

// storePhase indexes the build phase's corpus, with the same labels, into
// the store $FONTE_SCALE_STORE names and runs the filtered phase's readers
// on it, against the embedded index at dir opened with the exact dense
// leg.
func storePhase(dir string, n int, seed uint64, nq int, percents []float64, drop bool) (storeResult, error) {
	ctx := context.Background()
	var res storeResult
	loc := os.Getenv(storeLocationEnv)
	if loc == "" {
		return res, fmt.Errorf("the store phase needs the store's URL in %s", storeLocationEnv)
	}
	if len(percents) == 0 {
		return res, fmt.Errorf("-stores needs -filters: the store phase measures restricted readers")
	}
	c := corpus(seed)
	docs := documents(c, n)
	labelDocuments(docs, seed, percents)
	s := engine.Settings{Store: loc, Embedder: c.Embedder()}
	rep, took, err := indexInto(ctx, s, docs)
	if err != nil {
		return res, err
	}
	res.Chunks, res.BuildS = rep.Chunks, took
	if drop {
		defer func() {
			if err := emptyStore(context.WithoutCancel(ctx), s); err != nil {
				fmt.Fprintln(os.Stderr, "fonte-scale: emptying the store's collection:", err)
			}
		}()
	}
	e, err := engine.Open(ctx, s, engine.OpenOptions{ReadOnly: true})
	if err != nil {
		return res, err
	}
	defer e.Close()
	st, err := e.Store().Status(ctx)
	if err != nil {
		return res, err
	}
	res.Lexical, res.Dense = st.Lexical, st.Dense
	exact, err := engine.Open(ctx, engine.Settings{IndexDir: dir, Embedder: c.Embedder(), DenseIndex: retrieve.DenseExact}, engine.OpenOptions{ReadOnly: true})
	if err != nil {
		return res, fmt.Errorf("the embedded index of the truth: %w", err)
	}
	defer exact.Close()
	res.Filtered.Queries = nq
	res.Filtered.Readers, err = measureReaders(ctx, e, exact, seed, nq, percents)
	return res, err
}

// emptyStore removes every document of the collection s names and the
// bytes they left (Purge), on a server this run did not start.
func emptyStore(ctx context.Context, s engine.Settings) error {
	e, err := engine.Open(ctx, s, engine.OpenOptions{})
	if err != nil {
		return err
	}
	if _, err = e.IndexDocuments(ctx, nil, true, nil); err == nil {
		err = e.Store().Purge(ctx)
	}
	if cerr := e.Close(); err == nil {
		err = cerr
	}
	return err
}

// printStores prints each store's readers as the embedded store's are
// printed, after a line on how the store computes each leg.
func printStores(r sizeResult) {
	for _, s := range r.Stores {
		fmt.Printf("\nRestricted readers at %d chunks on %s (%d chunks indexed in %.1f s; lexical leg %s; dense leg %s; %d queries per mode and reader; recall against the embedded index's exact dense leg):\n\n",
			r.Build.Chunks, s.Store, s.Chunks, s.BuildS, s.Lexical, s.Dense, s.Filtered.Queries)
		printReaders(r, &s.Filtered)
	}
}
