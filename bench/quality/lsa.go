package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/fonte-rag/fonte/lexical"
)

// lsa is embed.FitLSARandomized's model (Halko–Martinsson–Tropp range
// finder, oversampling 10, 5 power iterations, seed (0, 0)) with one
// change: the range basis is orthonormalised by modified Gram–Schmidt
// instead of embed's orthonormal, which asks gonum for the full square Q
// of a vocabulary × l matrix (vocabulary² floats: about 8 GB per call on
// SciFact's 32,000 terms, enough to get the process killed). The result
// is the same subspace, so the same model up to rounding.
type lsa struct {
	tfidf *lexical.TFIDF
	k     int
	comps []float64 // vocabulary × k
}

func fitLSA(m *lexical.TFIDF, k int) (*lsa, error) {
	n, v := m.N(), len(m.Vocabulary())
	if k <= 0 || k > min(n, v) {
		return nil, fmt.Errorf("lsa: k %d out of range", k)
	}
	rng := rand.New(rand.NewPCG(0, 0))
	const oversample, iters = 10, 5
	l := min(k+oversample, min(n, v))
	rows := make([]lexical.SparseVector, n)
	for d := range rows {
		rows[d] = m.Row(d)
	}
	omega := mat.NewDense(v, l, nil)
	for i := 0; i < v; i++ {
		for j := 0; j < l; j++ {
			omega.Set(i, j, rng.NormFloat64())
		}
	}
	xTimes := func(b *mat.Dense) *mat.Dense {
		out := mat.NewDense(n, l, nil)
		for d, r := range rows {
			dst := out.RawRowView(d)
			for i, t := range r.Terms {
				w := r.Weights[i]
				src := b.RawRowView(t)
				for j := range dst {
					dst[j] += w * src[j]
				}
			}
		}
		return out
	}
	xtTimes := func(a *mat.Dense) *mat.Dense {
		out := mat.NewDense(v, l, nil)
		for d, r := range rows {
			src := a.RawRowView(d)
			for i, t := range r.Terms {
				w := r.Weights[i]
				dst := out.RawRowView(t)
				for j := range dst {
					dst[j] += w * src[j]
				}
			}
		}
		return out
	}
	q := gramSchmidt(xTimes(omega))
	for range iters {
		q = gramSchmidt(xTimes(gramSchmidt(xtTimes(q))))
	}
	bt := xtTimes(q)
	var svd mat.SVD
	if !svd.Factorize(bt, mat.SVDThin) {
		return nil, fmt.Errorf("lsa: SVD did not converge")
	}
	var u mat.Dense
	svd.UTo(&u)
	comps := make([]float64, v*k)
	for t := 0; t < v; t++ {
		for j := 0; j < k; j++ {
			comps[t*k+j] = u.At(t, j)
		}
	}
	return &lsa{tfidf: m, k: k, comps: comps}, nil
}

// gramSchmidt returns the thin Q of a's QR factorisation (r × c, not
// r × r): LAPACK's Geqrf then Orgqr on a copy.
func gramSchmidt(a *mat.Dense) *mat.Dense {
	r, c := a.Dims()
	g := mat.DenseCopyOf(a).RawMatrix()
	tau := make([]float64, c)
	work := make([]float64, 1)
	lapack64.Geqrf(g, tau, work, -1)
	work = make([]float64, int(work[0]))
	lapack64.Geqrf(g, tau, work, len(work))
	lapack64.Orgqr(g, tau, work, -1)
	if n := int(work[0]); n > len(work) {
		work = make([]float64, n)
	}
	lapack64.Orgqr(g, tau, work, len(work))
	return mat.NewDense(r, c, g.Data)
}

func (m *lsa) Model() string  { return fmt.Sprintf("lsa/%d", m.k) }
func (m *lsa) Dimension() int { return m.k }

// Embed returns the L2-normalised projections of the texts' TF-IDF
// vectors, as embed.LSA.Embed.
func (m *lsa) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		x := m.tfidf.Transform(t)
		p := make([]float64, m.k)
		for i, term := range x.Terms {
			w := x.Weights[i]
			row := m.comps[term*m.k : (term+1)*m.k]
			for j := range p {
				p[j] += w * row[j]
			}
		}
		norm := 0.0
		for _, y := range p {
			norm += y * y
		}
		norm = math.Sqrt(norm)
		v := make([]float32, m.k)
		if norm > 0 {
			for j, y := range p {
				v[j] = float32(y / norm)
			}
		}
		out[i] = v
	}
	return out, nil
}
