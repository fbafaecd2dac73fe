package main

import (
	"fmt"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"
)

// part is one comparison: its engines, the phases of runs, and the rows of
// its table.
type part struct {
	id, title string
	data      string    // the dense data file, or ""
	engines   []*engine // in table order; engines[0] is fonte's
	peers     []*engine // the engines with a fonte/peer ratio column
	phases    []phase
	rows      []row
	notes     []string
	loads     map[string][]string // phase mode → load average at each run's start
	when      time.Time
	took      time.Duration
}

type phase struct {
	mode, label string
	count       int
}

// row is one measure: the value key in the outputs of the phase's runs.
type row struct {
	label, mode, key string
	keys             map[string]string // engine id → key, where it differs
	scale            float64           // multiplies the values; 0 is 1
	format           string
	better           string // "lower", "higher", or "" for no ratio
	recall           bool   // a recall: below minRecall, the engine's other ratios are left out
}

func (r row) keyOf(e *engine) string {
	if k, ok := r.keys[e.id]; ok {
		return k
	}
	return r.key
}

// run runs the part's phases: in each run every engine once, starting
// with a different engine each run.
func (p *part) run(b *bench) error {
	start := time.Now()
	p.when = start
	p.loads = map[string][]string{}
	for _, ph := range p.phases {
		var show []string
		for _, r := range p.rows {
			if r.mode == ph.mode && !slices.Contains(show, r.key) {
				show = append(show, r.key)
			}
		}
		for r := range ph.count {
			load := loadavg()
			p.loads[ph.mode] = append(p.loads[ph.mode], load)
			b.logf("%s: %s %d of %d, load average %s", p.title, ph.label, r+1, ph.count, load)
			for _, e := range rotate(p.engines, r) {
				if e.missing != "" || e.failed != "" {
					continue
				}
				t := time.Now()
				vals, err := b.exec(e, ph.mode, p.data)
				if err != nil {
					e.failed = err.Error()
					b.logf("  %-30s FAILED (skipped from now on): %v", e.name, err)
					continue
				}
				if vals["size_bytes"] > 0 && vals["raw_bytes"] > 0 {
					vals["size_per_raw"] = vals["size_bytes"] / vals["raw_bytes"]
				}
				if e.samples == nil {
					e.samples = map[string]map[string][]float64{}
				}
				if e.samples[ph.mode] == nil {
					e.samples[ph.mode] = map[string][]float64{}
				}
				var summary []string
				for k, v := range vals {
					e.samples[ph.mode][k] = append(e.samples[ph.mode][k], v)
				}
				for _, r := range p.rows {
					if v, ok := vals[r.keyOf(e)]; ok && r.mode == ph.mode && !slices.Contains(summary, r.keyOf(e)+" "+trim(v)) {
						summary = append(summary, r.keyOf(e)+" "+trim(v))
					}
				}
				b.logf("  %-30s %5.1f s  %s", e.name, time.Since(t).Seconds(), strings.Join(summary, ", "))
			}
		}
	}
	p.took = time.Since(start)
	return nil
}

func trim(v float64) string { return strconv.FormatFloat(v, 'g', 5, 64) }

// rotate returns es starting at element r mod len(es).
func rotate(es []*engine, r int) []*engine {
	r %= len(es)
	return append(slices.Clone(es[r:]), es[:r]...)
}

func (b *bench) lexicalPart(scifact string) *part {
	c := b.cfg
	args := []string{"-scifact", scifact, "-dir", b.work, "-k1", fmt.Sprint(c.k1), "-b", fmt.Sprint(c.b)}
	fonte := b.goEngine("fonte", "fonte", false, func(string) []string { return append([]string{"lexical-fonte"}, args...) })
	bleve := b.goEngine("bleve", "bleve "+moduleVersion("github.com/blevesearch/bleve/v2"), false,
		func(string) []string { return append([]string{"lexical-bleve"}, args...) })
	p := &part{
		id:      "lexical",
		title:   "lexical",
		engines: []*engine{fonte, bleve},
		peers:   []*engine{bleve},
		phases:  []phase{{"run", "run", c.runs}},
	}
	qps := func(label, key string) []row {
		return []row{
			{label: "queries/s, top 10, 1 thread, " + label, mode: "run", key: "qps10" + key, format: "%.0f", better: "higher"},
			{label: "queries/s, top 10, 1 thread, " + label + ", by CPU time", mode: "run", key: "qps10" + key + "_cpu", format: "%.0f", better: "higher"},
			{label: "queries/s, top 100, 1 thread, " + label, mode: "run", key: "qps100" + key, format: "%.0f", better: "higher"},
			{label: "queries/s, top 100, 1 thread, " + label + ", by CPU time", mode: "run", key: "qps100" + key + "_cpu", format: "%.0f", better: "higher"},
		}
	}
	p.rows = []row{
		{label: "build in memory, s (all cores)", mode: "run", key: "build_mem_s", format: "%.3f", better: "lower"},
		{label: "build in memory, s (fonte on one goroutine, bleve on all cores)", mode: "run", key: "build_mem_s", keys: map[string]string{"fonte": "build1_s"}, format: "%.3f", better: "lower"},
		{label: "index memory built in memory, MB (growth of the live Go heap)", mode: "run", key: "mem_heap_bytes", scale: 1e-6, format: "%.2f", better: "lower"},
		{label: "build written to disk with fsync, s (all cores)", mode: "run", key: "build_disk_s", format: "%.3f", better: "lower"},
		{label: "index size on disk, MB", mode: "run", key: "size_bytes", scale: 1e-6, format: "%.2f", better: "lower"},
		{label: "index size on disk / raw title+text", mode: "run", key: "size_per_raw", format: "%.3f", better: "lower"},
		{label: "open from disk, ms", mode: "run", key: "open_s", scale: 1e3, format: "%.2f", better: "lower"},
		{label: "index memory opened from disk, MB (growth of the live Go heap)", mode: "run", key: "open_heap_bytes", scale: 1e-6, format: "%.2f", better: "lower"},
	}
	p.rows = append(p.rows, qps("built in memory", "_mem")...)
	p.rows = append(p.rows, qps("opened from disk", "")...)
	p.rows = append(p.rows,
		row{label: "nDCG@10 (opened from disk)", mode: "run", key: "ndcg10", format: "%.4f", better: "higher"},
		row{label: "recall@100 (opened from disk)", mode: "run", key: "recall100", format: "%.4f", better: "higher", recall: true},
	)
	p.notes = []string{
		fmt.Sprintf("BEIR SciFact, 5,183 documents (title, blank line, text), the 300 test queries; BM25 k1 = %g, b = %g in both engines. "+
			"fonte: `analysis.English()`, `lexical.NewIndexParallel` on GOMAXPROCS goroutines (and on one) + `NewBM25Index`, queries `TopK`. "+
			"bleve: scorch, the `en` analyzer, `ScoringModel = \"bm25\"`, one unstored field, batches of 1,000; "+
			"bleve's disjunction multiplies each score by a coordination factor, so its ranking is not plain BM25.", c.k1, c.b),
		"Each comparison is like for like. **In memory**: fonte's build as `retrieve` makes it (no file); bleve `bleve.NewUsing(\"\", mapping, scorch, scorch, nil)`, a scorch index with no path, whose segments stay in memory (no persister, no merger: one segment per batch). " +
			"**On disk**: fonte builds, encodes (`BM25.MarshalBinary`), writes one file and fsyncs it; bleve `bleve.New` on a folder, batches, `Close`, which persists and fsyncs its segments and root. " +
			"The size is the file and the folder; opening is `os.ReadFile` + `lexical.DecodeBM25` for fonte and `bleve.Open` for bleve. " +
			"Index memory is the growth of the live Go heap (after two collections) over the build or the open, with the index held: bleve's opened segments are memory-mapped files, outside the Go heap (at most the 3.7 MB folder once read). nDCG@10 and recall@100 are measured on the index opened from disk.",
		"Query rates are passes over the 300 queries on one thread (GOMAXPROCS 1), query analysis included, as many as take 0.3 s, after a pass over all queries at top 100 that warms the caches (and computes the metrics).",
		"Build: fonte and bleve are both " + goBuild() + ".",
	}
	return p
}

func (b *bench) flatPart(data string, faiss *engine) *part {
	c := b.cfg
	args := func(w string) func(string) []string {
		return func(string) []string { return []string{w, "-data", "DATA", "-single", strconv.Itoa(c.single)} }
	}
	fonte := b.goEngine("fonte", "fonte Flat (int8 copy scanned, float32 re-score)", true, args("flat-fonte"))
	f32 := b.goEngine("fonte-f32", "fonte Flat, float32 only (NoInt8)", true, args("flat-fonte-f32"))
	int8 := b.goEngine("fonte-int8", "fonte FlatInt8 (exact)", true, args("flat-fonte-int8"))
	chromem := b.goEngine("chromem", "chromem-go "+moduleVersion("github.com/philippgille/chromem-go"), true, args("flat-chromem"))
	p := &part{
		id:      "flat",
		title:   "flat",
		data:    data,
		engines: []*engine{fonte, faiss, chromem, f32, int8},
		peers:   []*engine{faiss, chromem},
		phases:  []phase{{"run", "run", c.runs}},
	}
	noBLAS := map[string]string{"faiss": "single_blas_qps", "chromem": "-", "fonte-int8": "-", "fonte-f32": "-"}
	noBLASCPU := map[string]string{"faiss": "single_blas_qps_cpu", "chromem": "-", "fonte-int8": "-", "fonte-f32": "-"}
	p.rows = []row{
		{label: "single-query QPS", mode: "run", key: "single_qps", format: "%.1f", better: "higher"},
		{label: "single-query QPS, by CPU time", mode: "run", key: "single_qps_cpu", format: "%.1f", better: "higher"},
		{label: "single-query QPS, FAISS through BLAS (distance_compute_blas_threshold 1)", mode: "run", key: "single_qps", keys: noBLAS, format: "%.1f", better: "higher"},
		{label: "single-query QPS, FAISS through BLAS, by CPU time", mode: "run", key: "single_qps_cpu", keys: noBLASCPU, format: "%.1f", better: "higher"},
		{label: fmt.Sprintf("batch-%d QPS", c.queries), mode: "run", key: "batch_qps", format: "%.1f", better: "higher"},
		{label: fmt.Sprintf("batch-%d QPS, by CPU time", c.queries), mode: "run", key: "batch_qps_cpu", format: "%.1f", better: "higher"},
		{label: "add all vectors, s", mode: "run", key: "add_s", format: "%.3f", better: "lower"},
		{label: "memory, B/vector (growth of the resident set)", mode: "run", key: "rss_bytes_per_vector", format: "%.0f", better: "lower"},
		{label: "memory, B/vector (growth of the live Go heap)", mode: "run", key: "heap_bytes_per_vector", format: "%.0f", better: "lower"},
		{label: "recall@10 vs float64 exact", mode: "run", key: "recall", format: "%.4f", better: "higher", recall: true},
	}
	p.notes = []string{
		fmt.Sprintf("%s × %d vectors, top 10, one thread (GOMAXPROCS=1; OMP/OpenBLAS threads 1). Single-query: the first %d queries one call each; batch: all %d queries in one call.",
			thousands(c.n), denseDim, c.single, c.queries),
		"fonte Flat (`vector.NewFlat`) keeps the float32 rows and an int8 copy of them (codes padded to a multiple of 64 bytes, a float32 scale and an int32 code sum a row: dim + 8 bytes at dimension 384): one query at a time it scans the codes and re-scores in float32 every row a proven error bound cannot rule out, so it returns the float32 scan's results; its batch search reads the float32 rows. " +
			"fonte Flat, float32 only is `vector.NewFlatWith(dim, vector.FlatOptions{NoInt8: true})`: the float32 rows and nothing else (4·dim bytes a vector beside the ids), every search a float32 scan, the same results as Flat; its batch search is Flat's. " +
			"fonte FlatInt8 (exact) is `vector.NewFlatInt8` with `KeepFloat`: the same int8 copy and float32 rows, the same results as Flat, its batch search on the codes too. The fonte columns other than Flat have no ratio column.",
		"Memory: the growth over creating the index and adding every vector, per vector, with the data already loaded: the live Go heap after a collection and the resident set after one that returns freed memory (Go engines), the resident set of the Python process (FAISS). chromem-go keeps the embedding slice of each document it is given, so the copies made for it count as its memory. The float32 vector alone is 1,536 bytes at dimension 384.",
		"chromem-go has no batch search (—); its recall is over the queries it searched one at a time.",
		"Build: fonte and chromem-go are " + goBuild() + ". " +
			"FAISS is Debian's python3-faiss (its compile options as FAISS reports them below: `OPTIMIZE GENERIC` is the build without AVX2 kernels, for any x86-64), calling BLAS through Debian's libblas.so.3 alternative (OpenBLAS, libopenblas0-pthread, built by Debian with DYNAMIC_ARCH: its kernels are chosen at run time, or by OPENBLAS_CORETYPE, the core reported below).",
	}
	return p
}

func (b *bench) hnswPart(data string, native, py *engine) *part {
	c := b.cfg
	hnswArgs := func(w, index string) func(string) []string {
		return func(mode string) []string {
			return []string{w, "-mode", mode, "-data", "DATA", "-index", index, "-m", "16", "-efc", "200",
				"-passes", strconv.Itoa(c.passes), "-ef", "32,64,128"}
		}
	}
	fonteIdx := b.work + "/fonte-hnsw.idx"
	coderIdx := b.work + "/coder-hnsw.idx"
	fonte := b.goEngine("fonte", "fonte HNSW", true, hnswArgs("hnsw-fonte", fonteIdx))
	fonte.index = fonteIdx
	coder := b.goEngine("coder", "coder/hnsw "+moduleVersion("github.com/coder/hnsw"), true, hnswArgs("hnsw-coder", coderIdx))
	coder.index = coderIdx
	p := &part{
		id:      "hnsw",
		title:   "hnsw",
		data:    data,
		engines: []*engine{fonte, native, py, coder},
		peers:   []*engine{native, py, coder},
		phases:  []phase{{"build", "build", c.builds}, {"search", "search", c.runs}},
	}
	p.rows = []row{
		{label: "build, s", mode: "build", key: "build_s", format: "%.2f", better: "lower"},
		{label: "build, s, by CPU time", mode: "build", key: "build_cpu_s", format: "%.2f", better: "lower"},
		{label: "memory, B/vector (growth of the resident set)", mode: "build", key: "rss_bytes_per_vector", format: "%.0f", better: "lower"},
		{label: "memory, B/vector (growth of the live Go heap)", mode: "build", key: "heap_bytes_per_vector", format: "%.0f", better: "lower"},
	}
	for _, ef := range []int{32, 64, 128} {
		k := fmt.Sprintf("ef%d.", ef)
		p.rows = append(p.rows,
			row{label: fmt.Sprintf("ef %d: recall@10", ef), mode: "search", key: k + "recall", format: "%.4f", better: "higher", recall: true},
			row{label: fmt.Sprintf("ef %d: QPS", ef), mode: "search", key: k + "qps", format: "%.0f", better: "higher"},
			row{label: fmt.Sprintf("ef %d: QPS, by CPU time", ef), mode: "search", key: k + "qps_cpu", format: "%.0f", better: "higher"},
		)
	}
	p.notes = []string{
		fmt.Sprintf("%s × %d vectors, %d queries, M = 16, efConstruction = 200, one thread (GOMAXPROCS=1, num_threads=1), one query per call; each search run loads the index the last build saved and times %d pass(es) over the queries at each ef.",
			thousands(c.n), denseDim, c.queries, c.passes),
		"fonte: `vector.NewHNSW` with Capacity = n, `Add`, `SearchEf`. hnswlib native: Debian's libhnswlib-dev headers, `g++ -O3 -march=native` (bench/hnswpeer/peer.cpp), inner-product space. " +
			"hnswlib Python: Debian's python3-hnswlib (built for any x86-64), one `knn_query` call per query. " +
			"coder/hnsw: `Graph[uint32]`, M = 16, its default Ml 0.25, EfSearch 200 while building (it has no separate efConstruction) then ef, distance 1 − vek32.Dot (its cosine distance on unit vectors, without the norms); each vector is a copy the graph keeps.",
		"Memory: the resident set's growth over the build per vector (for Go after a collection that returns freed memory), and for the Go engines the live heap's growth, the more exact figure.",
		"Build: fonte and coder/hnsw are " + goBuild() + ". " +
			fmt.Sprintf("hnswlib native: peer.cpp compiled here by `g++ -O3 -march=native -std=c++17` (g++ %s) against Debian's header-only libhnswlib-dev, so its distance kernels use this CPU's widest SIMD. ", orNone(b.machine["gxx"])) +
			"hnswlib Python: Debian's prebuilt python3-hnswlib extension; upstream's setup.py compiles with `-O3 -march=native`, which Debian removes (its changelog: \"Remove -march=native flags\", bug 974043), so it is built for baseline x86-64 (SSE2) with Debian's default flags, and hnswlib's AVX paths, chosen at compile time, are not in it.",
	}
	return p
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// stats returns the median, minimum and maximum of vs.
func stats(vs []float64) (med, lo, hi float64) {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	med = s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return med, s[0], s[n-1]
}

func (p *part) median(e *engine, r row) (float64, bool) {
	vs := e.samples[r.mode][r.keyOf(e)]
	if e.missing != "" || len(vs) == 0 {
		return 0, false
	}
	m, _, _ := stats(vs)
	if r.scale != 0 {
		m *= r.scale
	}
	return m, true
}

func (p *part) cell(e *engine, r row) string {
	if e.missing != "" {
		return "missing"
	}
	vs := e.samples[r.mode][r.keyOf(e)]
	if len(vs) == 0 {
		if e.failed != "" {
			return "failed"
		}
		return "—"
	}
	med, lo, hi := stats(vs)
	scale := r.scale
	if scale == 0 {
		scale = 1
	}
	s := fmt.Sprintf(r.format, med*scale)
	if lo != hi && fmt.Sprintf(r.format, lo*scale) != fmt.Sprintf(r.format, hi*scale) {
		s += fmt.Sprintf(" ("+r.format+"–"+r.format+")", lo*scale, hi*scale)
	}
	return s
}

// table renders the part's Markdown table.
func (p *part) table() string {
	var sb strings.Builder
	head := []string{"measure", "better"}
	for _, e := range p.engines {
		head = append(head, e.name)
	}
	main := p.engines[0]
	for _, e := range p.peers {
		head = append(head, main.id+"/"+shortName(e))
	}
	sb.WriteString("| " + strings.Join(head, " | ") + " |\n|")
	for i := range head {
		if i < 2 {
			sb.WriteString(" --- |")
		} else {
			sb.WriteString(" ---: |")
		}
	}
	sb.WriteString("\n")
	broken := p.brokenPeers()
	for _, r := range p.rows {
		cells := []string{r.label, r.better}
		measured := false
		for _, e := range p.engines {
			c := p.cell(e, r)
			measured = measured || (c != "—" && c != "missing" && c != "failed")
			cells = append(cells, c)
		}
		if !measured {
			continue
		}
		for _, e := range p.peers {
			a, ok1 := p.median(main, r)
			bv, ok2 := p.median(e, r)
			if r.better == "" || !ok1 || !ok2 || bv == 0 || (broken[e] != "" && !r.recall) {
				cells = append(cells, "—")
				continue
			}
			cells = append(cells, fmt.Sprintf("%.2f", a/bv))
		}
		sb.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	return sb.String()
}

// minRecall is the least recall at which a peer's speed and size are
// compared with fonte's: below it the peer does not find what the search
// is for, and a ratio would compare fonte with a search that fails.
const minRecall = 0.5

// brokenPeers returns, for each peer with a recall row whose median is
// below minRecall, which row and value: the peer's ratios are left out on
// every other row (and the report says why).
func (p *part) brokenPeers() map[*engine]string {
	out := map[*engine]string{}
	for _, e := range p.peers {
		for _, r := range p.rows {
			if v, ok := p.median(e, r); ok && r.recall && v < minRecall && out[e] == "" {
				out[e] = fmt.Sprintf("%s %.4f", r.label, v)
			}
		}
	}
	return out
}

// brokenNote says which ratio columns are left out and why, or "".
func (p *part) brokenNote() string {
	broken := p.brokenPeers()
	var notes []string
	for _, e := range p.peers {
		if why := broken[e]; why != "" {
			notes = append(notes, fmt.Sprintf("%s/%s: %s's %s is below %.1f, so its speed and memory compare a search that does not find the nearest neighbours; only the recall rows keep the ratio", p.engines[0].id, shortName(e), e.name, why, minRecall))
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return "Ratios left out (—): " + strings.Join(notes, "; ") + "."
}

// shortName is the engine's name without its version, for ratio headers.
func shortName(e *engine) string {
	switch e.id {
	case "faiss":
		return "FAISS"
	case "chromem":
		return "chromem-go"
	case "coder":
		return "coder"
	case "hnswlib-py":
		return "hnswlib-py"
	}
	return e.id
}

// partOrder is the order of the parts in the report.
var partOrder = []string{"lexical", "flat", "hnsw", "stores"}

// report renders the results: a header on the machine, the versions and
// the method, and one block for each part run.
func (b *bench) report() (header string, blocks map[string]string) {
	c, m := b.cfg, b.machine
	var sb strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&sb, format, args...) }
	w("## Results\n\n")
	w("- Machine: %s (family %s, model %s), %s cores, %s RAM, %s; SIMD: %s.\n", m["cpu"], m["family"], m["model"], m["cores"], m["ram"], m["kernel"], m["simd"])
	w("- Go: %s. Go peers: bleve %s, coder/hnsw %s, chromem-go %s.\n", m["go"], moduleVersion("github.com/blevesearch/bleve/v2"),
		moduleVersion("github.com/coder/hnsw"), moduleVersion("github.com/philippgille/chromem-go"))
	w("- Native and Python peers (Debian packages): libhnswlib-dev %s with g++ %s; python3-hnswlib %s; python3-faiss %s with OpenBLAS %s; %s.\n",
		orNone(dpkgVersion("libhnswlib-dev")), orNone(m["gxx"]), orNone(dpkgVersion("python3-hnswlib")),
		orNone(dpkgVersion("python3-faiss")), orNone(m["openblas"]), orNone(m["python"]))
	w("- Environment of every run: %s; one-thread runs also GOMAXPROCS=1%s.\n", strings.Join(b.env, " "),
		map[bool]string{true: ", pinned with taskset -c " + c.taskset, false: ""}[c.taskset != ""])
	w("- Cells are medians (min–max) of the runs; ratios are fonte's median over the peer's: below 1 is better for fonte where lower is better, above 1 where higher is.\n")
	header = sb.String()

	blocks = map[string]string{}
	for _, p := range b.parts {
		sb.Reset()
		w("### %s\n\n", map[string]string{"lexical": "Lexical: BM25 on BEIR SciFact", "flat": "Exact dense search", "hnsw": "HNSW",
			"stores": "Stores: one SciFact index on every backend"}[p.id])
		w("Run %s by `cd bench && %s` on fonte %s; the part took %s.\n", p.when.UTC().Format("2006-01-02 15:04 MST"),
			strings.Join(append([]string{"go run ."}, c.args...), " "), b.commit, p.took.Round(time.Second))
		w("Machine: %s (family %s, model %s), %s cores, %s RAM, %s; %s.\n", m["cpu"], m["family"], m["model"], m["cores"], m["ram"], m["kernel"], m["go"])
		for _, ph := range p.phases {
			what := map[string]string{"run": "runs", "build": "builds", "search": "search runs"}[ph.mode]
			if ph.count == 1 {
				what = strings.TrimSuffix(what, "s")
			}
			w("%d %s of each engine; load average (1, 5, 15 min) at the start of each: %s.\n",
				ph.count, what, strings.Join(p.loads[ph.mode], "; "))
		}
		for _, e := range p.engines {
			if e.missing != "" {
				w("**%s missing**: %s.\n", e.name, e.missing)
			} else if e.failed != "" {
				w("**%s failed**: %s.\n", e.name, e.failed)
			}
		}
		w("\n%s\n", p.table())
		if n := p.brokenNote(); n != "" {
			w("%s\n\n", n)
		}
		for _, n := range p.notes {
			w("%s\n\n", n)
		}
		for _, e := range p.engines {
			if e.id == "faiss" && e.info != nil {
				w("FAISS reported: faiss %s (compile options %s), NumPy %s, OpenBLAS core %s.\n\n", e.info["faiss"], e.info["compile"], e.info["numpy"], e.info["openblas_core"])
			}
		}
		blocks[p.id] = sb.String()
	}
	return header, blocks
}

func orNone(s string) string {
	if s == "" {
		return "(not installed)"
	}
	return s
}

// goBuild states how this binary, and so fonte and every Go peer in it,
// was compiled: the Go version and the build settings that change code
// generation (GOAMD64, CGO_ENABLED, -tags, -gcflags), as recorded in the
// binary.
func goBuild() string {
	set := map[string]string{"GOAMD64": "v1 (default)", "CGO_ENABLED": "unknown", "-tags": "none", "-gcflags": "none"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if _, want := set[s.Key]; want && s.Value != "" {
				set[s.Key] = s.Value
			}
		}
	}
	return fmt.Sprintf("compiled into the bench binary by `go run .` with %s, GOAMD64=%s, CGO_ENABLED=%s, build tags %s, gcflags %s "+
		"(fonte's SIMD kernels are assembly chosen at run time by CPUID, whatever GOAMD64 is)",
		runtime.Version(), set["GOAMD64"], set["CGO_ENABLED"], set["-tags"], set["-gcflags"])
}

// gitDescribe names the fonte commit measured.
func gitDescribe() string {
	out, err := exec.Command("git", "-C", "..", "describe", "--always", "--dirty").Output()
	if err != nil {
		return "commit unknown"
	}
	s := strings.TrimSpace(string(out))
	if strings.HasSuffix(s, "-dirty") {
		return "commit " + strings.TrimSuffix(s, "-dirty") + " with uncommitted changes"
	}
	return "commit " + s
}
