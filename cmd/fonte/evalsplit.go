package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/fonte-rag/fonte/eval"
)

// splitFlags are the flags of fonte eval that eachSplit reads or sets.
type splitFlags struct {
	questions, beir, split, svgDir *string
	// judgeLabels is measured once, after the last split: the judge's
	// agreement does not depend on the questions.
	judgeLabels *string
	part        *[]eval.Question // the questions the wrapped run evaluates
	partSplit   *string          // the name of their split (eval.SplitDev, …)
}

// eachSplit wraps fonte eval's run so that a question set split into dev
// and test is evaluated and reported one split at a time: a figure over
// both would mix the questions defaults were chosen on with those kept
// for measuring. It loads the set, selects the parts --split asks for and
// runs the wrapped evaluation once per part with *part set to its
// questions. Each text report is headed by its split and question count;
// with --json the reports are one object keyed by split (and
// "judge_agreement", measured once); with --svg each
// split's charts go into a subfolder named after it. A set whose
// questions name no split runs once, as before splits existed.
func eachSplit(run func(*cobra.Command, []string) error, o *options, f splitFlags) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if *f.questions == "" || *f.beir != "" {
			return run(cmd, args) // --beir, or the usage error for both or neither
		}
		which := cmp.Or(*f.split, eval.SplitAll)
		switch which {
		case eval.SplitDev, eval.SplitTest, eval.SplitAll, eval.SplitNone:
		default:
			return usageError{fmt.Errorf("--split %q: want dev, test or all", which)}
		}
		qs, err := eval.LoadQuestions(*f.questions)
		if err != nil {
			return err
		}
		parts, err := eval.Parts(qs, which)
		if err != nil {
			return fmt.Errorf("%s: %w", *f.questions, err)
		}
		if len(parts) == 1 && parts[0].Split == "" && which == eval.SplitAll {
			*f.part, *f.partSplit = parts[0].Questions, parts[0].Split
			return run(cmd, args)
		}

		out := cmd.OutOrStdout()
		retriever, svgDir, labels := o.retriever, *f.svgDir, *f.judgeLabels
		defer func() {
			o.retriever, *f.svgDir, *f.part, *f.partSplit, *f.judgeLabels = retriever, svgDir, nil, "", labels
			cmd.SetOut(out)
		}()
		reports := map[string]json.RawMessage{}
		for i, p := range parts {
			o.retriever = retriever // the run resolves "all" in place
			*f.part, *f.partSplit = p.Questions, p.Split
			*f.judgeLabels = ""
			if i == len(parts)-1 {
				*f.judgeLabels = labels
			}
			if svgDir != "" {
				*f.svgDir = filepath.Join(svgDir, p.Name())
			}
			answerable, unanswerable := p.Counts()
			if !o.asJSON {
				if i > 0 {
					fmt.Fprintln(out)
				}
				fmt.Fprintf(out, "split %s: %d questions (%d answerable, %d unanswerable)\n\n",
					p.Name(), len(p.Questions), answerable, unanswerable)
				if err := run(cmd, args); err != nil {
					return err
				}
				continue
			}
			var buf bytes.Buffer
			cmd.SetOut(&buf)
			if err := run(cmd, args); err != nil {
				return err
			}
			var report map[string]json.RawMessage
			if err := json.Unmarshal(buf.Bytes(), &report); err != nil {
				return fmt.Errorf("split %s: the report is not a JSON object: %w", p.Name(), err)
			}
			for k, n := range map[string]int{"question_count": len(p.Questions), "answerable_count": answerable, "unanswerable_count": unanswerable} {
				report[k] = json.RawMessage(fmt.Sprint(n))
			}
			if a, ok := report["judge_agreement"]; ok {
				reports["judge_agreement"] = a
				delete(report, "judge_agreement")
			}
			raw, err := json.Marshal(report)
			if err != nil {
				return err
			}
			reports[p.Name()] = raw
		}
		if o.asJSON {
			return writeJSON(out, reports)
		}
		return nil
	}
}
