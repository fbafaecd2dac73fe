package retrieve

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/lexical"
	"github.com/fonte-rag/fonte/synth"
	"github.com/fonte-rag/fonte/vector"
)

// What a restricted reader's search costs against an unrestricted one:
// 100,000 synthetic chunks (synth.Corpus, 120 words median) in documents
// of 5 chunks, an access label on 10%, 50%, 99% or 99.9% of the
// documents (the restricted reader may read 90%, 50%, 1% or 0.1%), BM25
// search (the lexical top list and the relevance of the hits) for 200
// synthetic queries, the first search (which builds the access classes)
// done before timing. Run with
//
//	go test ./retrieve -run '^$' -bench BenchmarkRestrictedSearch -benchmem -count 5
const accessBenchChunks = 100_000

var accessBench = struct {
	once    sync.Once
	ix      map[int]*Index // by labelled share in per mille
	queries []string
}{}

// benchShares are the shares of the documents labelled, in per mille.
var benchShares = []int{100, 500, 990, 999}

// shareName names a share in per mille as a percentage.
func shareName(permille int) string {
	return fmt.Sprintf("labelled=%s%%", strconv.FormatFloat(float64(permille)/10, 'f', -1, 64))
}

func accessBenchIndex(b *testing.B, labelled int) (*Index, []string) {
	accessBench.once.Do(func() {
		accessBench.ix = map[int]*Index{}
		texts := make([]string, accessBenchChunks)
		c := synth.NewCorpus(rand.New(rand.NewPCG(21, 1)), synth.CorpusOptions{Dim: 8})
		for i := range texts {
			_, texts[i], _ = c.Chunk()
		}
		for range 200 {
			_, q, _ := c.Query()
			accessBench.queries = append(accessBench.queries, q)
		}
		// The shares differ in labels only: the lexical index built for
		// the first serves the others.
		var lex *lexical.BM25
		for _, share := range benchShares {
			ix, err := NewWith(labelledCorpus(texts, share), DefaultAnalyzers(), Options{BM25: lex})
			if err != nil {
				panic(err)
			}
			lex = ix.BM25()
			accessBench.ix[share] = ix
		}
	})
	return accessBench.ix[labelled], accessBench.queries
}

// labelledCorpus is texts as chunks of documents of 5, an access label on
// share per mille of the documents.
func labelledCorpus(texts []string, share int) Corpus {
	rng := rand.New(rand.NewPCG(uint64(share), 2))
	corpus := Corpus{Chunks: make([]fonte.Chunk, len(texts)), Tags: make([][]string, len(texts))}
	var tags []string
	for i, text := range texts {
		if i%5 == 0 {
			tags = nil
			if rng.IntN(1000) < share {
				tags = []string{fonte.AccessTag("hr")}
			}
		}
		doc := fmt.Sprintf("doc%06d", i/5)
		corpus.Chunks[i] = fonte.Chunk{ID: fmt.Sprintf("%s#%d", doc, i%5), DocID: doc, Position: i % 5, Text: text}
		corpus.Tags[i] = tags
	}
	return corpus
}

// benchReaders are the readers the benchmarks compare: one who sees
// everything, one from whom the labelled documents are hidden.
var benchReaders = []struct {
	name   string
	filter fonte.Filter
}{
	{"unrestricted", fonte.Filter{}},
	{"restricted", fonte.Filter{Restricted: true}},
}

func BenchmarkRestrictedSearch(b *testing.B) {
	for _, share := range benchShares {
		for _, reader := range benchReaders {
			b.Run(shareName(share)+"/"+reader.name, func(b *testing.B) {
				ix, queries := accessBenchIndex(b, share)
				req := Request{Mode: BM25, K: 10, Lang: "en", Filter: reader.filter}
				req.Query = queries[0]
				if _, err := ix.Search(req); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					req.Query = queries[i%len(queries)]
					if _, err := ix.Search(req); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}

// What a restricted reader's dense leg costs against an unrestricted one
// over an HNSW graph: 100,000 synthetic chunks (synth.Corpus, 384
// dimensions) in documents of 5 chunks, an access label on 10%, 50%, 99%
// or 99.9% of the documents, the vectors given as one part with its int8
// copy as the embedded store gives its segments, the graph built with
// vector's defaults (once, shared by every label share). The unrestricted reader
// walks the graph; the restricted one scans the rows it may see exactly.
// Dense alone and hybrid (BM25 beside it), 200 synthetic queries; the
// dense runs also report the leg's recall@10 against the exact search of
// the chunks the reader may read, over the first 50 queries, so that a
// faster restricted leg that loses hits shows it. Run with
//
//	go test ./retrieve -run '^$' -bench BenchmarkRestrictedDense -benchmem -count 5
var denseBench = struct {
	once    sync.Once
	ix      map[int]*Index // by labelled share in per mille
	queries []benchQuery
}{}

type benchQuery struct {
	text string
	vec  []float32
}

func denseBenchIndex(b *testing.B, labelled int) (*Index, []benchQuery) {
	denseBench.once.Do(func() {
		denseBench.ix = map[int]*Index{}
		const dim = 384
		texts := make([]string, accessBenchChunks)
		vecs := make([]float32, 0, accessBenchChunks*dim)
		c := synth.NewCorpus(rand.New(rand.NewPCG(21, 1)), synth.CorpusOptions{Dim: dim})
		for i := range texts {
			var v []float32
			_, texts[i], v = c.Chunk()
			vecs = append(vecs, v...)
		}
		for range 200 {
			_, q, v := c.Query()
			denseBench.queries = append(denseBench.queries, benchQuery{q, v})
		}
		blk := vector.QuantizeBlock(dim, vecs)
		var graph *vector.HNSW
		var keys []uint64
		var lex *lexical.BM25
		for _, share := range benchShares {
			corpus := labelledCorpus(texts, share)
			corpus.Vectors, corpus.Parts, corpus.Dim = vecs, []vector.FlatPart{{Data: vecs, Int8: &blk}}, dim
			o := Options{Dense: DenseHNSW, Graph: graph, PreviousKeys: keys, GraphRowsCurrent: graph != nil, BM25: lex}
			ix, err := NewWith(corpus, DefaultAnalyzers(), o)
			if err != nil {
				panic(err)
			}
			graph, keys = ix.Graph()
			lex = ix.BM25()
			denseBench.ix[share] = ix
		}
	})
	return denseBench.ix[labelled], denseBench.queries
}

func BenchmarkRestrictedDense(b *testing.B) {
	for _, mode := range []Mode{Dense, Hybrid} {
		for _, share := range benchShares {
			for _, reader := range benchReaders {
				b.Run(fmt.Sprintf("%s/%s/%s", mode, shareName(share), reader.name), func(b *testing.B) {
					ix, queries := denseBenchIndex(b, share)
					req := Request{Mode: mode, K: 10, Lang: "en", Filter: reader.filter}
					search := func(i int) {
						q := queries[i%len(queries)]
						req.Query, req.Vector = q.text, q.vec
						if _, err := ix.Search(req); err != nil {
							b.Fatal(err)
						}
					}
					search(0) // the access classes and the exact view are built on first use
					b.ReportAllocs()
					i := 0
					for b.Loop() {
						search(i)
						i++
					}
					if mode == Dense {
						b.ReportMetric(denseRecall(b, ix, queries[:50], reader.filter), "recall@10")
					}
				})
			}
		}
	}
}

// denseRecall is the share of each query's exact top 10, among the
// chunks f lets its reader read, that the index's dense search returns.
func denseRecall(b *testing.B, ix *Index, queries []benchQuery, f fonte.Filter) float64 {
	rows := ix.corpus.rows()
	found := 0
	for _, q := range queries {
		hits, err := ix.Search(Request{Mode: Dense, K: 10, Vector: q.vec, Filter: f})
		if err != nil {
			b.Fatal(err)
		}
		var truth []vector.Result
		for i, row := range rows {
			if f.Readable(ix.src.Tags(i)) {
				truth = append(truth, vector.Result{ID: uint64(i), Score: vector.Dot(q.vec, row)})
			}
		}
		slices.SortFunc(truth, func(x, y vector.Result) int {
			if x.Score != y.Score {
				return cmp.Compare(y.Score, x.Score)
			}
			return cmp.Compare(x.ID, y.ID)
		})
		for _, t := range truth[:10] {
			for _, h := range hits {
				if h.Chunk.ID == ix.src.Chunk(int(t.ID)).ID {
					found++
				}
			}
		}
	}
	return float64(found) / float64(10*len(queries))
}
