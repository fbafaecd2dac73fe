package retrieve

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/synth"
)

// What a restricted reader's search costs against an unrestricted one:
// 100,000 synthetic chunks (synth.Corpus, 120 words median) in documents
// of 5 chunks, an access label on 10% or 50% of the documents, BM25
// search (the lexical top list and the relevance of the hits) for 200
// synthetic queries, the first search (which builds the access classes)
// done before timing. Run with
//
//	go test ./retrieve -run '^$' -bench BenchmarkRestrictedSearch -benchmem -count 5
const accessBenchChunks = 100_000

var accessBench = struct {
	once    sync.Once
	ix      map[int]*Index // by labelled share in percent
	queries []string
}{}

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
		for _, share := range []int{10, 50} {
			rng := rand.New(rand.NewPCG(uint64(share), 2))
			corpus := Corpus{Chunks: make([]fonte.Chunk, len(texts)), Tags: make([][]string, len(texts))}
			var tags []string
			for i, text := range texts {
				if i%5 == 0 {
					tags = nil
					if rng.IntN(100) < share {
						tags = []string{fonte.AccessTag("hr")}
					}
				}
				doc := fmt.Sprintf("doc%06d", i/5)
				corpus.Chunks[i] = fonte.Chunk{ID: fmt.Sprintf("%s#%d", doc, i%5), DocID: doc, Position: i % 5, Text: text}
				corpus.Tags[i] = tags
			}
			ix, err := New(corpus, DefaultAnalyzers())
			if err != nil {
				panic(err)
			}
			accessBench.ix[share] = ix
		}
	})
	return accessBench.ix[labelled], accessBench.queries
}

func BenchmarkRestrictedSearch(b *testing.B) {
	for _, share := range []int{10, 50} {
		for _, reader := range []struct {
			name   string
			filter fonte.Filter
		}{
			{"unrestricted", fonte.Filter{}},
			{"restricted", fonte.Filter{Restricted: true}},
		} {
			b.Run(fmt.Sprintf("labelled=%d%%/%s", share, reader.name), func(b *testing.B) {
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
