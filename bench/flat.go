package main

// Exact dense search: fonte's Flat (and its exact int8 variant, and a
// Flat without its int8 copy, scanning float32 only) against FAISS IndexFlatIP (faisspeer/flat.py) and
// chromem-go. Each run is one process per engine on one thread that loads
// the data file, adds the vectors (timed, with the growth of the live Go
// heap and of the resident set over the adds: the index's memory), then
// times the first -single queries searched one at a time and the whole
// query set in one batch, top 10, and checks the batch's results against
// the exact top 10.

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"time"

	chromem "github.com/philippgille/chromem-go"

	"github.com/fonte-rag/fonte/vector"
)

type flatFlags struct {
	data   string
	single int
}

func parseFlatFlags(name string, args []string) (*flatFlags, error) {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	var f flatFlags
	fl.StringVar(&f.data, "data", "", "dense data file")
	fl.IntVar(&f.single, "single", 200, "queries searched one at a time")
	return &f, fl.Parse(args)
}

// timeQueries runs f and prints the rate of n queries by wall clock and
// by CPU time under key.
func timeQueries(key string, n int, f func()) {
	start, cpu0 := time.Now(), cpuTime()
	f()
	wall, cpu := time.Since(start), cpuTime()-cpu0
	fmt.Printf("%s %.2f\n%s_cpu %.2f\n", key, float64(n)/wall.Seconds(), key, float64(n)/cpu.Seconds())
}

// exactIndex is what fonte's exact indexes share.
type exactIndex interface {
	Add(id uint64, v []float32) error
	Search(q []float32, k int) []vector.Result
	SearchBatch(qs [][]float32, k int) [][]vector.Result
}

// The exact indexes fonte's flat workers measure.
const (
	flatDefault = "flat"    // vector.Flat: float32 rows and their int8 copy
	flatInt8    = "int8"    // vector.FlatInt8 with KeepFloat
	flatFloat32 = "float32" // vector.Flat with NoInt8: float32 rows only
)

// memoryMark is the live heap and the settled resident set at one moment.
type memoryMark struct{ heap, rss int64 }

func markMemory() memoryMark { return memoryMark{heap: heapInUse(), rss: settledRSS()} }

// printGrowth prints the growth of the heap and of the resident set since
// m, per vector, as the index's memory.
func (m memoryMark) printGrowth(n int) {
	now := markMemory()
	fmt.Printf("heap_bytes_per_vector %.1f\nrss_bytes_per_vector %.1f\n",
		float64(now.heap-m.heap)/float64(n), float64(now.rss-m.rss)/float64(n))
}

func workerFlatFonte(args []string, kind string) error {
	f, err := parseFlatFlags("flat-fonte", args)
	if err != nil {
		return err
	}
	s, err := readDense(f.data)
	if err != nil {
		return err
	}
	mem := markMemory()
	var idx exactIndex
	switch kind {
	case flatDefault:
		idx = vector.NewFlat(s.dim)
	case flatInt8:
		// int8 scan, exact float32 re-score of the candidates within a
		// proven bound: the same results as Flat.
		idx = vector.NewFlatInt8(s.dim, vector.FlatInt8Options{KeepFloat: true})
	case flatFloat32:
		idx = vector.NewFlatWith(s.dim, vector.FlatOptions{NoInt8: true})
	default:
		return fmt.Errorf("flat-fonte: unknown index %q", kind)
	}
	start := time.Now()
	for i := range s.n {
		if err := idx.Add(uint64(i), s.row(i)); err != nil {
			return err
		}
	}
	fmt.Printf("add_s %.4f\n", time.Since(start).Seconds())
	mem.printGrowth(s.n)
	qs := make([][]float32, s.nq)
	for i := range qs {
		qs[i] = s.query(i)
	}
	single := min(f.single, s.nq)
	idx.Search(qs[0], s.k) // warm up
	timeQueries("single_qps", single, func() {
		for _, q := range qs[:single] {
			idx.Search(q, s.k)
		}
	})
	var res [][]vector.Result
	timeQueries("batch_qps", s.nq, func() { res = idx.SearchBatch(qs, s.k) })
	fmt.Printf("recall %.4f\n", s.recall(s.nq, func(q int) []uint64 {
		ids := make([]uint64, len(res[q]))
		for i, r := range res[q] {
			ids[i] = r.ID
		}
		return ids
	}))
	return nil
}

// workerFlatChromem measures chromem-go's exhaustive search: an in-memory
// DB, one collection, documents with their embeddings and no content,
// QueryEmbedding. chromem-go has no batch search, so there is no batch
// figure.
func workerFlatChromem(args []string) error {
	f, err := parseFlatFlags("flat-chromem", args)
	if err != nil {
		return err
	}
	s, err := readDense(f.data)
	if err != nil {
		return err
	}
	ctx := context.Background()
	db := chromem.NewDB()
	// The embedding function is never called: every document and query
	// comes with its embedding.
	col, err := db.CreateCollection("bench", nil, func(context.Context, string) ([]float32, error) {
		return nil, fmt.Errorf("no embedding function in the benchmark")
	})
	if err != nil {
		return err
	}
	// The memory counted from before the documents are made: chromem-go
	// keeps each document's embedding slice, so the copies are its memory,
	// as they would be for a caller whose embeddings arrive one by one.
	mem := markMemory()
	docs := make([]chromem.Document, s.n)
	for i := range docs {
		docs[i] = chromem.Document{ID: strconv.Itoa(i), Embedding: append([]float32(nil), s.row(i)...)}
	}
	start := time.Now()
	if err := col.AddDocuments(ctx, docs, 1); err != nil {
		return err
	}
	fmt.Printf("add_s %.4f\n", time.Since(start).Seconds())
	mem.printGrowth(s.n) // docs is dead here: the collection holds what is counted
	search := func(q int) ([]uint64, error) {
		res, err := col.QueryEmbedding(ctx, s.query(q), s.k, nil, nil)
		if err != nil {
			return nil, err
		}
		ids := make([]uint64, len(res))
		for i, r := range res {
			id, err := strconv.ParseUint(r.ID, 10, 64)
			if err != nil {
				return nil, err
			}
			ids[i] = id
		}
		return ids, nil
	}
	single := min(f.single, s.nq)
	if _, err := search(0); err != nil { // warm up
		return err
	}
	got := make([][]uint64, s.nq)
	timeQueries("single_qps", single, func() {
		for q := range single {
			if got[q], err = search(q); err != nil {
				return
			}
		}
	})
	if err != nil {
		return err
	}
	// Recall over the queries searched (at 100,000 vectors the whole set
	// would take chromem-go half a minute more per run).
	fmt.Printf("recall %.4f\n", s.recall(single, func(q int) []uint64 { return got[q] }))
	return nil
}
