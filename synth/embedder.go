package synth

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
)

// TopicEmbedder is a stand-in for an embedding model over a Corpus's
// text, for scale runs where a real model cannot run: it reads a text's
// topic from its words and returns a vector drawn around that topic's
// centre, like the vectors Corpus.Chunk draws. Each word votes for the
// topic whose region of the vocabulary it falls in; the most frequent
// words (the first 1,000 Zipf ranks, which every topic uses) do not vote.
// The noise is seeded by the text, so a text always gets the same vector
// and indexing stays incremental. It implements fonte.Embedder.
type TopicEmbedder struct {
	c     *Corpus
	index map[string]int32 // word -> vocabulary rank
}

// Embedder returns the corpus's TopicEmbedder.
func (c *Corpus) Embedder() *TopicEmbedder {
	idx := make(map[string]int32, len(c.words))
	for i, w := range c.words {
		idx[w] = int32(i)
	}
	return &TopicEmbedder{c: c, index: idx}
}

// Model names the embedder and its corpus shape.
func (e *TopicEmbedder) Model() string {
	o := e.c.opts
	return fmt.Sprintf("synth-topic/v1 vocab=%d topics=%d dim=%d", o.Vocabulary, o.Topics, o.Dim)
}

// Dimension is the corpus's vector dimension.
func (e *TopicEmbedder) Dimension() int { return e.c.opts.Dim }

// Embed returns one normalised vector per text.
func (e *TopicEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = e.embed(t)
	}
	return out, nil
}

// Topic returns the topic the text's words vote for.
func (e *TopicEmbedder) Topic(text string) int {
	o := e.c.opts
	step := o.Vocabulary / o.Topics
	votes := make([]int32, o.Topics)
	best, bestVotes := -1, int32(0)
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r < 'a' || r > 'z' }) {
		r, ok := e.index[w]
		if !ok || r < 1000 {
			continue
		}
		t := int(r-1000) / step
		if t >= o.Topics {
			continue
		}
		votes[t]++
		if votes[t] > bestVotes || votes[t] == bestVotes && t < best {
			best, bestVotes = t, votes[t]
		}
	}
	if best < 0 {
		h := fnv.New64a()
		h.Write([]byte(text))
		best = int(h.Sum64() % uint64(o.Topics))
	}
	return best
}

func (e *TopicEmbedder) embed(text string) []float32 {
	h := fnv.New64a()
	h.Write([]byte(text))
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x5eed))
	centre := e.c.mixture.Centres.Row(e.Topic(text))
	v := make([]float32, len(centre))
	var ss float64
	for j := range v {
		x := float64(centre[j]) + rng.NormFloat64()
		v[j] = float32(x)
		ss += x * x
	}
	inv := float32(1 / math.Sqrt(ss))
	for j := range v {
		v[j] *= inv
	}
	return v
}
