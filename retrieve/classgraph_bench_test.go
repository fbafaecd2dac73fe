package retrieve

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/synth"
	"github.com/fonte-rag/fonte/vector"
)

// What a restricted reader of half the chunks costs on the dense leg,
// with and without the class graphs, when the half is drawn at random
// and when it is whole topics (the case where a reader's query is often
// of a topic it may not read, and so far from every class it may read):
// BenchmarkRestrictedDense's 100,000 chunks, vectors and shared graph,
// one chunk a document, the hr label on a random half of the chunks or
// on the chunks of topics 0 to 99 of 200; the reader holds no label. The
// class graphs (ClassGraphMin 10,000) give each half a graph of its own,
// built on the first search, before timing, with the store's graph
// options (M 32, int8 codes, a list of 200). Each run reports recall@10
// against the exact search of the readable chunks over 50 queries. Run
// with
//
//	go test ./retrieve -run '^$' -bench BenchmarkClassGraphDense -benchmem -count 5 -timeout 60m
var classBench = struct {
	once   sync.Once
	topics []int
	ix     map[string]*Index
	mu     sync.Mutex
}{ix: map[string]*Index{}}

// classBenchIndex returns the index of labels "random" or "topic", with
// class graphs or without.
func classBenchIndex(b *testing.B, labels string, graphs bool) (*Index, []benchQuery) {
	base, queries := denseBenchIndex(b, 500)
	classBench.once.Do(func() {
		c := synth.NewCorpus(rand.New(rand.NewPCG(21, 1)), synth.CorpusOptions{Dim: 384})
		classBench.topics = make([]int, accessBenchChunks)
		for i := range classBench.topics {
			classBench.topics[i], _, _ = c.Chunk() // the chunks denseBenchIndex drew
		}
	})
	classBench.mu.Lock()
	defer classBench.mu.Unlock()
	key := fmt.Sprintf("%s/%v", labels, graphs)
	if ix, ok := classBench.ix[key]; ok {
		return ix, queries
	}
	rng := rand.New(rand.NewPCG(3, 3))
	corpus := Corpus{Chunks: make([]fonte.Chunk, accessBenchChunks), Tags: make([][]string, accessBenchChunks)}
	for i := range corpus.Chunks {
		doc := fmt.Sprintf("doc%06d", i)
		corpus.Chunks[i] = fonte.Chunk{ID: doc + "#0", DocID: doc, Text: base.src.Chunk(i).Text}
		if labels == "random" && rng.IntN(2) == 0 || labels == "topic" && classBench.topics[i] < 100 {
			corpus.Tags[i] = []string{fonte.AccessTag("hr")}
		}
	}
	// denseBenchIndex gives its vectors as one part, with its int8 copy.
	corpus.Vectors, corpus.Parts, corpus.Dim = base.exactParts[0].Data, base.exactParts, base.corpus.Dim
	graph, keys := base.Graph()
	// The class graphs are built as a store builds its graphs
	// (disk.storeGraph); the shared graph handed over is walked by no
	// restricted reader here.
	o := Options{Dense: DenseHNSW, Graph: graph, PreviousKeys: keys, GraphRowsCurrent: true, BM25: base.BM25(), ClassGraphMin: -1,
		HNSW: vector.HNSWOptions{M: 32, Quantize: true, EfSearch: 200}}
	if graphs {
		o.ClassGraphMin = 10_000
	}
	ix, err := NewWith(corpus, DefaultAnalyzers(), o)
	if err != nil {
		b.Fatal(err)
	}
	classBench.ix[key] = ix
	return ix, queries
}

func BenchmarkClassGraphDense(b *testing.B) {
	for _, labels := range []string{"random", "topic"} {
		for _, graphs := range []bool{false, true} {
			b.Run(fmt.Sprintf("labels=%s/classgraphs=%v", labels, graphs), func(b *testing.B) {
				ix, queries := classBenchIndex(b, labels, graphs)
				f := fonte.Filter{Restricted: true}
				req := Request{Mode: Dense, K: 10, Filter: f}
				search := func(i int) {
					req.Vector = queries[i%len(queries)].vec
					if _, err := ix.Search(req); err != nil {
						b.Fatal(err)
					}
				}
				search(0) // builds the access classes and the class graph
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					search(i)
					i++
				}
				b.ReportMetric(denseRecall(b, ix, queries[:50], f), "recall@10")
			})
		}
	}
}
