//go:build !race

// The numeric tests (recall over the shared fixtures, the int8 path
// against brute force) are built only without the race detector, which
// slows the inner-product loops about twentyfold and finds nothing in a
// test with one goroutine; scripts/test runs ./vector without -race after
// the race pass, and the *Concurrent tests are the ones -race is for.

package vector

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fonte-rag/fonte/synth"
)

// flat8Case is a data set: vectors by id and queries.
type flat8Case struct {
	name    string
	dim     int
	vecs    map[uint64][]float32
	queries [][]float32
}

// flat8Cases builds random and adversarial data sets.
func flat8Cases(rng *rand.Rand) []flat8Case {
	var cases []flat8Case
	add := func(name string, dim int, rows [][]float32, queries [][]float32) {
		vecs := make(map[uint64][]float32, len(rows))
		// Ids in random order with gaps, so that id order is not row
		// order.
		for i, p := range rng.Perm(len(rows)) {
			vecs[uint64(p*3+1)] = rows[i]
		}
		cases = append(cases, flat8Case{name, dim, vecs, queries})
	}
	gauss := func(n, dim int) [][]float32 {
		out := make([][]float32, n)
		for i := range out {
			out[i] = gaussVector(rng, dim)
		}
		return out
	}

	// Random data at dimensions around the kernels' 64-byte rows, and
	// tiny indexes, down to one vector.
	for _, dim := range []int{1, 3, 13, 63, 64, 65, 384} {
		for _, n := range []int{1, 2, 7, 300} {
			add(fmt.Sprintf("gauss/dim=%d/n=%d", dim, n), dim, gauss(n, dim), gauss(4, dim))
		}
	}

	// Clustered 384-d data, as in the benchmarks, more than one block.
	mix := synth.NewMixture(rng, 10, 384, 0.5)
	add("clustered", 384, mix.Sample(rng, 700).Slices(), mix.Sample(rng, 6).Slices())

	// Near-ties: one vector and copies nudged by a few units in the last
	// place, so float32 scores differ in their last bits and int8 codes
	// not at all; and exact duplicates under other ids.
	{
		const dim = 48
		base := gaussVector(rng, dim)
		var rows [][]float32
		for range 200 {
			v := append([]float32(nil), base...)
			for range 3 {
				j := rng.IntN(dim)
				for range rng.IntN(4) + 1 {
					v[j] = math.Nextafter32(v[j], float32(math.Inf(1-2*rng.IntN(2))))
				}
			}
			rows = append(rows, v)
		}
		for range 50 {
			rows = append(rows, base)
		}
		rows = append(rows, gauss(300, dim)...)
		add("near-ties", dim, rows, [][]float32{base, gaussVector(rng, dim), rows[0]})
	}

	// Exact ties everywhere: coordinates in {-1, 0, 1}.
	{
		const dim = 20
		rows := make([][]float32, 600)
		for i := range rows {
			rows[i] = tieVector(rng, dim)
		}
		add("ties", dim, rows, [][]float32{tieVector(rng, dim), rows[5], make([]float32, dim)})
	}

	// Quantisation at its worst: one large coordinate and small ones
	// (all but one code round to zero), norms from 1e-30 to 1e15,
	// subnormal values, zero vectors, and queries of the same kinds.
	{
		const dim = 40
		var rows [][]float32
		for i := range 400 {
			v := gaussVector(rng, dim)
			switch i % 5 {
			case 0:
				v[rng.IntN(dim)] = 300
			case 1:
				s := float32(math.Pow(10, float64(rng.IntN(46)-30)))
				for j := range v {
					v[j] *= s
				}
			case 2:
				for j := range v {
					v[j] = float32(math.Ldexp(float64(rng.IntN(9)-4), -140))
				}
			case 3:
				if i%15 == 3 {
					clear(v)
				}
			}
			rows = append(rows, v)
		}
		spiky := gaussVector(rng, dim)
		spiky[0] = 1000
		add("quantisation", dim, rows, [][]float32{gaussVector(rng, dim), spiky, rows[2], rows[1], make([]float32, dim)})
	}
	return cases
}

func TestFlatInt8PathMatchesBruteForce(t *testing.T) {
	defer forceInt8Path()()
	rng := rand.New(rand.NewPCG(31, 32))
	cases := flat8Cases(rng)
	for _, lv := range int8Levels() {
		for _, tc := range cases {
			t.Run(lv.name+"/"+tc.name, func(t *testing.T) {
				withInt8Level(lv, func() {
					f := NewFlat(tc.dim)
					for id, v := range tc.vecs {
						if err := f.Add(id, v); err != nil {
							t.Fatal(err)
						}
					}
					checkFlat8(t, f, tc.vecs, tc.queries, rng)
				})
			})
		}
	}
}

func TestHNSWRecall(t *testing.T) {
	for _, name := range []string{"20k×64", "10k×384"} {
		t.Run(name, func(t *testing.T) {
			fx := sharedFixture(t, name)
			row := func(id uint64) []float32 { return fx.data.Row(int(id)) }
			all := func(uint64) bool { return true }
			r := recall(fx, fx.truth, func(q []float32) []Result {
				got := fx.h.Search(q, 10)
				checkResults(t, fx.h, row, q, got, all)
				if len(got) != 10 {
					t.Fatalf("%d results, want 10", len(got))
				}
				return got
			})
			t.Logf("recall@10 at default ef %d: %.4f", DefaultEfSearch, r)
			if r < 0.95 {
				t.Errorf("recall@10 %.4f at default ef, want ≥ 0.95", r)
			}
			// ef is the knob: more of it never costs recall here.
			lo := recall(fx, fx.truth, func(q []float32) []Result { return fx.h.SearchEf(q, 10, 10) })
			hi := recall(fx, fx.truth, func(q []float32) []Result { return fx.h.SearchEf(q, 10, 256) })
			t.Logf("recall@10 at ef 10: %.4f, at ef 256: %.4f", lo, hi)
			if lo > r || r > hi || hi < 0.99 {
				t.Errorf("recall by ef 10/64/256: %.4f %.4f %.4f, want increasing to ≥ 0.99", lo, r, hi)
			}
			checkGraph(t, fx.h)
		})
	}
}

func TestHNSWQuantized(t *testing.T) {
	fx := sharedFixture(t, "10k×384")
	q := quantizedCopy(fx.h)
	if q.codec == nil || len(q.codes) != len(q.ids)*q.codeW {
		t.Fatal("no codes")
	}
	row := func(id uint64) []float32 { return fx.data.Row(int(id)) }
	all := func(uint64) bool { return true }
	r := recall(fx, fx.truth, func(qv []float32) []Result {
		got := q.Search(qv, 10)
		checkResults(t, q, row, qv, got, all) // re-ranked: exact scores
		return got
	})
	t.Logf("int8 recall@10 at default ef: %.4f", r)
	if r < 0.95 {
		t.Errorf("int8 recall %.4f, want ≥ 0.95", r)
	}

	// Built with Quantize from the start: codes appear at quantizeMin
	// vectors and are refitted as the index doubles.
	data := synth.Clustered(rand.New(rand.NewPCG(6, 6)), 2500, 40, 20, 1)
	h := NewHNSW(40, HNSWOptions{M: 8, EfConstruction: 40, Quantize: true})
	for i := range data.Rows {
		h.Add(uint64(i), data.Row(i))
		switch i + 1 {
		case quantizeMin - 1:
			if h.codec != nil {
				t.Fatal("codec fitted before quantizeMin vectors")
			}
		case quantizeMin, 2*quantizeMin - 1:
			if h.fitAt != quantizeMin {
				t.Fatalf("at %d vectors fitted at %d", i+1, h.fitAt)
			}
		case 2 * quantizeMin:
			if h.fitAt != 2*quantizeMin {
				t.Fatalf("not refitted at %d vectors", i+1)
			}
		}
	}
	if len(h.codes) != len(h.ids)*h.codeW {
		t.Fatalf("%d code words for %d nodes", len(h.codes), len(h.ids))
	}
	if got := h.Search(data.Row(3), 1); got[0].ID != 3 {
		t.Fatalf("quantized search for a stored vector: %v", got)
	}
}

// TestFlatInt8Recall: without the float32 vectors, the int8 scores must
// still find at least 95% of the exact top 10 on clustered 384-d data.
func TestFlatInt8Recall(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	mix := synth.NewMixture(rng, 200, benchDim, 0.5)
	data := mix.Sample(rng, 20000)
	f, g := NewFlat(benchDim), NewFlatInt8(benchDim, FlatInt8Options{})
	for i := range data.Rows {
		f.Add(uint64(i), data.Row(i))
		g.Add(uint64(i), data.Row(i))
	}
	qs := mix.Sample(rng, 200).Slices()
	recall := flat8Recall(f, g, qs, 10)
	t.Logf("int8 recall@10 on 20k × 384 clustered: %.4f", recall)
	if recall < 0.95 {
		t.Fatalf("recall@10 %.4f, want at least 0.95", recall)
	}
	// Scores are approximations of the exact ones.
	for _, q := range qs[:10] {
		for _, r := range g.Search(q, 5) {
			if d := math.Abs(float64(r.Score) - dot64(q, data.Row(int(r.ID)))); d > 0.01 {
				t.Fatalf("int8 score %v off the exact one by %v", r.Score, d)
			}
		}
	}
}

// TestIVFRecallSeed000 runs the seed's approximate-index experiment with
// the product code and checks the shape EXPECTED.md asks for. The seed's
// numpy figures (0.505 … 0.902 … 1.000) cannot be replayed; fonte's own
// generator with seed 0 gives a curve of the same shape.
func TestIVFRecallSeed000(t *testing.T) {
	cfg := Seed000()
	rows, err := IVFRecallExperiment(0, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(cfg.NProbes) {
		t.Fatalf("%d rows for %d n_probe values", len(rows), len(cfg.NProbes))
	}
	t.Logf("%14s %24s %7s %10s", "cells visited", "vectors compared (mean)", "share", "recall@10")
	for _, r := range rows {
		t.Logf("%14d %24.0f %6.1f%% %10.3f", r.NProbe, r.Compared, 100*r.Share, r.Recall)
	}
	byProbe := map[int]ProbeRecall{}
	for i, r := range rows {
		byProbe[r.NProbe] = r
		if i > 0 && r.Recall < rows[i-1].Recall {
			t.Errorf("recall falls from %.3f at n_probe %d to %.3f at %d", rows[i-1].Recall, rows[i-1].NProbe, r.Recall, r.NProbe)
		}
		if i > 0 && r.Compared <= rows[i-1].Compared {
			t.Errorf("work does not grow with n_probe: %.0f then %.0f", rows[i-1].Compared, r.Compared)
		}
	}
	if r := byProbe[100]; r.Recall != 1 || r.Compared != float64(cfg.N+cfg.Cells) {
		t.Errorf("all 100 cells: recall %v compared %v, want exactly 1 and %d", r.Recall, r.Compared, cfg.N+cfg.Cells)
	}
	if byProbe[32].Recall <= byProbe[1].Recall {
		t.Errorf("recall at 32 cells %.3f not above recall at 1 cell %.3f", byProbe[32].Recall, byProbe[1].Recall)
	}
	if r := byProbe[1].Recall; r < 0.35 || r > 0.7 {
		t.Errorf("recall at 1 cell %.3f, want roughly 0.5 (0.35–0.7)", r)
	}
	if r := byProbe[16].Recall; r < 0.8 || r > 0.97 {
		t.Errorf("recall at 16 cells %.3f, want roughly 0.9 (0.8–0.97)", r)
	}
	// Each cell holds about 1% of the vectors: one probe compares roughly
	// 200 vectors plus the 100 centroids.
	if c := byProbe[1].Compared; c < 200 || c > 600 {
		t.Errorf("one cell compares %.0f vectors, want a few hundred", c)
	}
}
