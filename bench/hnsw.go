package main

// Approximate dense search: fonte's HNSW against hnswlib (native, through
// hnswpeer/peer.cpp, and Python, through hnswpeer/hnswlib_py.py) and
// github.com/coder/hnsw. Every engine builds with M = 16 and
// efConstruction = 200 on one thread (a build run: build time, memory,
// and the index saved to a file), then searches one query at a time at
// ef 32, 64 and 128 (a search run: the saved index loaded, -passes passes
// over the queries at each ef, timed together, recall@10 against the
// exact top 10).
//
// Memory per vector is what the built index holds divided by n: for the
// Go engines the growth of the live heap (after a collection), for all
// engines the growth of the resident set (for Go after returning freed
// memory to the system), so the last figure compares across languages.

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/coder/hnsw"
	"github.com/viterin/vek/vek32"

	"github.com/fonte-rag/fonte/vector"
)

type hnswFlags struct {
	mode, data, index string
	m, efc, passes    int
	efs               []int
}

func parseHNSWFlags(name string, args []string) (*hnswFlags, error) {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	var f hnswFlags
	var efs string
	fl.StringVar(&f.mode, "mode", "build", "build or search")
	fl.StringVar(&f.data, "data", "", "dense data file")
	fl.StringVar(&f.index, "index", "", "index file: written by a build, read by a search")
	fl.IntVar(&f.m, "m", 16, "M")
	fl.IntVar(&f.efc, "efc", 200, "efConstruction")
	fl.IntVar(&f.passes, "passes", 3, "passes over the queries at each ef")
	fl.StringVar(&efs, "ef", "32,64,128", "ef values searched, comma-separated")
	if err := fl.Parse(args); err != nil {
		return nil, err
	}
	for e := range strings.SplitSeq(efs, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(e))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("-ef %q: want positive numbers", efs)
		}
		f.efs = append(f.efs, v)
	}
	if f.mode != "build" && f.mode != "search" {
		return nil, fmt.Errorf("-mode %q: want build or search", f.mode)
	}
	return &f, nil
}

// heapInUse is the live heap after two collections: the second frees what
// the first moved into sync.Pool's victim cache.
func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// settledRSS is the resident set after a collection that returns freed
// memory to the system.
func settledRSS() int64 {
	debug.FreeOSMemory()
	return rssBytes()
}

// hnswIndex is one engine's side of the HNSW measurements.
type hnswIndex interface {
	add(i int, v []float32) error
	search(q []float32, k, ef int) []uint64
	save(path string) error
}

// hnswBuild times the build of the index over s and prints build time and
// memory; the index is saved to f.index.
func hnswBuild(f *hnswFlags, s *denseSet, newIndex func() hnswIndex) error {
	heap0, rss0 := heapInUse(), settledRSS()
	start, cpu0 := time.Now(), cpuTime()
	idx := newIndex()
	for i := range s.n {
		if err := idx.add(i, s.row(i)); err != nil {
			return err
		}
	}
	wall, cpu := time.Since(start), cpuTime()-cpu0
	heap1, rss1 := heapInUse(), settledRSS()
	fmt.Printf("build_s %.3f\nbuild_cpu_s %.3f\n", wall.Seconds(), cpu.Seconds())
	fmt.Printf("heap_bytes_per_vector %.1f\nrss_bytes_per_vector %.1f\n",
		float64(heap1-heap0)/float64(s.n), float64(rss1-rss0)/float64(s.n))
	return idx.save(f.index)
}

// hnswSearch times f.passes passes over the queries at each ef and prints
// the rates and the recall, in peer.cpp's format.
func hnswSearch(f *hnswFlags, s *denseSet, idx hnswIndex) {
	got := make([][]uint64, s.nq)
	for _, ef := range f.efs {
		start, cpu0 := time.Now(), cpuTime()
		for range f.passes {
			for q := range s.nq {
				got[q] = idx.search(s.query(q), s.k, ef)
			}
		}
		wall, cpu := time.Since(start), cpuTime()-cpu0
		n := float64(f.passes * s.nq)
		fmt.Printf("ef %d recall %.4f qps %.1f qps_cpu %.1f\n", ef,
			s.recall(s.nq, func(q int) []uint64 { return got[q] }), n/wall.Seconds(), n/cpu.Seconds())
	}
}

func workerHNSW(args []string, name string, newIndex func(f *hnswFlags, s *denseSet) hnswIndex, load func(path string) (hnswIndex, error)) error {
	f, err := parseHNSWFlags(name, args)
	if err != nil {
		return err
	}
	s, err := readDense(f.data)
	if err != nil {
		return err
	}
	fmt.Printf("n %d\nqueries %d\nM %d\nefConstruction %d\n", s.n, s.nq, f.m, f.efc)
	if f.mode == "build" {
		return hnswBuild(f, s, func() hnswIndex { return newIndex(f, s) })
	}
	start := time.Now()
	idx, err := load(f.index)
	if err != nil {
		return err
	}
	fmt.Printf("load_s %.3f\n", time.Since(start).Seconds())
	hnswSearch(f, s, idx)
	return nil
}

// fonte's HNSW through its exported API: NewHNSW with M, EfConstruction
// and Capacity (storage reserved for n vectors, as hnswlib reserves
// max_elements), Add, SearchEf, Encode and DecodeHNSW.
type fonteHNSW struct{ h *vector.HNSW }

func (x fonteHNSW) add(i int, v []float32) error { return x.h.Add(uint64(i), v) }

func (x fonteHNSW) search(q []float32, k, ef int) []uint64 {
	res := x.h.SearchEf(q, k, ef)
	ids := make([]uint64, len(res))
	for i, r := range res {
		ids[i] = r.ID
	}
	return ids
}

func (x fonteHNSW) save(path string) error {
	return writeFileWith(path, x.h.Encode)
}

func workerHNSWFonte(args []string) error {
	return workerHNSW(args, "hnsw-fonte",
		func(f *hnswFlags, s *denseSet) hnswIndex {
			return fonteHNSW{vector.NewHNSW(s.dim, vector.HNSWOptions{M: f.m, EfConstruction: f.efc, Capacity: s.n})}
		},
		func(path string) (hnswIndex, error) {
			fh, err := os.Open(path)
			if err != nil {
				return nil, err
			}
			defer fh.Close()
			h, err := vector.DecodeHNSW(bufio.NewReaderSize(fh, 1<<20))
			return fonteHNSW{h}, err
		})
}

// coder/hnsw: a Graph[uint32] with M = 16, its default level factor
// (Ml 0.25), a fixed seed, and the inner product as distance (1 − a·b,
// through vek32.Dot, the SIMD dot product coder/hnsw's own cosine distance
// uses; on unit vectors it ranks as the cosine, with a third of the
// work). coder/hnsw has one candidate-list size, EfSearch, used when
// inserting and when searching: it is 200 during the build, then ef.
// It keeps the slice it is given as the node's vector, so each vector is
// copied, as a caller whose embeddings arrive one by one would have them,
// and the copies count as the index's memory.
type coderHNSW struct{ g *hnsw.Graph[uint32] }

func dotDistance(a, b []float32) float32 { return 1 - vek32.Dot(a, b) }

func (x coderHNSW) add(i int, v []float32) error {
	x.g.Add(hnsw.MakeNode(uint32(i), append([]float32(nil), v...)))
	return nil
}

func (x coderHNSW) search(q []float32, k, ef int) []uint64 {
	x.g.EfSearch = ef
	res := x.g.Search(q, k)
	ids := make([]uint64, len(res))
	for i, r := range res {
		ids[i] = uint64(r.Key)
	}
	return ids
}

func (x coderHNSW) save(path string) error { return writeFileWith(path, x.g.Export) }

func workerHNSWCoder(args []string) error {
	hnsw.RegisterDistanceFunc("dot", dotDistance)
	return workerHNSW(args, "hnsw-coder",
		func(f *hnswFlags, s *denseSet) hnswIndex {
			g := hnsw.NewGraph[uint32]()
			g.M = f.m
			g.EfSearch = f.efc
			g.Distance = dotDistance
			g.Rng = rand.New(rand.NewSource(1))
			return coderHNSW{g}
		},
		func(path string) (hnswIndex, error) {
			fh, err := os.Open(path)
			if err != nil {
				return nil, err
			}
			defer fh.Close()
			g := hnsw.NewGraph[uint32]()
			g.Rng = rand.New(rand.NewSource(1))
			err = g.Import(bufio.NewReaderSize(fh, 1<<20))
			return coderHNSW{g}, err
		})
}

// writeFileWith writes path through a buffered encoder.
func writeFileWith(path string, encode func(w io.Writer) error) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	if err := encode(w); err != nil {
		fh.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}
