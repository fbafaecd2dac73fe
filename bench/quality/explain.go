package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/fonte-rag/fonte/eval"
)

// explainBEIR writes, for each query of a BEIR set whose judged document
// ranks below cut (0 when it is not in the top depth), the query's tokens
// with a mark on those the document lacks: the vocabulary mismatches an
// analysis change could fix.
func explainBEIR(w io.Writer, s *Set, qrels eval.Qrels, l *Lex, sc Scorer, cut int) {
	byDoc := map[string]int{}
	for i, c := range s.Chunks {
		byDoc[c.DocID] = i
	}
	for _, q := range s.Queries {
		ranked := docs(l.Rank(q, sc, depth))
		for id := range qrels[q.ID] {
			d := byDoc[id]
			rank := 0
			for i, x := range ranked {
				if x == d {
					rank = i + 1
					break
				}
			}
			if rank != 0 && (cut == 0 || rank <= cut) {
				continue
			}
			have := map[uint32]bool{}
			for _, t := range l.Seqs[d] {
				have[t] = true
			}
			var parts []string
			for _, tok := range l.An.of(q.Lang).Analyze(q.Text) {
				id, ok := l.Ix.TermID(tok)
				if ok && have[uint32(id)] {
					parts = append(parts, tok)
				} else {
					parts = append(parts, "!"+tok)
				}
			}
			fmt.Fprintf(w, "q%s rank %d doc %s: %s\n   %s\n   %.300s\n", q.ID, rank, id, q.Text, strings.Join(parts, " "), s.Texts[d])
		}
	}
}
