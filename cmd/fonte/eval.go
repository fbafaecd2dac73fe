package main

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/judge"
	"github.com/fonte-rag/fonte/retrieve"
)

// newEval is `fonte eval`. It indexes (--docs, --beir), retrieves and
// answers, so it has every flag group.
func newEval(o *options) *cobra.Command {
	var questions, beir, split, svgDir, docsDir, judgeLabels string
	var depth int
	var target float64
	var noGeneration, perQuestion bool
	var part []eval.Question // the questions of the split being evaluated, set by eachSplit
	var partSplit string     // that split's name
	// dev holds the dev split's report per retriever, so that the test
	// split's report can say what dev's suggested floor does on it.
	dev := map[retrieve.Mode]*eval.Report{}
	cmd := &cobra.Command{
		Use:   "eval (--questions FILE.jsonl | --beir DIR)",
		Short: "Measure retrieval, abstention and answers on a question set",
		Long: `Eval measures an index on questions with known answers, keeping retrieval
and generation apart.

With --questions FILE.jsonl (one object per line: {"id","question","gold":
[{"doc","quote"}],"answer"} or {"id","question","unanswerable":true}) it
evaluates the index in --index: hit@k, recall@k, MRR and nDCG@10 (a chunk is
a hit when it comes from a gold document and contains the quote), the floor
trade-off curve with a floor suggested on dev (the test split suggests none and
shows what dev's suggestion does on it), unanswerable questions let through
and answerable ones blocked at the floor in use, and the answers' accuracy
given the gold chunk and end to end.

The questions of a set split into dev and test ("split" in each line) are
reported one split at a time, never mixed into one figure: --split dev or
test evaluates that split alone, --split all (the default) each split apart,
and --json keys the reports by split.

With --docs DIR it first brings --index up to date with that folder, using
this command's --chunker, --chunk-size and --overlap: point --index at one
folder per setting to compare chunkers on the same questions.

With --beir DIR it indexes the BEIR corpus into --index (incrementally) and
reports document retrieval on the --split's judged queries (default test).

--retriever all compares hybrid, bm25, tfidf and vector on the same index.

With --judge-labels FILE.jsonl (hand labels: {"id","lang","question",
"reference","answer","abstained","verdict"} a line) it also prints how often
the answer judge agrees with them: overall, per language, the confusion
matrix, and the answers labelled misleading or wrong that it judged right.
Alone, without --questions, it prints only that.`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			labelsOnly := judgeLabels != "" && questions == "" && beir == ""
			if (questions == "") == (beir == "") && !labelsOnly {
				return usageError{fmt.Errorf("give exactly one of --questions and --beir")}
			}
			agreement, err := judgeAgreement(judgeLabels, beir)
			if err != nil || labelsOnly {
				if err == nil {
					err = writeAgreement(cmd, o, *agreement)
				}
				return err
			}
			modes := []retrieve.Mode{}
			if o.retriever == "all" {
				modes = []retrieve.Mode{retrieve.Hybrid, retrieve.BM25, retrieve.TFIDF, retrieve.Dense}
				if !engine.IsFolder(o.location()) {
					// TF-IDF is a baseline computed in memory over the
					// embedded store's index; databases run BM25 only.
					modes = []retrieve.Mode{retrieve.Hybrid, retrieve.BM25, retrieve.Dense}
					fmt.Fprintln(cmd.ErrOrStderr(), "note: the tfidf baseline runs on the embedded store only; comparing hybrid, bm25 and vector")
				}
				o.retriever = "hybrid"
			} else {
				m, err := retrieve.ParseMode(o.retriever)
				if err != nil {
					return usageError{fmt.Errorf("%s: %w", o.named("retriever"), err)}
				}
				modes = append(modes, m)
			}
			out := cmd.OutOrStdout()
			if beir != "" {
				return runBEIR(cmd, o, beir, cmp.Or(split, "test"), modes, depth)
			}
			qs := part
			if docsDir != "" {
				// Index (incrementally) with this command's chunker and
				// embedder first, so chunkers can be compared by pointing
				// --index at one folder per setting.
				w, err := openEngine(cmd.Context(), o, false, false)
				if err != nil {
					return err
				}
				_, err = w.Index(cmd.Context(), docsDir, nil)
				w.Close()
				if err != nil {
					return err
				}
			}
			e, err := openEngine(cmd.Context(), o, true, false)
			if err != nil {
				return err
			}
			defer e.Close()
			var results []*engine.EvalResult
			for _, m := range modes {
				r, err := e.EvalQuestions(cmd.Context(), qs, engine.EvalOptions{Mode: m, Depth: depth, K: o.k, TargetShare: target, Generation: !noGeneration})
				if err != nil {
					return err
				}
				switch partSplit {
				case eval.SplitDev:
					dev[m] = &r.Report
				case eval.SplitTest:
					// Floors are chosen on dev: the test split suggests
					// none and shows what dev's suggestion does on it.
					r.Report.HoldOut(dev[m])
				}
				results = append(results, r)
			}
			if svgDir != "" {
				if err := writePlots(svgDir, modes, results); err != nil {
					return err
				}
			}
			if o.asJSON {
				if len(results) == 1 {
					v := map[string]any{"retrieval": results[0].Report.Retrieval, "retriever": results[0].Report.Retriever,
						"chunker": results[0].Report.Chunker, "k": results[0].Report.K}
					if results[0].Report.Abstain != nil {
						v["abstain"] = results[0].Report.Abstain
					}
					if len(results[0].Report.AbstainByLanguage) > 0 {
						v["abstain_by_language"] = results[0].Report.AbstainByLanguage
					}
					if results[0].Report.Generation != nil {
						v["generation"] = results[0].Report.Generation
					}
					if perQuestion {
						v["questions"] = results[0].Questions
					}
					if agreement != nil {
						v["judge_agreement"] = agreement
					}
					return writeJSON(out, v)
				}
				all := map[string]any{}
				for i, m := range modes {
					all[string(m)] = results[i].Report
				}
				v := map[string]any{"retrievers": all}
				if agreement != nil {
					v["judge_agreement"] = agreement
				}
				return writeJSON(out, v)
			}
			if len(results) > 1 {
				var rows []eval.RetrieverRow
				for i, m := range modes {
					rows = append(rows, eval.RetrieverRow{Retriever: string(m), Retrieval: results[i].Report.Retrieval})
				}
				if err := eval.WriteComparison(out, rows); err != nil {
					return err
				}
				fmt.Fprintln(out)
			}
			if err := eval.WriteTable(out, results[0].Report); err != nil {
				return err
			}
			if perQuestion {
				for _, q := range results[0].Questions {
					fmt.Fprintf(out, "%-8s rank %3d  relevance %.2f  %s\n", q.ID, q.GoldRank, q.Relevance, q.Question)
				}
			}
			if agreement != nil {
				fmt.Fprintln(out)
				return judge.WriteAgreement(out, *agreement)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&questions, "questions", "", "question set (JSONL)")
	f.StringVar(&beir, "beir", "", "BEIR data folder (corpus.jsonl[.gz], queries.jsonl[.gz], qrels)")
	f.StringVar(&split, "split", "", "questions of this split: dev, test or all, each apart (default all); with --beir, the qrels split (default test)")
	f.StringVar(&docsDir, "docs", "", "index this folder into --index first (with --chunker, --chunk-size, --embedder)")
	f.IntVar(&depth, "depth", 100, "chunks retrieved per question for the retrieval measures")
	f.Float64Var(&target, "target", 0.2, "largest share of unanswerable questions the suggested floor may let through")
	f.BoolVar(&noGeneration, "no-generation", false, "skip the answer measures")
	f.BoolVar(&perQuestion, "per-question", false, "also list each question's gold rank and relevance")
	f.StringVar(&svgDir, "svg", "", "write floor.svg and recall.svg into this folder")
	f.StringVar(&judgeLabels, "judge-labels", "", "hand-labelled answers (JSONL): print the answer judge's agreement with them")
	addStoreFlags(cmd, o)
	addOutputFlags(cmd, o)
	addModelFlags(cmd, o, useAllModels)
	addRetrievalFlags(cmd, o)
	addAnswerFlags(cmd, o)
	addIndexingFlags(cmd, o)
	cmd.RunE = eachSplit(cmd.RunE, o, splitFlags{questions: &questions, beir: &beir, split: &split, svgDir: &svgDir, judgeLabels: &judgeLabels, part: &part, partSplit: &partSplit})
	return cmd
}

// judgeAgreement loads the hand labels in path, if any, and measures the
// answer judge against them; labels measure the answer judge, which a
// BEIR run does not use.
func judgeAgreement(path, beir string) (*judge.Agreement, error) {
	if path == "" {
		return nil, nil
	}
	if beir != "" {
		return nil, usageError{fmt.Errorf("--judge-labels measures the answer judge, which --beir does not use")}
	}
	labels, err := judge.LoadLabels(path)
	if err != nil {
		return nil, err
	}
	a := judge.Agree(labels)
	return &a, nil
}

// writeAgreement prints the judge's agreement alone, as a table or JSON.
func writeAgreement(cmd *cobra.Command, o *options, a judge.Agreement) error {
	if o.asJSON {
		return writeJSON(cmd.OutOrStdout(), map[string]any{"judge_agreement": a})
	}
	return judge.WriteAgreement(cmd.OutOrStdout(), a)
}

func writePlots(dir string, modes []retrieve.Mode, results []*engine.EvalResult) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if a := results[0].Report.Abstain; a != nil {
		f, err := os.Create(filepath.Join(dir, "floor.svg"))
		if err != nil {
			return err
		}
		if err := eval.FloorSVG(f, *a, "Abstain floor trade-off ("+string(modes[0])+")"); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	var series []eval.Series
	for i, m := range modes {
		series = append(series, eval.Series{Name: string(m), Values: results[i].Recall})
	}
	f, err := os.Create(filepath.Join(dir, "recall.svg"))
	if err != nil {
		return err
	}
	if err := eval.RecallSVG(f, "recall@k", series); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func runBEIR(cmd *cobra.Command, o *options, dir, split string, modes []retrieve.Mode, depth int) error {
	b, err := eval.LoadBEIR(dir, split)
	if err != nil {
		return err
	}
	e, err := openEngine(cmd.Context(), o, false, false)
	if err != nil {
		return err
	}
	defer e.Close()
	docs := make([]fonte.Document, len(b.Corpus))
	for i, d := range b.Corpus {
		d.Language = "en"
		docs[i] = d
	}
	rep, err := e.IndexDocuments(cmd.Context(), docs, true, nil)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	results := map[string]any{}
	var rows []eval.RetrieverRow
	for _, m := range modes {
		r, err := e.EvalBEIR(cmd.Context(), b, m, depth)
		if err != nil {
			return err
		}
		results[string(m)] = r.Retrieval
		rows = append(rows, eval.RetrieverRow{Retriever: string(m), Retrieval: r.Retrieval})
	}
	if o.asJSON {
		v := map[string]any{"indexed": len(rep.Indexed), "unchanged": rep.Unchanged, "chunks": rep.Chunks, "queries": len(b.Queries)}
		if len(modes) == 1 {
			v["retrieval"] = results[string(modes[0])]
			v["retriever"] = string(modes[0])
		} else {
			v["retrievers"] = results
		}
		return writeJSON(out, v)
	}
	fmt.Fprintf(out, "%s (%d indexed now, %d unchanged), %s\n\n", count(len(docs), "document"), len(rep.Indexed), rep.Unchanged, count(len(b.Queries), "query"))
	return eval.WriteComparison(out, rows)
}
