package vector

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
)

// KMeansOptions are the tunables of KMeans. The zero value gives
// scikit-learn's defaults for KMeans(n_init=1).
type KMeansOptions struct {
	// MaxIter bounds the Lloyd iterations. Zero means 300.
	MaxIter int
	// Tol stops the iterations once the summed squared shift of the
	// centres is at most Tol times the mean per-coordinate variance of the
	// data, scikit-learn's relative tolerance. Zero means 1e-4; a negative
	// value means no tolerance: iterate until the assignments stop changing
	// or MaxIter is reached.
	Tol float64
	// LocalTrials is the number of candidates greedy k-means++ tries for
	// each new centre, keeping the one that lowers the potential most.
	// Zero means 2 + ⌊ln k⌋, scikit-learn's choice; 1 gives plain
	// k-means++ (Arthur and Vassilvitskii).
	LocalTrials int
}

// KMeansResult is a fitted clustering.
type KMeansResult struct {
	Centroids []float32 // k rows of dim values
	Labels    []int32   // Labels[i] is the centre nearest to row i of the data
	Inertia   float64   // sum of squared distances of the rows to their centre
	Iter      int       // Lloyd iterations run
	Converged bool      // false when MaxIter stopped the iterations
}

// KMeans clusters the rows of data (row-major, len(data)/dim rows) into k
// groups the way scikit-learn's KMeans(n_clusters=k, n_init=1,
// algorithm="lloyd") does:
//
//   - initialisation by greedy k-means++: the first centre is a uniformly
//     drawn row; every further centre is the best, by resulting potential,
//     of LocalTrials rows drawn with probability proportional to their
//     squared distance to the nearest centre so far;
//   - Lloyd iterations: assign every row to its nearest centre, move every
//     centre to the mean of its rows; stop when no assignment changes, when
//     the total squared centre shift falls to the tolerance, or after
//     MaxIter iterations;
//   - a centre left without rows is moved onto the row farthest from its
//     own centre (the farthest rows, one per empty centre), as scikit-learn
//     does, so k centres always come back.
//
// The random numbers differ from numpy's, so centres differ from
// scikit-learn's for the same seed; the algorithm is the same. The result
// depends only on the data, k, opts and rng, not on GOMAXPROCS: the work is
// split in parallel only where every row is computed independently.
func KMeans(data []float32, dim, k int, rng *rand.Rand, opts KMeansOptions) (*KMeansResult, error) {
	if dim < 1 {
		return nil, fmt.Errorf("vector: k-means dimension %d, want at least 1", dim)
	}
	if len(data)%dim != 0 {
		return nil, fmt.Errorf("vector: k-means data length %d is not a multiple of dimension %d", len(data), dim)
	}
	n := len(data) / dim
	if k < 1 || k > n {
		return nil, fmt.Errorf("vector: k-means with %d clusters over %d rows, want 1 ≤ k ≤ rows", k, n)
	}
	if rng == nil {
		return nil, errors.New("vector: k-means needs a random source")
	}
	if !finite(data) {
		return nil, ErrNotFinite
	}
	maxIter := opts.MaxIter
	if maxIter <= 0 {
		maxIter = 300
	}
	tol := opts.Tol
	switch {
	case tol == 0:
		tol = 1e-4
	case tol < 0:
		tol = 0
	}
	trials := opts.LocalTrials
	if trials <= 0 {
		trials = 2 + int(math.Log(float64(k)))
	}
	km := &kmeans{data: data, dim: dim, n: n, k: k}
	tolAbs := tol * meanVariance(data, dim)

	centres := km.initPlusPlus(rng, trials)
	next := make([]float32, k*dim)
	labels := make([]int32, n)
	old := make([]int32, n)
	for i := range old {
		old[i] = -1
	}
	res := &KMeansResult{}
	strict := false
	for res.Iter < maxIter {
		res.Iter++
		km.assign(centres, labels)
		shift := km.update(centres, next, labels)
		centres, next = next, centres
		if equalLabels(labels, old) {
			strict = true
			break
		}
		if shift <= tolAbs {
			break
		}
		copy(old, labels)
	}
	res.Converged = strict || res.Iter < maxIter
	if !strict {
		// The last update moved the centres after the rows were assigned;
		// assign once more so labels and centres agree.
		km.assign(centres, labels)
	}
	for i, c := range labels {
		res.Inertia += float64(sqDist(km.row(i), centres[int(c)*dim:(int(c)+1)*dim]))
	}
	res.Centroids = centres
	res.Labels = labels
	return res, nil
}

// kmeans holds the data of one KMeans call.
type kmeans struct {
	data []float32
	dim  int
	n, k int
}

func (km *kmeans) row(i int) []float32 { return km.data[i*km.dim : (i+1)*km.dim] }

// initPlusPlus picks k starting centres by greedy k-means++.
func (km *kmeans) initPlusPlus(rng *rand.Rand, trials int) []float32 {
	n, dim := km.n, km.dim
	centres := make([]float32, 0, km.k*dim)
	first := rng.IntN(n)
	centres = append(centres, km.row(first)...)
	closest := make([]float64, n) // squared distance to the nearest centre chosen
	parallelRange(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			closest[i] = float64(sqDist(km.row(i), km.row(first)))
		}
	})
	pot := sum64(closest)
	cum := make([]float64, n)
	cand := make([]int, trials)
	candDist := make([][]float64, trials)
	for t := range candDist {
		candDist[t] = make([]float64, n)
	}
	candPot := make([]float64, trials)
	for len(centres) < km.k*dim {
		var s float64
		for i, d := range closest {
			s += d
			cum[i] = s
		}
		for t := range cand {
			// First row whose cumulative weight reaches the draw, as
			// numpy's searchsorted; rows already chosen weigh zero.
			r := rng.Float64() * pot
			cand[t] = min(sort.SearchFloat64s(cum, r), n-1)
		}
		parallelRange(n, func(lo, hi int) {
			for t, c := range cand {
				cd, cr := candDist[t], km.row(c)
				for i := lo; i < hi; i++ {
					cd[i] = min(closest[i], float64(sqDist(km.row(i), cr)))
				}
			}
		})
		best := 0
		for t := range cand {
			candPot[t] = sum64(candDist[t])
			if candPot[t] < candPot[best] {
				best = t
			}
		}
		centres = append(centres, km.row(cand[best])...)
		copy(closest, candDist[best])
		pot = candPot[best]
	}
	return centres
}

// assign sets labels[i] to the centre nearest to row i. The distance is
// ranked as |c|² − 2·x·c, which drops the constant |x|² and costs one inner
// product per centre; ties go to the lower centre index.
func (km *kmeans) assign(centres []float32, labels []int32) {
	dim := km.dim
	half := make([]float32, km.k)
	for c := range half {
		cr := centres[c*dim : (c+1)*dim]
		half[c] = Dot(cr, cr) / 2
	}
	parallelRange(km.n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			x := km.row(i)
			best, bestD := 0, float32(math.Inf(1))
			for c := range km.k {
				if d := half[c] - Dot(x, centres[c*dim:(c+1)*dim]); d < bestD {
					best, bestD = c, d
				}
			}
			labels[i] = int32(best)
		}
	})
}

// update writes into next the mean of the rows assigned to each centre and
// returns the summed squared shift from centres to next. Empty clusters are
// relocated onto the rows farthest from their centre.
func (km *kmeans) update(centres, next []float32, labels []int32) float64 {
	dim, k := km.dim, km.k
	// Sums in float64, in row order, so the means are exact to float32 and
	// identical from run to run.
	sums := make([]float64, k*dim)
	counts := make([]int, k)
	for i, c := range labels {
		s := sums[int(c)*dim : (int(c)+1)*dim]
		for j, x := range km.row(i) {
			s[j] += float64(x)
		}
		counts[c]++
	}
	var empty []int
	for c, m := range counts {
		if m == 0 {
			empty = append(empty, c)
		}
	}
	if len(empty) > 0 {
		km.relocate(centres, labels, sums, counts, empty)
	}
	var shift float64
	for c := range k {
		s := sums[c*dim : (c+1)*dim]
		inv := 1 / float64(counts[c])
		for j := range s {
			v := float32(s[j] * inv)
			d := float64(v) - float64(centres[c*dim+j])
			shift += d * d
			next[c*dim+j] = v
		}
	}
	return shift
}

// relocate gives every empty cluster one of the rows farthest from their
// current centre, farthest first, taking the row out of its old cluster.
func (km *kmeans) relocate(centres []float32, labels []int32, sums []float64, counts []int, empty []int) {
	dim := km.dim
	dist := make([]float32, km.n)
	parallelRange(km.n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			c := int(labels[i])
			dist[i] = sqDist(km.row(i), centres[c*dim:(c+1)*dim])
		}
	})
	order := make([]int, km.n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return dist[order[a]] > dist[order[b]] })
	for e, c := range empty {
		i := order[e]
		old := int(labels[i])
		x := km.row(i)
		if counts[old] > 1 {
			// The row leaves its cluster, which keeps at least one row.
			s := sums[old*dim : (old+1)*dim]
			for j, v := range x {
				s[j] -= float64(v)
			}
			counts[old]--
		}
		s := sums[c*dim : (c+1)*dim]
		for j, v := range x {
			s[j] = float64(v)
		}
		counts[c] = 1
	}
}

func equalLabels(a, b []int32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sum64(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}

// meanVariance returns the mean over coordinates of the variance of each
// coordinate across the rows, the scale scikit-learn's tolerance is
// relative to. Two passes in float64 avoid the cancellation of E[x²]−E[x]².
func meanVariance(data []float32, dim int) float64 {
	n := len(data) / dim
	mean := make([]float64, dim)
	for i := 0; i < len(data); i += dim {
		for j, x := range data[i : i+dim] {
			mean[j] += float64(x)
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	var ss float64
	for i := 0; i < len(data); i += dim {
		for j, x := range data[i : i+dim] {
			d := float64(x) - mean[j]
			ss += d * d
		}
	}
	return ss / float64(n) / float64(dim)
}

// parallelRange calls fn on consecutive blocks of [0, n) from up to
// GOMAXPROCS goroutines. fn must only write state indexed by its own rows,
// so the outcome is the same whatever the number of goroutines.
func parallelRange(n int, fn func(lo, hi int)) {
	const block = 512
	blocks := (n + block - 1) / block
	workers := min(runtime.GOMAXPROCS(0), blocks)
	if workers <= 1 {
		fn(0, n)
		return
	}
	var next atomic.Int64
	work := func() {
		for {
			b := int(next.Add(1) - 1)
			if b >= blocks {
				return
			}
			fn(b*block, min((b+1)*block, n))
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}
