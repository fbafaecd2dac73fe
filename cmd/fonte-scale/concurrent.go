package main

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"runtime/trace"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/retrieve"
)

// concResult is what the concurrency phase reports.
type concResult struct {
	// Added is how many new documents the writer added (1% of the index,
	// at least one); ChunksAfter is the index's size once it committed.
	Added       int     `json:"added"`
	ChunksAfter int     `json:"chunks_after"`
	WriterS     float64 `json:"writer_s"` // the incremental IndexDocuments run, commit and derived indexes included
	// WriterStart is when the writer began (Unix seconds), the origin of
	// each slow query's at_s: a trace taken outside the process, such as
	// another program's wake-ups, can be lined up with the queries.
	WriterStart float64 `json:"writer_start_unix"`
	DurationS   float64 `json:"duration_s"`
	SliceS      float64 `json:"slice_s"`
	// Cells has one entry per mode and goroutine count, in table order.
	Cells      []concCell `json:"cells"`
	PeakRSSMiB float64    `json:"peak_rss_mib"`
	// Slowest are the longest queries during the write, longest first.
	Slowest []slowQuery `json:"slowest"`
	// Runtime is what the Go runtime and the kernel counted while the
	// writer ran: where a slow query's time can have gone.
	Runtime runtimeCounts `json:"runtime"`
}

// slowQuery is one query during the write: when it began, in seconds
// from the writer's start, and how long it took.
type slowQuery struct {
	Mode       string  `json:"mode"`
	Goroutines int     `json:"goroutines"`
	AtS        float64 `json:"at_s"`
	Ms         float64 `json:"ms"`
}

// slowestKept is how many of the longest queries the report lists.
const slowestKept = 20

// concCell is one mode and goroutine count, idle and during the write.
type concCell struct {
	Mode       string `json:"mode"`
	Goroutines int    `json:"goroutines"`
	idle       sample
	write      sample
	// The exported figures, filled from idle and write by finish.
	IdleQueries  int     `json:"idle_queries"`
	IdleQPS      float64 `json:"idle_qps"`
	IdleP99ms    float64 `json:"idle_p99_ms"`
	IdleMaxms    float64 `json:"idle_max_ms"`
	WriteQueries int     `json:"write_queries"`
	WriteQPS     float64 `json:"write_qps"`
	WriteP50ms   float64 `json:"write_p50_ms"`
	WriteP99ms   float64 `json:"write_p99_ms"`
	WriteP999ms  float64 `json:"write_p999_ms"`
	WriteMaxms   float64 `json:"write_max_ms"`
	// WriteMaxAtS is when the longest query during the write began, in
	// seconds from the writer's start: with WriterS, it shows whether that
	// query waited on the commit or on building the new generation's index.
	WriteMaxAtS float64 `json:"write_max_at_s"`
	// WriteTurns counts this cell's turns that began while the writer ran;
	// FullOverlap says whether one of them also ended before it finished.
	WriteTurns  int  `json:"write_turns"`
	FullOverlap bool `json:"full_overlap"`
}

// sample gathers the latencies and running time of a cell's turns.
type sample struct {
	lat     []float64 // ms
	at      []time.Time
	elapsed time.Duration
	slowest time.Duration
	slowAt  time.Time // when the slowest query began
}

// finish computes the cell's figures and returns its queries during the
// write.
func (c *concCell) finish(writeStart time.Time) []slowQuery {
	stats := func(s sample) (n int, qps, p99, maxms float64) {
		slices.Sort(s.lat)
		n = len(s.lat)
		if s.elapsed > 0 {
			qps = float64(n) / s.elapsed.Seconds()
		}
		if n > 0 {
			maxms = s.lat[n-1]
		}
		return n, qps, percentile(s.lat, 0.99), maxms
	}
	c.IdleQueries, c.IdleQPS, c.IdleP99ms, c.IdleMaxms = stats(c.idle)
	var slow []slowQuery
	for i, ms := range c.write.lat { // before stats sorts them
		slow = append(slow, slowQuery{Mode: c.Mode, Goroutines: c.Goroutines, AtS: c.write.at[i].Sub(writeStart).Seconds(), Ms: ms})
	}
	c.WriteQueries, c.WriteQPS, c.WriteP99ms, c.WriteMaxms = stats(c.write)
	c.WriteP50ms, c.WriteP999ms = percentile(c.write.lat, 0.50), percentile(c.write.lat, 0.999)
	if c.WriteQueries > 0 {
		c.WriteMaxAtS = c.write.slowAt.Sub(writeStart).Seconds()
	}
	return slow
}

// turn runs g goroutines issuing queries (taken in turn from texts) until
// d has passed, and adds their latencies and running time to s.
func turn(ctx context.Context, e *engine.Engine, mode retrieve.Mode, g int, texts []string, next *atomic.Int64, d time.Duration, s *sample) error {
	start := time.Now()
	deadline := start.Add(d)
	lats := make([][]float64, g)
	ats := make([][]time.Time, g)
	slow := make([]sample, g)
	errs := make([]error, g)
	var wg sync.WaitGroup
	for i := range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				q := texts[int(next.Add(1))%len(texts)]
				t := time.Now()
				// A task per query: go tool trace lists them by latency,
				// with what each one waited for.
				tctx, task := trace.NewTask(ctx, string(mode))
				_, err := e.Search(tctx, q, engine.SearchOptions{K: 10, Lang: queryLang, Mode: mode})
				task.End()
				if err != nil {
					errs[i] = fmt.Errorf("%s query %q: %w", mode, q, err)
					return
				}
				took := time.Since(t)
				lats[i] = append(lats[i], millis(took))
				ats[i] = append(ats[i], t)
				if took > slow[i].slowest {
					slow[i].slowest, slow[i].slowAt = took, t
				}
			}
		}()
	}
	wg.Wait()
	s.elapsed += time.Since(start)
	for i := range g {
		if errs[i] != nil {
			return errs[i]
		}
		s.lat = append(s.lat, lats[i]...)
		s.at = append(s.at, ats[i]...)
		if slow[i].slowest > s.slowest {
			s.slowest, s.slowAt = slow[i].slowest, slow[i].slowAt
		}
	}
	return nil
}

// concurrency opens the index of n chunks read-write, as a server would,
// measures each mode and goroutine count for d with no writer, then
// starts a writer adding 1% new documents and cycles the cells in turns
// of slice until it has committed.
func concurrency(dir string, n int, seed uint64, nq int, goroutines []int, d, slice time.Duration, shares []float64, budget int64) (concResult, error) {
	ctx := context.Background()
	res := concResult{DurationS: d.Seconds(), SliceS: slice.Seconds()}
	if len(goroutines) == 0 {
		return res, fmt.Errorf("-concurrency: no goroutine counts")
	}
	c := corpus(seed)
	// The first n documents are the indexed ones (unchanged, so the run
	// skips them); the rest are new. Every document is passed because
	// IndexDocuments removes the indexed documents it is not given.
	docs := documents(c, n+max(n/100, 1))
	// The indexed documents keep the labels the build gave them.
	labelDocuments(docs[:n], seed, shares)
	// They are passed by their hash alone, as unchanged: IndexDocuments
	// reads no more of them, and their texts (1.1 GB of a million) were
	// most of the process's live heap, which the write's memory is
	// measured against.
	for i := range docs[:n] {
		docs[i] = byHash(docs[i])
	}
	res.Added = len(docs) - n
	// The budget is the write's (engine.Settings.Memory): unlike the
	// build, the phase sets no process-wide limit, as a program that
	// embeds fonte and serves while it writes need not.
	e, err := engine.Open(ctx, engine.Settings{IndexDir: dir, Embedder: c.Embedder(), Memory: budget}, engine.OpenOptions{})
	if err != nil {
		return res, err
	}
	defer e.Close()
	texts := queryTexts(seed, max(nq, 1))
	for _, q := range texts { // warm up, as the query phase does
		if _, err := e.Search(ctx, q, engine.SearchOptions{K: 10, Lang: queryLang, Mode: retrieve.Hybrid}); err != nil {
			return res, fmt.Errorf("warm-up query %q: %w", q, err)
		}
	}
	var next atomic.Int64
	for _, mode := range modes {
		for _, g := range goroutines {
			res.Cells = append(res.Cells, concCell{Mode: string(mode), Goroutines: g})
		}
	}
	for i := range res.Cells {
		cell := &res.Cells[i]
		if err := turn(ctx, e, retrieve.Mode(cell.Mode), cell.Goroutines, texts, &next, d, &cell.idle); err != nil {
			return res, err
		}
	}

	if traceFile != "" {
		stop, err := startTrace(traceFile)
		if err != nil {
			return res, err
		}
		defer stop()
	}
	before, err := readRuntime()
	if err != nil {
		return res, err
	}
	done := make(chan struct{})
	var werr error
	var wrote time.Duration
	start := time.Now()
	res.WriterStart = float64(start.UnixNano()) / 1e9
	go func() {
		defer close(done)
		rep, err := e.IndexDocuments(ctx, docs, true, nil)
		wrote = time.Since(start)
		if err != nil {
			werr = err
			return
		}
		res.ChunksAfter = rep.Chunks
	}()
	running := func() bool {
		select {
		case <-done:
			return false
		default:
			return true
		}
	}
	for i := 0; running(); i = (i + 1) % len(res.Cells) {
		cell := &res.Cells[i]
		cell.WriteTurns++
		if err := turn(ctx, e, retrieve.Mode(cell.Mode), cell.Goroutines, texts, &next, slice, &cell.write); err != nil {
			<-done
			return res, err
		}
		if running() {
			cell.FullOverlap = true
		}
	}
	if werr != nil {
		return res, fmt.Errorf("the incremental run adding %d documents: %w", res.Added, werr)
	}
	after, err := readRuntime()
	if err != nil {
		return res, err
	}
	res.Runtime = after.since(before)
	res.WriterS = wrote.Seconds()
	var all []slowQuery
	for i := range res.Cells {
		all = append(all, res.Cells[i].finish(start)...)
	}
	slices.SortFunc(all, func(a, b slowQuery) int { return cmp.Compare(b.Ms, a.Ms) })
	res.Slowest = all[:min(len(all), slowestKept)]
	if full := fullCells(res.Cells); full < len(res.Cells) {
		fmt.Fprintf(os.Stderr, "  the writer took %.2f s: %d of %d cells ran a whole turn during it\n", res.WriterS, full, len(res.Cells))
	}
	return res, nil
}

func fullCells(cells []concCell) int {
	full := 0
	for _, c := range cells {
		if c.FullOverlap {
			full++
		}
	}
	return full
}

// byHash is d with its content hash (as IndexDocuments computes it) in
// place of its text: an indexed document that is unchanged.
func byHash(d fonte.Document) fonte.Document {
	sum := sha256.Sum256([]byte(d.Title + "\x00" + d.Text))
	d.SHA256, d.Text = hex.EncodeToString(sum[:]), ""
	return d
}
