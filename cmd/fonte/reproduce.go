package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fonte-rag/fonte/seeds"
)

func newReproduce() *cobra.Command {
	var dir string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "reproduce",
		Short: "Recompute every figure the seed documents print and compare",
		Long: `Reproduce recomputes, with fonte's own code, every table the three seed
documents print (chunking, TF-IDF, LSA, IVF, BM25 + vectors + RRF, the
extractive answerer, floor and context-fitting tables) from the fixtures in
--seeds, and prints each figure beside the seed's. It exits with status 3
when any figure differs.`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := seeds.Load(dir)
			if err != nil {
				return err
			}
			r, err := seeds.Reproduce(f)
			if err != nil {
				return err
			}
			checks := seeds.Checks(r)
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(struct {
					*seeds.Report
					Checks []seeds.Check `json:"checks"`
				}{r, checks}); err != nil {
					return err
				}
			} else {
				printChecks(out, checks)
				fmt.Fprintln(out, "\nBeyond the seeds: fonte's default Italian analysis on seed 000's 15 questions")
				for _, a := range r.Seed000.Analysis {
					fmt.Fprintf(out, "  %-42s hit@1 %2d/15  hit@3 %2d/15  MRR %.3f  ranks %s\n", a.Retriever, a.Hit1, a.Hit3, a.MRR, strings.Trim(fmt.Sprint(a.Ranks), "[]"))
				}
			}
			bad := 0
			for _, c := range checks {
				if !c.OK {
					bad++
				}
			}
			if bad > 0 {
				return exitError{exitMismatch, fmt.Errorf("%d of %d figures differ from the seeds", bad, len(checks))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "seeds", "../shared/fixtures/seeds", "folder with the seed fixtures (seed000-rulebook-it.json, …)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object with every figure and check")
	return cmd
}

// printChecks prints one line per figure, fonte's value beside the seed's;
// values too long for a line (chunk texts, prompts) go on their own lines.
func printChecks(w io.Writer, checks []seeds.Check) {
	seed, ok := "", 0
	for _, c := range checks {
		if c.Seed != seed {
			seed = c.Seed
			fmt.Fprintf(w, "\nSeed %s\n", seed)
		}
		mark := "ok  "
		if !c.OK {
			mark = "DIFF"
		} else {
			ok++
		}
		note := ""
		if c.Note != "" {
			note = "  (" + c.Note + ")"
		}
		if len(c.Got)+len(c.Want) < 80 && !strings.Contains(c.Got+c.Want, "\n") {
			fmt.Fprintf(w, "  %s %-58s fonte %-34s seed %s%s\n", mark, c.Figure, c.Got, c.Want, note)
			continue
		}
		fmt.Fprintf(w, "  %s %s%s\n", mark, c.Figure, note)
		fmt.Fprintf(w, "       fonte: %s\n", indent(c.Got))
		if !c.OK {
			fmt.Fprintf(w, "       seed:  %s\n", indent(c.Want))
		} else {
			fmt.Fprintf(w, "       seed:  (identical)\n")
		}
	}
	fmt.Fprintf(w, "\n%d of %d figures equal the seeds'.\n", ok, len(checks))
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n              ") }
