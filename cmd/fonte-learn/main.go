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
	"github.com/fonte-rag/fonte/internal/evalsets"
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
	for _, s := range evalsets.All {
		if !strings.Contains(s.Name, *only) {
			continue
		}
		items, err := buildSet(context.Background(), ".", work, s, *texts)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		fmt.Fprintf(os.Stderr, "%s: %d items\n", s.Name, len(items))
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

// variant is one learned scorer: its name, the features it reads (the
// indexes of answer.FeatureNames), whether it also reads them crossed
// with the question's answer type, and how it is fitted.
type variant struct {
	name     string
	features []int
	crossed  bool
	fit      func([]group, int, float64, int) *Model
}

// width is how many inputs the variant's model reads.
func (v variant) width() int {
	if v.crossed {
		return len(v.features) * (1 + answerTypes)
	}
	return len(v.features)
}

// answerTypes is how many answer types answer.QuestionType reads.
const answerTypes = int(answer.YesNoAnswer) + 1

// input returns the variant's input for candidate r of it: the features,
// then, when crossed, each feature again in the block of the question's
// answer type (zero in the others), so that a feature may weigh
// differently for "how many" and for "can I".
func (v variant) input(it *Item, r Row) []float64 {
	x := make([]float64, v.width())
	for i, f := range v.features {
		x[i] = r.Features[f]
		if v.crossed {
			x[len(v.features)*(1+it.QType)+i] = r.Features[f]
		}
	}
	return x
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
	picks     []int  // each variant's pick
	reachable bool   // some candidate the answerer may quote holds it
}

func runStudy(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("study", flag.ExitOnError)
	lambda := fs.Float64("lambda", 0.01, "L2 penalty")
	iters := fs.Int("iters", 300, "gradient steps")
	weights := fs.Bool("weights", false, "print each variant's weights fitted on all eight sets")
	sameLang := fs.Bool("same-language", false, "train only on the held-out item's language (a mixed set's items by their own language)")
	show := fs.String("show", "", "list the held-out questions where this variant and the rules disagree on rightness, with both picks (needs data -texts)")
	label := fs.String("label", "sentence", "what is right: the sentence holds the gold quote (sentence) or the quote the answerer gives for it does (quote)")
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
	switch *label {
	case "sentence":
	case "quote":
		for i := range items {
			for j := range items[i].Rows {
				items[i].Rows[j].Label = items[i].Rows[j].QuoteLabel
			}
		}
	default:
		return fmt.Errorf("study: -label %q: want sentence or quote", *label)
	}
	variants := []variant{
		{"learned", featureIndexes("score_rel", "score_best"), false, Listwise},
		{"rules+learned", featureIndexes(), false, Listwise},
		{"learned-pt", featureIndexes("score_rel", "score_best"), false, Pointwise},
		{"rules+learned-pt", featureIndexes(), false, Pointwise},
		{"learned-x", featureIndexes("score_rel", "score_best"), true, Listwise},
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
		langs := []string{""}
		if *sameLang {
			langs = []string{"en", "it"}
		}
		var outs []outcome
		for _, held := range names {
			for _, lang := range langs {
				models := make([]*Model, len(variants))
				for v, va := range variants {
					var train []group
					for _, it := range in {
						if it.Set != held && (lang == "" || it.Lang == lang) {
							train = append(train, toGroup(it, va))
						}
					}
					models[v] = va.fit(train, va.width(), *lambda, *iters)
				}
				outs = append(outs, heldOut(in, held, lang, variants, models)...)
			}
		}
		fmt.Fprintf(out, "\n=== %s passages: %s right, leave one set out (lambda %g, %d steps)\n", setting, *label, *lambda, *iters)
		ties(out, in)
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
		if *show != "" {
			v := slices.IndexFunc(variants, func(va variant) bool { return va.name == *show })
			if v < 0 {
				return fmt.Errorf("study: -show %q: no such variant", *show)
			}
			disagreements(out, outs, v)
		}
		if *weights {
			for _, va := range variants {
				var all []group
				for _, it := range in {
					all = append(all, toGroup(it, va))
				}
				m := va.fit(all, va.width(), *lambda, *iters)
				fmt.Fprintf(out, "\n%s weights (%s, all sets):\n", va.name, setting)
				for i, f := range va.features {
					fmt.Fprintf(out, "  %-14s %+.3f\n", answer.FeatureNames[f], m.W[i])
				}
				if va.crossed {
					fmt.Fprintf(out, "  (and %d weights crossed with the answer type)\n", len(m.W)-len(va.features))
				}
			}
		}
	}
	return nil
}

// heldOut scores the items of set held (of language lang, "" for all)
// with each variant's model.
func heldOut(in []*Item, held, lang string, variants []variant, models []*Model) []outcome {
	var outs []outcome
	for _, it := range in {
		if it.Set != held || lang != "" && it.Lang != lang {
			continue
		}
		o := outcome{item: it, rules: it.Picked >= 0 && it.Rows[it.Picked].Label}
		for _, r := range it.Rows {
			o.reachable = o.reachable || r.Score > 0 && r.Label
		}
		for v, va := range variants {
			p := pick(it, models[v], va)
			o.learned = append(o.learned, p >= 0 && it.Rows[p].Label)
			o.picks = append(o.picks, p)
		}
		outs = append(outs, o)
	}
	return outs
}

// ties prints, for the items whose answerer's sentence is wrong although
// a right one was there to quote, how close the best right sentence's
// score came to the one quoted: the most a tie-breaker could win.
func ties(out io.Writer, in []*Item) {
	keys := slices.Index(answer.FeatureNames, "held_keys")
	count := map[string][5]int{}
	for _, it := range in {
		if it.Picked < 0 || it.Rows[it.Picked].Label {
			continue
		}
		best, at := 0.0, -1
		for i, r := range it.Rows {
			if r.Label && r.Score > best {
				best, at = r.Score, i
			}
		}
		if best <= 0 {
			continue
		}
		k := "older dev"
		if it.Fresh {
			k = "fresh h14"
		}
		c := count[k]
		switch ratio := best / it.Rows[it.Picked].Score; {
		case ratio >= 0.95:
			c[0]++
		case ratio >= 0.8:
			c[1]++
		default:
			c[2]++
		}
		switch quoted, right := it.Rows[it.Picked].Features[keys], it.Rows[at].Features[keys]; {
		case right < quoted:
			c[3]++
		case right == quoted:
			c[4]++
		}
		count[k] = c
	}
	for _, k := range []string{"older dev", "fresh h14"} {
		c := count[k]
		fmt.Fprintf(out, "%s: answerer wrong with a right sentence to quote: %d; the best right one scores >= 0.95 of the quoted: %d, 0.8-0.95: %d, < 0.8: %d; holds fewer of the question's keys: %d, as many: %d\n", k, c[0]+c[1]+c[2], c[0], c[1], c[2], c[3], c[4])
	}
}

// disagreements lists the outcomes where variant v is right and the
// answerer wrong, or the reverse, with both picked sentences.
func disagreements(out io.Writer, outs []outcome, v int) {
	text := func(it *Item, p int) string {
		if p < 0 {
			return "(none)"
		}
		return strings.Join(strings.Fields(it.Rows[p].Text), " ")
	}
	for _, o := range outs {
		if o.learned[v] == o.rules {
			continue
		}
		sign := "+"
		if o.rules {
			sign = "-"
		}
		fresh := ""
		if o.item.Fresh {
			fresh = " (fresh)"
		}
		fmt.Fprintf(out, "%s %s %s%s\n  rules:   %s\n  learned: %s\n", sign, o.item.Set, o.item.ID, fresh, text(o.item, o.item.Picked), text(o.item, o.picks[v]))
	}
}

// toGroup is an item's candidates the answerer may quote (score above
// zero, as ExtractSpan requires), as variant v reads them.
func toGroup(it *Item, v variant) group {
	var g group
	for _, r := range it.Rows {
		if r.Score <= 0 {
			continue
		}
		g.x, g.label = append(g.x, v.input(it, r)), append(g.label, r.Label)
	}
	return g
}

// pick returns the candidate of it the model scores best among those the
// answerer may quote, the first of a tie; -1 when there is none.
func pick(it *Item, m *Model, v variant) int {
	best, at := 0.0, -1
	for i, r := range it.Rows {
		if r.Score <= 0 {
			continue
		}
		if s := m.Score(v.input(it, r)); at < 0 || s > best {
			best, at = s, i
		}
	}
	return at
}

// table prints, per key, the questions, those where a right candidate
// was there to pick (reachable), the answerer's right picks and each
// variant's, with the questions where the variant is right and the
// answerer wrong (+) and the reverse (-).
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
