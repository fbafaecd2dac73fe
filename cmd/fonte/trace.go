package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/engine"
)

// traceTop is how many of each list the text trace prints; --json has
// them all.
const traceTop = 5

// printTrace writes a trace for a reader: the stages' times, each leg's
// and the fusion's top candidates, the floor decision, what the context
// took and cut, and the grounding verdicts.
func printTrace(out io.Writer, tr *engine.Trace) {
	fmt.Fprintf(out, "--- trace ---\nquery %q (language %s, mode %s, k %d, depth %d)\n", tr.Query, orUnd(tr.Lang), tr.Mode, tr.K, tr.Depth)
	var stages []string
	for _, s := range tr.Stages {
		stages = append(stages, fmt.Sprintf("%s %.2f ms", s.Name, s.MS))
	}
	fmt.Fprintf(out, "stages: %s\n", strings.Join(stages, ", "))
	for _, leg := range []struct {
		name string
		list []engine.Candidate
	}{{"bm25", tr.Lexical}, {"vector", tr.Dense}} {
		if len(leg.list) == 0 {
			continue
		}
		fmt.Fprintf(out, "%s leg (%d candidates):", leg.name, len(leg.list))
		for _, c := range leg.list[:min(traceTop, len(leg.list))] {
			fmt.Fprintf(out, " #%d %s (%.3f)", c.Rank, c.ChunkID, c.Score)
		}
		fmt.Fprintln(out)
	}
	for _, r := range []struct {
		name string
		list []engine.Ranked
	}{{"fused", tr.Fused}, {"reranked", tr.Reranked}} {
		if len(r.list) == 0 {
			continue
		}
		fmt.Fprintf(out, "%s:", r.name)
		for _, c := range r.list[:min(traceTop, len(r.list))] {
			fmt.Fprintf(out, " #%d %s (relevance %.2f)", c.Rank, c.ChunkID, c.Relevance)
		}
		fmt.Fprintln(out)
	}
	if f := tr.Floor; f != nil {
		fmt.Fprintf(out, "floor %.2f, best relevance %.2f (%s): %s\n", f.Floor, f.Relevance, orDash(f.ChunkID), f.Reason)
		if c := f.Coverage; c != nil {
			printCoverage(out, c)
		}
	}
	if f := tr.Fit; f != nil {
		fmt.Fprintf(out, "context: %d of %d tokens, %d chunks fitted, %d cut\n", f.Used, f.Budget, len(f.Fitted), len(f.Cut))
		for _, c := range f.Cut[:min(traceTop, len(f.Cut))] {
			fmt.Fprintf(out, "  cut %s: %s\n", c.ChunkID, c.Reason)
		}
	}
	for _, g := range tr.Grounding {
		verdict := "supported"
		if !g.Supported {
			verdict = "NOT supported"
		}
		fmt.Fprintf(out, "  %s by %s: %s\n", verdict, orDash(g.ChunkID), snippet(g.Sentence, 100))
	}
	if tr.Abstained && tr.AbstainReason != "" {
		fmt.Fprintf(out, "abstained: %s\n", tr.AbstainReason)
	}
	if h := tr.Hold; h != nil {
		fmt.Fprintf(out, "held %.0f ms after the model's first token, until checked: %s\n", h.HeldMS, h.Reason)
		if h.Changed != "" {
			fmt.Fprintf(out, "  changed: %s\n", h.Changed)
		}
	}
}

// printCoverage writes the question's content keys with their weight
// and the passages holding each, then each top passage's share of the
// question's weight, the evidence the floor weighed (answer.Coverage).
func printCoverage(out io.Writer, c *answer.Coverage) {
	var keys []string
	for _, k := range c.Keys {
		where := "in no passage"
		if len(k.In) > 0 {
			where = "in #" + strings.Trim(strings.ReplaceAll(fmt.Sprint(k.In), " ", ",#"), "[]")
		}
		keys = append(keys, fmt.Sprintf("%s (df %d, weight %.2f, %s)", k.Key, k.DF, k.Weight, where))
	}
	fmt.Fprintf(out, "question keys: %s\n", strings.Join(keys, "; "))
	var held []string
	for i, h := range c.Held[:min(traceTop, len(c.Held))] {
		held = append(held, fmt.Sprintf("#%d %s %.0f%%", i+1, h.ChunkID, 100*h.Share))
	}
	fmt.Fprintf(out, "share of the question's weight held (at least %.0f%% to be judged): %s\n", 100*c.MinHeld, strings.Join(held, ", "))
}

// orUnd names an undetermined language "und" (BCP 47's code): the
// question held no evidence of one, and was analysed in every language
// of the corpus.
func orUnd(lang string) string {
	if lang == "" {
		return "und"
	}
	return lang
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
