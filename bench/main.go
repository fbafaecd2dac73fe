// Command bench runs fonte and its peers on the same data in one run and
// prints, for every measure, the median of several runs with their range
// and the ratio fonte/peer:
//
//   - lexical: fonte's BM25 against bleve v2 on BEIR SciFact, each built
//     in memory and written to disk (build time, the index's heap, size on
//     disk, open time, single-thread queries per second at top 10 and top
//     100 on both, nDCG@10 and recall@100);
//   - flat: exact dense search, fonte's Flat (and FlatInt8, and a Flat
//     without its int8 copy) against FAISS IndexFlatIP (Python) and
//     chromem-go, one query at a time and in one batch, on one thread,
//     with each index's memory per vector;
//   - hnsw: fonte's HNSW against hnswlib (native and Python) and
//     coder/hnsw: build time, memory per vector, recall@10 and queries per
//     second at ef 32, 64 and 128, on one thread;
//   - stores: one SciFact index on every store fonte opens by location
//     (the embedded folder, PostgreSQL, Redis, a Redis Cluster): indexing
//     throughput, search latency, the dense leg's recall against the
//     embedded store's exact top 10, each retriever's nDCG@10 and
//     recall@100, peak memory and size (see stores.go);
//   - serve: the fonte HTTP server in this process over the example
//     handbook, 1, 8 and 32 clients searching and asking over HTTP while
//     one writer uploads and deletes a document: requests/s, p50 and p99
//     latency and errors per kind (see serve.go).
//
// The dense engines read one data file (issue 4's clustered vectors, see
// data.go), so all of them see the same bytes. Every measurement is a
// process of its own (this binary re-run as a worker, or a peer's program),
// and each run goes through all engines in turn, starting with a different
// one each time, so that they share the machine's load. A ratio against a
// peer whose recall is below 0.5 is left out but on the recall rows. See
// BENCHMARKS.md.
//
//	cd bench && go run . -runs 5                  # everything, about an hour
//	go run . -quick                               # a smoke run, a few minutes
//	go run . -only hnsw -runs 7                   # one part
//	go run . -runs 5 -out ../BENCHMARKS.md        # rewrite BENCHMARKS.md's tables
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The peers' programs, written to the work folder at start.
//
//go:embed faisspeer/flat.py hnswpeer/hnswlib_py.py hnswpeer/peer.cpp
var peerFiles embed.FS

func main() {
	if len(os.Args) > 1 && os.Args[1] == "worker" {
		if err := worker(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "bench worker:", err)
			os.Exit(1)
		}
		return
	}
	os.Exit(run(os.Args[1:]))
}

// worker runs one measurement in this process and prints "key value"
// lines.
func worker(args []string) error {
	if len(args) == 0 {
		return errors.New("worker: which one?")
	}
	switch name, rest := args[0], args[1:]; name {
	case "lexical-fonte":
		return workerLexicalFonte(rest)
	case "lexical-bleve":
		return workerLexicalBleve(rest)
	case "flat-fonte":
		return workerFlatFonte(rest, flatDefault)
	case "flat-fonte-int8":
		return workerFlatFonte(rest, flatInt8)
	case "flat-fonte-f32":
		return workerFlatFonte(rest, flatFloat32)
	case "flat-chromem":
		return workerFlatChromem(rest)
	case "hnsw-fonte":
		return workerHNSWFonte(rest)
	case "hnsw-coder":
		return workerHNSWCoder(rest)
	case "stores":
		return workerStores(rest)
	default:
		return fmt.Errorf("worker: unknown %q", name)
	}
}

type config struct {
	runs, builds, n, queries, single, passes int
	storeRuns, storeQueries                  int
	stores                                   []string
	seed                                     uint64
	only                                     map[string]bool
	quick, keep                              bool
	serveDuration                            time.Duration
	examples, serveProfile                   string
	out, work, scifact, python, taskset      string
	redisQE                                  string
	k1, b                                    float64
	args                                     []string
}

func parseConfig(args []string) (*config, error) {
	fl := flag.NewFlagSet("bench", flag.ContinueOnError)
	c := &config{args: args}
	var only, stores string
	fl.IntVar(&c.runs, "runs", 5, "runs of every measurement (the HNSW search runs; see -builds)")
	fl.IntVar(&c.builds, "builds", 0, "HNSW builds of every engine (default: -runs)")
	fl.IntVar(&c.n, "n", 100_000, "dense vectors")
	fl.IntVar(&c.queries, "queries", 1000, "dense queries (the batch size of the flat batch search)")
	fl.IntVar(&c.single, "single", 200, "queries searched one at a time in a flat run")
	fl.IntVar(&c.passes, "passes", 3, "passes over the queries at each ef in an HNSW search run")
	fl.Uint64Var(&c.seed, "seed", 1, "seed of the dense data")
	fl.StringVar(&only, "only", "", "parts to run, comma-separated: lexical, flat, hnsw, stores, serve (default all)")
	fl.StringVar(&stores, "stores", "disk,postgres,pglite,redis,redis-cluster", "the stores part's backends, comma-separated")
	fl.IntVar(&c.storeQueries, "store-queries", 0, "SciFact test queries of the stores part, the first by id (0: all 300)")
	fl.BoolVar(&c.quick, "quick", false, "a smoke run: -n 10000 -runs 2 -builds 1 -single 50 -passes 1, and 1 run of 50 queries in the stores part, unless set")
	fl.StringVar(&c.out, "out", "", "Markdown file whose section between the bench markers is rewritten with the results (created if missing; with -only, the other parts' blocks are kept)")
	fl.StringVar(&c.work, "work", filepath.Join(os.TempDir(), "fonte-bench"), "folder for the data files, indexes, peer binaries and raw outputs (data files are reused)")
	fl.BoolVar(&c.keep, "keep", false, "keep the indexes in -work after the run")
	fl.StringVar(&c.scifact, "scifact", "../../shared/data/scifact", "BEIR SciFact folder")
	fl.StringVar(&c.redisQE, "redis-qe", "../../shared/redis", "the Redis Query Engine build testserver starts Redis with (unless FONTE_REDIS_QE_DIR is set)")
	fl.StringVar(&c.python, "python", "/usr/bin/python3", "the Python with Debian's python3-faiss and python3-hnswlib")
	fl.StringVar(&c.taskset, "taskset", "", "pin the one-thread runs to these CPUs (taskset -c LIST); default unpinned")
	fl.DurationVar(&c.serveDuration, "serve-duration", 10*time.Second, "the serve part's time at each load level (5 levels; -quick: 3s unless set)")
	fl.StringVar(&c.examples, "examples", "../examples", "the folder of the example handbook and its questions.jsonl (the serve part)")
	fl.StringVar(&c.serveProfile, "serve-cpuprofile", "", "write CPU and mutex (FILE.mutex) profiles of the serve part's load levels")
	fl.Float64Var(&c.k1, "k1", 0.9, "BM25 k1, for both lexical engines")
	fl.Float64Var(&c.b, "b", 0.4, "BM25 b, for both lexical engines")
	if err := fl.Parse(args); err != nil {
		return nil, err
	}
	if fl.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fl.Args())
	}
	set := map[string]bool{}
	fl.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if c.quick {
		for _, q := range []struct {
			name  string
			v     *int
			quick int
		}{{"n", &c.n, 10_000}, {"runs", &c.runs, 2}, {"builds", &c.builds, 1}, {"single", &c.single, 50}, {"passes", &c.passes, 1}} {
			if !set[q.name] {
				*q.v = q.quick
			}
		}
	}
	c.storeRuns = c.runs
	if c.quick && !set["runs"] {
		c.storeRuns = 1 // each run of a store indexes the corpus twice
	}
	if c.quick && !set["store-queries"] {
		c.storeQueries = 50
	}
	if c.quick && !set["serve-duration"] {
		c.serveDuration = 3 * time.Second
	}
	if c.builds == 0 {
		c.builds = c.runs
	}
	if c.runs < 1 || c.builds < 1 || c.n < denseK || c.queries < 1 || c.single < 1 || c.passes < 1 || c.storeQueries < 0 || c.serveDuration <= 0 {
		return nil, errors.New("-runs, -builds, -single, -passes, -queries and -serve-duration must be positive, -n at least 10 and -store-queries at least 0")
	}
	var err error
	if c.stores, err = parseStoreIDs(stores); err != nil {
		return nil, err
	}
	c.only = map[string]bool{}
	for p := range strings.SplitSeq(only, ",") {
		switch p = strings.TrimSpace(p); p {
		case "":
		case "lexical", "flat", "hnsw", "stores", "serve":
			c.only[p] = true
		default:
			return nil, fmt.Errorf("-only %q: want lexical, flat, hnsw, stores or serve", p)
		}
	}
	if len(c.only) == 0 {
		c.only = map[string]bool{"lexical": true, "flat": true, "hnsw": true, "stores": true, "serve": true}
	}
	return c, nil
}

// engine is one library in one part of the benchmark.
type engine struct {
	id, name string
	missing  string                          // why it cannot run, with the command that installs it
	argv     func(mode string) []string      // the command of one run
	env      []string                        // added to the environment of its runs
	oneCore  bool                            // pinned by -taskset
	index    string                          // the index file a build writes (removed before)
	failed   string                          // the first error, after which it is skipped
	samples  map[string]map[string][]float64 // mode → measure → one value a run
	info     map[string]string
}

// bench is one invocation of the command.
type bench struct {
	cfg     *config
	self    string
	work    string
	rawLog  *os.File
	env     []string
	machine map[string]string
	commit  string
	parts   []*part
	start   time.Time

	mu    sync.Mutex
	stops []func() // stop the servers started for the stores part
}

func run(args []string) int {
	cfg, err := parseConfig(args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(os.Stderr, "bench:", err)
		return 2
	}
	b := &bench{cfg: cfg, start: time.Now()}
	defer b.stopServers()
	if err := b.setup(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		return 1
	}
	defer b.rawLog.Close()
	for _, p := range b.parts {
		if err := p.run(b); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			return 1
		}
		if p.id == "stores" {
			storesDerive(p)
		}
	}
	var served *serveResult
	if cfg.only["serve"] {
		if served, err = b.serve(); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			return 1
		}
	}
	header, blocks := b.report()
	if served != nil {
		blocks["serve"] = served.block(b)
	}
	fmt.Println()
	fmt.Print(header)
	for _, id := range partOrder {
		if blocks[id] != "" {
			fmt.Print("\n" + blocks[id])
		}
	}
	if cfg.out != "" {
		if err := writeSection(cfg.out, header, blocks); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			return 1
		}
		fmt.Printf("\nwrote the results into %s\n", cfg.out)
	}
	if !cfg.keep {
		for _, p := range b.parts {
			for _, e := range p.engines {
				if e.index != "" {
					os.Remove(e.index)
				}
			}
		}
	}
	b.logf("raw outputs in %s; total %s", b.rawLog.Name(), time.Since(b.start).Round(time.Second))
	if served != nil && served.errors() > 0 {
		fmt.Fprintf(os.Stderr, "\nbench: WARNING: the serve part had %d failed requests (see its table); it must have none\n", served.errors())
		return 1
	}
	return 0
}

func (b *bench) logf(format string, args ...any) {
	fmt.Printf(format+"\n", args...)
}

// setup makes the work folder, finds the peers (compiling the native
// one), generates the dense data and lays out the parts.
func (b *bench) setup() error {
	c := b.cfg
	var err error
	if b.self, err = os.Executable(); err != nil {
		return err
	}
	if b.work, err = filepath.Abs(c.work); err != nil {
		return err
	}
	if err := os.MkdirAll(b.work, 0o755); err != nil {
		return err
	}
	if b.rawLog, err = os.Create(filepath.Join(b.work, "raw.log")); err != nil {
		return err
	}
	b.machine = machineInfo(c.python)
	b.commit = gitDescribe()
	// One thread for every BLAS and OpenMP pool; OpenBLAS's AVX-512 kernels
	// where the CPU has them (Debian's OpenBLAS 0.3.21 does not recognise
	// Sapphire/Emerald Rapids and would fall back to SSE3 kernels).
	b.env = []string{"OMP_NUM_THREADS=1", "OPENBLAS_NUM_THREADS=1", "MKL_NUM_THREADS=1"}
	if v := os.Getenv("OPENBLAS_CORETYPE"); v != "" {
		b.env = append(b.env, "OPENBLAS_CORETYPE="+v) // the caller's choice, recorded
	} else if strings.Contains(b.machine["flags"], "avx512f") {
		b.env = append(b.env, "OPENBLAS_CORETYPE=SkylakeX")
	}
	b.logf("fonte bench: %s", strings.Join(append([]string{"go run ."}, c.args...), " "))
	b.logf("machine: %s, %s cores, %s RAM; %s; work folder %s", b.machine["cpu"], b.machine["cores"], b.machine["ram"], b.machine["go"], b.work)
	b.logf("load average at start: %s", loadavg())

	scripts := map[string]string{}
	for _, name := range []string{"faisspeer/flat.py", "hnswpeer/hnswlib_py.py", "hnswpeer/peer.cpp"} {
		data, err := peerFiles.ReadFile(name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		path := filepath.Join(b.work, strings.ReplaceAll(name, "/", "-")+"."+hex.EncodeToString(sum[:4])+filepath.Ext(name))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
		scripts[name] = path
	}

	var dense, scifact string
	if c.only["flat"] || c.only["hnsw"] {
		if dense, err = ensureDense(b.work, c.n, c.queries, c.seed, b.logf); err != nil {
			return err
		}
	}
	if c.only["lexical"] || c.only["stores"] {
		if scifact, err = filepath.Abs(c.scifact); err != nil {
			return err
		}
		if _, err := os.Stat(filepath.Join(scifact, "qrels-test.tsv")); err != nil {
			return fmt.Errorf("SciFact not found at %s (-scifact DIR): %w", scifact, err)
		}
	}
	py := b.pythonPeers(scripts)
	native := b.nativePeer(scripts["hnswpeer/peer.cpp"])
	for _, e := range append([]*engine{native}, py...) {
		if e.missing != "" {
			b.logf("MISSING %s: %s", e.name, e.missing)
		}
	}
	if c.only["lexical"] {
		b.parts = append(b.parts, b.lexicalPart(scifact))
	}
	if c.only["flat"] {
		b.parts = append(b.parts, b.flatPart(dense, py[0]))
	}
	if c.only["hnsw"] {
		b.parts = append(b.parts, b.hnswPart(dense, native, py[1]))
	}
	if c.only["stores"] {
		t := time.Now()
		truth, err := storeTruth(context.Background(), scifact, b.work)
		if err != nil {
			return fmt.Errorf("stores: the embedded store's exact dense top 10: %w", err)
		}
		b.logf("stores: the exact dense top 10 of every query from an embedded store in %.1f s", time.Since(t).Seconds())
		b.parts = append(b.parts, b.storesPart(scifact, truth, c.stores))
	}
	return nil
}

// pythonPeers returns FAISS's and hnswlib-Python's engines, missing when
// the Python or its module is not there.
func (b *bench) pythonPeers(scripts map[string]string) []*engine {
	faiss := &engine{id: "faiss", name: "FAISS IndexFlatIP", oneCore: true}
	hpy := &engine{id: "hnswlib-py", name: "hnswlib Python", oneCore: true}
	for _, p := range []struct {
		e       *engine
		module  string
		pkg     string
		version string
	}{{faiss, "faiss", "python3-faiss", "python3-faiss"}, {hpy, "hnswlib", "python3-hnswlib", "python3-hnswlib"}} {
		out, err := exec.Command(b.cfg.python, "-c", "import "+p.module).CombinedOutput()
		if err != nil {
			p.e.missing = fmt.Sprintf("%s cannot import %s (%s); install: apt-get update && apt-get install -y %s",
				b.cfg.python, p.module, firstLine(string(out), err), p.pkg)
		}
		if v := dpkgVersion(p.version); v != "" {
			p.e.name += " " + v
		}
	}
	faiss.argv = func(string) []string {
		return []string{b.cfg.python, scripts["faisspeer/flat.py"], "DATA", strconv.Itoa(b.cfg.single)}
	}
	hpy.index = filepath.Join(b.work, "hnswlib-py.idx")
	hpy.argv = func(mode string) []string {
		if mode == "build" {
			return []string{b.cfg.python, scripts["hnswpeer/hnswlib_py.py"], "build", "DATA", hpy.index, "16", "200"}
		}
		return []string{b.cfg.python, scripts["hnswpeer/hnswlib_py.py"], "search", "DATA", hpy.index, strconv.Itoa(b.cfg.passes), "32", "64", "128"}
	}
	return []*engine{faiss, hpy}
}

// nativePeer compiles peer.cpp against Debian's hnswlib headers with
// -O3 -march=native (once per source version, in the work folder).
func (b *bench) nativePeer(src string) *engine {
	e := &engine{id: "hnswlib", name: "hnswlib native", oneCore: true, index: filepath.Join(b.work, "hnswlib.idx")}
	if v := dpkgVersion("libhnswlib-dev"); v != "" {
		e.name += " " + v
	}
	const install = "apt-get update && apt-get install -y g++ libhnswlib-dev"
	if _, err := exec.LookPath("g++"); err != nil {
		e.missing = "no g++; install: " + install
		return e
	}
	if _, err := os.Stat("/usr/include/hnswlib/hnswlib.h"); err != nil {
		e.missing = "no /usr/include/hnswlib/hnswlib.h; install: " + install
		return e
	}
	bin := strings.TrimSuffix(src, ".cpp")
	if _, err := os.Stat(bin); err != nil {
		b.logf("compiling %s: g++ -O3 -march=native -std=c++17", filepath.Base(src))
		out, err := exec.Command("g++", "-O3", "-march=native", "-std=c++17", "-o", bin+".tmp", src).CombinedOutput()
		if err == nil {
			err = os.Rename(bin+".tmp", bin)
		}
		if err != nil {
			e.missing = fmt.Sprintf("g++ failed: %s; install: %s", firstLine(string(out), err), install)
			return e
		}
	}
	e.env = []string{"PEER_INDEX=" + e.index}
	e.argv = func(mode string) []string {
		if mode == "build" {
			return []string{bin, "DATA", "16", "200", "0"}
		}
		return []string{bin, "DATA", "16", "200", strconv.Itoa(b.cfg.passes), "32", "64", "128"}
	}
	return e
}

// goEngine is an engine run by this binary as a worker.
func (b *bench) goEngine(id, name string, oneCore bool, argv func(mode string) []string) *engine {
	e := &engine{id: id, name: name, oneCore: oneCore}
	e.argv = func(mode string) []string { return append([]string{b.self, "worker"}, argv(mode)...) }
	if oneCore {
		e.env = []string{"GOMAXPROCS=1"}
	}
	return e
}

// exec runs one measurement of e and returns its numbers.
func (b *bench) exec(e *engine, mode, data string) (map[string]float64, error) {
	argv := slices.Clone(e.argv(mode))
	for i, a := range argv {
		if a == "DATA" {
			argv[i] = data
		}
	}
	if b.cfg.taskset != "" && e.oneCore {
		argv = append([]string{"taskset", "-c", b.cfg.taskset}, argv...)
	}
	if mode == "build" && e.index != "" {
		os.Remove(e.index)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append(os.Environ(), b.env...), e.env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	fmt.Fprintf(b.rawLog, "== %s %s (%s) %s, load %s\n%s", e.name, mode, time.Since(start).Round(time.Millisecond),
		strings.Join(argv, " "), loadavg(), out)
	if stderr.Len() > 0 {
		fmt.Fprintf(b.rawLog, "-- stderr\n%s", stderr.Bytes())
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %s", strings.Join(argv, " "), err, lastLines(stderr.String(), 5))
	}
	vals, info := parseOutput(out)
	if e.info == nil {
		e.info = map[string]string{}
	}
	for k, v := range info {
		e.info[k] = v
	}
	return vals, nil
}

// parseOutput reads "key value" lines, "info key text" lines, and
// peer.cpp's "ef E key value key value..." lines (as "efE.key").
func parseOutput(out []byte) (map[string]float64, map[string]string) {
	vals, info := map[string]float64{}, map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 3 && f[0] == "info":
			info[f[1]] = strings.Join(f[2:], " ")
		case len(f) >= 4 && f[0] == "ef":
			for i := 2; i+1 < len(f); i += 2 {
				if v, err := strconv.ParseFloat(f[i+1], 64); err == nil {
					vals["ef"+f[1]+"."+f[i]] = v
				}
			}
		case len(f) == 2:
			if v, err := strconv.ParseFloat(f[1], 64); err == nil {
				vals[f[0]] = v
			}
		}
	}
	return vals, info
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

func firstLine(s string, err error) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return err.Error()
	}
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " | ")
}

func dpkgVersion(pkg string) string {
	out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", pkg).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// moduleVersion is the version of a Go module this binary was built with.
func moduleVersion(path string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, d := range bi.Deps {
		if d.Path == path {
			return d.Version
		}
	}
	return "unknown"
}

// machineInfo gathers what BENCHMARKS.md records about the machine.
func machineInfo(python string) map[string]string {
	m := map[string]string{
		"go":    runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		"cores": strconv.Itoa(runtime.NumCPU()),
		"cpu":   "unknown",
		"ram":   "unknown",
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			k, v, ok := strings.Cut(line, ":")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if !ok {
				continue
			}
			switch {
			case k == "model name" && m["cpu"] == "unknown":
				m["cpu"] = v
			case k == "model" && m["model"] == "":
				m["model"] = v
			case k == "cpu family" && m["family"] == "":
				m["family"] = v
			case k == "flags" && m["flags"] == "":
				m["flags"] = v
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		if _, err := fmt.Sscanf(string(b), "MemTotal: %d kB", &kb); err == nil {
			m["ram"] = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m["kernel"] = "Linux " + strings.TrimSpace(string(b))
	}
	var simd []string
	for _, f := range []string{"avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_vnni"} {
		if slices.Contains(strings.Fields(m["flags"]), f) {
			simd = append(simd, f)
		}
	}
	m["simd"] = strings.Join(simd, " ")
	if out, err := exec.Command("g++", "-dumpfullversion").Output(); err == nil {
		m["gxx"] = strings.TrimSpace(string(out))
	}
	if out, err := exec.Command(python, "--version").CombinedOutput(); err == nil {
		m["python"] = strings.TrimSpace(string(out))
	}
	if v := dpkgVersion("libopenblas0-pthread"); v != "" {
		m["openblas"] = v
	}
	return m
}

// The markers of the generated section of -out, and of each part's block
// inside it.
const (
	beginMarker = "<!-- bench:begin (generated by `go run .` in bench/; edit outside the markers) -->\n"
	endMarker   = "<!-- bench:end -->\n"
	partMarker  = "<!-- bench:part %s -->\n"
)

// writeSection rewrites the generated section of path (between the begin
// and end markers, appended when the file has none) with header and the
// blocks of the parts run, keeping the blocks of the parts not run from
// the section already there, so that one part can be re-run alone; the
// header is then kept too, since it describes the machine and versions of
// the kept blocks (each block names the machine it was run on).
func writeSection(path, header string, blocks map[string]string) error {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	text := string(old)
	before, after, inside := text, "", ""
	if i := strings.Index(text, beginMarker); i >= 0 {
		j := strings.Index(text[i:], endMarker)
		if j < 0 {
			return fmt.Errorf("%s: bench begin marker without an end marker", path)
		}
		before, inside, after = text[:i], text[i+len(beginMarker):i+j], text[i+j+len(endMarker):]
	} else if before != "" && !strings.HasSuffix(before, "\n") {
		before += "\n"
	}
	kept := false
	for _, id := range partOrder {
		if blocks[id] != "" {
			continue
		}
		m := fmt.Sprintf(partMarker, id)
		if k := strings.Index(inside, m); k >= 0 {
			block := inside[k+len(m):]
			if e := strings.Index(block, "<!-- bench:part "); e >= 0 {
				block = block[:e]
			}
			blocks[id] = block
			kept = true
		}
	}
	// The header describes the machine and versions the kept blocks were
	// measured with; the new blocks name their own machine.
	if k := strings.Index(inside, "<!-- bench:part "); kept && k >= 0 {
		header = strings.TrimRight(inside[:k], "\n") + "\n"
	}
	var sb strings.Builder
	sb.WriteString(before + beginMarker + header)
	for _, id := range partOrder {
		if blocks[id] != "" {
			sb.WriteString("\n" + fmt.Sprintf(partMarker, id) + "\n" + strings.Trim(blocks[id], "\n") + "\n")
		}
	}
	sb.WriteString(endMarker + after)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(sb.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
