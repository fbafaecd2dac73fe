// Command quality measures candidate changes to fonte's lexical retrieval
// on three sets at once, in process and in seconds: BEIR SciFact, the 18F
// handbook with its questions, and fonte's bilingual example handbook. See
// README.md.
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/lexical"
)

// depth is how many chunks each query ranks: `fonte eval` scores recall@100
// on 100 hits.
const depth = 100

func sortStrings(s []string) { sort.Strings(s) }

func main() {
	scifact := flag.String("scifact", "../../../shared/data/scifact", "BEIR SciFact folder")
	handbook := flag.String("handbook", "../../../shared/data/handbook", "18F handbook folder")
	handbookQ := flag.String("handbook-questions", "../../examples/handbook-18f-questions.jsonl", "18F handbook questions")
	examples := flag.String("examples", "../../examples/handbook", "fonte's example handbook folder")
	examplesQ := flag.String("examples-questions", "../../examples/questions.jsonl", "example handbook questions")
	only := flag.String("variants", "", "comma-separated variant names to run (default: all); -list shows them")
	list := flag.Bool("list", false, "list the variants and exit")
	dense := flag.Bool("dense", false, "also run the local embedders alone and fused with BM25 (SciFact only unless -dense-all)")
	denseAll := flag.Bool("dense-all", false, "run the dense rows on every set")
	denseBase := flag.String("dense-analysis", "base", "analysis of the BM25 leg in the dense rows")
	workers := flag.Int("workers", 2, "goroutines for index builds")
	explain := flag.Int("explain", -1, "print SciFact queries whose judged document ranks below this (0: outside the top 100) with the first variant, and exit")
	flag.Parse()
	log.SetFlags(0)

	vs := variants()
	if *list {
		for _, v := range vs {
			fmt.Println(v.Name)
		}
		return
	}
	if *only != "" {
		want := strings.Split(*only, ",")
		var keep []Variant
		for _, v := range vs {
			if slices.Contains(want, v.Name) {
				keep = append(keep, v)
			}
		}
		if len(keep) == 0 {
			log.Fatalf("no variant named %q (see -list)", *only)
		}
		vs = keep
	}

	start := time.Now()
	var sets []*Set
	sf, err := LoadBEIRSet("scifact", *scifact)
	if err != nil {
		log.Fatal(err)
	}
	hb, err := LoadQuestionSet("18f", *handbook, *handbookQ)
	if err != nil {
		log.Fatal(err)
	}
	ex, err := LoadQuestionSet("examples", *examples, *examplesQ)
	if err != nil {
		log.Fatal(err)
	}
	sets = append(sets, sf, hb, ex)
	log.Printf("loaded %s (%d chunks, %d queries), %s (%d, %d), %s (%d, %d) in %v",
		sf.Name, len(sf.Chunks), len(sf.Queries), hb.Name, len(hb.Chunks), len(hb.Queries),
		ex.Name, len(ex.Chunks), len(ex.Queries), time.Since(start).Round(time.Millisecond))

	if *explain >= 0 {
		b, err := eval.LoadBEIR(*scifact, "test")
		if err != nil {
			log.Fatal(err)
		}
		v := vs[0]
		explainBEIR(os.Stdout, sf, b.Qrels, BuildLex(sf, analyses[v.Analysis](), v.Opts, *workers), v.Scorer, *explain)
		return
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 1, ' ', tabwriter.AlignRight|tabwriter.Debug)
	header := "variant\t"
	for _, s := range sets {
		header += fmt.Sprintf("%s nDCG@10\tR@100\tMRR\t", s.Name)
	}
	fmt.Fprintln(tw, header+"seconds\t")
	cache := map[string]*Lex{}
	lexOf := func(s *Set, an string, opts lexical.BM25Options) *Lex {
		key := fmt.Sprintf("%s/%s/%v", s.Name, an, opts)
		if l, ok := cache[key]; ok {
			return l
		}
		mk, ok := analyses[an]
		if !ok {
			log.Fatalf("no analysis %q", an)
		}
		l := BuildLex(s, mk(), opts, *workers)
		cache[key] = l
		return l
	}
	base := make([]map[string]float64, len(sets)) // the first variant's per-query nDCG@10
	var paired []string
	for _, v := range vs {
		t0 := time.Now()
		row := v.Name + "\t"
		prow := v.Name + "\t"
		for i, s := range sets {
			l := lexOf(s, v.Analysis, v.Opts)
			run := map[string][]int{}
			for _, q := range s.Queries {
				run[q.ID] = docs(l.Rank(q, v.Scorer, depth))
			}
			r, per := s.Score(run)
			row += cells(r)
			if base[i] == nil {
				base[i] = per
			}
			prow += comparison(base[i], per)
		}
		paired = append(paired, prow)
		fmt.Fprintf(tw, "%s%.1f\t\n", row, time.Since(t0).Seconds())
		log.Printf("%s done", v.Name)
	}

	tw.Flush()
	fmt.Printf("\nnDCG@10 against %s, per query: better/worse, and the two-sided p of a paired randomization test\n", vs[0].Name)
	head := "variant\t"
	for _, s := range sets {
		head += s.Name + " +/-\tp\t"
	}
	fmt.Fprintln(tw, head)
	for _, p := range paired[1:] {
		fmt.Fprintln(tw, p)
	}
	tw.Flush()
	fmt.Println()

	if *dense {
		for _, s := range sets {
			if s != sf && !*denseAll {
				continue
			}
			if err := denseRows(tw, s, lexOf(s, *denseBase, anserini), len(sets), slices.Index(sets, s)); err != nil {
				log.Fatal(err)
			}
			tw.Flush()
		}
	}
	tw.Flush()
	log.Printf("total %v, GOMAXPROCS %d", time.Since(start).Round(time.Millisecond), runtime.GOMAXPROCS(0))
}

// variants is the list of candidates. The first, "v1", is the product as
// this study found it (the reference of the paired comparison); "base"
// is analysis.English as it is now (v1 plus Fold and AmericanSpelling).
func variants() []Variant {
	lucene := lexical.BM25Options{K1: 1.2, B: 0.75}
	return []Variant{
		{"v1", "v1", anserini, BM25Scorer},
		{"base", "base", anserini, BM25Scorer},
		{"v1 tfidf", "v1", anserini, TFIDFScorer()},
		// BM25 parameters and scoring (v1 analysis)
		{"v1 k1=1.2 b=0.75", "v1", lucene, BM25Scorer},
		{"v1 bm25+ d=1", "v1", anserini, BM25Plus(1)},
		{"v1 bm25+ d=0.5", "v1", anserini, BM25Plus(0.5)},
		{"v1 coord", "v1", anserini, Coord},
		{"v1 prox-bcl", "v1", anserini, Proximity(1)},
		{"v1 sdm", "v1", anserini, SDM(0.85, 0.1, 0.05)},
		{"v1 rm3 10/10/0.5", "v1", anserini, RM3(10, 10, 0.5)},
		{"v1 rm3 10/10/0.8", "v1", anserini, RM3(10, 10, 0.8)},
		{"v1 rocchio 10/10/1/.75", "v1", anserini, Rocchio(10, 10, 1, 0.75)},
		// analysis (BM25 k1 0.9 b 0.4)
		{"porter", "porter", anserini, BM25Scorer},
		{"surface", "surface", anserini, BM25Scorer},
		{"fold", "fold", anserini, BM25Scorer},
		{"us", "us", anserini, BM25Scorer},
		{"parts", "parts", anserini, BM25Scorer},
		{"catenate", "catenate", anserini, BM25Scorer},
		{"words", "words", anserini, BM25Scorer},
		{"digits", "digits", anserini, BM25Scorer},
		{"single", "single", anserini, BM25Scorer},
		{"snowball-stops", "snowball-stops", anserini, BM25Scorer},
		{"nltk-stops", "nltk-stops", anserini, BM25Scorer},
		{"sklearn-stops", "sklearn-stops", anserini, BM25Scorer},
		// combinations on base
		{"base+snowball-stops", "base+snowball-stops", anserini, BM25Scorer},
		{"base+porter", "base+porter", anserini, BM25Scorer},
		{"base sdm", "base", anserini, SDM(0.85, 0.1, 0.05)},
		{"base prox-bcl", "base", anserini, Proximity(1)},
		{"base rm3 10/10/0.5", "base", anserini, RM3(10, 10, 0.5)},
	}
}

// comparison counts the queries b scores above and below a and gives the
// two-sided p-value of a paired sign-flip randomization test on the mean
// difference (10,000 rounds, fixed seed).
func comparison(a, b map[string]float64) string {
	var diffs []float64
	better, worse := 0, 0
	for q, x := range a {
		d := b[q] - x
		diffs = append(diffs, d)
		switch {
		case d > 1e-12:
			better++
		case d < -1e-12:
			worse++
		}
	}
	obs := 0.0
	for _, d := range diffs {
		obs += d
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const rounds = 10000
	extreme := 0
	for range rounds {
		s := 0.0
		for _, d := range diffs {
			if rng.IntN(2) == 0 {
				s += d
			} else {
				s -= d
			}
		}
		if math.Abs(s) >= math.Abs(obs)-1e-12 {
			extreme++
		}
	}
	return fmt.Sprintf("+%d/-%d\t%.3f\t", better, worse, float64(extreme)/rounds)
}

func docs(list []scored) []int {
	out := make([]int, len(list))
	for i, s := range list {
		out[i] = s.doc
	}
	return out
}

func cells(r eval.Retrieval) string {
	return fmt.Sprintf("%.4f\t%.4f\t%.4f\t", r.NDCG10, r.Recall100, r.MRR)
}

// denseRows prints, for set s (column col of ncol), each embedder alone
// and fused with BM25 at dense weight 1 and 0.5.
func denseRows(tw *tabwriter.Writer, s *Set, l *Lex, ncol, col int) error {
	embs, err := Embedders(l)
	if err != nil {
		return err
	}
	lexRuns := map[string][]scored{}
	for _, q := range s.Queries {
		lexRuns[q.ID] = l.Rank(q, BM25Scorer, 2*depth) // retrieve's fusion depth: max(50, 2K)
	}
	pad := func(row string) string {
		return strings.Repeat("\t\t\t", col) + row + strings.Repeat("\t\t\t", ncol-col-1)
	}
	for _, emb := range embs {
		t0 := time.Now()
		ds, err := NewDense(s, emb.Model(), emb)
		if err != nil {
			return err
		}
		alone, h1, h05 := map[string][]int{}, map[string][]int{}, map[string][]int{}
		for _, q := range s.Queries {
			dr, err := ds.Rank(q, 2*depth)
			if err != nil {
				return err
			}
			alone[q.ID] = docs(dr[:min(depth, len(dr))])
			h1[q.ID] = Hybrid(lexRuns[q.ID], dr, 1, 1, depth)
			h05[q.ID] = Hybrid(lexRuns[q.ID], dr, 1, 0.5, depth)
		}
		secs := time.Since(t0).Seconds()
		ra, _ := s.Score(alone)
		r1, _ := s.Score(h1)
		r05, _ := s.Score(h05)
		fmt.Fprintf(tw, "%s\t%s%.1f\t\n", emb.Model(), pad(cells(ra)), secs)
		fmt.Fprintf(tw, "rrf bm25+%s w1\t%s\t\n", emb.Model(), pad(cells(r1)))
		fmt.Fprintf(tw, "rrf bm25+%s w0.5\t%s\t\n", emb.Model(), pad(cells(r05)))
		log.Printf("%s done", emb.Model())
	}
	return nil
}
