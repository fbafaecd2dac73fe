package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

func TestSentenceRarity(t *testing.T) {
	c := fonte.Chunk{Text: "The guide has a new edition each year. Every guide chapter ends with exercises. The preface quotes a Greek proverb."}
	r := sentenceRarity([]fonte.Chunk{c}, ContentKeys("greek guide"))
	g, h := r[firstKey("greek")], r[firstKey("guide")]
	if !(g > h && h > 0) {
		t.Errorf("rarity of greek %.3f, of guide %.3f: want greek (1 sentence of 3) rarer than guide (2 of 3)", g, h)
	}
}

// firstKey returns the content key of a single word.
func firstKey(w string) string {
	for k := range ContentKeys(w) {
		return k
	}
	return ""
}

// Two sentences share as many question words: the one holding the word
// few sentences of the passage hold is quoted, not the shorter one
// holding the passage's subject.
func TestRareWordSettlesATie(t *testing.T) {
	c := fonte.Chunk{ID: "c1", Text: "The guide has a new edition each year.\n\n" +
		"Every guide chapter ends with short exercises for the reader.\n\n" +
		"The preface quotes an old Greek proverb: make haste slowly, and you will arrive sooner."}
	text, n, _ := ExtractSpan("What does the Greek saying in the guide mean?", []fonte.Chunk{c})
	if n != 1 || !strings.HasPrefix(text, "The preface quotes an old Greek proverb") {
		t.Errorf("ExtractSpan = %q, want the sentence with the proverb", text)
	}
}
