// Command lexical compares fonte's BM25 with bleve's on BEIR SciFact:
// index build time, index size, single-thread query throughput over the
// 300 test queries, and nDCG@10 / recall@100 of both. See README.md.
package main

import (
	"cmp"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/blevesearch/bleve/v2"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/en" // registers "en"
	"github.com/blevesearch/bleve/v2/search"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/lexical"
)

func main() {
	data := flag.String("data", "../../../shared/data/scifact", "BEIR SciFact folder")
	runs := flag.Int("runs", 5, "repetitions of each build and of each pass over the queries")
	k1 := flag.Float64("k1", 0.9, "BM25 k1, for both engines")
	b := flag.Float64("b", 0.4, "BM25 b, for both engines")
	workdir := flag.String("dir", "", "folder for bleve's indexes (default: a temporary one, removed at the end)")
	flag.Parse()
	log.SetFlags(0)

	beir, err := eval.LoadBEIR(*data, "test")
	if err != nil {
		log.Fatal(err)
	}
	texts := make([]string, len(beir.Corpus))
	ids := make([]string, len(beir.Corpus))
	raw := 0
	for i, d := range beir.Corpus {
		texts[i] = d.Title + "\n\n" + d.Text // as retrieve enriches a chunk: title, then text
		ids[i] = d.ID
		raw += len(d.Title) + len(d.Text)
	}
	dir := *workdir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "bench-lexical-"); err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(dir)
	}
	opts := lexical.BM25Options{K1: *k1, B: *b}
	search.BM25_k1, search.BM25_b = *k1, *b

	load0 := loadavg()
	fmt.Printf("SciFact: %d documents (%.2f MB of title+text), %d test queries; GOMAXPROCS %d; load average %s\n",
		len(texts), float64(raw)/1e6, len(beir.Queries), runtime.GOMAXPROCS(0), load0)

	// Builds, alternating engines so both see the same load.
	var fonteBuild, fonteBuild1, bleveBuild []time.Duration
	var m *lexical.BM25
	var bleveDir string
	for r := range *runs {
		start := time.Now()
		m = buildFonte(texts, opts, runtime.GOMAXPROCS(0))
		fonteBuild = append(fonteBuild, time.Since(start))

		start = time.Now()
		buildFonte(texts, opts, 1)
		fonteBuild1 = append(fonteBuild1, time.Since(start))

		bleveDir = filepath.Join(dir, fmt.Sprintf("bleve-%d", r))
		start = time.Now()
		if err := buildBleve(bleveDir, ids, texts); err != nil {
			log.Fatal(err)
		}
		bleveBuild = append(bleveBuild, time.Since(start))
		if r < *runs-1 {
			os.RemoveAll(bleveDir)
		}
	}
	encoded, _ := m.MarshalBinary()
	bleveSize, err := dirSize(bleveDir)
	if err != nil {
		log.Fatal(err)
	}
	idx, err := bleve.Open(bleveDir)
	if err != nil {
		log.Fatal(err)
	}
	defer idx.Close()

	// Rankings for the metrics: the top 100 of each engine.
	an := analysis.English()
	fonteRun, bleveRun := eval.Run{}, eval.Run{}
	for _, q := range beir.Queries {
		for _, r := range m.TopK(an.Analyze(q.Text), 100, nil) {
			fonteRun[q.ID] = append(fonteRun[q.ID], ids[r.Doc])
		}
		hits, err := bleveSearch(idx, q.Text, 100)
		if err != nil {
			log.Fatal(err)
		}
		bleveRun[q.ID] = hits
	}
	fonteScores, bleveScores := eval.ScoreRun(beir.Qrels, fonteRun), eval.ScoreRun(beir.Qrels, bleveRun)

	// Throughput: one goroutine, GOMAXPROCS 1, each pass over the 300
	// queries timed whole, query analysis included; engines alternate.
	prev := runtime.GOMAXPROCS(1)
	queries := beir.Queries
	pass := func(f func(text string)) float64 {
		start := time.Now()
		for _, q := range queries {
			f(q.Text)
		}
		return float64(len(queries)) / time.Since(start).Seconds()
	}
	qps := map[string][]float64{}
	for range *runs {
		for _, k := range []int{10, 100} {
			qps[fmt.Sprintf("fonte TopK k=%d", k)] = append(qps[fmt.Sprintf("fonte TopK k=%d", k)], pass(func(text string) {
				m.TopK(an.Analyze(text), k, nil)
			}))
			qps[fmt.Sprintf("fonte exhaustive k=%d", k)] = append(qps[fmt.Sprintf("fonte exhaustive k=%d", k)], pass(func(text string) {
				exhaustive(m, an.Analyze(text), k)
			}))
			qps[fmt.Sprintf("bleve k=%d", k)] = append(qps[fmt.Sprintf("bleve k=%d", k)], pass(func(text string) {
				if _, err := bleveSearch(idx, text, k); err != nil {
					log.Fatal(err)
				}
			}))
		}
	}
	runtime.GOMAXPROCS(prev)
	load1 := loadavg()

	w := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "\tfonte\tbleve v2.6.3\tfonte/bleve\t")
	row := func(name string, f, bl float64, format string, ratio float64) {
		fmt.Fprintf(w, "%s\t"+format+"\t"+format+"\t%.2f×\t\n", name, f, bl, ratio)
	}
	fb, fb1, bb := median(fonteBuild).Seconds(), median(fonteBuild1).Seconds(), median(bleveBuild).Seconds()
	row("index build, s (median; fonte on all cores)", fb, bb, "%.3f", bb/fb)
	row("index build, s (median; fonte on one core)", fb1, bb, "%.3f", bb/fb1)
	row("index size, MB (fonte: encoded BM25 model)", float64(len(encoded))/1e6, float64(bleveSize)/1e6, "%.2f", float64(len(encoded))/float64(bleveSize))
	row("index size / raw title+text", float64(len(encoded))/float64(raw), float64(bleveSize)/float64(raw), "%.3f", float64(len(encoded))/float64(bleveSize))
	for _, k := range []int{10, 100} {
		f, bl := medianF(qps[fmt.Sprintf("fonte TopK k=%d", k)]), medianF(qps[fmt.Sprintf("bleve k=%d", k)])
		row(fmt.Sprintf("queries/s, top %d, 1 thread (median)", k), f, bl, "%.0f", f/bl)
		ex := medianF(qps[fmt.Sprintf("fonte exhaustive k=%d", k)])
		row(fmt.Sprintf("queries/s, top %d, fonte ScoresTokens+sort", k), ex, bl, "%.0f", ex/bl)
	}
	row("nDCG@10", fonteScores.NDCG10, bleveScores.NDCG10, "%.4f", fonteScores.NDCG10/bleveScores.NDCG10)
	row("recall@100", fonteScores.Recall100, bleveScores.Recall100, "%.4f", fonteScores.Recall100/bleveScores.Recall100)
	w.Flush()
	fmt.Printf("\n%d runs each; builds (s) fonte %s, fonte 1 core %s, bleve %s\n", *runs, secs(fonteBuild), secs(fonteBuild1), secs(bleveBuild))
	for _, name := range slices.Sorted(maps.Keys(qps)) {
		fmt.Printf("queries/s %-22s %s\n", name, floats(qps[name]))
	}
	fmt.Printf("load average before %s, after %s\n", load0, load1)
}

// buildFonte indexes texts as retrieve does, on the given number of
// goroutines (NewIndexParallel; 1 is NewIndexTokens).
func buildFonte(texts []string, opts lexical.BM25Options, workers int) *lexical.BM25 {
	an := analysis.English()
	ix := lexical.NewIndexParallel(len(texts), func(d int) []string { return an.Analyze(texts[d]) }, an, workers)
	return lexical.NewBM25Index(ix, opts)
}

// buildBleve indexes the documents into a new scorch index at dir, one
// text field analysed by bleve's English analyzer, scored by BM25, nothing
// stored beyond what scoring needs, and closes it (persisting it).
func buildBleve(dir string, ids, texts []string) error {
	text := bleve.NewTextFieldMapping()
	text.Analyzer = "en"
	text.Store, text.IncludeTermVectors, text.IncludeInAll, text.DocValues = false, false, false, false
	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt("text", text)
	im := bleve.NewIndexMapping()
	im.DefaultMapping = doc
	im.DefaultAnalyzer = "en"
	im.ScoringModel = bleveindex.BM25Scoring
	idx, err := bleve.New(dir, im)
	if err != nil {
		return err
	}
	batch := idx.NewBatch()
	for i, id := range ids {
		if err := batch.Index(id, map[string]any{"text": texts[i]}); err != nil {
			return err
		}
		if batch.Size() == 1000 {
			if err := idx.Batch(batch); err != nil {
				return err
			}
			batch.Reset()
		}
	}
	if err := idx.Batch(batch); err != nil {
		return err
	}
	return idx.Close()
}

// bleveSearch returns the ids of the top k documents for a match query
// (any of the query's terms) on the text field.
func bleveSearch(idx bleve.Index, text string, k int) ([]string, error) {
	q := bleve.NewMatchQuery(text)
	q.SetField("text")
	res, err := idx.Search(bleve.NewSearchRequestOptions(q, k, 0, false))
	if err != nil {
		return nil, err
	}
	out := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		out[i] = h.ID
	}
	return out, nil
}

// exhaustive is the straightforward exhaustive top k: every document's
// score, then the positive ones sorted.
func exhaustive(m *lexical.BM25, tokens []string, k int) []lexical.Result {
	var out []lexical.Result
	for d, s := range m.ScoresTokens(tokens) {
		if s > 0 {
			out = append(out, lexical.Result{Doc: d, Score: s})
		}
	}
	slices.SortFunc(out, func(a, b lexical.Result) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
	return out[:min(k, len(out))]
}

func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			n += fi.Size()
		}
		return nil
	})
	return n, err
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianF(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func secs(ds []time.Duration) string {
	var parts []string
	for _, d := range ds {
		parts = append(parts, fmt.Sprintf("%.3f", d.Seconds()))
	}
	return strings.Join(parts, " ")
}

func floats(xs []float64) string {
	var parts []string
	for _, x := range xs {
		parts = append(parts, fmt.Sprintf("%.0f", x))
	}
	return strings.Join(parts, " ")
}
