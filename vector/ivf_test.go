package vector

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte/synth"
)

// newTestIVF trains an IVF on clustered data and adds it under ids 0..n-1,
// with the same vectors in a Flat and a reference map.
func newTestIVF(t testing.TB, n, dim, cells int, seed uint64) (*IVF, *Flat, map[uint64][]float32, synth.Matrix) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0))
	mix := synth.NewMixture(rng, 20, dim, 0.5)
	data := mix.Sample(rng, n)
	x := NewIVF(dim, cells, rand.New(rand.NewPCG(seed, 1)))
	if err := x.Train(data.Data); err != nil {
		t.Fatal(err)
	}
	f := NewFlat(dim)
	ref := map[uint64][]float32{}
	for i := range n {
		id := uint64(i)
		if err := x.Add(id, data.Row(i)); err != nil {
			t.Fatal(err)
		}
		f.Add(id, data.Row(i))
		ref[id] = data.Row(i)
	}
	return x, f, ref, mix.Sample(rng, 50)
}

func TestIVFAllCellsEqualsFlat(t *testing.T) {
	x, f, _, queries := newTestIVF(t, 3000, 24, 30, 1)
	if x.Len() != 3000 {
		t.Fatalf("Len %d", x.Len())
	}
	sizes := 0
	for _, s := range x.CellSizes() {
		sizes += s
	}
	if sizes != 3000 {
		t.Fatalf("cells hold %d vectors, want 3000", sizes)
	}
	for qi := range queries.Rows {
		q := queries.Row(qi)
		for _, k := range []int{1, 10, 100} {
			got, compared := x.Search(q, k, x.Cells())
			if want := f.Search(q, k); !equalResults(got, want) {
				t.Fatalf("query %d k=%d: IVF probing every cell differs from Flat:\n got %v\nwant %v", qi, k, got, want)
			}
			if compared != 3000+30 {
				t.Fatalf("compared %d, want 3000 vectors + 30 centroids", compared)
			}
		}
		// nProbe beyond the cell count is clamped, not an error.
		if got, _ := x.Search(q, 10, 1000); !equalResults(got, f.Search(q, 10)) {
			t.Fatal("nProbe > cells differs from Flat")
		}
	}
}

func TestIVFTiesEqualFlat(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	const dim = 9
	x := NewIVF(dim, 7, rand.New(rand.NewPCG(2, 3)))
	f := NewFlat(dim)
	var train []float32
	vecs := make([][]float32, 400)
	for i := range vecs {
		vecs[i] = tieVector(rng, dim)
		train = append(train, vecs[i]...)
	}
	if err := x.Train(train); err != nil {
		t.Fatal(err)
	}
	for _, i := range rng.Perm(len(vecs)) {
		x.Add(uint64(i), vecs[i])
		f.Add(uint64(i), vecs[i])
	}
	for range 40 {
		q := tieVector(rng, dim)
		got, _ := x.Search(q, 25, 7)
		if want := f.Search(q, 25); !equalResults(got, want) {
			t.Fatalf("ties: got %v\nwant %v", got, want)
		}
	}
}

func TestIVFPartialProbe(t *testing.T) {
	x, _, ref, queries := newTestIVF(t, 2000, 16, 20, 3)
	centroids := x.Centroids()
	sizes := x.CellSizes()
	for qi := range queries.Rows {
		q := queries.Row(qi)
		got, compared := x.Search(q, 10, 3)
		// Reference: the three cells whose centroids score highest, then a
		// brute-force search restricted to their members.
		cellScores := map[uint64][]float32{}
		for c := range 20 {
			cellScores[uint64(c)] = centroids[c*16 : (c+1)*16]
		}
		probe := bruteForce(cellScores, q, 3)
		members := map[uint64][]float32{}
		want := 20
		for _, p := range probe {
			want += sizes[p.ID]
		}
		for id, v := range ref {
			if c := x.nearest(v); c == int(probe[0].ID) || c == int(probe[1].ID) || c == int(probe[2].ID) {
				members[id] = v
			}
		}
		if compared != want {
			t.Fatalf("compared %d, want %d", compared, want)
		}
		if exp := bruteForce(members, q, 10); !equalResults(got, exp) {
			t.Fatalf("query %d: got %v\nwant %v", qi, got, exp)
		}
	}
}

func TestIVFDeleteReplaceRetrain(t *testing.T) {
	x, f, ref, queries := newTestIVF(t, 1500, 16, 12, 4)
	rng := rand.New(rand.NewPCG(4, 4))
	for id := range ref {
		switch id % 4 {
		case 0:
			if !x.Delete(id) || !f.Delete(id) {
				t.Fatalf("Delete(%d) = false", id)
			}
			delete(ref, id)
		case 1:
			v := gaussVector(rng, 16)
			x.Add(id, v)
			f.Add(id, v)
			ref[id] = v
		}
	}
	if x.Delete(1 << 40) {
		t.Fatal("Delete of an absent id reported true")
	}
	same := func(stage string) {
		t.Helper()
		if x.Len() != len(ref) {
			t.Fatalf("%s: Len %d, want %d", stage, x.Len(), len(ref))
		}
		for qi := range queries.Rows {
			q := queries.Row(qi)
			got, _ := x.Search(q, 20, x.Cells())
			if want := f.Search(q, 20); !equalResults(got, want) {
				t.Fatalf("%s: query %d differs from Flat", stage, qi)
			}
		}
		for id, v := range ref {
			if s := x.where[id]; x.lists[s.cell].ids[s.row] != id || int(s.cell) != x.nearest(v) {
				t.Fatalf("%s: id %d misplaced", stage, id)
			}
		}
	}
	same("after delete and replace")
	// Retraining with other centroids moves the stored vectors.
	if err := x.TrainWith(synth.Sphere(rng, 500, 16).Data, KMeansOptions{MaxIter: 5}); err != nil {
		t.Fatal(err)
	}
	same("after retraining")
}

func TestIVFUntrainedAndErrors(t *testing.T) {
	x := NewIVF(4, 3, nil)
	if x.Trained() || x.Centroids() != nil {
		t.Fatal("new index reports centroids")
	}
	if err := x.Add(1, []float32{1, 0, 0, 0}); !errors.Is(err, ErrNotTrained) {
		t.Fatalf("Add before Train: %v, want ErrNotTrained", err)
	}
	if got, c := x.Search([]float32{1, 0, 0, 0}, 5, 1); got != nil || c != 0 {
		t.Fatalf("untrained Search: %v, %d", got, c)
	}
	if err := x.Train(make([]float32, 7)); err == nil {
		t.Fatal("Train on ragged data: no error")
	}
	if err := x.Train(make([]float32, 8)); err == nil {
		t.Fatal("Train on 2 rows for 3 cells: no error")
	}
	if err := x.Train([]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}); err != nil {
		t.Fatal(err)
	}
	var de *DimensionError
	if err := x.Add(1, []float32{1, 2}); !errors.As(err, &de) || de.Want != 4 || de.Got != 2 {
		t.Fatalf("Add of a 2-d vector: %v", err)
	}
	if got, c := x.Search([]float32{1, 0, 0, 0}, 5, 1); got != nil || c != 3 {
		t.Fatalf("empty trained index: %v, compared %d", got, c)
	}
}

// Run with -race.
func TestIVFConcurrent(t *testing.T) {
	x, _, _, queries := newTestIVF(t, 800, 8, 8, 5)
	var wg sync.WaitGroup
	for w := range max(4, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 2))
			for i := range 200 {
				switch i % 3 {
				case 0:
					if err := x.Add(uint64(1000+w*1000+i), gaussVector(r, 8)); err != nil {
						t.Error(err)
					}
				case 1:
					x.Delete(uint64(r.IntN(800)))
				default:
					res, _ := x.Search(queries.Row(i%queries.Rows), 10, 1+r.IntN(8))
					for j := 1; j < len(res); j++ {
						if before(res[j], res[j-1]) {
							t.Errorf("results out of order: %v", res)
						}
					}
				}
			}
		})
	}
	wg.Wait()
}

// BenchmarkIVFSearch: 100k × 384 clustered vectors, √n ≈ 316 cells trained
// on a 16k sample (the usual practice: k-means on a sample, then Add all).
func BenchmarkIVFSearch(b *testing.B) {
	data, queries := benchData(100_000)
	const cells = 316
	x := NewIVF(benchDim, cells, rand.New(rand.NewPCG(1, 1)))
	if err := x.TrainWith(data.Data[:16_000*benchDim], KMeansOptions{MaxIter: 20}); err != nil {
		b.Fatal(err)
	}
	for i := range data.Rows {
		x.Add(uint64(i), data.Row(i))
	}
	for _, np := range []int{1, 8, 32} {
		b.Run("100k/nprobe="+sizeName(np), func(b *testing.B) {
			i, compared := 0, 0
			for b.Loop() {
				_, c := x.Search(queries.Row(i%queries.Rows), 10, np)
				compared += c
				i++
			}
			b.ReportMetric(float64(compared)/float64(i), "compared/op")
		})
	}
}
