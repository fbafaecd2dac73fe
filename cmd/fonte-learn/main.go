// Command fonte-learn studies whether a learned sentence scorer picks the
// answering sentence better than the offline answerer's hand rules, out
// of sample: leave one question set out, train on the other seven.
//
//	fonte-learn data -o items.jsonl   # index the eight sets, write the candidates
//	fonte-learn study items.jsonl     # leave-one-set-out figures
//
// Only dev questions are read; test questions are dropped as the files
// are loaded. Run it from the repository's root.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/fonte-rag/fonte/answer"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: fonte-learn data [-o FILE] [-texts] | study [flags] FILE")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "data":
		err = runData(os.Args[2:])
	case "study":
		err = runStudy(os.Args[2:], os.Stdout)
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fonte-learn:", err)
		os.Exit(1)
	}
}

func runData(args []string) error {
	fs := flag.NewFlagSet("data", flag.ExitOnError)
	out := fs.String("o", "items.jsonl", "where to write the items")
	texts := fs.Bool("texts", false, "keep each candidate sentence's text")
	only := fs.String("set", "", "only the sets whose name contains this")
	if err := fs.Parse(args); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "fonte-learn")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, s := range sets {
		if !strings.Contains(s.name, *only) {
			continue
		}
		items, err := buildSet(context.Background(), ".", work, s, *texts)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		fmt.Fprintf(os.Stderr, "%s: %d items\n", s.name, len(items))
		for _, it := range items {
			if err := enc.Encode(it); err != nil {
				return err
			}
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// readItems reads the items data wrote.
func readItems(path string) ([]Item, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Item
	dec := json.NewDecoder(f)
	for {
		var it Item
		if err := dec.Decode(&it); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		out = append(out, it)
	}
}

// variant is one learned scorer: its name, the features it reads and how
// it is fitted.
type variant struct {
	name     string
	features []int
	fit      func([]group, int, float64, int) *Model
}

func featureIndexes(drop ...string) []int {
	var out []int
	for i, n := range answer.FeatureNames {
		if !slices.Contains(drop, n) {
			out = append(out, i)
		}
	}
	return out
}

// outcome is one held-out item's result.
type outcome struct {
	item      *Item
	rules     bool   // the answerer's sentence holds the gold quote
	learned   []bool // each variant's
	reachable bool   // some candidate the answerer may quote holds it
}

func runStudy(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("study", flag.ExitOnError)
	lambda := fs.Float64("lambda", 0.01, "L2 penalty")
	iters := fs.Int("iters", 300, "gradient steps")
	weights := fs.Bool("weights", false, "print each variant's weights fitted on all eight sets")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("study: give the items file")
	}
	items, err := readItems(fs.Arg(0))
	if err != nil {
		return err
	}
	variants := []variant{
		{"learned", featureIndexes("score_rel", "score_best"), Listwise},
		{"rules+learned", featureIndexes(), Listwise},
		{"learned-pt", featureIndexes("score_rel", "score_best"), Pointwise},
		{"rules+learned-pt", featureIndexes(), Pointwise},
	}
	for _, setting := range []string{"gold", "retrieved"} {
		var in []*Item
		for i := range items {
			if items[i].Setting == setting {
				in = append(in, &items[i])
			}
		}
		var names []string
		for _, it := range in {
			if !slices.Contains(names, it.Set) {
				names = append(names, it.Set)
			}
		}
		var outs []outcome
		for _, held := range names {
			models := make([]*Model, len(variants))
			for v, va := range variants {
				var train []group
				for _, it := range in {
					if it.Set != held {
						train = append(train, toGroup(it, va.features))
					}
				}
				models[v] = va.fit(train, len(va.features), *lambda, *iters)
			}
			for _, it := range in {
				if it.Set != held {
					continue
				}
				o := outcome{item: it, rules: it.Picked >= 0 && it.Rows[it.Picked].Label}
				for _, r := range it.Rows {
					o.reachable = o.reachable || r.Score > 0 && r.Label
				}
				for v, va := range variants {
					p := pick(it, models[v], va.features)
					o.learned = append(o.learned, p >= 0 && it.Rows[p].Label)
				}
				outs = append(outs, o)
			}
		}
		fmt.Fprintf(out, "\n=== %s passages: sentence accuracy, leave one set out (lambda %g, %d steps)\n", setting, *lambda, *iters)
		table(out, outs, variants, func(o outcome) string { return o.item.Set })
		fmt.Fprintln(out)
		table(out, outs, variants, func(o outcome) string { return "lang=" + o.item.Lang })
		fmt.Fprintln(out)
		table(out, outs, variants, func(o outcome) string {
			if o.item.Fresh {
				return "fresh h14 " + o.item.Lang
			}
			return "older dev " + o.item.Lang
		})
		fmt.Fprintln(out)
		table(out, outs, variants, func(o outcome) string { return "all" })
		if *weights {
			for _, va := range variants {
				var all []group
				for _, it := range in {
					all = append(all, toGroup(it, va.features))
				}
				m := va.fit(all, len(va.features), *lambda, *iters)
				fmt.Fprintf(out, "\n%s weights (%s, all sets):\n", va.name, setting)
				for i, f := range va.features {
					fmt.Fprintf(out, "  %-14s %+.3f\n", answer.FeatureNames[f], m.W[i])
				}
			}
		}
	}
	return nil
}

// toGroup is an item's candidates the answerer may quote (score above
// zero, as ExtractSpan requires), with the features of fi.
func toGroup(it *Item, fi []int) group {
	var g group
	for _, r := range it.Rows {
		if r.Score <= 0 {
			continue
		}
		x := make([]float64, len(fi))
		for i, f := range fi {
			x[i] = r.Features[f]
		}
		g.x, g.label = append(g.x, x), append(g.label, r.Label)
	}
	return g
}

// pick returns the candidate of it the model scores best among those the
// answerer may quote, the first of a tie; -1 when there is none.
func pick(it *Item, m *Model, fi []int) int {
	best, at := 0.0, -1
	x := make([]float64, len(fi))
	for i, r := range it.Rows {
		if r.Score <= 0 {
			continue
		}
		for j, f := range fi {
			x[j] = r.Features[f]
		}
		if s := m.Score(x); at < 0 || s > best {
			best, at = s, i
		}
	}
	return at
}

// table prints, per key, the questions, the answerer's right sentences,
// each variant's and (for the first variant) the questions where it is
// right and the answerer wrong, and the reverse.
func table(out io.Writer, outs []outcome, vs []variant, key func(outcome) string) {
	type agg struct {
		n, rules, reach int
		learned         []int
		win, loss       []int
	}
	rows := map[string]*agg{}
	for _, o := range outs {
		k := key(o)
		a := rows[k]
		if a == nil {
			a = &agg{learned: make([]int, len(vs)), win: make([]int, len(vs)), loss: make([]int, len(vs))}
			rows[k] = a
		}
		a.n++
		if o.rules {
			a.rules++
		}
		if o.reachable {
			a.reach++
		}
		for v, l := range o.learned {
			if l {
				a.learned[v]++
			}
			if l && !o.rules {
				a.win[v]++
			}
			if !l && o.rules {
				a.loss[v]++
			}
		}
	}
	keys := make([]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(out, "%-24s %4s %9s %9s", "", "n", "reachable", "rules")
	for _, v := range vs {
		fmt.Fprintf(out, " %22s", v.name+" (+/-)")
	}
	fmt.Fprintln(out)
	for _, k := range keys {
		a := rows[k]
		fmt.Fprintf(out, "%-24s %4d %4d %3.0f%% %4d %3.0f%%", k, a.n, a.reach, pct(a.reach, a.n), a.rules, pct(a.rules, a.n))
		for v := range vs {
			fmt.Fprintf(out, " %4d %3.0f%% (+%2d/-%2d)", a.learned[v], pct(a.learned[v], a.n), a.win[v], a.loss[v])
		}
		fmt.Fprintln(out)
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
