package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"runtime/metrics"
	"runtime/trace"
	"strconv"
	"strings"
)

// traceFile is -trace: the concurrency phase writes an execution trace of
// the write (go tool trace FILE) there. It is a flag of the child phase
// (-phase concurrency), so it is registered here, beside its only use.
var traceFile string

func init() {
	flag.StringVar(&traceFile, "trace", "", "internal: the concurrency phase writes an execution trace of the write to this file")
}

// startTrace starts an execution trace into path; stop ends it.
func startTrace(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("-trace: %w", err)
	}
	if err := trace.Start(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("-trace: %w", err)
	}
	return func() {
		trace.Stop()
		f.Close()
	}, nil
}

// runtimeCounts is what the runtime and the kernel counted over an
// interval, for the whole process (readers and writer alike).
type runtimeCounts struct {
	GCCycles uint64 `json:"gc_cycles"`
	// GCAssistS is CPU time goroutines spent helping the collector mark
	// because they allocated while it ran: a query that allocates during a
	// cycle pays its share here.
	GCAssistS float64 `json:"gc_assist_cpu_s"`
	GCTotalS  float64 `json:"gc_total_cpu_s"`
	// GCPauseMaxMs is the longest stop-the-world pause (the upper bound of
	// its histogram bucket), GCPauseTotalMs their sum (bucket midpoints).
	GCPauseMaxMs   float64 `json:"gc_pause_max_ms"`
	GCPauseTotalMs float64 `json:"gc_pause_total_ms"`
	// SchedLatency counts how long goroutines waited to run once runnable:
	// the longest wait, and how many waits exceeded 10 and 100 ms.
	SchedMaxMs     float64 `json:"sched_latency_max_ms"`
	SchedOver10ms  uint64  `json:"sched_latency_over_10ms"`
	SchedOver100ms uint64  `json:"sched_latency_over_100ms"`
	MutexWaitS     float64 `json:"mutex_wait_s"` // sync.Mutex and RWMutex waits
	MinorFaults    uint64  `json:"minor_faults"`
	MajorFaults    uint64  `json:"major_faults"`
	// OSRunDelayS is how long this process's threads waited in the
	// kernel's run queue for a processor (/proc/self/task/*/schedstat):
	// the machine's other load, which no change to fonte removes. Threads
	// that ended during the interval are not counted.
	OSRunDelayS float64 `json:"os_run_delay_s"`
	// StealS is the machine's steal time over the interval, summed over
	// its processors (/proc/stat): on a virtual machine, the time its
	// processors wanted to run while the host ran something else, such
	// as faulting in guest memory. A stall it covers is the host's.
	StealS float64 `json:"steal_s"`
}

// runtimeSample is one reading of the counters runtimeCounts subtracts.
type runtimeSample struct {
	gcCycles              uint64
	assist, gcTotal, wait float64
	pauses, sched         metrics.Float64Histogram
	minor, major          uint64
	runDelay              map[string]uint64 // ns per thread id
	steal                 uint64            // clock ticks, all processors
}

// metricSamples is a sample of each named runtime metric, to be read.
func metricSamples(names ...string) []metrics.Sample {
	m := make([]metrics.Sample, len(names))
	for i, name := range names {
		m[i].Name = name
	}
	return m
}

func readRuntime() (runtimeSample, error) {
	m := metricSamples(
		"/gc/cycles/total:gc-cycles",
		"/cpu/classes/gc/mark/assist:cpu-seconds",
		"/cpu/classes/gc/total:cpu-seconds",
		"/sync/mutex/wait/total:seconds",
		"/sched/pauses/total/gc:seconds",
		"/sched/latencies:seconds",
	)
	metrics.Read(m)
	for _, v := range m {
		if v.Value.Kind() == metrics.KindBad {
			return runtimeSample{}, fmt.Errorf("this Go's runtime/metrics has no %s", v.Name)
		}
	}
	var s runtimeSample
	s.gcCycles = m[0].Value.Uint64()
	s.assist, s.gcTotal, s.wait = m[1].Value.Float64(), m[2].Value.Float64(), m[3].Value.Float64()
	s.pauses, s.sched = copyHistogram(m[4].Value.Float64Histogram()), copyHistogram(m[5].Value.Float64Histogram())
	var err error
	if s.minor, s.major, err = pageFaults(); err != nil {
		return s, err
	}
	if s.runDelay, err = runDelays(); err != nil {
		return s, err
	}
	s.steal, err = stealTicks()
	return s, err
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/stat's times: 100
// on every Linux architecture Go supports.
const clockTicks = 100

// stealTicks reads the machine's steal time, the eighth time of
// /proc/stat's first line, in clock ticks.
func stealTicks() (uint64, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, fmt.Errorf("reading steal time: %w (fonte-scale needs Linux's /proc)", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return parseSteal(line)
}

// parseSteal reads the steal time from /proc/stat's first line: "cpu",
// then user, nice, system, idle, iowait, irq, softirq and steal.
func parseSteal(line string) (uint64, error) {
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, fmt.Errorf("/proc/stat: first line %q has no steal time", line)
	}
	n, err := strconv.ParseUint(f[8], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("/proc/stat: steal time: %w", err)
	}
	return n, nil
}

// runDelays reads, per thread of this process, the nanoseconds it waited
// in the kernel's run queue (the second field of its schedstat).
func runDelays() (map[string]uint64, error) {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, fmt.Errorf("reading the run queue waits: %w (fonte-scale needs Linux's /proc)", err)
	}
	out := make(map[string]uint64, len(tasks))
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/schedstat")
		if err != nil {
			continue // the thread ended
		}
		if f := strings.Fields(string(b)); len(f) >= 2 {
			if ns, err := strconv.ParseUint(f[1], 10, 64); err == nil {
				out[t.Name()] = ns
			}
		}
	}
	return out, nil
}

// copyHistogram copies h's counts, which the next metrics.Read may reuse.
func copyHistogram(h *metrics.Float64Histogram) metrics.Float64Histogram {
	return metrics.Float64Histogram{Counts: append([]uint64(nil), h.Counts...), Buckets: h.Buckets}
}

// pageFaults reads this process's minor and major page faults from
// /proc/self/stat (fields 10 and 12).
func pageFaults() (minor, major uint64, err error) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, 0, fmt.Errorf("reading page faults: %w (fonte-scale needs Linux's /proc)", err)
	}
	// The command name, in parentheses, may hold spaces: count from after it.
	rest := string(b)
	if i := strings.LastIndexByte(rest, ')'); i >= 0 {
		rest = rest[i+1:]
	}
	f := strings.Fields(rest) // f[0] is field 3 (state)
	if len(f) < 10 {
		return 0, 0, fmt.Errorf("/proc/self/stat: %d fields, want at least 12", len(f)+2)
	}
	if minor, err = strconv.ParseUint(f[7], 10, 64); err == nil {
		major, err = strconv.ParseUint(f[9], 10, 64)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("/proc/self/stat: %w", err)
	}
	return minor, major, nil
}

// since is the counts from b to s.
func (s runtimeSample) since(b runtimeSample) runtimeCounts {
	c := runtimeCounts{
		GCCycles: s.gcCycles - b.gcCycles, GCAssistS: s.assist - b.assist, GCTotalS: s.gcTotal - b.gcTotal,
		MutexWaitS: s.wait - b.wait, MinorFaults: s.minor - b.minor, MajorFaults: s.major - b.major,
		StealS: float64(s.steal-b.steal) / clockTicks,
	}
	for id, ns := range s.runDelay {
		c.OSRunDelayS += float64(ns-b.runDelay[id]) / 1e9
	}
	for i, n := range s.pauses.Counts {
		n -= b.pauses.Counts[i]
		if n == 0 {
			continue
		}
		lo, hi := bucket(s.pauses.Buckets, i)
		c.GCPauseTotalMs += float64(n) * (lo + hi) / 2 * 1000
		c.GCPauseMaxMs = hi * 1000
	}
	for i, n := range s.sched.Counts {
		n -= b.sched.Counts[i]
		if n == 0 {
			continue
		}
		lo, hi := bucket(s.sched.Buckets, i)
		c.SchedMaxMs = hi * 1000
		if lo >= 0.010 {
			c.SchedOver10ms += n
		}
		if lo >= 0.100 {
			c.SchedOver100ms += n
		}
	}
	return c
}

// bucket is the bounds of histogram bucket i, an open end (±Inf) read as
// the bucket's other bound.
func bucket(bounds []float64, i int) (lo, hi float64) {
	lo, hi = bounds[i], bounds[i+1]
	if math.IsInf(lo, 0) {
		lo = hi
	}
	if math.IsInf(hi, 0) {
		hi = lo
	}
	return lo, hi
}
