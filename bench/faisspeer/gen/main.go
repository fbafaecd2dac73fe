// Command gen writes the data set of the FAISS peer measurement
// (bench/faisspeer/flat.py) and, with -bench, times fonte's exact indexes
// on the same data in the same session, single-threaded.
//
// The data: 100,000 × 384 vectors from a Gaussian mixture of 200 centres
// drawn N(0, 1)·0.5, each vector a centre plus N(0, 1) noise, L2-normalised
// (synth.Mixture), and 1,000 queries drawn from the same mixture. Files are
// raw little-endian float32, row after row: base.f32 and queries.f32. With
// -bench, fonte's exact top-10 ids of every query are written to
// fonte_top10.u64 (little-endian uint64) for flat.py to compare with
// FAISS's.
//
//	go run ./bench/faisspeer/gen -out /tmp/faisspeer -bench
//	/usr/bin/python3 bench/faisspeer/flat.py /tmp/faisspeer
package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/fonte-rag/fonte/synth"
	"github.com/fonte-rag/fonte/vector"
)

func main() {
	out := flag.String("out", ".", "directory for the data files")
	n := flag.Int("n", 100_000, "vectors")
	dim := flag.Int("dim", 384, "dimension")
	nq := flag.Int("queries", 1000, "queries")
	seed := flag.Uint64("seed", 1, "random seed")
	bench := flag.Bool("bench", false, "time fonte's Flat and FlatInt8 on the data, one thread")
	runs := flag.Int("runs", 5, "timed runs per figure (the median is printed)")
	single := flag.Int("single", 200, "queries searched one by one per single-query run")
	flag.Parse()

	rng := rand.New(rand.NewPCG(*seed, 0x5eed))
	mix := synth.NewMixture(rng, 200, *dim, 0.5)
	base, queries := mix.Sample(rng, *n), mix.Sample(rng, *nq)
	check(os.MkdirAll(*out, 0o755))
	check(writeFloats(filepath.Join(*out, "base.f32"), base.Data))
	check(writeFloats(filepath.Join(*out, "queries.f32"), queries.Data))
	fmt.Printf("wrote %d × %d base and %d queries to %s\n", *n, *dim, *nq, *out)
	if !*bench {
		return
	}

	runtime.GOMAXPROCS(1)
	runtime.LockOSThread() // so the thread's CPU time is the searches'
	fmt.Printf("fonte, GOMAXPROCS=1, medians of %d runs; QPS by wall clock and by the thread's CPU time\n", *runs)
	f := vector.NewFlat(*dim)
	exact := vector.NewFlatInt8(*dim, vector.FlatInt8Options{KeepFloat: true})
	approx := vector.NewFlatInt8(*dim, vector.FlatInt8Options{})
	for i := range base.Rows {
		check(f.Add(uint64(i), base.Row(i)))
		check(exact.Add(uint64(i), base.Row(i)))
		check(approx.Add(uint64(i), base.Row(i)))
	}
	qs := queries.Slices()
	k := 10

	type searcher struct {
		name   string
		search func([]float32, int) []vector.Result
		batch  func([][]float32, int) [][]vector.Result
	}
	for _, s := range []searcher{
		{"Flat (float32)", f.Search, f.SearchBatch},
		{"FlatInt8 exact (KeepFloat)", exact.Search, exact.SearchBatch},
		{"FlatInt8 approx (codes only)", approx.Search, approx.SearchBatch},
	} {
		m := min(*single, len(qs))
		s.search(qs[0], k) // warm up
		one, oneCPU := timed(*runs, m, func() {
			for _, q := range qs[:m] {
				s.search(q, k)
			}
		})
		all, allCPU := timed(*runs, len(qs), func() { s.batch(qs, k) })
		fmt.Printf("%-30s batch 1: %7.1f QPS (CPU %7.1f)   batch %d: %7.1f QPS (CPU %7.1f)\n",
			s.name, one, oneCPU, len(qs), all, allCPU)
	}

	want := f.SearchBatch(qs, k)
	var hit, total int
	for i, r := range approx.SearchBatch(qs, k) {
		ids := map[uint64]bool{}
		for _, x := range want[i] {
			ids[x.ID] = true
		}
		for _, x := range r {
			if ids[x.ID] {
				hit++
			}
		}
		total += len(want[i])
	}
	fmt.Printf("FlatInt8 approx recall@%d vs Flat: %.4f\n", k, float64(hit)/float64(total))
	for i, r := range exact.SearchBatch(qs, k) {
		if !slices.Equal(r, want[i]) {
			fmt.Printf("FlatInt8 exact differs from Flat on query %d\n", i)
			os.Exit(1)
		}
	}
	ids := make([]uint64, 0, len(qs)*k)
	for _, r := range want {
		for _, x := range r {
			ids = append(ids, x.ID)
		}
	}
	check(writeU64(filepath.Join(*out, "fonte_top10.u64"), ids))
}

// timed runs f runs times and returns the median rates of n queries per
// second of wall-clock time and of the thread's CPU time. On a shared
// machine the CPU-time rate leaves out the time the thread waited for a
// core.
func timed(runs, n int, f func()) (wall, cpu float64) {
	w := make([]float64, max(runs, 1))
	c := make([]float64, len(w))
	for i := range w {
		t, ct := time.Now(), threadCPU()
		f()
		w[i] = float64(n) / time.Since(t).Seconds()
		c[i] = float64(n) / (threadCPU() - ct).Seconds()
	}
	slices.Sort(w)
	slices.Sort(c)
	return w[len(w)/2], c[len(c)/2]
}

func writeFloats(path string, v []float32) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(fh)
	var b [4]byte
	for _, x := range v {
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(x))
		w.Write(b[:])
	}
	if err := w.Flush(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

func writeU64(path string, v []uint64) error {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], x)
	}
	return os.WriteFile(path, b, 0o644)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
