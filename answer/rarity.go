package answer

import (
	"math"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/chunk"
)

// Given one passage, every question word it holds weighs the same, and
// two of its sentences often share as many of them: the one that holds
// a word few other sentences hold pinpoints the answer ("Latin" in the
// sentence that quotes the saying), while a word found in most of them
// is the passage's subject and tells none apart. rarityTieBreak is what
// that rarity adds to a sentence's score: enough to settle a tie, never
// to outweigh a question word. Only a question that asks for no typed
// span uses it: a typed question's ties go to the sentence that states
// the asked kind of fact (leadBonus).
const rarityTieBreak = 1e-3

// sentenceRarity returns, for each key of want, the log of how rarely the
// sentences of chunks hold it: log((n+1)/(m+1)) for n sentences, m of
// which hold the key.
func sentenceRarity(chunks []fonte.Chunk, want map[string]bool) map[string]float64 {
	held, n := map[string]int{}, 0
	for _, c := range chunks {
		for _, sp := range chunk.SentenceSpans(c.Text) {
			n++
			keys := ContentKeys(c.Text[sp[0]:sp[1]])
			for k := range want {
				if keys[k] {
					held[k]++
				}
			}
		}
	}
	out := make(map[string]float64, len(want))
	for k := range want {
		out[k] = math.Log(float64(n+1) / float64(held[k]+1))
	}
	return out
}
