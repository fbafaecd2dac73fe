package lexical

import (
	"cmp"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/synth"
)

// The SciFact benchmarks index BEIR SciFact's 5,183 abstracts (title and
// text) with fonte's English analysis and BM25 k1 = 0.9, b = 0.4, as
// retrieve does, and run its 300 test queries, analysed beforehand, in
// turn. A missing data set fails the benchmark.

// sciFact is the shared BEIR SciFact copy.
const sciFact = "../../shared/data/scifact"

// sciFactParams are retrieve's BM25 parameters.
var sciFactParams = BM25Options{K1: 0.9, B: 0.4}

var sciFactOnce = sync.OnceValues(func() (*sciFactData, error) {
	b, err := eval.LoadBEIR(sciFact, "test")
	if err != nil {
		return nil, err
	}
	d := &sciFactData{beir: b}
	for _, doc := range b.Corpus {
		d.docs = append(d.docs, doc.Title+"\n\n"+doc.Text)
	}
	d.m = NewBM25(d.docs, analysis.English(), sciFactParams)
	for _, q := range b.Queries {
		d.queries = append(d.queries, analysis.English().Analyze(q.Text))
	}
	return d, nil
})

type sciFactData struct {
	beir    *eval.BEIR
	docs    []string   // title, blank line, text
	m       *BM25      // over docs
	queries [][]string // the test queries, analysed
}

func loadSciFact(tb testing.TB) *sciFactData {
	tb.Helper()
	d, err := sciFactOnce()
	if err != nil {
		tb.Fatalf("SciFact: %v", err) // a missing data set is a failure, not a skip
	}
	return d
}

// exhaustiveTopK is what retrieve does without pruning: every score, then
// the allowed positive ones sorted by score, ties by document.
func exhaustiveTopK(m *BM25, tokens []string, k int, allow func(int) bool, div float64) []Result {
	var out []Result
	for d, s := range m.ScoresTokens(tokens) {
		if s /= div; s > 0 && (allow == nil || allow(d)) {
			out = append(out, Result{Doc: d, Score: s})
		}
	}
	slices.SortFunc(out, func(a, b Result) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
	return out[:min(k, len(out))]
}

// heapTopK is the exhaustive scorer at its best, as Search runs it: the
// query's postings accumulated into pooled scratch, then a heap of k.
func heapTopK(m *BM25, tokens []string, k int) []Result {
	s := m.pool.get()
	defer m.pool.put(s)
	s.terms = m.ix.termIDs(s.terms, tokens)
	s.begin(m.ix.postingsLen(s.terms))
	for _, t := range s.terms {
		s.add(m.ix.postings[t].Docs, m.weights[t], 1)
	}
	return s.topK(k)
}

func benchSciFact(b *testing.B, search func(m *BM25, tokens []string) []Result) {
	d := loadSciFact(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		search(d.m, d.queries[i%len(d.queries)])
		i++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e3, "µs/query")
}

// forcedMaxScore runs TopK with pruning forced, whatever its cost
// estimate says.
func forcedMaxScore(m *BM25, q []string, k int) []Result {
	oldMin, oldForce := pruneMinPostings, forcePrune
	pruneMinPostings, forcePrune = 0, true
	defer func() { pruneMinPostings, forcePrune = oldMin, oldForce }()
	return m.TopK(q, k, nil)
}

// BenchmarkSciFactTop10 compares the ways to the top 10, one query per
// iteration, single thread: what retrieve did before TopK (every score,
// then a sort), Search's scorer (every score, a heap), TopK (which takes
// its dense path on every SciFact query), its variants, and MaxScore
// forced on.
func BenchmarkSciFactTop10(b *testing.B) {
	benchSciFactK(b, 10)
	b.Run("topk-share", func(b *testing.B) {
		benchSciFact(b, func(m *BM25, q []string) []Result { return m.TopKShare(q, 10, nil) })
	})
	b.Run("topk-filter", func(b *testing.B) {
		half := func(d int) bool { return d%2 == 0 }
		benchSciFact(b, func(m *BM25, q []string) []Result { return m.TopK(q, 10, half) })
	})
}

// BenchmarkSciFactTop100 is BenchmarkSciFactTop10 at the depth retrieve
// fuses at (its default Depth is 50; evaluations ask for 100).
func BenchmarkSciFactTop100(b *testing.B) { benchSciFactK(b, 100) }

func benchSciFactK(b *testing.B, k int) {
	b.Run("exhaustive-sort", func(b *testing.B) {
		benchSciFact(b, func(m *BM25, q []string) []Result { return exhaustiveTopK(m, q, k, nil, 1) })
	})
	b.Run("exhaustive-heap", func(b *testing.B) {
		benchSciFact(b, func(m *BM25, q []string) []Result { return heapTopK(m, q, k) })
	})
	b.Run("topk", func(b *testing.B) {
		benchSciFact(b, func(m *BM25, q []string) []Result { return m.TopK(q, k, nil) })
	})
	b.Run("maxscore-forced", func(b *testing.B) {
		benchSciFact(b, func(m *BM25, q []string) []Result { return forcedMaxScore(m, q, k) })
	})
}

// BenchmarkTopKSelective is where pruning pays: 100,000 synthetic
// documents, queries of two of the 30 commonest words and two of rank
// 1,000 to 5,000 (as a question's "what" and "how" beside its subject),
// top 10 by TopK (which prunes them) and by its dense path alone.
func BenchmarkTopKSelective(b *testing.B) {
	docs, words := zipfCorpus(100000, 4)
	m := NewBM25(docs, analysis.Sklearn(), BM25Options{K1: 0.9, B: 0.4})
	rng := rand.New(rand.NewPCG(5, 6))
	queries := make([][]string, 200)
	for i := range queries {
		queries[i] = []string{words[rng.IntN(10)], words[rng.IntN(30)], words[1000+rng.IntN(4000)], words[1000+rng.IntN(4000)]}
	}
	run := func(b *testing.B, minPostings int) {
		old := pruneMinPostings
		pruneMinPostings = minPostings
		defer func() { pruneMinPostings = old }()
		i := 0
		for b.Loop() {
			m.TopK(queries[i%len(queries)], 10, nil)
			i++
		}
	}
	b.Run("topk", func(b *testing.B) { run(b, pruneMinPostings) })
	b.Run("dense", func(b *testing.B) { run(b, math.MaxInt) })
}

// BenchmarkSciFactBuild times indexing SciFact: analysis, the inverted
// index and BM25's weights, on one goroutine (NewBM25) and on GOMAXPROCS
// (NewIndexParallel).
func BenchmarkSciFactBuild(b *testing.B) {
	d := loadSciFact(b)
	an := analysis.English()
	b.Run("sequential", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			NewBM25(d.docs, an, sciFactParams)
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ix := NewIndexParallel(len(d.docs), func(i int) []string { return an.Analyze(d.docs[i]) }, an, runtime.GOMAXPROCS(0))
			NewBM25Index(ix, sciFactParams)
		}
	})
}

// BenchmarkSciFactSize reports the index's size: the encoded form (what a
// store would keep), the raw text it indexes, and their ratio.
func BenchmarkSciFactSize(b *testing.B) {
	d := loadSciFact(b)
	raw := 0
	for _, doc := range d.beir.Corpus {
		raw += len(doc.Title) + len(doc.Text)
	}
	var buf []byte
	for b.Loop() {
		buf, _ = d.m.Index().AppendBinary(buf[:0])
	}
	n := len(buf)
	b.ReportMetric(float64(n), "encoded-bytes")
	b.ReportMetric(float64(raw), "raw-text-bytes")
	b.ReportMetric(float64(n)/float64(raw), "encoded/raw")
}

// topKScale is BenchmarkTopKScale's corpus size, in chunks.
var topKScale = flag.Int("topk-scale", 100000, "BenchmarkTopKScale's corpus size, in chunks")

// splitMin, when positive, replaces splitMinPostings in the scale
// benchmarks, to measure other thresholds.
var splitMin = flag.Int("split-min", 0, "BenchmarkTopKScale's splitMinPostings, when positive")

// scaleQueries is BenchmarkTopKScale's model and queries, built once
// per process for the benchmarks that share them.
type scaleQueries struct {
	m             *BM25
	mixed, common [][]string
}

var scaleOnce sync.Once
var scaleData scaleQueries

func loadScale(b testing.TB) *scaleQueries {
	scaleOnce.Do(func() {
		n := *topKScale
		c := synth.NewCorpus(rand.New(rand.NewPCG(1, 1)), synth.CorpusOptions{})
		texts := make([]string, n)
		for i := range texts {
			_, texts[i], _ = c.Chunk()
		}
		scaleData.m, _ = openInPlace(b, NewBM25(texts, analysis.English(), BM25Options{K1: 0.9, B: 0.4}))
		for range 300 {
			_, q, _ := c.Query()
			scaleData.mixed = append(scaleData.mixed, analysis.English().Analyze(q))
			scaleData.common = append(scaleData.common, analysis.Italian().Analyze(q))
		}
	})
	return &scaleData
}

// scalePath is a way BenchmarkTopKScale runs its queries.
type scalePath struct {
	name        string
	min, blocks int
	split       bool // the split on (split.go)
	helpers     int  // with at most this many helpers
	share       bool // block-max's ranges sharing θ
	steps       bool // MaxScore's estimate and listing split (prune_split.go)
}

var scalePaths = []scalePath{
	{"dense", math.MaxInt, blockMinShare, false, maxHelpers, true, true},
	{"maxscore", pruneMinPostings, 0, false, maxHelpers, true, true},
	{"unsplit", pruneMinPostings, blockMinShare, false, maxHelpers, true, true},
	{"default", pruneMinPostings, blockMinShare, true, maxHelpers, true, true},
	{"split-alone", pruneMinPostings, blockMinShare, true, 0, true, true},
	{"split-noshare", pruneMinPostings, blockMinShare, true, maxHelpers, false, true},
	{"default-nosteps", pruneMinPostings, blockMinShare, true, maxHelpers, true, false},
}

// set puts the path's knobs in place and returns what puts them back.
func (p scalePath) set() (restore func()) {
	oldMin, oldBlocks, oldSplit, oldHelpers, oldShare, oldSplitMin, oldSteps := pruneMinPostings, blockMinShare, splitEnabled, maxHelpers, splitShareTheta, splitMinPostings, splitSteps
	pruneMinPostings, blockMinShare, splitEnabled, maxHelpers, splitShareTheta, splitSteps = p.min, p.blocks, p.split, p.helpers, p.share, p.steps
	if *splitMin > 0 {
		splitMinPostings = *splitMin
	}
	return func() {
		pruneMinPostings, blockMinShare, splitEnabled, maxHelpers, splitShareTheta, splitMinPostings, splitSteps = oldMin, oldBlocks, oldSplit, oldHelpers, oldShare, oldSplitMin, oldSteps
	}
}

// BenchmarkTopKScale is the lexical leg of cmd/fonte-scale at 100,000
// chunks: its synthetic corpus (synth.Corpus, seed 1) analysed in English
// and opened in place, as the store serves it, and 300 of its queries,
// top 50 by TopKShare as retrieve asks. "mixed" are the queries analysed
// in English (a few rare topic words beside common ones); "common" are
// the same queries stemmed as Italian, which leaves mostly the corpus's
// commonest words (how 3259080's language detection searched them):
// queries whose every list is long. Each runs exhaustively ("dense"),
// with MaxScore alone, with MaxScore and block-max pruning as TopK
// chooses, without the split ("unsplit") and with it ("default", what
// the package does; "split-alone" with no helper, the ranges in turn;
// "split-noshare" without block-max's shared θ; "default-nosteps"
// without MaxScore's estimate and listing split); besides the mean, the
// median and 99th percentile of the queries' times, of their CPU times
// on the query's thread (threadCPU: on a loaded machine the wall-time
// tail is the scheduler's) and of the process's CPU times (processCPU:
// the helper's too). -topk-scale sets the corpus size (go test -bench
// TopKScale ./lexical -args -topk-scale 300000), -split-min the split's
// threshold.
func BenchmarkTopKScale(b *testing.B) {
	d := loadScale(b)
	for _, set := range []struct {
		name    string
		queries [][]string
	}{{"mixed", d.mixed}, {"common", d.common}} {
		for _, path := range scalePaths {
			b.Run(set.name+"/"+path.name, func(b *testing.B) {
				defer path.set()()
				for _, q := range set.queries { // first use: lists checked, maxima made
					d.m.TopKShare(q, 50, nil)
				}
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				var lat, cpu, proc []float64
				i := 0
				for b.Loop() {
					start, startCPU, startProc := time.Now(), threadCPU(), processCPU()
					d.m.TopKShare(set.queries[i%len(set.queries)], 50, nil)
					cpu = append(cpu, float64((threadCPU()-startCPU).Nanoseconds())/1e3)
					proc = append(proc, float64((processCPU()-startProc).Nanoseconds())/1e3)
					lat = append(lat, float64(time.Since(start).Nanoseconds())/1e3)
					i++
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e3, "µs/query")
				for _, m := range []struct {
					name string
					xs   []float64
				}{{"", lat}, {"cpu-", cpu}, {"proc-cpu-", proc}} {
					slices.Sort(m.xs)
					b.ReportMetric(m.xs[len(m.xs)/2], "p50-"+m.name+"µs")
					b.ReportMetric(m.xs[len(m.xs)*99/100], "p99-"+m.name+"µs")
				}
			})
		}
	}
}

// BenchmarkTopKScaleConcurrent is BenchmarkTopKScale's queries (mixed
// and common in turn) run by 2 and 4 goroutines at once, unsplit and
// split: the split must not cost throughput when every core is taken
// (queries/s, the mean µs of wall time per query per goroutine, and the
// helpers started per query, which no idle core should leave many of).
func BenchmarkTopKScaleConcurrent(b *testing.B) {
	d := loadScale(b)
	queries := append(slices.Clone(d.mixed), d.common...)
	for _, g := range []int{2, 4} {
		for _, path := range []scalePath{scalePaths[2], scalePaths[3]} {
			b.Run(fmt.Sprintf("%d/%s", g, path.name), func(b *testing.B) {
				defer path.set()()
				for _, q := range queries {
					d.m.TopKShare(q, 50, nil)
				}
				var next, helpers atomic.Int64
				splitHook = func(h int) { helpers.Add(int64(h)) }
				defer func() { splitHook = nil }()
				start := time.Now()
				var wg sync.WaitGroup
				b.ResetTimer()
				for range g {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for {
							i := next.Add(1) - 1
							if i >= int64(b.N) {
								return
							}
							d.m.TopKShare(queries[i%int64(len(queries))], 50, nil)
						}
					}()
				}
				wg.Wait()
				b.StopTimer()
				el := time.Since(start)
				b.ReportMetric(float64(b.N)/el.Seconds(), "queries/s")
				b.ReportMetric(float64(el.Nanoseconds())*float64(g)/float64(b.N)/1e3, "µs/query")
				b.ReportMetric(float64(helpers.Load())/float64(b.N), "helpers/query")
			})
		}
	}
}
