package embed

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math"

	"github.com/fonte-rag/fonte"
)

// Analyzer turns a text into the tokens an embedder weighs. It is satisfied
// by analysis.Analyzer; embed declares its own so that the package stays
// usable with any tokenizer.
type Analyzer interface {
	Analyze(text string) []string
}

// HashSurrogate is seed 001's stand-in for an embedding model: each token is
// replaced by its hand-written synonym group, and every word of the group
// adds 1/|group| to the slot sha256(word) mod Dim; the vector is then
// L2-normalised. It is deterministic, needs no download and gives a chunk
// the same vector whatever else is indexed, but its "semantics" are only the
// synonym groups it is given: it measures the pipeline, not a model.
type HashSurrogate struct {
	analyzer Analyzer
	dim      int
	groups   map[string][]string // word -> the whole group it belongs to
	slots    map[string]int      // memoised sha256 slots
}

var _ fonte.Embedder = (*HashSurrogate)(nil)

// NewHashSurrogate returns a surrogate embedder of dimension dim over the
// tokens of an, with the given synonym groups. A word listed in two groups
// belongs to the first.
func NewHashSurrogate(an Analyzer, dim int, synonyms [][]string) (*HashSurrogate, error) {
	if dim <= 0 {
		return nil, fmt.Errorf("embed: hash surrogate dimension must be positive, got %d", dim)
	}
	h := &HashSurrogate{analyzer: an, dim: dim, groups: map[string][]string{}, slots: map[string]int{}}
	for _, g := range synonyms {
		group := dedupe(g)
		for _, w := range group {
			if _, seen := h.groups[w]; !seen {
				h.groups[w] = group
			}
			h.slots[w] = slotOf(w, dim)
		}
	}
	return h, nil
}

// Model identifies the surrogate and its dimension.
func (h *HashSurrogate) Model() string { return fmt.Sprintf("hash-surrogate/%d", h.dim) }

// Dimension is the vector length.
func (h *HashSurrogate) Dimension() int { return h.dim }

// Embed returns one L2-normalised vector per text. A text with no tokens
// gives the zero vector, as the seed's code does.
func (h *HashSurrogate) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	acc := make([]float64, h.dim)
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		clear(acc)
		for _, tok := range h.analyzer.Analyze(t) {
			group, ok := h.groups[tok]
			if !ok {
				acc[h.slot(tok)]++
				continue
			}
			w := 1 / float64(len(group))
			for _, word := range group {
				acc[h.slot(word)] += w
			}
		}
		out[i] = normalised(acc)
	}
	return out, nil
}

func (h *HashSurrogate) slot(word string) int {
	if s, ok := h.slots[word]; ok {
		return s
	}
	return slotOf(word, h.dim)
}

// slotOf is int(sha256(word).hexdigest(), 16) % dim: the digest read as one
// big-endian integer, reduced byte by byte so any dimension works.
func slotOf(word string, dim int) int {
	sum := sha256.Sum256([]byte(word))
	r := 0
	for _, b := range sum {
		r = (r*256 + int(b)) % dim
	}
	return r
}

// normalised returns acc scaled to unit length as float32, or zeros.
func normalised(acc []float64) []float32 {
	var ss float64
	for _, x := range acc {
		ss += x * x
	}
	v := make([]float32, len(acc))
	if ss == 0 {
		return v
	}
	inv := 1 / math.Sqrt(ss)
	for i, x := range acc {
		v[i] = float32(x * inv)
	}
	return v
}

func dedupe(words []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
