package embed

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"

	"github.com/fonte-rag/fonte"
)

// CharNGram embeds a text as hashed character n-gram counts: every n-gram
// the analyzer yields (normally analysis.CharWB) is hashed into one of Dim
// slots with a hash-derived sign, counts are dampened to 1+ln(tf) and the
// vector is L2-normalised.
//
// It is the dense leg fonte can always run offline: no download, no fitting,
// and a chunk's vector depends on its own text only, so incremental indexing
// never has to re-embed unchanged chunks. N-grams match inflections and
// typos ("refund"/"refunds") that whole-word search misses. The sign trick
// keeps collisions from biasing cosines upward.
type CharNGram struct {
	analyzer Analyzer
	dim      int
	name     string
}

var _ fonte.Embedder = (*CharNGram)(nil)

// NewCharNGram returns a hashed n-gram embedder. name describes the analyzer
// (e.g. "char_wb-3-5") and becomes part of the model id, so that indexes
// built with different n-gram settings are never mixed.
func NewCharNGram(an Analyzer, name string, dim int) (*CharNGram, error) {
	if dim <= 0 {
		return nil, fmt.Errorf("embed: char n-gram dimension must be positive, got %d", dim)
	}
	return &CharNGram{analyzer: an, dim: dim, name: name}, nil
}

// Model identifies the embedder, its analyzer and its dimension.
func (c *CharNGram) Model() string { return fmt.Sprintf("charngram/%s/%d", c.name, c.dim) }

// Dimension is the vector length.
func (c *CharNGram) Dimension() int { return c.dim }

// Embed returns one L2-normalised vector per text.
func (c *CharNGram) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	counts := map[string]int{}
	acc := make([]float64, c.dim)
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		clear(counts)
		clear(acc)
		for _, g := range c.analyzer.Analyze(t) {
			counts[g]++
		}
		for g, n := range counts {
			slot, sign := hashSlot(g, c.dim)
			acc[slot] += sign * (1 + math.Log(float64(n)))
		}
		out[i] = normalised(acc)
	}
	return out, nil
}

// hashSlot maps a feature to a slot and a sign with 64-bit FNV-1a, which is
// stable across processes and platforms (unlike maphash).
func hashSlot(feature string, dim int) (int, float64) {
	h := fnv.New64a()
	h.Write([]byte(feature))
	x := h.Sum64()
	sign := 1.0
	if x>>63 == 1 {
		sign = -1
	}
	return int((x & (1<<63 - 1)) % uint64(dim)), sign
}
