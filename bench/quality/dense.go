package main

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/embed"
	"github.com/fonte-rag/fonte/fusion"
	"github.com/fonte-rag/fonte/lexical"
)

// Dense is a set's chunks embedded by one embedder, searched exactly by
// inner product (the vectors are L2-normalised), as vector.Flat does.
type Dense struct {
	Name string
	emb  fonte.Embedder
	vecs [][]float32
}

// Embedders are the local embedders measured, each built for a set's
// index (LSA is fitted on it):
//
//   - hash: embed.HashSurrogate, seed 001's stand-in, over seed 001's
//     tokens, no synonym groups, 512 dimensions;
//   - charngram: engine.DefaultEmbedder, hashed char_wb 3–5-grams, 512-d;
//   - lsa: embed.FitLSARandomized (seed 0, 0), 256 directions (fewer for a corpus of fewer chunks) of the sublinear TF-IDF matrix of
//     the index's own analysis (randomized SVD, fixed seed).
func Embedders(l *Lex) ([]fonte.Embedder, error) {
	hash, err := embed.NewHashSurrogate(analysis.Seed001(), 512, nil)
	if err != nil {
		return nil, err
	}
	cng, err := embed.NewCharNGram(analysis.CharWB(3, 5), "char_wb-3-5", 512)
	if err != nil {
		return nil, err
	}
	tf := lexical.NewTFIDFIndex(l.Ix, lexical.TFIDFOptions{Sublinear: true})
	// embed's randomized LSA (fixed seed): the fit the product offers.
	lsa, err := embed.FitLSARandomized(tf, min(256, tf.N(), len(tf.Vocabulary())), rand.New(rand.NewPCG(0, 0)))
	if err != nil {
		return nil, err
	}
	return []fonte.Embedder{hash, cng, lsa}, nil
}

// NewDense embeds every chunk of s.
func NewDense(s *Set, name string, emb fonte.Embedder) (*Dense, error) {
	vecs, err := emb.Embed(context.Background(), s.Texts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &Dense{Name: name, emb: emb, vecs: vecs}, nil
}

// Rank returns the depth chunks nearest to the query, best first, ties by
// chunk number.
func (ds *Dense) Rank(q Query, depth int) ([]scored, error) {
	qv, err := ds.emb.Embed(context.Background(), []string{q.Text})
	if err != nil {
		return nil, err
	}
	out := make([]scored, len(ds.vecs))
	for d, v := range ds.vecs {
		s := float32(0)
		for i, x := range v {
			s += x * qv[0][i]
		}
		out[d] = scored{d, float64(s)}
	}
	sortScored(out)
	return out[:min(depth, len(out))], nil
}

// Hybrid fuses a lexical and a dense ranking as retrieve does: each leg's
// best depth candidates, RRF with k = 60 and the given leg weights.
func Hybrid(lex, dense []scored, lw, dw float64, k int) []int {
	ids := func(list []scored) []string {
		out := make([]string, len(list))
		for i, s := range list {
			out[i] = fmt.Sprintf("%012d", s.doc)
		}
		return out
	}
	fused := fusion.RRF([][]string{ids(lex), ids(dense)}, fusion.Options{K: 60, Weights: []float64{lw, dw}})
	out := make([]int, 0, k)
	for _, f := range fused[:min(k, len(fused))] {
		n := 0
		for _, c := range f.ID {
			n = n*10 + int(c-'0')
		}
		out = append(out, n)
	}
	return out
}
