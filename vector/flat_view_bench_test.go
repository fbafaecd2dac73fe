package vector

import (
	"fmt"
	"testing"
	"time"
)

// Single-query exact search, k = 10, over the 100k × 384 benchmark data:
// a Flat that owns its rows (with its int8 copy, the default, and with
// NoInt8) against a FlatView over the same rows where they lie, in parts.
// Each reports QPS and the index's own heap bytes a vector (heapB/vec:
// the growth of the live heap over building it; for the view, besides the
// rows and the int8 blocks, which a store maps from its files):
//
//	go test -run '^$' -bench 'Flat(View)?100k' -benchtime 2000x ./vector/
//
// On a shared machine the load drifts between benchmarks more than the
// two differ; BenchmarkFlatViewVsFlat100k times them query by query in
// turn, so that both see the same load.

// BenchmarkFlat100k is Flat.Search with the int8 copy (int8) and without
// it (float32, FlatOptions.NoInt8).
func BenchmarkFlat100k(b *testing.B) {
	data, _ := benchData(100_000)
	for _, o := range []FlatOptions{{}, {NoInt8: true}} {
		name := "int8"
		if o.NoInt8 {
			name = "float32"
		}
		b.Run(name, func(b *testing.B) {
			before := heapInUse()
			f := NewFlatWith(benchDim, o)
			for i := range data.Rows {
				if err := f.Add(uint64(i), data.Row(i)); err != nil {
					b.Fatal(err)
				}
			}
			benchSearch100k(b, before, f.Search)
		})
	}
}

// viewParts cuts the rows of data into parts of size rows, each with its
// int8 block when with8.
func viewParts(data []float32, size int, with8 bool) []FlatPart {
	var parts []FlatPart
	for lo := 0; lo < len(data); lo += size * benchDim {
		p := FlatPart{Data: data[lo:min(lo+size*benchDim, len(data))]}
		if with8 {
			blk := QuantizeBlock(benchDim, p.Data)
			p.Int8 = &blk
		}
		parts = append(parts, p)
	}
	return parts
}

// BenchmarkFlatViewVsFlat100k searches each query with a Flat and with a
// FlatView over the same rows in 15 parts, in turn (which goes first
// alternates), and reports each one's QPS over its own time and the
// ratio view/flat: with the int8 copy (int8) and without (float32:
// FlatOptions.NoInt8 and parts without blocks).
func BenchmarkFlatViewVsFlat100k(b *testing.B) {
	data, queries := benchData(100_000)
	for _, with8 := range []bool{true, false} {
		name := map[bool]string{true: "int8", false: "float32"}[with8]
		b.Run(name, func(b *testing.B) {
			f := NewFlatWith(benchDim, FlatOptions{NoInt8: !with8})
			for i := range data.Rows {
				if err := f.Add(uint64(i), data.Row(i)); err != nil {
					b.Fatal(err)
				}
			}
			v, err := NewFlatView(benchDim, viewParts(data.Data, 7_000, with8))
			if err != nil {
				b.Fatal(err)
			}
			var tf, tv time.Duration
			i := 0
			for b.Loop() {
				q := queries.Row(i % queries.Rows)
				first, second, t1, t2 := f.Search, v.Search, &tf, &tv
				if i%2 == 1 {
					first, second, t1, t2 = v.Search, f.Search, &tv, &tf
				}
				t0 := time.Now()
				first(q, 10)
				mid := time.Now()
				second(q, 10)
				*t1 += mid.Sub(t0)
				*t2 += time.Since(mid)
				i++
			}
			b.ReportMetric(float64(b.N)/tf.Seconds(), "flatQPS")
			b.ReportMetric(float64(b.N)/tv.Seconds(), "viewQPS")
			b.ReportMetric(tf.Seconds()/tv.Seconds(), "view/flat")
		})
	}
}

// BenchmarkFlatView100k is FlatView.Search over the rows of the data set
// in one matrix, cut into parts of the given size (a store's segments),
// each with its int8 block (int8) or none (float32).
func BenchmarkFlatView100k(b *testing.B) {
	data, _ := benchData(100_000)
	for _, size := range []int{100_000, 7_000, 667} {
		for _, with8 := range []bool{true, false} {
			name := fmt.Sprintf("parts=%d/float32", (data.Rows+size-1)/size)
			if with8 {
				name = fmt.Sprintf("parts=%d/int8", (data.Rows+size-1)/size)
			}
			b.Run(name, func(b *testing.B) {
				parts := viewParts(data.Data, size, with8)
				before := heapInUse()
				v, err := NewFlatView(benchDim, parts)
				if err != nil {
					b.Fatal(err)
				}
				benchSearch100k(b, before, v.Search)
			})
		}
	}
}

// benchSearch100k times search over the benchmark queries, k = 10, and
// reports its QPS and the heap bytes a vector gained since before (the
// index search belongs to being built).
func benchSearch100k(b *testing.B, before uint64, search func(q []float32, k int) []Result) {
	data, queries := benchData(100_000)
	// Measured now and reported after the loop, whose start clears the
	// metrics reported so far.
	perVec := float64(heapInUse()-before) / float64(data.Rows)
	i := 0
	for b.Loop() {
		search(queries.Row(i%queries.Rows), 10)
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "QPS")
	b.ReportMetric(perVec, "heapB/vec")
}
