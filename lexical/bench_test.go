package lexical

import (
	"testing"

	"github.com/fonte-rag/fonte/analysis"
)

// The benchmarks use 5,000 synthetic documents of 50 to 200 words and 100
// queries of 2 to 6 words, fixed seed.
const benchDocs, benchQueries = 5000, 100

func BenchmarkNewIndex(b *testing.B) {
	docs, _ := synthetic(benchDocs, 0, 1)
	b.ReportAllocs()
	for b.Loop() {
		NewIndex(docs, analysis.Sklearn())
	}
}

func BenchmarkTFIDFScore(b *testing.B) {
	docs, queries := synthetic(benchDocs, benchQueries, 1)
	m := NewTFIDF(docs, analysis.Sklearn(), TFIDFOptions{})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Scores(queries[i%len(queries)])
		i++
	}
}

func BenchmarkTFIDFSearch(b *testing.B) {
	docs, queries := synthetic(benchDocs, benchQueries, 1)
	m := NewTFIDF(docs, analysis.Sklearn(), TFIDFOptions{})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Search(queries[i%len(queries)], 10)
		i++
	}
}

func BenchmarkBM25Search(b *testing.B) {
	docs, queries := synthetic(benchDocs, benchQueries, 1)
	m := NewBM25(docs, analysis.Sklearn(), DefaultBM25Options())
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Search(queries[i%len(queries)], 10)
		i++
	}
}

func BenchmarkBM25SearchParallel(b *testing.B) {
	docs, queries := synthetic(benchDocs, benchQueries, 1)
	m := NewBM25(docs, analysis.Sklearn(), DefaultBM25Options())
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			m.Search(queries[i%len(queries)], 10)
			i++
		}
	})
}
