package embed

import (
	"context"
	"fmt"
	"gonum.org/v1/gonum/floats"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/lexical"
)

// LSA is latent semantic analysis: the TF-IDF matrix of a corpus reduced
// by a truncated singular value decomposition to K directions, as
// scikit-learn's TruncatedSVD (no centring). A text is embedded as its
// TF-IDF vector times the K right singular vectors.
//
// LSA is fitted on a corpus, so an index that uses it must freeze the
// fitted model with the index and refit only on rebuild: otherwise the same
// chunk would get different vectors as the corpus changes.
type LSA struct {
	tfidf      *lexical.TFIDF
	k          int
	components []float64 // vocabulary × K, row-major: term t's K loadings
	singular   []float64 // the K singular values, largest first
	exact      bool
}

var _ fonte.Embedder = (*LSA)(nil)

// ExactSVDLimit is the largest min(documents, vocabulary) for which FitLSA
// computes an exact SVD; above it the dense decomposition costs too much
// memory and time, and a seeded randomized SVD is used instead.
const ExactSVDLimit = 2000

// FitLSA fits a K-dimensional LSA model on the documents of m. The SVD is
// exact for small corpora (at most ExactSVDLimit documents or terms) and
// randomized, with rng, above; rng may be nil for a fixed seed.
func FitLSA(m *lexical.TFIDF, k int, rng *rand.Rand) (*LSA, error) {
	n, v := m.N(), len(m.Vocabulary())
	if k <= 0 || k > min(n, v) {
		return nil, fmt.Errorf("embed: LSA dimension %d out of range 1..%d (documents %d, terms %d)", k, min(n, v), n, v)
	}
	l := &LSA{tfidf: m, k: k}
	if min(n, v) <= ExactSVDLimit {
		l.exact = true
		x := mat.NewDense(n, v, nil)
		for d := 0; d < n; d++ {
			row := m.Row(d)
			for i, t := range row.Terms {
				x.Set(d, t, row.Weights[i])
			}
		}
		var svd mat.SVD
		if !svd.Factorize(x, mat.SVDThin) {
			return nil, fmt.Errorf("embed: LSA: SVD did not converge")
		}
		var vt mat.Dense
		svd.VTo(&vt) // v × min(n, v), columns are right singular vectors
		vals := svd.Values(nil)
		l.singular = vals[:k]
		l.components = make([]float64, v*k)
		for t := 0; t < v; t++ {
			for j := 0; j < k; j++ {
				l.components[t*k+j] = vt.At(t, j)
			}
		}
		return l, nil
	}
	return FitLSARandomized(m, k, rng)
}

// FitLSARandomized fits LSA with the seeded randomized SVD whatever the
// corpus size; rng may be nil for a fixed seed.
func FitLSARandomized(m *lexical.TFIDF, k int, rng *rand.Rand) (*LSA, error) {
	n, v := m.N(), len(m.Vocabulary())
	if k <= 0 || k > min(n, v) {
		return nil, fmt.Errorf("embed: LSA dimension %d out of range 1..%d (documents %d, terms %d)", k, min(n, v), n, v)
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(0, 0))
	}
	l := &LSA{tfidf: m, k: k}
	l.components, l.singular = randomizedSVD(m, n, v, k, rng)
	return l, nil
}

// randomizedSVD is the Halko–Martinsson–Tropp range finder with power
// iterations, over the sparse TF-IDF rows, as scikit-learn's default
// TruncatedSVD solver (oversampling 10, 5 iterations).
func randomizedSVD(m *lexical.TFIDF, n, v, k int, rng *rand.Rand) ([]float64, []float64) {
	const oversample, iters = 10, 5
	l := min(k+oversample, min(n, v))
	rows := make([]lexical.SparseVector, n)
	for d := range rows {
		rows[d] = m.Row(d)
	}
	// Y = X Ω, Ω v×l Gaussian.
	omega := mat.NewDense(v, l, nil)
	for i := 0; i < v; i++ {
		for j := 0; j < l; j++ {
			omega.Set(i, j, rng.NormFloat64())
		}
	}
	xTimes := func(b *mat.Dense) *mat.Dense { // X b, b is v×l
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
	xtTimes := func(a *mat.Dense) *mat.Dense { // Xᵀ a, a is n×l
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
	q := orthonormal(xTimes(omega))
	for it := 0; it < iters; it++ {
		q = orthonormal(xTimes(orthonormal(xtTimes(q))))
	}
	// B = Qᵀ X is l×v; its right singular vectors are X's.
	bt := xtTimes(q) // v×l = Bᵀ
	var svd mat.SVD
	svd.Factorize(bt, mat.SVDThin) // Bᵀ = U S Vᵀ, so B's right singular vectors are U
	var u mat.Dense
	svd.UTo(&u)
	vals := svd.Values(nil)
	comps := make([]float64, v*k)
	for t := 0; t < v; t++ {
		for j := 0; j < k; j++ {
			comps[t*k+j] = u.At(t, j)
		}
	}
	return comps, vals[:k]
}

// orthonormal returns an orthonormal basis of a's columns (thin QR).
func orthonormal(a *mat.Dense) *mat.Dense {
	// Modified Gram–Schmidt, twice ("twice is enough" for orthogonality
	// to working precision), over the columns of a tall r × c matrix. A
	// full QR would also be exact, but gonum's QTo materialises the square
	// r × r factor: vocabulary² floats, 8 GB for a 32,000-term corpus.
	r, c := a.Dims()
	cols := make([][]float64, c)
	for j := range cols {
		cols[j] = mat.Col(nil, j, a)
	}
	for pass := 0; pass < 2; pass++ {
		for j, col := range cols {
			for _, prev := range cols[:j] {
				d := floats.Dot(prev, col)
				floats.AddScaled(col, -d, prev)
			}
			norm := floats.Norm(col, 2)
			if norm < 1e-300 {
				// A dependent column: zero keeps the span, and the SVD of
				// the projection stays exact.
				norm = math.Inf(1)
			}
			floats.Scale(1/norm, col)
		}
	}
	q := mat.NewDense(r, c, nil)
	for j, col := range cols {
		q.SetCol(j, col)
	}
	return q
}

// Exact reports whether the model came from an exact SVD.
func (l *LSA) Exact() bool { return l.exact }

// SingularValues returns the K largest singular values.
func (l *LSA) SingularValues() []float64 { return append([]float64(nil), l.singular...) }

// Model identifies the model by its dimension; the fitted weights live with
// the index that froze them.
func (l *LSA) Model() string { return fmt.Sprintf("lsa/%d", l.k) }

// Dimension is K.
func (l *LSA) Dimension() int { return l.k }

// Project returns the K-dimensional projection of a TF-IDF vector, in
// float64 and unnormalised (scikit-learn's TruncatedSVD.transform).
func (l *LSA) Project(x lexical.SparseVector) []float64 {
	out := make([]float64, l.k)
	for i, t := range x.Terms {
		w := x.Weights[i]
		row := l.components[t*l.k : (t+1)*l.k]
		for j := range out {
			out[j] += w * row[j]
		}
	}
	return out
}

// ProjectText is Project of the text's TF-IDF vector.
func (l *LSA) ProjectText(text string) []float64 { return l.Project(l.tfidf.Transform(text)) }

// Embed returns the L2-normalised projections of texts as float32, so that
// inner product is cosine similarity.
func (l *LSA) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = normalised(l.ProjectText(t))
	}
	return out, nil
}

// Cosine is the cosine similarity of a and b with scikit-learn-style
// protection against zero norms (1e-12 added to the product of norms).
func Cosine(a, b []float64) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	return dot / (math.Sqrt(na)*math.Sqrt(nb) + 1e-12)
}
