package main

import "math"

// Model is a linear scorer over standardised features: a candidate's
// score is W · ((x - Mean) / Std).
type Model struct {
	Mean, Std, W []float64
}

// Score returns the model's score of feature vector x.
func (m *Model) Score(x []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += m.W[i] * (v - m.Mean[i]) / m.Std[i]
	}
	return s
}

// group is one question's candidates: feature vectors and labels.
type group struct {
	x     [][]float64
	label []bool
}

// standardiser returns the mean and standard deviation of each feature
// over the groups' candidates (a constant feature gets 1, so it weighs
// nothing).
func standardiser(gs []group, n int) (mean, std []float64) {
	mean, std = make([]float64, n), make([]float64, n)
	count := 0.0
	for _, g := range gs {
		for _, x := range g.x {
			for i, v := range x {
				mean[i] += v
			}
			count++
		}
	}
	for i := range mean {
		mean[i] /= max(count, 1)
	}
	for _, g := range gs {
		for _, x := range g.x {
			for i, v := range x {
				std[i] += (v - mean[i]) * (v - mean[i])
			}
		}
	}
	for i := range std {
		std[i] = math.Sqrt(std[i] / max(count, 1))
		if std[i] < 1e-9 {
			std[i] = 1
		}
	}
	return mean, std
}

// Listwise fits a conditional logit over the groups that hold both a
// right and a wrong candidate: it maximises the log of the softmax mass
// on the right candidates of each group, averaged over groups, less
// lambda/2 · |W|², by gradient ascent (Adam, iters steps). It learns
// which candidate of a question to pick, not how likely one is right.
func Listwise(gs []group, n int, lambda float64, iters int) *Model {
	mean, std := standardiser(gs, n)
	m := &Model{Mean: mean, Std: std, W: make([]float64, n)}
	var use []group
	for _, g := range gs {
		pos, neg := false, false
		for _, l := range g.label {
			pos, neg = pos || l, neg || !l
		}
		if pos && neg {
			use = append(use, g)
		}
	}
	if len(use) == 0 {
		return m
	}
	z := make([][][]float64, len(use)) // standardised
	for gi, g := range use {
		z[gi] = make([][]float64, len(g.x))
		for i, x := range g.x {
			z[gi][i] = make([]float64, n)
			for j, v := range x {
				z[gi][i][j] = (v - mean[j]) / std[j]
			}
		}
	}
	grad := make([]float64, n)
	adam := newAdam(n, 0.05)
	for range iters {
		clear(grad)
		for gi, g := range use {
			s := make([]float64, len(g.x))
			top := math.Inf(-1)
			for i := range g.x {
				s[i] = dot(m.W, z[gi][i])
				top = max(top, s[i])
			}
			var all, right float64
			for i := range s {
				s[i] = math.Exp(s[i] - top)
				all += s[i]
				if g.label[i] {
					right += s[i]
				}
			}
			// d/dW log(right/all) = E_right[z] - E_all[z]
			for i := range s {
				c := -s[i] / all
				if g.label[i] {
					c += s[i] / right
				}
				for j, v := range z[gi][i] {
					grad[j] += c * v
				}
			}
		}
		for j := range grad {
			grad[j] = grad[j]/float64(len(use)) - lambda*m.W[j]
		}
		adam.step(m.W, grad)
	}
	return m
}

// Pointwise fits a logistic regression of the label on the features
// over every candidate, weighting each question's candidates so that
// each question weighs one, with L2 penalty lambda, by gradient ascent
// (Adam, iters steps). The bias is left out: only the order of a
// question's candidates matters.
func Pointwise(gs []group, n int, lambda float64, iters int) *Model {
	mean, std := standardiser(gs, n)
	m := &Model{Mean: mean, Std: std, W: make([]float64, n+1)}
	type row struct {
		z      []float64
		y, wgt float64
	}
	var rs []row
	for _, g := range gs {
		for i, x := range g.x {
			z := make([]float64, n+1)
			for j, v := range x {
				z[j] = (v - mean[j]) / std[j]
			}
			z[n] = 1
			y := 0.0
			if g.label[i] {
				y = 1
			}
			rs = append(rs, row{z, y, 1 / float64(len(g.x))})
		}
	}
	if len(rs) == 0 {
		m.W = m.W[:n]
		return m
	}
	grad := make([]float64, n+1)
	adam := newAdam(n+1, 0.05)
	for range iters {
		clear(grad)
		total := 0.0
		for _, r := range rs {
			p := 1 / (1 + math.Exp(-dot(m.W, r.z)))
			for j, v := range r.z {
				grad[j] += r.wgt * (r.y - p) * v
			}
			total += r.wgt
		}
		for j := range grad {
			grad[j] /= total
			if j < n {
				grad[j] -= lambda * m.W[j]
			}
		}
		adam.step(m.W, grad)
	}
	m.W = m.W[:n]
	return m
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// adam is the Adam optimiser's state, ascending.
type adam struct {
	lr   float64
	t    int
	m, v []float64
}

func newAdam(n int, lr float64) *adam {
	return &adam{lr: lr, m: make([]float64, n), v: make([]float64, n)}
}

// step moves w up gradient g.
func (a *adam) step(w, g []float64) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	a.t++
	for j := range w {
		a.m[j] = b1*a.m[j] + (1-b1)*g[j]
		a.v[j] = b2*a.v[j] + (1-b2)*g[j]*g[j]
		mh := a.m[j] / (1 - math.Pow(b1, float64(a.t)))
		vh := a.v[j] / (1 - math.Pow(b2, float64(a.t)))
		w[j] += a.lr * mh / (math.Sqrt(vh) + eps)
	}
}
