package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// options are the parent's flags.
type options struct {
	sizes, work, json, conc string
	filters                 string // -filters, handed to the build, filtered and concurrency phases
	filterQueries           int
	memory                  string // -memory, handed to the build
	stores                  string // -stores: the store phase's servers
	storeQueries            int    // -store-queries, handed to the store phase
	seed                    uint64
	queries                 int
	goroutines              []int
	duration, slice         time.Duration
}

// sizeResult is everything measured at one corpus size: the JSON line
// written per size, and the source of every table.
type sizeResult struct {
	N           int         `json:"n"`
	Cores       int         `json:"cores"`
	GOMAXPROCS  int         `json:"gomaxprocs"`
	Build       buildResult `json:"build"`
	Query       queryResult `json:"query"`
	Concurrency *concResult `json:"concurrency,omitempty"`
	// Filtered is the restricted readers' figures (-filters).
	Filtered *filteredResult `json:"filtered,omitempty"`
	// Stores is the same readers on the PostgreSQL and Redis stores
	// (-stores).
	Stores []storeResult `json:"stores,omitempty"`
	// Load is the load average ("1-min 5-min 15-min") at the start and
	// end of each phase: the machine may be shared.
	Load map[string][2]string `json:"load"`
}

// phase runs one child phase, noting the load average around it.
func (r *sizeResult) phase(name string, v any, rss *float64, args ...string) error {
	before := loadavg()
	err := child(v, rss, append([]string{"-phase", name}, args...)...)
	r.Load[name] = [2]string{before, loadavg()}
	return err
}

func parent(o options) error {
	sizes, err := counts(o.sizes)
	if err != nil || len(sizes) == 0 {
		return fmt.Errorf("-sizes %q: want positive numbers, comma-separated", o.sizes)
	}
	if o.work == "" {
		if o.work, err = os.MkdirTemp("", "fonte-scale-"); err != nil {
			return err
		}
	}
	var jf *os.File
	if o.json != "" {
		if jf, err = os.OpenFile(o.json, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err != nil {
			return fmt.Errorf("-json: %w", err)
		}
		defer jf.Close()
	}
	fmt.Printf("fonte-scale: %d cores (GOMAXPROCS %d), %s/%s, %s, load average %s, work folder %s\n",
		runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.Version(), loadavg(), o.work)
	seed := strconv.FormatUint(o.seed, 10)
	if strings.TrimSpace(o.stores) != "" && o.filters == "" {
		return fmt.Errorf("-stores needs -filters: the store phase measures restricted readers")
	}
	servers, stop, err := storeServers(o.stores)
	defer stop()
	if err != nil {
		return err
	}
	var rows []sizeResult
	for _, n := range sizes {
		dir := filepath.Join(o.work, fmt.Sprintf("n%d", n))
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		r := sizeResult{N: n, Cores: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), Load: map[string][2]string{}}
		fmt.Fprintf(os.Stderr, "%d chunks: building (load %s)\n", n, loadavg())
		if err := r.phase("build", &r.Build, &r.Build.PeakRSSMiB, "-n", strconv.Itoa(n), "-dir", dir, "-seed", seed, "-memory", o.memory, "-filters", o.filters); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%d chunks: built in %.1f s; querying (load %s)\n", n, r.Build.BuildS, loadavg())
		if err := r.phase("query", &r.Query, &r.Query.PeakRSSMiB, "-dir", dir, "-seed", seed, "-queries", strconv.Itoa(o.queries)); err != nil {
			return err
		}
		if o.filters != "" {
			fmt.Fprintf(os.Stderr, "%d chunks: restricted readers (load %s)\n", n, loadavg())
			r.Filtered = &filteredResult{}
			if err := r.phase("filtered", r.Filtered, &r.Filtered.PeakRSSMiB, "-dir", dir, "-seed", seed,
				"-filters", o.filters, "-filter-queries", strconv.Itoa(o.filterQueries)); err != nil {
				return err
			}
			if err := r.storePhases(servers, o, dir); err != nil {
				return err
			}
		}
		if len(o.goroutines) > 0 {
			fmt.Fprintf(os.Stderr, "%d chunks: concurrent queries and a writer (load %s)\n", n, loadavg())
			r.Concurrency = &concResult{}
			if err := r.phase("concurrency", r.Concurrency, &r.Concurrency.PeakRSSMiB, "-n", strconv.Itoa(n), "-dir", dir, "-seed", seed,
				"-queries", strconv.Itoa(o.queries), "-memory", o.memory, "-concurrency", o.conc, "-duration", o.duration.String(), "-slice", o.slice.String(), "-filters", o.filters); err != nil {
				return err
			}
		}
		rows = append(rows, r)
		js, err := json.Marshal(r)
		if err != nil {
			return err
		}
		fmt.Println(string(js))
		if jf != nil {
			if _, err := fmt.Fprintln(jf, string(js)); err != nil {
				return fmt.Errorf("-json: %w", err)
			}
		}
	}
	printLoad(rows)
	printCosts(rows)
	printGrowth(rows)
	for _, r := range rows {
		printFiltered(r)
		printStores(r)
		printConcurrency(r)
	}
	return nil
}

// cost is one column of the cost table and one row of the growth table.
type cost struct {
	name string
	get  func(sizeResult) float64
	form string
}

var costs = []cost{
	{"build s", func(r sizeResult) float64 { return r.Build.BuildS }, "%.1f"},
	{"build peak RSS MiB", func(r sizeResult) float64 { return r.Build.PeakRSSMiB }, "%.0f"},
	{"disk MiB", func(r sizeResult) float64 { return float64(r.Build.DiskBytes) / (1 << 20) }, "%.0f"},
	{"open s", func(r sizeResult) float64 { return r.Query.OpenS }, "%.3f"},
	{"open RSS MiB", func(r sizeResult) float64 { return r.Query.OpenRSSMiB }, "%.0f"},
	{"query peak RSS MiB", func(r sizeResult) float64 { return r.Query.PeakRSSMiB }, "%.0f"},
	{"hybrid p50 ms", func(r sizeResult) float64 { return r.Query.P50ms["hybrid"] }, "%.2f"},
	{"hybrid p99 ms", func(r sizeResult) float64 { return r.Query.P99ms["hybrid"] }, "%.2f"},
	{"bm25 p50 ms", func(r sizeResult) float64 { return r.Query.P50ms["bm25"] }, "%.2f"},
	{"bm25 p99 ms", func(r sizeResult) float64 { return r.Query.P99ms["bm25"] }, "%.2f"},
	{"vector p50 ms", func(r sizeResult) float64 { return r.Query.P50ms["vector"] }, "%.2f"},
	{"vector p99 ms", func(r sizeResult) float64 { return r.Query.P99ms["vector"] }, "%.2f"},
}

func printCosts(rows []sizeResult) {
	head, rule := []string{"chunks", "dense"}, []string{"---:", "---"}
	for _, c := range costs {
		head, rule = append(head, c.name), append(rule, "---:")
	}
	fmt.Printf("\n| %s |\n|%s|\n", strings.Join(head, " | "), strings.Join(rule, "|"))
	for _, r := range rows {
		cells := []string{strconv.Itoa(r.Build.Chunks), r.Build.DenseIndex}
		for _, c := range costs {
			cells = append(cells, fmt.Sprintf(c.form, c.get(r)))
		}
		fmt.Printf("| %s |\n", strings.Join(cells, " | "))
	}
	fmt.Printf("\n(warm-up before the timed queries: %s; %d queries per mode)\n", joinRows(rows, func(r sizeResult) string {
		return fmt.Sprintf("%.2f s at %d", r.Query.WarmS, r.Build.Chunks)
	}), rows[0].Query.Queries)
}

// printGrowth prints each cost's ratio from one size to the next and its
// growth exponent: log(cost ratio) / log(chunk ratio), 1 for linear growth,
// above 1 for faster than linear.
func printGrowth(rows []sizeResult) {
	if len(rows) < 2 {
		return
	}
	head, rule := []string{"cost"}, []string{"---"}
	for i := 1; i < len(rows); i++ {
		head = append(head, fmt.Sprintf("%d → %d", rows[i-1].Build.Chunks, rows[i].Build.Chunks))
		rule = append(rule, "---:")
	}
	fmt.Printf("\nGrowth from one size to the next: cost ratio (exponent: 1 linear, above 1 faster than linear)\n\n| %s |\n|%s|\n",
		strings.Join(head, " | "), strings.Join(rule, "|"))
	line := func(name string, get func(sizeResult) float64) {
		cells := []string{name}
		for i := 1; i < len(rows); i++ {
			cells = append(cells, growth(get(rows[i-1]), get(rows[i]), float64(rows[i].Build.Chunks)/float64(rows[i-1].Build.Chunks)))
		}
		fmt.Printf("| %s |\n", strings.Join(cells, " | "))
	}
	line("chunks", func(r sizeResult) float64 { return float64(r.Build.Chunks) })
	for _, c := range costs {
		line(c.name, c.get)
	}
}

func growth(a, b, chunks float64) string {
	if a <= 0 || b <= 0 {
		return "–"
	}
	if chunks <= 1 {
		return fmt.Sprintf("%.1f×", b/a)
	}
	return fmt.Sprintf("%.1f× (^%.2f)", b/a, math.Log(b/a)/math.Log(chunks))
}

func printLoad(rows []sizeResult) {
	fmt.Printf("\nMachine: %d cores, GOMAXPROCS %d; load average (1, 5, 15 min) at the start → end of each phase:\n\n| chunks | build | query | filtered | concurrency |\n|---:|---|---|---|---|\n",
		rows[0].Cores, rows[0].GOMAXPROCS)
	for _, r := range rows {
		cells := []string{strconv.Itoa(r.N)}
		for _, p := range []string{"build", "query", "filtered", "concurrency"} {
			if l, ok := r.Load[p]; ok {
				cells = append(cells, l[0]+" → "+l[1])
			} else {
				cells = append(cells, "–")
			}
		}
		fmt.Printf("| %s |\n", strings.Join(cells, " | "))
	}
}

func printConcurrency(r sizeResult) {
	c := r.Concurrency
	if c == nil {
		return
	}
	fmt.Printf("\nConcurrent queries at %d chunks: %.1f s per cell idle; then a writer adding %d documents (%.2f s, %d chunks after) while the cells take %.2f s turns\n\n",
		r.Build.Chunks, c.DurationS, c.Added, c.WriterS, c.ChunksAfter, c.SliceS)
	fmt.Printf("| mode | goroutines | QPS idle | p99 idle ms | max idle ms | QPS during write | p99 during write ms | max during write ms | turns during write | whole turn during write |\n")
	fmt.Printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, x := range c.Cells {
		full := "no"
		if x.FullOverlap {
			full = "yes"
		}
		fmt.Printf("| %s | %d | %.0f | %.2f | %.2f | %.0f | %.2f | %.2f | %d | %s |\n", x.Mode, x.Goroutines,
			x.IdleQPS, x.IdleP99ms, x.IdleMaxms, x.WriteQPS, x.WriteP99ms, x.WriteMaxms, x.WriteTurns, full)
	}
	// A query that waited for the writer's commit would take about as long
	// as the writer: the longest query during the write is the evidence.
	var idle, write concCell
	for _, x := range c.Cells {
		if x.IdleMaxms > idle.IdleMaxms {
			idle = x
		}
		if x.WriteMaxms > write.WriteMaxms {
			write = x
		}
	}
	fmt.Printf("\nLongest query during the write: %.1f ms (%s × %d, begun %.2f s into the write), %.1f%% of the writer's %.2f s; longest with no writer: %.1f ms (%s × %d); %d of %d cells ran a whole turn during the write\n",
		write.WriteMaxms, write.Mode, write.Goroutines, write.WriteMaxAtS, 100*write.WriteMaxms/1000/max(c.WriterS, 1e-9), c.WriterS,
		idle.IdleMaxms, idle.Mode, idle.Goroutines, fullCells(c.Cells), len(c.Cells))
}

func joinRows(rows []sizeResult, f func(sizeResult) string) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = f(r)
	}
	return strings.Join(parts, ", ")
}

// printFiltered prints each reader's latencies beside the unrestricted
// reader's, and its dense leg's recall@10 against the exact scan.
func printFiltered(r sizeResult) {
	f := r.Filtered
	if f == nil || len(f.Readers) == 0 {
		return
	}
	fmt.Printf("\nRestricted readers at %d chunks (%d queries per mode and reader; a reader holds one label, every document carries %q and the labels of its shares):\n\n",
		r.Build.Chunks, f.Queries, staffLabel)
	printReaders(r, f)
}

// printReaders prints the table of f's readers over r's corpus.
func printReaders(r sizeResult, f *filteredResult) {
	fmt.Printf("| reader | documents readable | hybrid p50 ms | hybrid p99 ms | bm25 p50 ms | bm25 p99 ms | vector p50 ms | vector p99 ms | vector recall@10 | vector p99 / unrestricted |\n")
	fmt.Printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	base := f.Readers[0].P99ms["vector"]
	for _, x := range f.Readers {
		name, readable := "unrestricted", r.Build.Chunks
		if x.Label != "" {
			name, readable = x.Label, r.Build.Labelled[x.Label]
		}
		fmt.Printf("| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.3f | %.1f× |\n", name, readable,
			x.P50ms["hybrid"], x.P99ms["hybrid"], x.P50ms["bm25"], x.P99ms["bm25"], x.P50ms["vector"], x.P99ms["vector"],
			x.DenseRecall, x.P99ms["vector"]/max(base, 1e-9))
	}
}
