// Command fonte-scale measures how fonte's costs grow with the corpus: for
// each size it indexes a synthetic corpus (synth.Corpus: Zipf vocabulary,
// log-normal chunk lengths, 384-d clustered vectors from synth's topic
// embedder) into the embedded store through the engine, as a Go program
// embedding fonte would, then opens the index in a fresh process and runs
// hybrid, BM25 and vector queries one at a time. Each phase runs in a
// child process so its peak resident memory is its own.
//
//	go run ./cmd/fonte-scale -sizes 10000,100000,1000000 -work /tmp/scale
//
// The query phase takes the resident memory (VmRSS) right after the first
// search, which is what opening costs, then runs an untimed warm-up pass
// (every query text once, hybrid) before the timed passes, so the
// latencies are those of a warm index.
//
// The concurrency phase (-concurrency, after the query phase) opens the
// index read-write as a server would and, for each mode and goroutine
// count, runs that many goroutines issuing queries for -duration: first
// with no writer, then while a writer adds 1% new documents through an
// incremental IndexDocuments run, cycling the cells in -slice long turns
// so that each is measured during the write. A query that waited for the
// writer would show a latency near the writer's duration.
//
// The store phase (-stores postgres,redis, after the filtered phase)
// indexes the same labelled corpus into a native PostgreSQL and a Redis
// Query Engine node that internal/testserver starts (or
// FONTE_TEST_POSTGRES_URL and FONTE_TEST_REDIS_URL name) and runs the
// filtered phase's readers there, recall against the embedded index's
// exact dense leg (stores.go).
//
// It prints a table of every cost per size, each cost's growth from one
// size to the next, and the concurrency table, and writes one JSON line
// per size with every field of the tables to stdout (and appends it to
// -json FILE).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/retrieve"
	"github.com/fonte-rag/fonte/synth"
)

// buildResult is what the build phase reports.
type buildResult struct {
	Chunks     int     `json:"chunks"`
	GenerateS  float64 `json:"generate_s"` // drawing the corpus, not counted in build
	BuildS     float64 `json:"build_s"`    // IndexDocuments: embed, analyse, commit, derived indexes
	DiskBytes  int64   `json:"disk_bytes"`
	PeakRSSMiB float64 `json:"peak_rss_mib"`
	DenseIndex string  `json:"dense_index"`
	// Labelled is how many documents carry each share's access label
	// (see labelDocuments); empty when no share is measured.
	Labelled map[string]int `json:"labelled,omitempty"`
	// MemoryMiB is the build's memory budget (engine.Settings.Memory, and
	// the garbage collector's soft limit, as the fonte command sets them).
	MemoryMiB float64 `json:"memory_mib"`
}

// queryResult is what the query phase reports.
type queryResult struct {
	OpenS      float64            `json:"open_s"`       // first search: load the snapshot, decode or build the search index
	OpenRSSMiB float64            `json:"open_rss_mib"` // VmRSS right after the first search
	WarmS      float64            `json:"warm_s"`       // the untimed warm-up pass: every query once, hybrid
	Queries    int                `json:"queries"`
	P50ms      map[string]float64 `json:"p50_ms"`
	P99ms      map[string]float64 `json:"p99_ms"`
	PeakRSSMiB float64            `json:"peak_rss_mib"`
}

// modes are the retrieval modes measured, in table order.
var modes = []retrieve.Mode{retrieve.Hybrid, retrieve.BM25, retrieve.Dense}

func main() {
	sizes := flag.String("sizes", "10000,100000,1000000", "corpus sizes in chunks, comma-separated")
	work := flag.String("work", "", "folder for the indexes (default a new temporary folder)")
	queries := flag.Int("queries", 1000, "queries per retrieval mode")
	seed := flag.Uint64("seed", 1, "corpus seed")
	conc := flag.String("concurrency", "1,2,4", "goroutine counts of the concurrency phase, comma-separated; empty skips the phase")
	duration := flag.Duration("duration", 3*time.Second, "how long each concurrency cell runs with no writer")
	slice := flag.Duration("slice", 50*time.Millisecond, "how long each concurrency cell runs per turn while the writer runs")
	filters := flag.String("filters", "50,10,1,0.1", "shares of the documents, in percent, comma-separated, that restricted readers may read (the filtered phase); empty skips the phase")
	filterQueries := flag.Int("filter-queries", 200, "queries per retrieval mode and reader in the filtered phase")
	jsonFile := flag.String("json", "", "also append each size's JSON line to this file")
	memory := flag.String("memory", "", "the memory budget of the build and of the concurrency phase's write, as fonte index --memory (default engine.DefaultMemory(): a quarter of this machine's memory)")
	phase := flag.String("phase", "", "internal: build, query, filtered or concurrency, run in a child; memtouch, run directly, measures what touching fresh memory costs here")
	n := flag.Int("n", 0, "internal: the corpus size of a child phase")
	dir := flag.String("dir", "", "internal: the index folder of a child phase")
	cpuprofile := flag.String("cpuprofile", "", "internal: write a CPU profile of a child phase")
	memprofile := flag.String("memprofile", "", "internal: write a heap profile at the end of a child phase")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "fonte-scale:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	// FONTE_CLASS_GRAPH_MIN turns on the per-class graphs of restricted
	// readers (retrieve.ClassGraphMinChunks, off by default) in every
	// phase: the children inherit it.
	if m, ok := envInt("FONTE_CLASS_GRAPH_MIN"); ok {
		retrieve.ClassGraphMinChunks = m
	}
	// FONTE_SIGN_CANDS turns on the 1-bit first pass of restricted
	// readers' dense scans (retrieve.SignCandidates) with that many
	// candidates; 0 turns it off.
	if m, ok := envInt("FONTE_SIGN_CANDS"); ok {
		retrieve.SignCandidates = m
	}
	// FONTE_SIGN_PERMILLE sets the share of the readable rows, in
	// thousandths, the 1-bit pass keeps (retrieve.SignPermille).
	if m, ok := envInt("FONTE_SIGN_PERMILLE"); ok {
		retrieve.SignPermille = m
	}
	var stopMemTrace func() error
	if memTraceFile != "" {
		var err error
		if stopMemTrace, err = startMemTrace(memTraceFile, heapPeakFile, slog.LevelDebug); err != nil {
			fmt.Fprintln(os.Stderr, "fonte-scale:", err)
			os.Exit(2)
		}
	}
	gs, err := counts(*conc)
	var shares []float64
	if err == nil {
		shares, err = sharesOf(*filters)
	}
	switch {
	case err != nil:
	case *phase == "build":
		var budget int64
		if budget, err = memoryBudget(*memory); err == nil {
			err = emitWithPeak(build(*dir, *n, *seed, budget, shares))
		}
	case *phase == "query":
		err = emitWithPeak(query(*dir, *seed, *queries))
	case *phase == "filtered":
		err = emitWithPeak(filtered(*dir, *seed, *filterQueries, shares))
	case strings.HasPrefix(*phase, "store-"):
		err = emit(storePhase(*dir, *n, *seed, *filterQueries, shares, *storeDrop))
	case *phase == "concurrency":
		// The writer's build marks (the store logs its lexical and view
		// builds' seconds at Debug) say where the write's time goes.
		slog.SetLogLoggerLevel(slog.LevelDebug)
		var budget int64
		if budget, err = memoryBudget(*memory); err == nil {
			err = emitWithPeak(concurrency(*dir, *n, *seed, *queries, gs, *duration, *slice, shares, budget))
		}
	case *phase == "memtouch":
		err = emit(memtouch(touchMiB, touchRounds))
	case *phase == "":
		err = parent(options{sizes: *sizes, work: *work, seed: *seed, queries: *queries, json: *jsonFile, memory: *memory,
			conc: *conc, goroutines: gs, duration: *duration, slice: *slice, filters: *filters, filterQueries: *filterQueries, stores: *storesFlag, storeQueries: *storeQueries})
	default:
		err = fmt.Errorf("-phase %q: want build, query, filtered, store-KIND, concurrency or memtouch", *phase)
	}
	if stopMemTrace != nil {
		if serr := stopMemTrace(); err == nil {
			err = serr
		}
	}
	if *memprofile != "" && err == nil {
		err = writeHeap(*memprofile)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fonte-scale:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// counts parses a comma-separated list of positive numbers ("" is none).
func counts(list string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(strings.ReplaceAll(s, "_", ""))
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive number", s)
		}
		out = append(out, n)
	}
	return out, nil
}

func writeHeap(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.Lookup("heap").WriteTo(f, 0)
}

func emit(v any, err error) error {
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(v)
}

// peakRecorder is a phase's report that holds the process's peak
// resident memory.
type peakRecorder[T any] interface {
	*T
	setPeakRSS(mib float64)
}

// emitWithPeak is emit for a phase whose report holds its peak resident
// memory: the process records its own, so a phase run directly (-phase)
// reports it as the parent does for its children (which overwrites it with
// the same figure, read from the child's rusage).
func emitWithPeak[T any, P peakRecorder[T]](v T, err error) error {
	if err != nil {
		return err
	}
	P(&v).setPeakRSS(selfPeakRSSMiB())
	return emit(v, nil)
}

// selfPeakRSSMiB is this process's peak resident memory so far, 0 when the
// kernel does not say.
func selfPeakRSSMiB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024 // KiB on Linux
}

func (r *buildResult) setPeakRSS(mib float64)    { r.PeakRSSMiB = mib }
func (r *queryResult) setPeakRSS(mib float64)    { r.PeakRSSMiB = mib }
func (r *filteredResult) setPeakRSS(mib float64) { r.PeakRSSMiB = mib }
func (r *concResult) setPeakRSS(mib float64)     { r.PeakRSSMiB = mib }

// envInt returns the integer the environment variable name holds and
// whether it is set; a value that is not an integer ends the program.
func envInt(name string) (int, bool) {
	v := os.Getenv(name)
	if v == "" {
		return 0, false
	}
	m, err := strconv.Atoi(v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fonte-scale: %s: %v\n", name, err)
		os.Exit(2)
	}
	return m, true
}

func corpus(seed uint64) *synth.Corpus {
	return synth.NewCorpus(rand.New(rand.NewPCG(seed, 1)), synth.CorpusOptions{})
}

// queryLang is the language every query is searched in: the corpus's
// (documents are English). Left to detection, most synthetic queries
// (pseudo-words of consonant-vowel syllables, "suba goda vere") read as
// decisively Italian, so their words were stemmed as Italian ("sub",
// "god"), missed the English-analysed index and left only its commonest
// words: a query no real English question makes, several times slower
// to score (the BM25 p50 of 2026-12-02 against 2026-12-01).
const queryLang = "en"

// documents draws the corpus's first n chunks as one-chunk documents; the
// same seed draws the same documents, so a larger n extends a smaller one.
func documents(c *synth.Corpus, n int) []fonte.Document {
	docs := make([]fonte.Document, n)
	for i := range docs {
		topic, text, _ := c.Chunk()
		docs[i] = fonte.Document{ID: fmt.Sprintf("t%03d/doc%07d", topic, i), Title: fmt.Sprintf("Note %d", i), Language: "en", Text: text}
	}
	return docs
}

// memoryBudget reads -memory, or the machine's default.
func memoryBudget(flagValue string) (int64, error) {
	if flagValue == "" {
		return engine.DefaultMemory(), nil
	}
	b, err := engine.ParseBytes(flagValue)
	if err != nil {
		return 0, fmt.Errorf("-memory: %w", err)
	}
	return b, nil
}

func build(dir string, n int, seed uint64, budget int64, shares []float64) (buildResult, error) {
	ctx := context.Background()
	res := buildResult{MemoryMiB: float64(budget) / (1 << 20)}
	// As the fonte command does for its indexing commands.
	debug.SetMemoryLimit(budget)
	start := time.Now()
	c := corpus(seed)
	docs := documents(c, n)
	res.Labelled = labelDocuments(docs, seed, shares)
	res.GenerateS = time.Since(start).Seconds()
	rep, took, err := indexInto(ctx, engine.Settings{IndexDir: dir, Embedder: c.Embedder(), Memory: budget}, docs)
	if err != nil {
		return res, err
	}
	res.BuildS = took
	res.Chunks = rep.Chunks
	res.DenseIndex = "exact"
	if rep.Chunks >= retrieve.HNSWMinChunks {
		res.DenseIndex = "hnsw"
	}
	res.DiskBytes, err = du(dir)
	return res, err
}

// indexInto indexes docs, whole, into the store s names, reporting its
// progress every 30 s on stderr, and returns the report and the seconds
// it took (opening the store not included).
func indexInto(ctx context.Context, s engine.Settings, docs []fonte.Document) (*engine.IndexReport, float64, error) {
	e, err := engine.Open(ctx, s, engine.OpenOptions{})
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	last := start
	rep, err := e.IndexDocuments(ctx, docs, true, func(p engine.Progress) {
		if time.Since(last) > 30*time.Second {
			last = time.Now()
			fmt.Fprintf(os.Stderr, "  %d/%d documents, %d embedded, %s\n", p.Files, p.Total, p.ChunksEmbedded, time.Since(start).Round(time.Second))
		}
	})
	took := time.Since(start).Seconds()
	if cerr := e.Close(); err == nil {
		err = cerr
	}
	return rep, took, err
}

// queryTexts draws nq queries from another stream of the corpus model.
func queryTexts(seed uint64, nq int) []string {
	qc := corpus(seed)
	for range 1000 {
		qc.Chunk() // move past the first chunks' draws
	}
	texts := make([]string, nq)
	for i := range texts {
		_, texts[i], _ = qc.Query()
	}
	return texts
}

func query(dir string, seed uint64, nq int) (queryResult, error) {
	ctx := context.Background()
	res := queryResult{Queries: nq, P50ms: map[string]float64{}, P99ms: map[string]float64{}}
	e, err := engine.Open(ctx, engine.Settings{IndexDir: dir, Embedder: corpus(seed).Embedder()}, engine.OpenOptions{ReadOnly: true})
	if err != nil {
		return res, err
	}
	defer e.Close()
	texts := queryTexts(seed, max(nq, 1))
	start := time.Now()
	if _, err := e.Search(ctx, texts[0], engine.SearchOptions{K: 10, Lang: queryLang}); err != nil {
		return res, err
	}
	res.OpenS = time.Since(start).Seconds()
	if res.OpenRSSMiB, err = residentMiB(); err != nil {
		return res, err
	}
	// The warm-up pass brings the pages the queries touch into memory and
	// the caches to their steady state; it is not timed per query.
	start = time.Now()
	for _, q := range texts {
		if _, err := e.Search(ctx, q, engine.SearchOptions{K: 10, Lang: queryLang, Mode: retrieve.Hybrid}); err != nil {
			return res, fmt.Errorf("warm-up query %q: %w", q, err)
		}
	}
	res.WarmS = time.Since(start).Seconds()
	for _, mode := range modes {
		lat := make([]float64, 0, nq)
		for _, q := range texts {
			t := time.Now()
			if _, err := e.Search(ctx, q, engine.SearchOptions{K: 10, Lang: queryLang, Mode: mode}); err != nil {
				return res, fmt.Errorf("%s query %q: %w", mode, q, err)
			}
			lat = append(lat, millis(time.Since(t)))
		}
		slices.Sort(lat)
		res.P50ms[string(mode)] = percentile(lat, 0.50)
		res.P99ms[string(mode)] = percentile(lat, 0.99)
	}
	return res, nil
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// residentMiB reads this process's resident memory (VmRSS) from
// /proc/self/status.
func residentMiB() (float64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, fmt.Errorf("reading the resident memory: %w (fonte-scale needs Linux's /proc)", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest) // "123456 kB"
			if len(f) == 2 && f[1] == "kB" {
				kib, err := strconv.ParseFloat(f[0], 64)
				if err == nil {
					return kib / 1024, nil
				}
			}
			return 0, fmt.Errorf("/proc/self/status: cannot read %q", line)
		}
	}
	return 0, fmt.Errorf("/proc/self/status has no VmRSS line")
}

// percentile is the nearest-rank percentile of sorted values.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func du(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			total += info.Size()
		}
		return err
	})
	return total, err
}

// child runs one phase in a new process and decodes its report, adding
// the process's peak resident memory.
func child(v any, rss *float64, args ...string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("%s: %w", strings.Join(args, " "), err)
	}
	if err := json.Unmarshal(out, v); err != nil {
		return fmt.Errorf("%s: %w", strings.Join(args, " "), err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		*rss = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	return nil
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}
