package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/retrieve"
)

// This file holds the filtered phase: restricted readers, each allowed
// one access label that a share of the documents carries, chosen at
// random or by folder, searching beside the unrestricted reader.

// staffLabel is carried by every document when readers are measured, so
// that no document is public and a reader allowed one label sees exactly
// the documents of its share.
const staffLabel = "staff"

// schemes are the ways a share of the documents is chosen: "random"
// documents anywhere, "folder" whole topic folders (whose vectors lie
// close together, the case where a filtered graph walk finds few
// readable neighbours).
var schemes = []string{"random", "folder"}

// shareLabel names the access label of a scheme's share of percent of
// the documents.
func shareLabel(scheme string, percent float64) string {
	return scheme + "-" + strings.ReplaceAll(strconv.FormatFloat(percent, 'f', -1, 64), ".", "_")
}

// sharesOf parses -filters: percentages in (0, 100], comma-separated.
func sharesOf(list string) ([]float64, error) {
	var out []float64
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		p, err := strconv.ParseFloat(s, 64)
		if err != nil || !(p > 0 && p <= 100) {
			return nil, fmt.Errorf("-filters: %q is not a percentage in (0, 100]", s)
		}
		out = append(out, p)
	}
	return out, nil
}

// labelDocuments gives every document the staff label and the label of
// each share it falls in, and returns how many documents carry each
// share's label. A share of p percent holds ceil(p·n/100) documents: for
// "random" the first of a seeded permutation, for "folder" the documents
// of folders taken whole in a seeded order (the last one in part), so a
// smaller share lies inside a larger one of the same scheme. The draws
// use their own random stream: the corpus is the same with or without
// labels.
func labelDocuments(docs []fonte.Document, seed uint64, percents []float64) map[string]int {
	counts := map[string]int{}
	if len(percents) == 0 {
		return counts
	}
	n := len(docs)
	rng := rand.New(rand.NewPCG(seed, 7))
	byRandom := rng.Perm(n)
	var folders []string
	members := map[string][]int{}
	for i, d := range docs {
		f := path.Dir(d.ID)
		if _, ok := members[f]; !ok {
			folders = append(folders, f)
		}
		members[f] = append(members[f], i)
	}
	slices.Sort(folders)
	rng.Shuffle(len(folders), func(i, j int) { folders[i], folders[j] = folders[j], folders[i] })
	var byFolder []int
	for _, f := range folders {
		byFolder = append(byFolder, members[f]...)
	}
	for i := range docs {
		docs[i].Tags = append(docs[i].Tags, fonte.AccessTag(staffLabel))
	}
	for _, p := range percents {
		want := min(n, int(math.Ceil(p*float64(n)/100)))
		for _, s := range []struct {
			scheme string
			order  []int
		}{{"random", byRandom}, {"folder", byFolder}} {
			l := shareLabel(s.scheme, p)
			for _, i := range s.order[:want] {
				docs[i].Tags = append(docs[i].Tags, fonte.AccessTag(l))
			}
			counts[l] = want
		}
	}
	return counts
}

// filteredResult is what the filtered phase reports.
type filteredResult struct {
	Queries    int            `json:"queries"`
	Readers    []readerResult `json:"readers"`
	PeakRSSMiB float64        `json:"peak_rss_mib"`
}

// readerResult is one reader's latencies, and its dense leg's recall@10
// against an exact scan of the chunks it may read.
type readerResult struct {
	// Label is the one access label the reader holds; "" for the
	// unrestricted reader.
	Label string             `json:"label"`
	P50ms map[string]float64 `json:"p50_ms"`
	P99ms map[string]float64 `json:"p99_ms"`
	// CPUP50ms and CPUP99ms are the processor time of the querying
	// thread per query (its CPU clock, the goroutine locked to it): what a
	// query costs, apart from the time a loaded machine keeps it waiting.
	CPUP50ms map[string]float64 `json:"cpu_p50_ms"`
	CPUP99ms map[string]float64 `json:"cpu_p99_ms"`
	// ProcCPUP50ms and ProcCPUP99ms are the processor time of the whole
	// process per query: the querying thread's and its helpers' (a long
	// lexical walk takes a second core), and the collector's.
	ProcCPUP50ms map[string]float64 `json:"proc_cpu_p50_ms"`
	ProcCPUP99ms map[string]float64 `json:"proc_cpu_p99_ms"`
	DenseRecall  float64            `json:"dense_recall_at_10"`
}

// filtered runs nq queries per mode for the unrestricted reader and for a
// reader of each share's label, and measures each reader's dense hits
// against those of the same index opened with the exact dense leg.
func filtered(dir string, seed uint64, nq int, percents []float64) (filteredResult, error) {
	ctx := context.Background()
	res := filteredResult{Queries: nq}
	emb := corpus(seed).Embedder()
	e, err := engine.Open(ctx, engine.Settings{IndexDir: dir, Embedder: emb}, engine.OpenOptions{ReadOnly: true})
	if err != nil {
		return res, err
	}
	defer e.Close()
	exact, err := engine.Open(ctx, engine.Settings{IndexDir: dir, Embedder: emb, DenseIndex: retrieve.DenseExact}, engine.OpenOptions{ReadOnly: true})
	if err != nil {
		return res, err
	}
	defer exact.Close()
	if len(percents) > 0 {
		if err := checkLabelled(ctx, exact, dir, seed); err != nil {
			return res, err
		}
	}
	res.Readers, err = measureReaders(ctx, e, exact, seed, nq, percents)
	return res, err
}

// checkLabelled fails when the index holds public documents: one built
// with -filters "" has no access labels, so every restricted reader
// would read every document and the phase would report unrestricted
// searches as restricted ones. The build labels every document with
// staffLabel, so a reader holding no label finds nothing in a labelled
// index.
func checkLabelled(ctx context.Context, e *engine.Engine, dir string, seed uint64) error {
	q := queryTexts(seed, 1)[0]
	hits, err := e.Search(ctx, q, engine.SearchOptions{K: 1, Lang: queryLang, Mode: retrieve.Dense, Filter: retrieve.Filter{Restricted: true}})
	if err != nil {
		return fmt.Errorf("checking %s's access labels: %w", dir, err)
	}
	if len(hits) > 0 {
		return fmt.Errorf("the index %s holds documents without access labels (built with -filters \"\"?): the filtered phase needs an index built with -filters, whose documents all carry %q", dir, staffLabel)
	}
	return nil
}

// measureReaders runs nq queries per mode for the unrestricted reader and
// for a reader of each share's label on e, and measures each reader's
// dense hits against exact's (an embedded index of the same documents
// opened with the exact dense leg).
//
// The exact leg's answers are all taken before anything is timed: they
// are full scans, and taken between timed queries they evicted the
// caches those queries use; and while they run, the checksum checks
// that opening starts in the background (disk.Store.Snapshot: a pass
// over every file, about a second per open at a million chunks) finish,
// which had shared the two cores with the first reader measured.
func measureReaders(ctx context.Context, e, exact *engine.Engine, seed uint64, nq int, percents []float64) ([]readerResult, error) {
	var out []readerResult
	texts := queryTexts(seed, max(nq, 1))
	labels := []string{""}
	for _, p := range percents {
		for _, s := range schemes {
			labels = append(labels, shareLabel(s, p))
		}
	}
	filterOf := func(l string) retrieve.Filter {
		if l == "" {
			return retrieve.Filter{}
		}
		return retrieve.Filter{Restricted: true, Labels: []string{l}}
	}
	truths := make([][][]fonte.Hit, len(labels))
	for i, l := range labels {
		truths[i] = make([][]fonte.Hit, len(texts))
		for j, q := range texts {
			truth, err := exact.Search(ctx, q, engine.SearchOptions{K: 10, Lang: queryLang, Mode: retrieve.Dense, Filter: filterOf(l)})
			if err != nil {
				return nil, fmt.Errorf("exact %s query %q as reader %q: %w", retrieve.Dense, q, l, err)
			}
			truths[i][j] = truth
		}
	}
	for i, l := range labels {
		r := readerResult{Label: l, P50ms: map[string]float64{}, P99ms: map[string]float64{}, CPUP50ms: map[string]float64{}, CPUP99ms: map[string]float64{},
			ProcCPUP50ms: map[string]float64{}, ProcCPUP99ms: map[string]float64{}}
		f := filterOf(l)
		// Untimed, as the query phase's warm-up: the first restricted
		// search builds what a reader's view needs (the access classes,
		// the exact view), and a pass over the queries brings the pages
		// they touch into memory and makes what the lexical leg keeps
		// once computed (common terms' block maxima: about 40 ms of
		// processor time each at a million chunks). Without it the first
		// reader measured, the unrestricted one with hybrid first, paid
		// for them: hybrid p99 51 ms against 5.3 in the query phase.
		for _, q := range texts {
			if _, err := e.Search(ctx, q, engine.SearchOptions{K: 10, Lang: queryLang, Mode: retrieve.Hybrid, Filter: f}); err != nil {
				return nil, fmt.Errorf("warm-up query %q as reader %q: %w", q, l, err)
			}
		}
		var found, want int
		for _, mode := range modes {
			lat, cpu, proc := make([]float64, 0, nq), make([]float64, 0, nq), make([]float64, 0, nq)
			runtime.LockOSThread()
			for j, q := range texts {
				c, pc, t := threadCPU(), processCPU(), time.Now()
				hits, err := e.Search(ctx, q, engine.SearchOptions{K: 10, Lang: queryLang, Mode: mode, Filter: f})
				if err != nil {
					runtime.UnlockOSThread()
					return nil, fmt.Errorf("%s query %q as reader %q: %w", mode, q, l, err)
				}
				lat = append(lat, millis(time.Since(t)))
				cpu = append(cpu, millis(threadCPU()-c))
				proc = append(proc, millis(processCPU()-pc))
				if mode == retrieve.Dense {
					found += overlap(hits, truths[i][j])
					want += len(truths[i][j])
				}
			}
			runtime.UnlockOSThread()
			slices.Sort(lat)
			slices.Sort(cpu)
			r.P50ms[string(mode)] = percentile(lat, 0.50)
			r.P99ms[string(mode)] = percentile(lat, 0.99)
			r.CPUP50ms[string(mode)] = percentile(cpu, 0.50)
			r.CPUP99ms[string(mode)] = percentile(cpu, 0.99)
			slices.Sort(proc)
			r.ProcCPUP50ms[string(mode)] = percentile(proc, 0.50)
			r.ProcCPUP99ms[string(mode)] = percentile(proc, 0.99)
		}
		r.DenseRecall = 1
		if want > 0 {
			r.DenseRecall = float64(found) / float64(want)
		}
		out = append(out, r)
	}
	return out, nil
}

// threadCPU is the processor time the calling thread has used, from
// CLOCK_THREAD_CPUTIME_ID (getrusage counts in whole clock ticks, 4 ms
// here, longer than most queries).
func threadCPU() time.Duration { return clockCPU(3) }

// processCPU is the processor time the process has used, every thread's,
// from CLOCK_PROCESS_CPUTIME_ID.
func processCPU() time.Duration { return clockCPU(2) }

// clockCPU reads the processor-time clock id.
func clockCPU(id uintptr) time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, id, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

// overlap counts the chunks of truth that hits holds too.
func overlap(hits, truth []fonte.Hit) int {
	n := 0
	for _, t := range truth {
		if slices.ContainsFunc(hits, func(h fonte.Hit) bool { return h.Chunk.ID == t.Chunk.ID }) {
			n++
		}
	}
	return n
}
