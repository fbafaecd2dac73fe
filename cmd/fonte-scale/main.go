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
// It prints a table (build time, peak RSS, size on disk, open time, query
// latency percentiles) and each cost's growth from one size to the next.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
}

// queryResult is what the query phase reports.
type queryResult struct {
	OpenS      float64            `json:"open_s"` // first search: load the snapshot, decode or build the search index
	Queries    int                `json:"queries"`
	P50ms      map[string]float64 `json:"p50_ms"`
	P99ms      map[string]float64 `json:"p99_ms"`
	PeakRSSMiB float64            `json:"peak_rss_mib"`
}

func main() {
	sizes := flag.String("sizes", "10000,100000,1000000", "corpus sizes in chunks, comma-separated")
	work := flag.String("work", "", "folder for the indexes (default a new temporary folder)")
	queries := flag.Int("queries", 1000, "queries per retrieval mode")
	seed := flag.Uint64("seed", 1, "corpus seed")
	phase := flag.String("phase", "", "internal: build or query, run in a child")
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
	var err error
	switch *phase {
	case "build":
		err = emit(build(*dir, *n, *seed))
	case "query":
		err = emit(query(*dir, *seed, *queries))
	case "":
		err = parent(*sizes, *work, *seed, *queries)
	default:
		err = fmt.Errorf("-phase %q: want build or query", *phase)
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

func corpus(seed uint64) *synth.Corpus {
	return synth.NewCorpus(rand.New(rand.NewPCG(seed, 1)), synth.CorpusOptions{})
}

func build(dir string, n int, seed uint64) (buildResult, error) {
	ctx := context.Background()
	var res buildResult
	start := time.Now()
	c := corpus(seed)
	docs := make([]fonte.Document, n)
	for i := range docs {
		topic, text, _ := c.Chunk()
		docs[i] = fonte.Document{ID: fmt.Sprintf("t%03d/doc%07d", topic, i), Title: fmt.Sprintf("Note %d", i), Language: "en", Text: text}
	}
	res.GenerateS = time.Since(start).Seconds()
	e, err := engine.Open(ctx, engine.Settings{IndexDir: dir, Embedder: c.Embedder()}, engine.OpenOptions{})
	if err != nil {
		return res, err
	}
	defer e.Close()
	start = time.Now()
	last := start
	rep, err := e.IndexDocuments(ctx, docs, true, func(p engine.Progress) {
		if time.Since(last) > 30*time.Second {
			last = time.Now()
			fmt.Fprintf(os.Stderr, "  %d/%d documents, %d embedded, %s\n", p.Files, p.Total, p.ChunksEmbedded, time.Since(start).Round(time.Second))
		}
	})
	if err != nil {
		return res, err
	}
	res.BuildS = time.Since(start).Seconds()
	res.Chunks = rep.Chunks
	res.DenseIndex = "exact"
	if rep.Chunks >= retrieve.HNSWMinChunks {
		res.DenseIndex = "hnsw"
	}
	res.DiskBytes, err = du(dir)
	return res, err
}

func query(dir string, seed uint64, nq int) (queryResult, error) {
	ctx := context.Background()
	res := queryResult{Queries: nq, P50ms: map[string]float64{}, P99ms: map[string]float64{}}
	c := corpus(seed)
	e, err := engine.Open(ctx, engine.Settings{IndexDir: dir, Embedder: c.Embedder()}, engine.OpenOptions{ReadOnly: true})
	if err != nil {
		return res, err
	}
	defer e.Close()
	// Queries come from another stream of the same corpus model.
	qc := synth.NewCorpus(rand.New(rand.NewPCG(seed, 1)), synth.CorpusOptions{})
	for range 1000 {
		qc.Chunk() // move past the first chunks' draws
	}
	texts := make([]string, nq)
	for i := range texts {
		_, texts[i], _ = qc.Query()
	}
	start := time.Now()
	if _, err := e.Search(ctx, texts[0], engine.SearchOptions{K: 10}); err != nil {
		return res, err
	}
	res.OpenS = time.Since(start).Seconds()
	for _, mode := range []retrieve.Mode{retrieve.Hybrid, retrieve.BM25, retrieve.Dense} {
		lat := make([]float64, 0, nq)
		for _, q := range texts {
			t := time.Now()
			if _, err := e.Search(ctx, q, engine.SearchOptions{K: 10, Mode: mode}); err != nil {
				return res, fmt.Errorf("%s query %q: %w", mode, q, err)
			}
			lat = append(lat, float64(time.Since(t).Microseconds())/1000)
		}
		slices.Sort(lat)
		res.P50ms[string(mode)] = percentile(lat, 0.50)
		res.P99ms[string(mode)] = percentile(lat, 0.99)
	}
	return res, nil
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

func parent(sizesFlag, work string, seed uint64, nq int) error {
	var sizes []int
	for _, s := range strings.Split(sizesFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(strings.ReplaceAll(s, "_", "")))
		if err != nil || n < 1 {
			return fmt.Errorf("-sizes: %q is not a positive number", s)
		}
		sizes = append(sizes, n)
	}
	if work == "" {
		var err error
		if work, err = os.MkdirTemp("", "fonte-scale-"); err != nil {
			return err
		}
	}
	fmt.Printf("fonte-scale: %d cores (GOMAXPROCS %d), %s/%s, %s, work folder %s\n", runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.Version(), work)
	type row struct {
		n int
		b buildResult
		q queryResult
	}
	var rows []row
	for _, n := range sizes {
		dir := filepath.Join(work, fmt.Sprintf("n%d", n))
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		var r row
		r.n = n
		fmt.Fprintf(os.Stderr, "%d chunks: building (load %s)\n", n, loadavg())
		if err := child(&r.b, &r.b.PeakRSSMiB, "-phase", "build", "-n", strconv.Itoa(n), "-dir", dir, "-seed", strconv.FormatUint(seed, 10)); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%d chunks: built in %.1f s; querying (load %s)\n", n, r.b.BuildS, loadavg())
		if err := child(&r.q, &r.q.PeakRSSMiB, "-phase", "query", "-dir", dir, "-seed", strconv.FormatUint(seed, 10), "-queries", strconv.Itoa(nq)); err != nil {
			return err
		}
		rows = append(rows, r)
		js, _ := json.Marshal(map[string]any{"n": n, "build": r.b, "query": r.q})
		fmt.Fprintln(os.Stderr, string(js))
	}
	fmt.Printf("\n| chunks | dense | build s | build peak RSS MiB | disk MiB | open s | query peak RSS MiB | hybrid p50 / p99 ms | bm25 p50 / p99 ms | vector p50 / p99 ms |\n")
	fmt.Printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		fmt.Printf("| %d | %s | %.1f | %.0f | %.0f | %.2f | %.0f | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f |\n",
			r.b.Chunks, r.b.DenseIndex, r.b.BuildS, r.b.PeakRSSMiB, float64(r.b.DiskBytes)/(1<<20), r.q.OpenS, r.q.PeakRSSMiB,
			r.q.P50ms["hybrid"], r.q.P99ms["hybrid"], r.q.P50ms["bm25"], r.q.P99ms["bm25"], r.q.P50ms["vector"], r.q.P99ms["vector"])
	}
	if len(rows) > 1 {
		fmt.Printf("\nGrowth from one size to the next (cost ratio for the corpus ratio):\n\n| from → to | ×chunks | build | build RSS | disk | open | hybrid p50 | hybrid p99 |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
		for i := 1; i < len(rows); i++ {
			a, b := rows[i-1], rows[i]
			ratio := func(x, y float64) string {
				if x == 0 {
					return "–"
				}
				return fmt.Sprintf("%.1f×", y/x)
			}
			fmt.Printf("| %d → %d | %s | %s | %s | %s | %s | %s | %s |\n", a.b.Chunks, b.b.Chunks,
				ratio(float64(a.b.Chunks), float64(b.b.Chunks)), ratio(a.b.BuildS, b.b.BuildS), ratio(a.b.PeakRSSMiB, b.b.PeakRSSMiB),
				ratio(float64(a.b.DiskBytes), float64(b.b.DiskBytes)), ratio(a.q.OpenS, b.q.OpenS),
				ratio(a.q.P50ms["hybrid"], b.q.P50ms["hybrid"]), ratio(a.q.P99ms["hybrid"], b.q.P99ms["hybrid"]))
		}
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
