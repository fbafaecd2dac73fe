package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// memTraceFile and heapPeakFile are -memtrace and -heappeak, flags of the
// child phases (registered here, beside their only use): where a write's
// memory goes, phase by phase.
var memTraceFile, heapPeakFile string

func init() {
	flag.StringVar(&memTraceFile, "memtrace", "", "internal: a child phase writes its resident memory and heap every 100 ms to this file, each sample with the last log line before it (the write's phase marks)")
	flag.StringVar(&heapPeakFile, "heappeak", "", "internal: with -memtrace, a heap profile is written to this file whenever the heap's objects pass their highest level so far by 256 MiB (so the last one is near the peak)")
}

// memTraceEvery is the sampling interval of -memtrace.
const memTraceEvery = 100 * time.Millisecond

// heapPeakStep is how far the heap's objects must pass the last profiled
// level before -heappeak writes another profile: each profile costs a
// walk of the heap's sampled records, so not every sample takes one.
const heapPeakStep = 256 << 20

// phaseMark is the last log line, which a sample is attributed to.
var phaseMark atomic.Pointer[string]

// markingHandler logs through h and keeps each line's message, with
// the resident memory and heap at that moment, as the phase mark.
type markingHandler struct{ h slog.Handler }

func (m markingHandler) Enabled(ctx context.Context, l slog.Level) bool { return m.h.Enabled(ctx, l) }

func (m markingHandler) Handle(ctx context.Context, r slog.Record) error {
	msg := r.Message
	phaseMark.Store(&msg)
	rss, _ := residentMiB()
	r.AddAttrs(slog.Float64("rss_mib", rss), slog.Float64("heap_objects_mib", float64(heapObjects())/(1<<20)))
	return m.h.Handle(ctx, r)
}

func (m markingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return markingHandler{m.h.WithAttrs(as)}
}
func (m markingHandler) WithGroup(name string) slog.Handler {
	return markingHandler{m.h.WithGroup(name)}
}

// heapObjects is the bytes of the heap's objects, live and not yet swept.
func heapObjects() uint64 {
	s := metricSamples("/memory/classes/heap/objects:bytes")
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// startMemTrace logs at level through a handler that marks phases, and
// samples the process's memory into path until stop is called.
func startMemTrace(path, heapPath string, level slog.Level) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("-memtrace: %w", err)
	}
	slog.SetDefault(slog.New(markingHandler{slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})}))
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "t_s\trss_mib\trss_anon_mib\trss_file_mib\theap_objects_mib\theap_live_mib\tgo_mapped_mib\tgc_cycles\tphase")
	samples := metricSamples(
		"/memory/classes/heap/objects:bytes",
		"/gc/heap/live:bytes",
		"/memory/classes/total:bytes",
		"/memory/classes/heap/released:bytes",
		"/gc/cycles/total:gc-cycles",
	)
	var lastProfiled uint64
	var werr error
	done := make(chan struct{})
	var wg sync.WaitGroup
	start := time.Now()
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(memTraceEvery)
		defer t.Stop()
		for {
			metrics.Read(samples)
			rss, _ := residentMiB()
			anon, file := residentParts()
			objects := samples[0].Value.Uint64()
			phase := ""
			if p := phaseMark.Load(); p != nil {
				phase = *p
			}
			const mib = 1 << 20
			fmt.Fprintf(w, "%.1f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%d\t%s\n", time.Since(start).Seconds(), rss, anon, file,
				float64(objects)/mib, float64(samples[1].Value.Uint64())/mib,
				float64(samples[2].Value.Uint64()-samples[3].Value.Uint64())/mib, samples[4].Value.Uint64(), phase)
			if heapPath != "" && objects > lastProfiled+heapPeakStep && werr == nil {
				lastProfiled = objects
				werr = writeHeap(heapPath)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() error {
		close(done)
		wg.Wait()
		err := w.Flush()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if werr != nil {
			return fmt.Errorf("-heappeak: %w", werr)
		}
		return err
	}, nil
}

// residentParts reads the anonymous and the file-backed parts of this
// process's resident memory (RssAnon, RssFile of /proc/self/status), in
// MiB: the heap is anonymous, the mapped index's pages file-backed (the
// kernel can drop those without writing them anywhere).
func residentParts() (anon, file float64) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if !ok || (name != "RssAnon" && name != "RssFile") {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 {
			continue
		}
		kib, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		if name == "RssAnon" {
			anon = kib / 1024
		} else {
			file = kib / 1024
		}
	}
	return anon, file
}
