package synth

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestPseudoWordsUnique(t *testing.T) {
	seen := map[string]int{}
	for i := range 50000 {
		w := pseudoWord(i)
		if j, dup := seen[w]; dup {
			t.Fatalf("word %d and %d are both %q", j, i, w)
		}
		seen[w] = i
	}
}

func TestCorpusShape(t *testing.T) {
	gen := func() *Corpus { return NewCorpus(rand.New(rand.NewPCG(1, 2)), CorpusOptions{Dim: 16}) }
	a, b := gen(), gen()
	freq := map[string]int{}
	total := 0
	byTopic := map[int]map[string]bool{}
	for range 2000 {
		ta, xa, va := a.Chunk()
		tb, xb, vb := b.Chunk()
		if ta != tb || xa != xb || va[0] != vb[0] {
			t.Fatal("the same seed gave different chunks")
		}
		words := strings.Fields(strings.NewReplacer(".", "").Replace(xa))
		if len(words) < 20 || len(words) > 600 {
			t.Fatalf("chunk of %d words", len(words))
		}
		if byTopic[ta] == nil {
			byTopic[ta] = map[string]bool{}
		}
		for _, w := range words {
			freq[w]++
			total++
			byTopic[ta][w] = true
		}
		var ss float32
		for _, x := range va {
			ss += x * x
		}
		if ss < 0.999 || ss > 1.001 {
			t.Fatalf("vector norm² %v", ss)
		}
	}
	// Zipf: the most frequent word is a few percent of all words, and the
	// vocabulary used is far larger than the top words.
	top := 0
	for _, n := range freq {
		top = max(top, n)
	}
	if share := float64(top) / float64(total); share < 0.02 || share > 0.2 {
		t.Errorf("top word share %.3f", share)
	}
	if len(freq) < 5000 {
		t.Errorf("only %d distinct words in 2000 chunks", len(freq))
	}
	// Topics: a query shares more words with chunks of its topic.
	same, other := 0, 0
	for range 200 {
		tq, q, _ := a.Query()
		for tc, words := range byTopic {
			n := 0
			for _, w := range strings.Fields(q) {
				if words[w] {
					n++
				}
			}
			if tc == tq {
				same += n
			} else if tc == (tq+1)%200 {
				other += n
			}
		}
	}
	if same <= other {
		t.Errorf("topic words: same topic %d, other topic %d", same, other)
	}
}
