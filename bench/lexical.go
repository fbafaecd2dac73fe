package main

// The lexical comparison: fonte's BM25 against bleve's on BEIR SciFact.
// Each run is one process per engine that builds the index (timed), sizes
// it, scores the 300 test queries' top 100 (nDCG@10, recall@100; this
// pass also warms the caches), then times passes over the queries at top
// 10 and at top 100 on one thread, query analysis included, as many
// passes as take 0.3 s (bleve needs one).
//
// Both engines index one field, the title, a blank line and the text (as
// retrieve enriches a chunk), scored by BM25 with the same k1 and b:
//
//   - fonte: analysis.English() (identifier-aware tokenizer, Lucene's 33
//     English stop words, Snowball English stemmer), lexical.BM25Options.
//   - bleve: the "en" analyzer (Unicode tokenizer, English possessive
//     filter, lower case, bleve's English stop list, Porter stemmer), the
//     closest analysis bleve offers; BM25 through IndexMapping.ScoringModel
//     with k1 and b set through bleve's package variables search.BM25_k1
//     and search.BM25_b; the field neither stored nor with term vectors,
//     doc values or _all: the leanest index that scores.

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/blevesearch/bleve/v2"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/en" // registers "en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/lexical"
)

type lexicalFlags struct {
	data  string
	dir   string
	k1, b float64
}

func parseLexicalFlags(name string, args []string) (*lexicalFlags, error) {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	var f lexicalFlags
	fl.StringVar(&f.data, "scifact", "", "BEIR SciFact folder")
	fl.StringVar(&f.dir, "dir", "", "folder for the engine's index files")
	fl.Float64Var(&f.k1, "k1", 0.9, "BM25 k1")
	fl.Float64Var(&f.b, "b", 0.4, "BM25 b")
	return &f, fl.Parse(args)
}

type scifact struct {
	beir       *eval.BEIR
	ids, texts []string
	raw        int // bytes of title and text
}

func loadSciFact(dir string) (*scifact, error) {
	beir, err := eval.LoadBEIR(dir, "test")
	if err != nil {
		return nil, err
	}
	s := &scifact{beir: beir, ids: make([]string, len(beir.Corpus)), texts: make([]string, len(beir.Corpus))}
	for i, d := range beir.Corpus {
		s.texts[i] = d.Title + "\n\n" + d.Text // as retrieve enriches a chunk: title, then text
		s.ids[i] = d.ID
		s.raw += len(d.Title) + len(d.Text)
	}
	return s, nil
}

// minTimed is the least time a query-rate measurement runs: passes over
// the queries repeat until it is reached, so that a fast engine's rate is
// not one pass of a few milliseconds that a single pause can halve.
const minTimed = 300 * time.Millisecond

// queryPass times passes of search over the test queries on one thread,
// as many as take minTimed, and prints their rate by wall clock and by
// CPU time under key.
func queryPass(s *scifact, key string, search func(text string)) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	start, cpu0 := time.Now(), cpuTime()
	passes := 0
	for passes == 0 || time.Since(start) < minTimed {
		for _, q := range s.beir.Queries {
			search(q.Text)
		}
		passes++
	}
	wall, cpu := time.Since(start), cpuTime()-cpu0
	n := float64(passes * len(s.beir.Queries))
	fmt.Printf("%s %.1f\n%s_cpu %.1f\n%s_passes %d\n", key, n/wall.Seconds(), key, n/cpu.Seconds(), key, passes)
}

func printScores(s *scifact, run eval.Run) {
	sc := eval.ScoreRun(s.beir.Qrels, run)
	fmt.Printf("ndcg10 %.4f\nrecall100 %.4f\n", sc.NDCG10, sc.Recall100)
}

// workerLexicalFonte is one run of fonte, each half like bleve's: in
// memory, a build on all cores (NewIndexParallel on GOMAXPROCS goroutines,
// then NewBM25Index) with the live heap's growth, and a build on one
// goroutine; on disk, a build written to a file (MarshalBinary, write,
// fsync), the file's size, and the index read back (ReadFile and
// DecodeBM25) with the heap's growth; then the metrics on the index read
// back and the query passes on both.
func workerLexicalFonte(args []string) error {
	f, err := parseLexicalFlags("lexical-fonte", args)
	if err != nil {
		return err
	}
	s, err := loadSciFact(f.data)
	if err != nil {
		return err
	}
	opts := lexical.BM25Options{K1: f.k1, B: f.b}
	fmt.Printf("docs %d\nqueries %d\nraw_bytes %d\n", len(s.texts), len(s.beir.Queries), s.raw)
	heap0 := heapInUse()
	start := time.Now()
	m := buildFonteLexical(s.texts, opts, runtime.GOMAXPROCS(0))
	fmt.Printf("build_mem_s %.4f\n", time.Since(start).Seconds())
	fmt.Printf("mem_heap_bytes %d\n", heapInUse()-heap0)
	start = time.Now()
	buildFonteLexical(s.texts, opts, 1)
	fmt.Printf("build1_s %.4f\n", time.Since(start).Seconds())

	path := filepath.Join(f.dir, "fonte-bm25.idx")
	defer os.Remove(path)
	start = time.Now()
	size, err := writeFonteLexical(path, buildFonteLexical(s.texts, opts, runtime.GOMAXPROCS(0)))
	if err != nil {
		return err
	}
	fmt.Printf("build_disk_s %.4f\nsize_bytes %d\n", time.Since(start).Seconds(), size)
	an := analysis.English()
	heap0 = heapInUse()
	start = time.Now()
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	disk, err := lexical.DecodeBM25(data, an)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Printf("open_s %.5f\n", time.Since(start).Seconds())
	fmt.Printf("open_heap_bytes %d\n", heapInUse()-heap0) // data counts only if disk keeps it

	search := func(m *lexical.BM25) func(string, int) []string {
		return func(text string, k int) []string {
			var ids []string
			for _, r := range m.TopK(an.Analyze(text), k, nil) {
				ids = append(ids, s.ids[r.Doc])
			}
			return ids
		}
	}
	if err := lexicalQueries(s, search(disk), ""); err != nil {
		return err
	}
	return lexicalQueries(s, search(m), "_mem")
}

// lexicalQueries ranks the top 100 of every test query (printing nDCG@10
// and recall@100 for the index opened from disk, suffix ""; for the other
// it only warms the caches), then times the query passes at top 10 and top
// 100, printing their rates as qps10 and qps100 with suffix.
func lexicalQueries(s *scifact, search func(text string, k int) []string, suffix string) error {
	run := eval.Run{}
	for _, q := range s.beir.Queries {
		run[q.ID] = search(q.Text, 100)
	}
	if suffix == "" {
		printScores(s, run)
	}
	for _, k := range []int{10, 100} {
		queryPass(s, fmt.Sprintf("qps%d%s", k, suffix), func(text string) { search(text, k) })
	}
	return nil
}

// buildFonteLexical indexes texts as retrieve does, on the given number of
// goroutines.
func buildFonteLexical(texts []string, opts lexical.BM25Options, workers int) *lexical.BM25 {
	an := analysis.English()
	ix := lexical.NewIndexParallel(len(texts), func(d int) []string { return an.Analyze(texts[d]) }, an, workers)
	return lexical.NewBM25Index(ix, opts)
}

// writeFonteLexical writes m's binary model to path and syncs it to the
// disk, as bleve's Close does its segments, and returns its size.
func writeFonteLexical(path string, m *lexical.BM25) (int, error) {
	enc, err := m.MarshalBinary()
	if err != nil {
		return 0, err
	}
	fh, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	if _, err := fh.Write(enc); err != nil {
		fh.Close()
		return 0, err
	}
	if err := fh.Sync(); err != nil {
		fh.Close()
		return 0, err
	}
	return len(enc), fh.Close()
}

// workerLexicalBleve is one run of bleve: in memory, a build into a scorch
// index with no path (batches of 1,000; scorch keeps the segments in
// memory and runs no persister or merger) with the live heap's growth and
// the query passes; on disk, a build into a scorch folder (bleve.New,
// batches of 1,000, Close, which persists and syncs), the folder's size,
// the index opened (bleve.Open) with the heap's growth, the metrics and
// the query passes.
func workerLexicalBleve(args []string) error {
	f, err := parseLexicalFlags("lexical-bleve", args)
	if err != nil {
		return err
	}
	s, err := loadSciFact(f.data)
	if err != nil {
		return err
	}
	search.BM25_k1, search.BM25_b = f.k1, f.b
	dir := filepath.Join(f.dir, "bleve.idx")
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fmt.Printf("docs %d\nqueries %d\nraw_bytes %d\n", len(s.texts), len(s.beir.Queries), s.raw)
	searcher := func(idx bleve.Index) func(string, int) []string {
		return func(text string, k int) []string {
			ids, e := bleveSearch(idx, text, k)
			if e != nil && err == nil {
				err = e
			}
			return ids
		}
	}

	heap0 := heapInUse()
	start := time.Now()
	mem, err := buildBleve("", s.ids, s.texts)
	if err != nil {
		return err
	}
	fmt.Printf("build_mem_s %.4f\n", time.Since(start).Seconds())
	fmt.Printf("mem_heap_bytes %d\n", heapInUse()-heap0)
	if e := lexicalQueries(s, searcher(mem), "_mem"); e != nil || err != nil {
		return errors.Join(e, err)
	}
	if err := mem.Close(); err != nil {
		return err
	}

	start = time.Now()
	disk, err := buildBleve(dir, s.ids, s.texts)
	if err == nil {
		err = disk.Close()
	}
	if err != nil {
		return err
	}
	fmt.Printf("build_disk_s %.4f\n", time.Since(start).Seconds())
	size, err := dirSize(dir)
	if err != nil {
		return err
	}
	fmt.Printf("size_bytes %d\n", size)
	heap0 = heapInUse()
	start = time.Now()
	idx, err := bleve.Open(dir)
	if err != nil {
		return err
	}
	defer idx.Close()
	fmt.Printf("open_s %.5f\n", time.Since(start).Seconds())
	fmt.Printf("open_heap_bytes %d\n", heapInUse()-heap0)
	if e := lexicalQueries(s, searcher(idx), ""); e != nil {
		return e
	}
	return err
}

// buildBleve indexes the documents into a new scorch index at dir (in
// memory when dir is ""), one text field analysed by bleve's English
// analyzer, scored by BM25, nothing stored beyond what scoring needs, and
// returns it open.
func buildBleve(dir string, ids, texts []string) (bleve.Index, error) {
	text := bleve.NewTextFieldMapping()
	text.Analyzer = "en"
	text.Store, text.IncludeTermVectors, text.IncludeInAll, text.DocValues = false, false, false, false
	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt("text", text)
	im := bleve.NewIndexMapping()
	im.DefaultMapping = doc
	im.DefaultAnalyzer = "en"
	im.ScoringModel = bleveindex.BM25Scoring
	idx, err := bleve.NewUsing(dir, im, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, err
	}
	batch := idx.NewBatch()
	for i, id := range ids {
		if err := batch.Index(id, map[string]any{"text": texts[i]}); err != nil {
			idx.Close()
			return nil, err
		}
		if batch.Size() == 1000 {
			if err := idx.Batch(batch); err != nil {
				idx.Close()
				return nil, err
			}
			batch.Reset()
		}
	}
	if err := idx.Batch(batch); err != nil {
		idx.Close()
		return nil, err
	}
	return idx, nil
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
