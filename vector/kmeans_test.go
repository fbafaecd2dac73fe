package vector

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fonte-rag/fonte/synth"
)

// Well-separated blobs: k-means must put each blob in its own cluster.
func TestKMeansRecoversSeparatedClusters(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const k, dim, per = 6, 8, 50
	var data []float32
	truth := make([]int, 0, k*per)
	for c := range k {
		centre := make([]float32, dim)
		centre[c] = 20 // far apart along different axes
		for range per {
			for j := range dim {
				data = append(data, centre[j]+float32(rng.NormFloat64()))
			}
			truth = append(truth, c)
		}
	}
	res, err := KMeans(data, dim, k, rand.New(rand.NewPCG(3, 4)), KMeansOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Converged || res.Iter < 1 {
		t.Fatalf("converged=%v after %d iterations", res.Converged, res.Iter)
	}
	// Same partition up to renaming of the clusters.
	name := map[int]int32{}
	used := map[int32]bool{}
	for i, tc := range truth {
		l := res.Labels[i]
		if prev, ok := name[tc]; ok {
			if prev != l {
				t.Fatalf("row %d: blob %d split between clusters %d and %d", i, tc, prev, l)
			}
			continue
		}
		if used[l] {
			t.Fatalf("cluster %d holds two blobs", l)
		}
		name[tc], used[l] = l, true
	}
	checkLabelsNearest(t, data, dim, res)
	// Inertia is about n·dim for unit noise.
	if res.Inertia < 0.8*k*per*dim || res.Inertia > 1.2*k*per*dim {
		t.Fatalf("inertia %v, want about %d", res.Inertia, k*per*dim)
	}
}

// checkLabelsNearest asserts every label is its row's nearest centroid.
func checkLabelsNearest(t *testing.T, data []float32, dim int, res *KMeansResult) {
	t.Helper()
	k := len(res.Centroids) / dim
	for i, l := range res.Labels {
		x := data[i*dim : (i+1)*dim]
		dl := sqDist(x, res.Centroids[int(l)*dim:(int(l)+1)*dim])
		for c := range k {
			// The label was chosen with the |c|²−2x·c expansion; allow for
			// its rounding.
			if d := sqDist(x, res.Centroids[c*dim:(c+1)*dim]); d < dl-1e-4 {
				t.Fatalf("row %d labelled %d at %v but centre %d is at %v", i, l, dl, c, d)
			}
		}
	}
}

func TestKMeansDeterministic(t *testing.T) {
	data := synth.Clustered(rand.New(rand.NewPCG(5, 5)), 3000, 16, 20, 0.5).Data
	run := func() *KMeansResult {
		res, err := KMeans(data, 16, 30, rand.New(rand.NewPCG(9, 9)), KMeansOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(), run()
	if a.Iter != b.Iter || a.Inertia != b.Inertia {
		t.Fatalf("same seed: %d iterations, inertia %v vs %d, %v", a.Iter, a.Inertia, b.Iter, b.Inertia)
	}
	for i := range a.Centroids {
		if a.Centroids[i] != b.Centroids[i] {
			t.Fatalf("same seed, centroid value %d differs", i)
		}
	}
	checkLabelsNearest(t, data, 16, a)
}

// Greedy k-means++ should start closer to a good solution than plain
// k-means++ on average; at the least it must not be worse by much.
func TestKMeansGreedyInitHelps(t *testing.T) {
	data := synth.Clustered(rand.New(rand.NewPCG(6, 6)), 2000, 8, 40, 2).Data
	var greedy, plain float64
	for s := range uint64(5) {
		g, _ := KMeans(data, 8, 40, rand.New(rand.NewPCG(s, 0)), KMeansOptions{MaxIter: 1})
		p, _ := KMeans(data, 8, 40, rand.New(rand.NewPCG(s, 0)), KMeansOptions{MaxIter: 1, LocalTrials: 1})
		greedy += g.Inertia
		plain += p.Inertia
	}
	if greedy > plain*1.02 {
		t.Fatalf("greedy k-means++ inertia %v, plain %v", greedy, plain)
	}
	t.Logf("after one iteration: greedy %.1f, plain %.1f", greedy/5, plain/5)
}

// Duplicate rows make k-means++ pick a centre twice, which leaves a
// cluster empty: it must be relocated, not divided by zero.
func TestKMeansEmptyClusters(t *testing.T) {
	data := []float32{
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // five copies of the origin
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // five copies of (1, 1)
		5, 5, // and one outlier
	}
	for _, k := range []int{3, 4} {
		res, err := KMeans(data, 2, k, rand.New(rand.NewPCG(1, 1)), KMeansOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Centroids) != 2*k || len(res.Labels) != 11 {
			t.Fatalf("k=%d: %d centroid values, %d labels", k, len(res.Centroids), len(res.Labels))
		}
		if !finite(res.Centroids) {
			t.Fatalf("k=%d: non-finite centroids %v", k, res.Centroids)
		}
		if k == 3 && res.Inertia > 1e-9 {
			t.Fatalf("k=3 over three distinct points: inertia %v, want 0", res.Inertia)
		}
	}
}

func TestKMeansTolerance(t *testing.T) {
	data := synth.Clustered(rand.New(rand.NewPCG(8, 8)), 4000, 16, 30, 0.5).Data
	loose, _ := KMeans(data, 16, 40, rand.New(rand.NewPCG(1, 0)), KMeansOptions{Tol: 1e-1})
	exact, _ := KMeans(data, 16, 40, rand.New(rand.NewPCG(1, 0)), KMeansOptions{Tol: -1})
	if loose.Iter >= exact.Iter {
		t.Fatalf("loose tolerance ran %d iterations, exact %d", loose.Iter, exact.Iter)
	}
	if exact.Converged && exact.Inertia > loose.Inertia+1e-6 {
		t.Fatalf("running to convergence raised inertia: %v > %v", exact.Inertia, loose.Inertia)
	}
	capped, _ := KMeans(data, 16, 40, rand.New(rand.NewPCG(1, 0)), KMeansOptions{Tol: -1, MaxIter: 2})
	if capped.Iter != 2 || capped.Converged {
		t.Fatalf("MaxIter 2: %d iterations, converged %v", capped.Iter, capped.Converged)
	}
	checkLabelsNearest(t, data, 16, capped)
}

func TestKMeansErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for name, call := range map[string]func() error{
		"k > n":   func() error { _, err := KMeans(make([]float32, 8), 2, 5, rng, KMeansOptions{}); return err },
		"k = 0":   func() error { _, err := KMeans(make([]float32, 8), 2, 0, rng, KMeansOptions{}); return err },
		"ragged":  func() error { _, err := KMeans(make([]float32, 7), 2, 1, rng, KMeansOptions{}); return err },
		"dim 0":   func() error { _, err := KMeans(nil, 0, 1, rng, KMeansOptions{}); return err },
		"nil rng": func() error { _, err := KMeans(make([]float32, 8), 2, 1, nil, KMeansOptions{}); return err },
		"not finite": func() error {
			_, err := KMeans([]float32{1, float32(math.Inf(1))}, 1, 1, rng, KMeansOptions{})
			return err
		},
	} {
		if call() == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestMeanVariance(t *testing.T) {
	// Columns (1,3) and (2,2): variances 1 and 0, mean 0.5.
	if v := meanVariance([]float32{1, 2, 3, 2}, 2); math.Abs(v-0.5) > 1e-12 {
		t.Fatalf("meanVariance = %v, want 0.5", v)
	}
}
