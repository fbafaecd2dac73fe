package main

// The stores part: one SciFact index on every store fonte opens by
// location (the embedded folder, PostgreSQL, Redis, a Redis Cluster),
// through engine.Open as a user would, so that moving an index shows its
// costs: indexing throughput (with the built-in embedder, and with the
// vectors precomputed, the store's own part), search latency, the dense
// leg's recall against the embedded store's exact top 10, the quality of
// each retriever, the worker's peak memory and the store's size.
//
// The servers are started once per invocation by internal/testserver (or
// named by the FONTE_TEST_*_URL variables) and stopped at the end. Each
// run of a backend is one worker process with the store's URL in its
// environment (never in argv, which goes to raw.log and to failure
// messages, since a URL may hold a password).

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	goredis "github.com/redis/go-redis/v9"

	"github.com/fonte-rag/fonte"
	fonteengine "github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/internal/testserver"
	"github.com/fonte-rag/fonte/retrieve"
)

// storeLocationEnv carries a worker's store location (a folder or a URL).
const storeLocationEnv = "FONTE_BENCH_STORE"

// storeBackends are the backends of the part, in table order; the first
// is the reference the others are compared with.
var storeBackends = []struct {
	id, name string
	env      string                         // the variable naming a server of one's own
	start    func() (string, func(), error) // testserver's starter; nil for the folder
	install  string                         // what to install when it cannot start
}{
	{id: "disk", name: "embedded (folder)"},
	{id: "postgres", name: "PostgreSQL", env: "FONTE_TEST_POSTGRES_URL", start: testserver.StartPostgres,
		install: "../shared/postgres beside the repository (native PostgreSQL 18 with pgvector and pg_textsearch; FONTE_TEST_POSTGRES_HOME names another tree), or set FONTE_TEST_POSTGRES_URL to a PostgreSQL with pgvector"},
	{id: "pglite", name: "PostgreSQL on PGlite", start: testserver.StartPGlite,
		install: "Node.js 20+ and `npm ci` in internal/testserver/pglite (PGlite with pgvector and pg_textsearch)"},
	{id: "redis", name: "Redis", env: "FONTE_TEST_REDIS_URL", start: testserver.StartRedis,
		install: "apt-get update && apt-get install -y redis-server redis-tools (the Query Engine module is ../shared/redis), or set FONTE_TEST_REDIS_URL"},
	{id: "redis-cluster", name: "Redis Cluster", env: "FONTE_TEST_REDIS_CLUSTER_URL", start: testserver.StartRedisCluster,
		install: "apt-get update && apt-get install -y redis-server redis-tools (the cluster module is ../shared/redis), or set FONTE_TEST_REDIS_CLUSTER_URL"},
}

// storeModes are the retrievers whose quality the part measures; the
// worker prints each measure as mode_measure.
var storeModes = []retrieve.Mode{retrieve.BM25, retrieve.Dense, retrieve.Hybrid}

// startStoreServers starts (or finds in the environment) the server of
// every backend asked for and returns each backend's base location, or
// why it is missing. The servers stop with b.stopServers, also on an
// interrupt.
func (b *bench) startStoreServers(ids []string) (loc, missing, name map[string]string) {
	loc, missing, name = map[string]string{}, map[string]string{}, map[string]string{}
	interrupted := make(chan os.Signal, 1)
	signal.Notify(interrupted, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-interrupted
		b.stopServers()
		os.Exit(130)
	}()
	// testserver looks for ../shared/redis beside the first go.mod above
	// the working directory, which from bench/ is bench's own.
	if os.Getenv(testserver.EnvRedisQEDir) == "" {
		if dir, err := filepath.Abs(b.cfg.redisQE); err == nil {
			os.Setenv(testserver.EnvRedisQEDir, dir)
		}
	}
	for _, s := range storeBackends {
		if !slices.Contains(ids, s.id) {
			continue
		}
		name[s.id] = s.name
		if s.start == nil {
			loc[s.id] = filepath.Join(b.work, "stores")
			continue
		}
		if u := os.Getenv(s.env); s.env != "" && u != "" {
			loc[s.id] = u
			b.logf("stores: %s from %s", s.name, s.env)
			continue
		}
		t := time.Now()
		u, stop, err := s.start()
		if err != nil {
			missing[s.id] = fmt.Sprintf("%s; install: %s", firstLine(err.Error(), err), s.install)
			b.logf("MISSING %s: %s", s.name, missing[s.id])
			continue
		}
		b.mu.Lock()
		b.stops = append(b.stops, stop)
		b.mu.Unlock()
		loc[s.id] = u
		b.logf("stores: started %s in %.1f s", s.name, time.Since(t).Seconds())
	}
	return loc, missing, name
}

// stopServers stops the servers this invocation started, once.
func (b *bench) stopServers() {
	b.mu.Lock()
	stops := b.stops
	b.stops = nil
	b.mu.Unlock()
	for _, stop := range stops {
		stop()
	}
}

// storesPart lays out the part: one engine per backend, each run a worker
// that indexes SciFact into fresh collections, searches and measures.
func (b *bench) storesPart(scifact, truth string, ids []string) *part {
	c := b.cfg
	loc, missing, name := b.startStoreServers(ids)
	p := &part{id: "stores", title: "stores", phases: []phase{{"run", "run", c.storeRuns}}}
	for _, s := range storeBackends {
		if !slices.Contains(ids, s.id) {
			continue
		}
		args := []string{"stores", "-backend", s.id, "-scifact", scifact, "-truth", truth, "-queries", strconv.Itoa(c.storeQueries)}
		e := b.goEngine(s.id, name[s.id], false, func(string) []string { return args })
		e.env = append(e.env, storeLocationEnv+"="+loc[s.id])
		e.missing = missing[s.id]
		p.engines = append(p.engines, e)
	}
	p.rows = []row{
		{label: "index, chunks/s (built-in embedder, embedding included)", mode: "run", key: "index_cps", format: "%.0f", better: "higher"},
		{label: "index, s (embedding included)", mode: "run", key: "index_s", format: "%.2f", better: "lower"},
		{label: "embedding alone, s (inside the run above)", mode: "run", key: "embed_s", format: "%.2f", better: "lower"},
		{label: "index, chunks/s, vectors precomputed (the store's part)", mode: "run", key: "commit_cps", format: "%.0f", better: "higher"},
		{label: "index, s, vectors precomputed", mode: "run", key: "commit_s", format: "%.2f", better: "lower"},
		{label: "first search after indexing, ms", mode: "run", key: "first_ms", format: "%.1f", better: "lower"},
		{label: "search latency p50, ms (hybrid, top 10)", mode: "run", key: "p50_ms", format: "%.2f", better: "lower"},
		{label: "search latency p99, ms (hybrid, top 10)", mode: "run", key: "p99_ms", format: "%.2f", better: "lower"},
		{label: "dense leg recall@10 vs the embedded store's exact top 10", mode: "run", key: "dense_recall10", format: "%.4f", better: "higher"},
	}
	for _, m := range storeModes {
		p.rows = append(p.rows, row{label: fmt.Sprintf("nDCG@10, %s", m), mode: "run", key: string(m) + "_ndcg10", format: "%.4f", better: "higher"})
	}
	for _, m := range storeModes {
		p.rows = append(p.rows, row{label: fmt.Sprintf("recall@100, %s", m), mode: "run", key: string(m) + "_recall100", format: "%.4f", better: "higher"})
	}
	for _, m := range storeModes {
		p.rows = append(p.rows, row{label: fmt.Sprintf("nDCG@10, %s, minus the embedded store's", m), mode: "run", key: string(m) + "_ndcg10_diff", format: "%+.4f", better: "≈ 0"})
	}
	p.rows = append(p.rows,
		row{label: "worker peak RSS, MB", mode: "run", key: "peak_rss_bytes", scale: 1e-6, format: "%.0f", better: "lower"},
		row{label: "store size, MB (see below)", mode: "run", key: "size_bytes", scale: 1e-6, format: "%.1f", better: "lower"},
	)
	p.rows = append(p.rows, poolRows()...)
	q := "the 300 test queries"
	if c.storeQueries > 0 {
		q = fmt.Sprintf("the first %d test queries (by id)", c.storeQueries)
	}
	p.notes = []string{
		fmt.Sprintf("BEIR SciFact, 5,183 abstracts indexed whole (one chunk each, `engine.IndexDocuments`, as `fonte eval --beir` does), %s, "+
			"through `engine.Open` with the default settings (built-in n-gram embedder, hybrid retriever, top 10). "+
			"Each run is one worker process per backend: it indexes the corpus into a fresh collection with the built-in embedder (the time of its `Embed` calls is the embedding row), "+
			"drops it, indexes it again into another fresh collection from the vectors the first run made (the store's part: chunking, hashing, lexical terms for the database stores, writing, committing), "+
			"then on that collection times one search (the embedded store builds its in-memory search index here), a warm-up pass over the queries and a timed pass one query at a time (hybrid, top 10, language en), "+
			"ranks each query's top 10 by the dense leg alone against the exact top 10 of an embedded store (`DenseIndex: exact`, computed once per invocation), "+
			"and scores the bm25, vector and hybrid retrievers at depth 100 (`engine.EvalBEIR`).", q),
		"Store size: the embedded store's folder; for PostgreSQL the collection's tables with their indexes and TOAST (`pg_total_relation_size` over schema `fonte_<collection>`); " +
			"for Redis the growth of `used_memory` over the index run (summed over the masters of the cluster), with the Query Engine's indexes. Sizes are read with the collection's engine closed. " +
			"Worker peak RSS is the worker's VmHWM: for the embedded store the whole index, for the database stores the client only (the server's memory is in the size row); " +
			"every worker also holds the 5,183 precomputed vectors (about 11 MB).",
		fmt.Sprintf("Pool rows (native PostgreSQL only): the run's second collection opened read-only once per pgxpool size (`pool_max_conns` in the URL), "+
			"%s searched once each (hybrid, top 10) by %d goroutines at once, each one query at a time; searches/s is the queries over the wall time, "+
			"the latencies include the wait for a free connection.", q, poolClients),
	}
	return p
}

// storesDerive completes the part after its runs: each retriever's
// nDCG@10 minus the embedded store's median, the servers' versions in the
// engines' names, and how each store computes its legs.
func storesDerive(p *part) {
	var ref *engine
	for _, e := range p.engines {
		if e.id == "disk" {
			ref = e
		}
	}
	for _, m := range storeModes {
		k := string(m) + "_ndcg10"
		if ref == nil || len(ref.samples["run"][k]) == 0 {
			continue
		}
		base, _, _ := stats(ref.samples["run"][k])
		for _, e := range p.engines {
			for _, v := range e.samples["run"][k] {
				e.samples["run"][k+"_diff"] = append(e.samples["run"][k+"_diff"], v-base)
			}
		}
	}
	var legs []string
	for _, e := range p.engines {
		if v := e.info["server"]; v != "" {
			e.name += " " + v
		}
		if n := e.samples["run"]["servers"]; e.id == "redis-cluster" && len(n) > 0 {
			e.name += fmt.Sprintf(" (%d masters)", int(n[0]))
		}
		if e.info["lexical"] != "" || e.info["dense"] != "" {
			legs = append(legs, fmt.Sprintf("%s: lexical leg %s, dense leg %s", e.id, orNone(e.info["lexical"]), orNone(e.info["dense"])))
		}
		if v := e.info["extensions"]; v != "" {
			legs = append(legs, fmt.Sprintf("%s extensions: %s", e.id, v))
		}
	}
	if len(legs) > 0 {
		p.notes = append(p.notes, "As the stores reported (`Store.Status`): "+strings.Join(legs, "; ")+".")
	}
}

// storeTruth indexes SciFact into an embedded store with an exact dense
// index and writes each test query's top 10 chunk IDs by the dense leg
// to a file the workers read: the truth of their dense recall.
func storeTruth(ctx context.Context, scifact, work string) (string, error) {
	beir, docs, err := loadStoreCorpus(scifact, 0)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(work, "stores-truth.idx")
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	e, err := fonteengine.Open(ctx, fonteengine.Settings{Store: dir, DenseIndex: retrieve.DenseExact}, fonteengine.OpenOptions{})
	if err != nil {
		return "", err
	}
	defer e.Close()
	if _, err := e.IndexDocuments(ctx, docs, true, nil); err != nil {
		return "", err
	}
	truth := map[string][]string{}
	for _, q := range beir.Queries {
		hits, err := e.Search(ctx, q.Text, fonteengine.SearchOptions{K: denseK, Mode: retrieve.Dense, Lang: "en"})
		if err != nil {
			return "", fmt.Errorf("query %s: %w", q.ID, err)
		}
		for _, h := range hits {
			truth[q.ID] = append(truth[q.ID], h.Chunk.ID)
		}
	}
	data, err := json.Marshal(truth)
	if err != nil {
		return "", err
	}
	path := filepath.Join(work, "stores-truth.json")
	return path, os.WriteFile(path, data, 0o644)
}

// loadStoreCorpus loads SciFact as `fonte eval --beir` does (English
// documents), keeping the first n test queries when n > 0.
func loadStoreCorpus(dir string, n int) (*eval.BEIR, []fonte.Document, error) {
	beir, err := eval.LoadBEIR(dir, "test")
	if err != nil {
		return nil, nil, err
	}
	if n > 0 && n < len(beir.Queries) {
		beir.Queries = beir.Queries[:n]
	}
	docs := make([]fonte.Document, len(beir.Corpus))
	for i, d := range beir.Corpus {
		d.Language = "en"
		docs[i] = d
	}
	return beir, docs, nil
}

// recordingEmbedder embeds with the built-in embedder, timing its calls
// and keeping every vector by text for a later run to replay.
type recordingEmbedder struct {
	fonte.Embedder
	mu   sync.Mutex
	took time.Duration
	vecs map[string][]float32
}

func (r *recordingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	t := time.Now()
	out, err := r.Embedder.Embed(ctx, texts)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.took += time.Since(t)
	if err == nil && len(out) == len(texts) {
		for i, v := range out {
			r.vecs[texts[i]] = slices.Clone(v)
		}
	}
	return out, err
}

// replayEmbedder answers from a recording, embedding only what it does not
// hold (the queries, and any text the recording missed, counted).
type replayEmbedder struct {
	*recordingEmbedder
	misses int
}

func (r *replayEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var missing []string
	var at []int
	for i, t := range texts {
		if v, ok := r.vecs[t]; ok {
			out[i] = v
			continue
		}
		missing = append(missing, t)
		at = append(at, i)
	}
	if len(missing) == 0 {
		return out, nil
	}
	r.misses += len(missing)
	got, err := r.recordingEmbedder.Embedder.Embed(ctx, missing)
	if err != nil {
		return nil, err
	}
	for k, v := range got {
		out[at[k]] = v
	}
	return out, nil
}

// storeTarget is one backend's base location and what the worker needs
// to make fresh collections of it, size them and drop them.
type storeTarget struct {
	backend, base string
}

// location names collection name of the target: a folder under the base
// folder, or the URL with its collection parameter.
func (t storeTarget) location(name string) (string, error) {
	if t.backend == "disk" {
		return filepath.Join(t.base, name), nil
	}
	u, err := url.Parse(t.base)
	if err != nil {
		return "", fmt.Errorf("the %s URL does not parse", t.backend)
	}
	q := u.Query()
	q.Set("collection", name)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// serverURL is the base URL without fonte's collection parameter, for
// the bench's own client.
func (t storeTarget) serverURL() (*url.URL, error) {
	u, err := url.Parse(t.base)
	if err != nil {
		return nil, fmt.Errorf("the %s URL does not parse", t.backend)
	}
	q := u.Query()
	q.Del("collection")
	u.RawQuery = q.Encode()
	return u, nil
}

// size returns the bytes the collection takes (see the part's notes),
// given the server's memory before it was indexed, and what it measured.
func (t storeTarget) size(ctx context.Context, name string, before int64) (int64, error) {
	switch t.backend {
	case "disk":
		dir, _ := t.location(name)
		return dirSize(dir)
	case "postgres", "pglite":
		var n int64
		err := t.postgres(ctx, func(c *pgx.Conn) error {
			return c.QueryRow(ctx, `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint
				FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
				WHERE s.nspname = $1 AND c.relkind IN ('r', 'm')`, "fonte_"+name).Scan(&n)
		})
		return n, err
	}
	used, err := t.redisUsedMemory(ctx)
	return used - before, err
}

// postgres runs fn on a connection of its own to the PostgreSQL server,
// in the simple protocol on PGlite, whose one session every connection
// shares (prepared statements would collide with the store's).
func (t storeTarget) postgres(ctx context.Context, fn func(*pgx.Conn) error) error {
	u, err := t.serverURL()
	if err != nil {
		return err
	}
	if t.backend == "pglite" {
		q := u.Query()
		q.Set("default_query_exec_mode", "simple_protocol")
		u.RawQuery = q.Encode()
	}
	c, err := pgx.Connect(ctx, u.String())
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	defer c.Close(ctx)
	return fn(c)
}

// redisNodes returns a client per node the URL names (every master of a
// cluster, given as addr= parameters).
func (t storeTarget) redisNodes() ([]*goredis.Client, error) {
	u, err := t.serverURL()
	if err != nil {
		return nil, err
	}
	addrs := append([]string{u.Host}, u.Query()["addr"]...)
	var out []*goredis.Client
	for _, a := range addrs {
		o := &goredis.Options{Addr: a, Protocol: 2}
		if u.User != nil {
			o.Username = u.User.Username()
			o.Password, _ = u.User.Password()
		}
		out = append(out, goredis.NewClient(o))
	}
	return out, nil
}

// redisInfo returns one INFO section of every node.
func (t storeTarget) redisInfo(ctx context.Context, section string) ([]map[string]string, error) {
	nodes, err := t.redisNodes()
	if err != nil {
		return nil, err
	}
	var out []map[string]string
	for _, n := range nodes {
		s, err := n.Info(ctx, section).Result()
		n.Close()
		if err != nil {
			return nil, fmt.Errorf("redis INFO %s: %w", section, err)
		}
		m := map[string]string{}
		for line := range strings.Lines(s) {
			if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
				m[k] = v
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// redisUsedMemory sums used_memory over the nodes.
func (t storeTarget) redisUsedMemory(ctx context.Context) (int64, error) {
	infos, err := t.redisInfo(ctx, "memory")
	if err != nil {
		return 0, err
	}
	var sum int64
	for _, m := range infos {
		v, err := strconv.ParseInt(m["used_memory"], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("redis INFO memory: used_memory %q", m["used_memory"])
		}
		sum += v
	}
	return sum, nil
}

// describe prints the server's version (and PostgreSQL's extensions) as
// info lines.
func (t storeTarget) describe(ctx context.Context) error {
	switch t.backend {
	case "postgres", "pglite":
		return t.postgres(ctx, func(c *pgx.Conn) error {
			var version, ext string
			if err := c.QueryRow(ctx, "SHOW server_version").Scan(&version); err != nil {
				return err
			}
			if err := c.QueryRow(ctx, `SELECT coalesce(string_agg(extname || ' ' || extversion, ', ' ORDER BY extname), '')
				FROM pg_extension WHERE extname <> 'plpgsql'`).Scan(&ext); err != nil {
				return err
			}
			fmt.Printf("info server %s\ninfo extensions %s\n", version, ext)
			return nil
		})
	case "redis", "redis-cluster":
		infos, err := t.redisInfo(ctx, "server")
		if err != nil {
			return err
		}
		fmt.Printf("info server %s\nservers %d\n", infos[0]["redis_version"], len(infos))
		nodes, err := t.redisNodes()
		if err != nil {
			return err
		}
		defer func() {
			for _, n := range nodes {
				n.Close()
			}
		}()
		mods, err := nodes[0].Do(ctx, "MODULE", "LIST").Slice()
		if err != nil {
			return fmt.Errorf("redis MODULE LIST: %w", err)
		}
		var names []string
		for _, m := range mods {
			// Each module is a flat list of fields: name NAME ver N ...
			f, _ := m.([]any)
			var name, ver string
			for i := 0; i+1 < len(f); i += 2 {
				switch fmt.Sprint(f[i]) {
				case "name":
					name = fmt.Sprint(f[i+1])
				case "ver":
					ver = fmt.Sprint(f[i+1])
				}
			}
			names = append(names, name+" "+ver)
		}
		fmt.Printf("info extensions %s\n", strings.Join(names, ", "))
	}
	return nil
}

// drop removes a collection: the folder; PostgreSQL's schema; for Redis,
// every document (an empty index run) and then Purge, which leaves the
// collection's few bookkeeping keys.
func (t storeTarget) drop(ctx context.Context, name string) error {
	loc, err := t.location(name)
	if err != nil {
		return err
	}
	switch t.backend {
	case "disk":
		return os.RemoveAll(loc)
	case "postgres", "pglite":
		return t.postgres(ctx, func(c *pgx.Conn) error {
			_, err := c.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{"fonte_" + name}.Sanitize()+" CASCADE")
			return err
		})
	}
	e, err := fonteengine.Open(ctx, fonteengine.Settings{Store: loc}, fonteengine.OpenOptions{})
	if err != nil {
		return err
	}
	defer e.Close()
	if _, err := e.IndexDocuments(ctx, nil, true, nil); err != nil {
		return err
	}
	return e.Store().Purge(ctx)
}

// workerStores is one run of one backend (see the part's notes); it
// prints "key value" and "info key text" lines.
func workerStores(args []string) error {
	fl := flag.NewFlagSet("stores", flag.ContinueOnError)
	backend := fl.String("backend", "", "disk, postgres, pglite, redis or redis-cluster")
	scifact := fl.String("scifact", "", "BEIR SciFact folder")
	truthPath := fl.String("truth", "", "the exact dense top 10 of every query (JSON)")
	queries := fl.Int("queries", 0, "test queries to run, the first by id (0: all)")
	timeout := fl.Duration("timeout", 30*time.Minute, "give up after this long")
	if err := fl.Parse(args); err != nil {
		return err
	}
	t := storeTarget{backend: *backend, base: os.Getenv(storeLocationEnv)}
	if t.base == "" {
		return fmt.Errorf("no store location in %s", storeLocationEnv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	beir, docs, err := loadStoreCorpus(*scifact, *queries)
	if err != nil {
		return err
	}
	var truth map[string][]string
	data, err := os.ReadFile(*truthPath)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &truth); err != nil {
		return fmt.Errorf("%s: %w", *truthPath, err)
	}
	fmt.Printf("docs %d\nqueries %d\n", len(docs), len(beir.Queries))

	// Fresh collections, named after the process so that concurrent or
	// failed runs never share one; dropped however the run ends.
	stamp := fmt.Sprintf("bench_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9)
	first, second := stamp+"_a", stamp+"_b"
	live := map[string]bool{}
	defer func() {
		for name := range live {
			if err := t.drop(context.WithoutCancel(ctx), name); err != nil {
				fmt.Fprintf(os.Stderr, "dropping %s: %v\n", name, err)
			}
		}
	}()

	// 1. The whole corpus with the built-in embedder.
	rec := &recordingEmbedder{Embedder: fonteengine.DefaultEmbedder(), vecs: map[string][]float32{}}
	var before int64
	if t.backend == "redis" || t.backend == "redis-cluster" {
		if before, err = t.redisUsedMemory(ctx); err != nil {
			return err
		}
	}
	loc, err := t.location(first)
	if err != nil {
		return err
	}
	e, err := fonteengine.Open(ctx, fonteengine.Settings{Store: loc, Embedder: rec}, fonteengine.OpenOptions{})
	if err != nil {
		return err
	}
	live[first] = true
	start := time.Now()
	rep, err := e.IndexDocuments(ctx, docs, true, nil)
	if err != nil {
		e.Close()
		return err
	}
	took := time.Since(start)
	fmt.Printf("chunks %d\nindex_s %.4f\nindex_cps %.1f\nembed_s %.4f\n", rep.Chunks, took.Seconds(), float64(rep.Chunks)/took.Seconds(), rec.took.Seconds())
	st, err := e.Store().Status(ctx)
	if err != nil {
		e.Close()
		return err
	}
	fmt.Printf("info backend %s\ninfo lexical %s\ninfo dense %s\n", st.Backend, st.Lexical, st.Dense)
	if err := e.Close(); err != nil {
		return err
	}
	size, err := t.size(ctx, first, before)
	if err != nil {
		return err
	}
	fmt.Printf("size_bytes %d\n", size)
	if err := t.describe(ctx); err != nil { // now that the store made its extensions
		return err
	}
	if err := t.drop(ctx, first); err != nil {
		return fmt.Errorf("dropping the first collection: %w", err)
	}
	delete(live, first)

	// 2. The same vectors again into a fresh collection: the store's part.
	replay := &replayEmbedder{recordingEmbedder: rec}
	if loc, err = t.location(second); err != nil {
		return err
	}
	e, err = fonteengine.Open(ctx, fonteengine.Settings{Store: loc, Embedder: replay}, fonteengine.OpenOptions{})
	if err != nil {
		return err
	}
	live[second] = true
	defer e.Close()
	start = time.Now()
	rep, err = e.IndexDocuments(ctx, docs, true, nil)
	if err != nil {
		return err
	}
	took = time.Since(start)
	fmt.Printf("commit_s %.4f\ncommit_cps %.1f\nreplay_misses %d\n", took.Seconds(), float64(rep.Chunks)/took.Seconds(), replay.misses)

	// 3. Latency: one search (the embedded store builds its search index
	// on it), a warm-up pass, then a timed pass, one query at a time.
	search := func(text string, k int, mode retrieve.Mode) ([]fonte.Hit, error) {
		return e.Search(ctx, text, fonteengine.SearchOptions{K: k, Mode: mode, Lang: "en"})
	}
	start = time.Now()
	if _, err := search(beir.Queries[0].Text, 10, retrieve.Hybrid); err != nil {
		return err
	}
	fmt.Printf("first_ms %.3f\n", float64(time.Since(start).Microseconds())/1e3)
	for _, q := range beir.Queries {
		if _, err := search(q.Text, 10, retrieve.Hybrid); err != nil {
			return fmt.Errorf("query %s: %w", q.ID, err)
		}
	}
	lat := make([]float64, 0, len(beir.Queries))
	for _, q := range beir.Queries {
		t0 := time.Now()
		if _, err := search(q.Text, 10, retrieve.Hybrid); err != nil {
			return fmt.Errorf("query %s: %w", q.ID, err)
		}
		lat = append(lat, float64(time.Since(t0).Microseconds())/1e3)
	}
	slices.Sort(lat)
	fmt.Printf("p50_ms %.3f\np99_ms %.3f\n", percentile(lat, 0.50), percentile(lat, 0.99))

	// 4. The dense leg's top 10 against the embedded store's exact one.
	var recall float64
	for _, q := range beir.Queries {
		want := truth[q.ID]
		if len(want) == 0 {
			return fmt.Errorf("query %s has no exact top 10 in %s", q.ID, *truthPath)
		}
		hits, err := search(q.Text, len(want), retrieve.Dense)
		if err != nil {
			return fmt.Errorf("query %s: %w", q.ID, err)
		}
		found := 0
		for _, h := range hits {
			if slices.Contains(want, h.Chunk.ID) {
				found++
			}
		}
		recall += float64(found) / float64(len(want))
	}
	fmt.Printf("dense_recall10 %.4f\n", recall/float64(len(beir.Queries)))

	// 5. Quality of each retriever, as `fonte eval --beir` reports it.
	for _, m := range storeModes {
		r, err := e.EvalBEIR(ctx, beir, m, 100)
		if err != nil {
			return fmt.Errorf("%s: %w", m, err)
		}
		fmt.Printf("%s_ndcg10 %.4f\n%s_recall100 %.4f\n", m, r.Retrieval.NDCG10, m, r.Retrieval.Recall100)
	}
	fmt.Printf("peak_rss_bytes %d\n", procStatusBytes("VmHWM:"))

	// 6. On a server with a backend per connection, what the pool's size
	// does to searches made at once (after the peak RSS, which it would
	// move).
	if t.backend == "postgres" {
		return measurePools(ctx, loc, beir.Queries)
	}
	return nil
}

// percentile returns the nearest-rank p-quantile of sorted values.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// procStatusBytes reads a kB field of /proc/self/status (VmHWM: the peak
// resident set), 0 where there is none.
func procStatusBytes(field string) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, field); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}

// parseStoreIDs reads -stores.
func parseStoreIDs(s string) ([]string, error) {
	var ids []string
	for id := range strings.SplitSeq(s, ",") {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		known := false
		for _, b := range storeBackends {
			known = known || b.id == id
		}
		if !known {
			return nil, fmt.Errorf("-stores %q: want disk, postgres, pglite, redis or redis-cluster", id)
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil, errors.New("-stores names no backend")
	}
	return ids, nil
}
