//go:build unix

package vector

import (
	"bufio"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/synth"
)

// Issue 4's HNSW benchmark: 100,000 × 384 vectors from a mixture of 200
// centres drawn N(0, 1)·0.5, each vector a random centre plus N(0, 1)
// noise, L2-normalised; 1,000 queries from the same mixture; ground truth
// by exact Flat search. Build M=16, efConstruction=200 (the defaults), one
// goroutine.
//
// Environment:
//
//	FONTE_HNSW_N         vectors instead of 100,000 (quick runs)
//	FONTE_HNSWPEER_DATA  also write the data, queries and ground truth to
//	                     this file for bench/hnswpeer (hnswlib on the same
//	                     vectors)
//	FONTE_HNSW_INDEX     the build benchmark saves its index (Encode) to
//	                     this file, and the search benchmark loads it from
//	                     there instead of building when it exists, so
//	                     search runs can alternate with hnswlib's cheaply
//
// go test -run '^$' -bench HNSW -benchtime 1x ./vector/ builds once; the
// search benchmarks reuse the index built by the build benchmark.
const (
	hnswBenchDim     = 384
	hnswBenchQueries = 1000
	hnswBenchK       = 10
	hnswBenchPasses  = 3
)

type hnswBenchSet struct {
	data, queries synth.Matrix
	truth         [][]Result
}

var (
	hnswBenchMu    sync.Mutex
	hnswBenchSets  = map[int]*hnswBenchSet{}
	hnswBenchIndex = map[int]*HNSW{}
)

func hnswBenchN(b *testing.B) int {
	s := os.Getenv("FONTE_HNSW_N")
	if s == "" {
		return 100_000
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < hnswBenchK {
		b.Fatalf("FONTE_HNSW_N=%q: want a number of vectors", s)
	}
	return n
}

// hnswBenchData returns the data set of n vectors, generating it
// (and the ground truth) once per process.
func hnswBenchData(b testing.TB, n int) *hnswBenchSet {
	hnswBenchMu.Lock()
	defer hnswBenchMu.Unlock()
	if s, ok := hnswBenchSets[n]; ok {
		return s
	}
	rng := rand.New(rand.NewPCG(4, 384))
	mix := synth.NewMixture(rng, 200, hnswBenchDim, 0.5)
	s := &hnswBenchSet{data: mix.Sample(rng, n), queries: mix.Sample(rng, hnswBenchQueries)}
	f := NewFlat(hnswBenchDim)
	for i := range s.data.Rows {
		if err := f.Add(uint64(i), s.data.Row(i)); err != nil {
			b.Fatal(err)
		}
	}
	s.truth = f.SearchBatch(s.queries.Slices(), hnswBenchK)
	if path := os.Getenv("FONTE_HNSWPEER_DATA"); path != "" {
		if err := writePeerData(path, s); err != nil {
			b.Fatal(err)
		}
	}
	hnswBenchSets[n] = s
	return s
}

// writePeerData writes the layout bench/hnswpeer/peer.cpp reads.
func writePeerData(path string, s *hnswBenchSet) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("FHNSWPR1")
	le := binary.LittleEndian
	for _, x := range []int{s.data.Rows, s.queries.Rows, s.data.Dim, hnswBenchK} {
		w.Write(le.AppendUint32(nil, uint32(x)))
	}
	var buf []byte
	for _, m := range []synth.Matrix{s.data, s.queries} {
		for _, x := range m.Data {
			buf = le.AppendUint32(buf[:0], math.Float32bits(x))
			w.Write(buf)
		}
	}
	for _, t := range s.truth {
		for _, r := range t {
			w.Write(le.AppendUint32(nil, uint32(r.ID)))
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// cpuTime returns the CPU time the process has used. Beside wall-clock
// time it is the robust measure on a shared machine: a benchmark that
// waits for a core while other builds run loses wall time, not CPU time.
// It includes the garbage collector's work on other threads, which
// belongs to the cost.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// buildBenchHNSW builds the index over s with Capacity reserved (as
// hnswlib reserves max_elements) and reports the heap it holds.
func buildBenchHNSW(b *testing.B, s *hnswBenchSet) (h *HNSW, wall, cpu time.Duration, perVec float64) {
	before := heapInUse()
	start, cpu0 := time.Now(), cpuTime()
	h = NewHNSW(hnswBenchDim, HNSWOptions{Capacity: s.data.Rows})
	for i := range s.data.Rows {
		if err := h.Add(uint64(i), s.data.Row(i)); err != nil {
			b.Fatal(err)
		}
	}
	wall, cpu = time.Since(start), cpuTime()-cpu0
	perVec = float64(heapInUse()-before) / float64(s.data.Rows)
	return h, wall, cpu, perVec
}

func BenchmarkHNSWBuild100k(b *testing.B) {
	n := hnswBenchN(b)
	s := hnswBenchData(b, n)
	var h *HNSW
	var perVec float64
	var cpu time.Duration
	for b.Loop() {
		var c time.Duration
		h, _, c, perVec = buildBenchHNSW(b, s)
		cpu += c
	}
	b.ReportMetric(perVec, "B/vector")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "build-s")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "build-cpu-s")
	if path := os.Getenv("FONTE_HNSW_INDEX"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := h.Encode(f); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
	}
	hnswBenchMu.Lock()
	hnswBenchIndex[n] = h
	hnswBenchMu.Unlock()
}

// BenchmarkHNSWBuildBatch100k builds the same index with AddBatch and
// GOMAXPROCS workers (-cpu 1 gives the deterministic one-worker build),
// and reports its recall@10 at ef 64 beside the time, to show the
// concurrent build's graph is as good as the sequential one. With
// FONTE_HNSW_N=1000000 it is the million-vector build.
func BenchmarkHNSWBuildBatch100k(b *testing.B) {
	n := hnswBenchN(b)
	s := hnswBenchData(b, n)
	ids := make([]uint64, s.data.Rows)
	for i := range ids {
		ids[i] = uint64(i)
	}
	vecs := s.data.Slices()
	var h *HNSW
	var perVec float64
	var cpu time.Duration
	for b.Loop() {
		before := heapInUse()
		cpu0 := cpuTime()
		h = NewHNSW(hnswBenchDim, HNSWOptions{Capacity: s.data.Rows})
		if err := h.AddBatch(ids, vecs, 0); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - cpu0
		b.StopTimer()
		perVec = float64(heapInUse()-before) / float64(s.data.Rows)
		b.StartTimer()
	}
	b.ReportMetric(perVec, "B/vector")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "build-s")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "build-cpu-s")
	for _, ef := range []int{64, 256} {
		found := 0
		for i := range s.queries.Rows {
			found += overlap(h.SearchEf(s.queries.Row(i), hnswBenchK, ef), s.truth[i])
		}
		b.ReportMetric(float64(found)/float64(hnswBenchK*s.queries.Rows), "recall@10-ef"+strconv.Itoa(ef))
	}
}

// benchIndex returns the index the build benchmark built, or loads it from
// FONTE_HNSW_INDEX, or builds it.
func benchIndex(b *testing.B) (*HNSW, *hnswBenchSet) {
	n := hnswBenchN(b)
	s := hnswBenchData(b, n)
	hnswBenchMu.Lock()
	h := hnswBenchIndex[n]
	hnswBenchMu.Unlock()
	if path := os.Getenv("FONTE_HNSW_INDEX"); h == nil && path != "" {
		if f, err := os.Open(path); err == nil {
			h, err = DecodeHNSW(bufio.NewReaderSize(f, 1<<20))
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
			if h.Len() != n {
				b.Fatalf("%s holds %d vectors, the data %d", path, h.Len(), n)
			}
		}
	}
	if h == nil {
		var took time.Duration
		h, took, _, _ = buildBenchHNSW(b, s)
		b.Logf("built %d vectors in %v", n, took)
		hnswBenchMu.Lock()
		hnswBenchIndex[n] = h
		hnswBenchMu.Unlock()
	}
	return h, s
}

func BenchmarkHNSWSearch100k(b *testing.B) {
	h, s := benchIndex(b)
	for _, quant := range []bool{false, true} {
		name := "float32"
		idx := h
		if quant {
			name = "int8"
			idx = quantizedCopy(h)
		}
		benchSearches(b, name, idx, s)
	}
}

// benchSearches runs the benchmark's queries on idx at ef 32, 64 and 128,
// one sub-benchmark each, reporting recall@10 and queries a second.
func benchSearches(b *testing.B, name string, idx *HNSW, s *hnswBenchSet) {
	for _, ef := range []int{32, 64, 128} {
		// One op is hnswBenchPasses passes over the 1,000 queries, so
		// -benchtime 1x (which the build needs) still times thousands
		// of searches.
		b.Run(name+"/ef="+strconv.Itoa(ef), func(b *testing.B) {
			got := make([][]Result, s.queries.Rows)
			cpu0 := cpuTime()
			for b.Loop() {
				for range hnswBenchPasses {
					for i := range got {
						got[i] = idx.SearchEf(s.queries.Row(i), hnswBenchK, ef)
					}
				}
			}
			cpu := cpuTime() - cpu0
			found := 0
			for i, g := range got {
				found += overlap(g, s.truth[i])
			}
			b.ReportMetric(float64(found)/float64(hnswBenchK*len(got)), "recall@10")
			searches := float64(b.N * hnswBenchPasses * len(got))
			b.ReportMetric(searches/b.Elapsed().Seconds(), "qps")
			b.ReportMetric(searches/cpu.Seconds(), "qps-cpu")
		})
	}
}

func BenchmarkDotInt8(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	data := synth.Sphere(rng, 64, hnswBenchDim)
	c, err := FitInt8(data.Data, hnswBenchDim)
	if err != nil {
		b.Fatal(err)
	}
	code := c.Encode(nil, data.Row(1))
	q := c.NewQuery(data.Row(0))
	var s float32
	for b.Loop() {
		s += q.Score(code)
	}
	sink = s
}
