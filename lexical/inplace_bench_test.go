package lexical

import (
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/synth"
)

// The in-place benchmarks compare the two persisted forms of one model:
// 200,000 chunks of synth's corpus (Zipf vocabulary of 50,000 words,
// median 120 words a chunk, 200 topics), fonte's English analysis and
// retrieve's BM25 parameters, and 200 of synth's topic queries, analysed.
// Building the model takes a while (once per run); run them with a small
// -benchtime, e.g.
//
//	go test -run XXX -bench 'InPlaceOpen|InPlaceFirst' -benchtime 3x ./lexical/
//	go test -run XXX -bench InPlaceTopK -benchtime 2000x ./lexical/
const inplaceBenchDocs, inplaceBenchQueries = 200000, 200

type inplaceBench struct {
	m       *BM25
	varint  []byte // AppendBinary's form
	form    []byte // AppendInPlace's form, 8-byte aligned
	queries [][]string
}

var inplaceBenchOnce = sync.OnceValue(func() *inplaceBench {
	c := synth.NewCorpus(rand.New(rand.NewPCG(1, 1)), synth.CorpusOptions{})
	texts := make([]string, inplaceBenchDocs)
	for i := range texts {
		_, texts[i], _ = c.Chunk()
	}
	an := analysis.English()
	ix := NewIndexParallel(len(texts), func(d int) []string { return an.Analyze(texts[d]) }, an, runtime.GOMAXPROCS(0))
	x := &inplaceBench{m: NewBM25Index(ix, sciFactParams)}
	for range inplaceBenchQueries {
		_, q, _ := c.Query()
		x.queries = append(x.queries, an.Analyze(q))
	}
	x.varint, _ = x.m.MarshalBinary()
	x.form = alignedCopy(x.m.AppendInPlace(nil), 0)
	return x
})

// BenchmarkInPlaceOpen times opening each form and reports the heap it
// allocates (B/op) and the form's size.
func BenchmarkInPlaceOpen(b *testing.B) {
	x := inplaceBenchOnce()
	an := x.m.ix.an
	for _, c := range []struct {
		name string
		data []byte
		open func([]byte, analysis.Analyzer) (*BM25, error)
	}{{"decode", x.varint, DecodeBM25}, {"inplace", x.form, OpenBM25InPlace}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.open(c.data, an); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(c.data)), "form-bytes")
		})
	}
	b.Run("verify", func(b *testing.B) { // the background checksum pass
		for b.Loop() {
			if err := VerifyInPlace(x.form); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkInPlaceTopK times retrieve's lexical leg, TopKShare with its
// pruning, on a decoded model and on an in-place one, both warmed by a
// pass over the queries (which checks the in-place lists once).
func BenchmarkInPlaceTopK(b *testing.B) {
	x := inplaceBenchOnce()
	decoded, err := DecodeBM25(x.varint, x.m.ix.an)
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range []int{10, 100} {
		for _, c := range []struct {
			name string
			open func() *BM25
		}{
			{"decoded", func() *BM25 { return decoded }},
			{"inplace", func() *BM25 {
				m, err := OpenBM25InPlace(x.form, x.m.ix.an)
				if err != nil {
					b.Fatal(err)
				}
				return m
			}},
		} {
			b.Run(c.name+"/k="+strconv.Itoa(k), func(b *testing.B) {
				m := c.open()
				for _, q := range x.queries {
					m.TopKShare(q, k, nil)
				}
				i := 0
				for b.Loop() {
					m.TopKShare(x.queries[i%len(x.queries)], k, nil)
					i++
				}
			})
		}
	}
}

// BenchmarkInPlaceFirstQueries times the first pass of the queries (top 10)
// on a freshly opened in-place model, which computes the documents' length
// norms and checks each list it uses once; reported per query.
func BenchmarkInPlaceFirstQueries(b *testing.B) {
	x := inplaceBenchOnce()
	for b.Loop() {
		b.StopTimer()
		m, err := OpenBM25InPlace(x.form, x.m.ix.an)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for _, q := range x.queries {
			m.TopKShare(q, 10, nil)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x.queries)), "ns/query")
}
