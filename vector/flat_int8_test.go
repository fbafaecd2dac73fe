package vector

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte/synth"
)

// int8Levels returns the int8 kernels this machine can run, as (name,
// kernel level, VNNI) triples: the generic kernel, the AVX2 sign trick,
// and AVX-512 VNNI.
func int8Levels() []int8Level {
	out := []int8Level{{"generic", levelGeneric, false}}
	if bestLevel >= levelAVX2 {
		out = append(out, int8Level{"avx2", levelAVX2, false})
	}
	if bestLevel >= levelAVX512 && hasVNNI {
		out = append(out, int8Level{"vnni", levelAVX512, true})
	}
	return out
}

type int8Level struct {
	name  string
	level int
	vnni  bool
}

// TestDotInt8FlatKernelsAgree checks every int8 kernel against the exact
// integer inner product on random codes, extreme codes included, for many
// dimensions and row counts: integer sums are exact, so all kernels must
// give the same bits.
func TestDotInt8FlatKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, dim := range []int{1, 5, 63, 64, 65, 100, 128, 200, 384, 385, 1000} {
		stride := (dim + 63) &^ 63
		for nr := 0; nr <= 9; nr++ {
			codes := make([]int8, nr*stride)
			scale := make([]float32, nr)
			csum := make([]int32, nr)
			for r := range nr {
				for i := range dim {
					c := int8(rng.IntN(255) - 127)
					if r == 0 {
						c = 127 // the largest products
					} else if r == 1 {
						c = -127
					}
					codes[r*stride+i] = c
					csum[r] += int32(c)
				}
				scale[r] = float32(rng.Float64() + 0.01)
			}
			q := flat8Query{codes: make([]int8, stride), u: make([]uint8, stride), scale: 0.37}
			for i := range dim {
				q.codes[i] = int8(rng.IntN(255) - 127)
				if nr%2 == 1 {
					q.codes[i] = int8(-127 + 254*(i%2))
				}
			}
			for i, c := range q.codes {
				q.u[i] = uint8(int(c) + 128)
			}
			want := make([]float32, nr)
			for r := range nr {
				var acc int32
				for i := range dim {
					acc += int32(q.codes[i]) * int32(codes[r*stride+i])
				}
				want[r] = float32(float32(acc)*scale[r]) * q.scale
			}
			for _, lv := range int8Levels() {
				restore := setLevel(lv.level)
				vnni := hasVNNI
				hasVNNI = lv.vnni
				out := make([]float32, nr+1)
				out[nr] = -7
				dotInt8FlatRows(&q, codes, stride, scale, csum, out[:nr])
				hasVNNI = vnni
				restore()
				for r := range nr {
					if math.Float32bits(out[r]) != math.Float32bits(want[r]) {
						t.Fatalf("%s dim=%d nr=%d row %d: %v, want %v", lv.name, dim, nr, r, out[r], want[r])
					}
				}
				if out[nr] != -7 {
					t.Fatalf("%s dim=%d nr=%d: wrote past the rows", lv.name, dim, nr)
				}
			}
		}
	}
}

func TestFlat8Quantize(t *testing.T) {
	codes := make([]int8, 64)
	if q := flat8Quantize(make([]float32, 5), codes); q.scale != 0 || q.err != 0 || q.norm != 0 {
		t.Fatalf("zero vector: %+v", q)
	}
	tiny := []float32{1e-44, -3e-45}
	if q := flat8Quantize(tiny, codes); q.scale != 0 || codes[0] != 0 || q.err < 1e-44 {
		t.Fatalf("underflowing scale: %+v codes %v", q, codes[:2])
	}
	v := []float32{1, -0.5, 0.25, -1, 0.001}
	q := flat8Quantize(v, codes)
	if codes[0] != 127 || codes[3] != -127 || codes[1] != -64 || codes[4] != 0 {
		t.Fatalf("codes %v", codes[:5])
	}
	for i := 5; i < 64; i++ {
		if codes[i] != 0 {
			t.Fatal("padding not zero")
		}
	}
	var ee, nn float64
	var sum int32
	for i, x := range v {
		y := float64(q.scale) * float64(codes[i])
		ee += (float64(x) - y) * (float64(x) - y)
		nn += y * y
		sum += int32(codes[i])
	}
	if q.err < math.Sqrt(ee) || q.norm < math.Sqrt(nn) || q.sum != sum {
		t.Fatalf("bounds %+v below the errors %v %v or wrong sum %d", q, math.Sqrt(ee), math.Sqrt(nn), sum)
	}
}

// TestFlatInt8ExactMatchesFlat: with KeepFloat the int8 index must return
// exactly Flat's results, ids, scores and order, at every kernel level,
// including ties (duplicate vectors and {-1, 0, 1} vectors) and after
// replacements and deletions.
func TestFlatInt8ExactMatchesFlat(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	const dim = 77
	mix := synth.NewMixture(rng, 15, dim, 0.5)
	data := mix.Sample(rng, 3000)
	for _, lv := range int8Levels() {
		t.Run(lv.name, func(t *testing.T) {
			defer setLevel(lv.level)()
			vnni := hasVNNI
			hasVNNI = lv.vnni
			defer func() { hasVNNI = vnni }()
			f, g := NewFlat(dim), NewFlatInt8(dim, FlatInt8Options{KeepFloat: true})
			add := func(id uint64, v []float32) {
				if err := f.Add(id, v); err != nil {
					t.Fatal(err)
				}
				if err := g.Add(id, v); err != nil {
					t.Fatal(err)
				}
			}
			for i := range data.Rows {
				add(uint64(i*5+2), data.Row(i))
			}
			for i := range 30 {
				add(uint64(50000+i), data.Row(3)) // exact ties
				add(uint64(60000+i), tieVector(rng, dim))
			}
			check := func(stage string) {
				t.Helper()
				if f.Len() != g.Len() {
					t.Fatalf("%s: Len %d, Flat %d", stage, g.Len(), f.Len())
				}
				qs := append(mix.Sample(rng, 30).Slices(), data.Row(3), tieVector(rng, dim), make([]float32, dim))
				for _, k := range []int{1, 10, 64, f.Len() + 1} {
					batch := g.SearchBatch(qs, k)
					for qi, q := range qs {
						want := f.Search(q, k)
						if got := g.Search(q, k); !equalResults(got, want) {
							t.Fatalf("%s k=%d query %d:\n got %v\nwant %v", stage, k, qi, got[:min(5, len(got))], want[:min(5, len(want))])
						}
						if !equalResults(batch[qi], want) {
							t.Fatalf("%s k=%d query %d: SearchBatch differs", stage, k, qi)
						}
					}
				}
			}
			check("after adds")
			for i := range data.Rows {
				id := uint64(i*5 + 2)
				switch i % 4 {
				case 0:
					v := mix.Sample(rng, 1).Row(0)
					add(id, v)
				case 1:
					if !f.Delete(id) || !g.Delete(id) {
						t.Fatalf("Delete(%d) reported false", id)
					}
				}
			}
			if g.Delete(1) {
				t.Fatal("Delete of an absent id reported true")
			}
			check("after replace and delete")
		})
	}
}

// flat8Recall is the mean recall@k of g's results against f's.
func flat8Recall(f *Flat, g *FlatInt8, qs [][]float32, k int) float64 {
	var hit, total int
	for _, q := range qs {
		want := map[uint64]bool{}
		for _, r := range f.Search(q, k) {
			want[r.ID] = true
		}
		for _, r := range g.Search(q, k) {
			if want[r.ID] {
				hit++
			}
		}
		total += len(want)
	}
	return float64(hit) / float64(total)
}

func TestFlatInt8Errors(t *testing.T) {
	g := NewFlatInt8(8, FlatInt8Options{})
	if got := g.Search(make([]float32, 8), 3); got != nil {
		t.Fatalf("empty index returned %v", got)
	}
	var de *DimensionError
	if err := g.Add(1, make([]float32, 3)); !errors.As(err, &de) {
		t.Fatalf("short vector: %v", err)
	}
	v := make([]float32, 8)
	v[2] = float32(math.Inf(1))
	if err := g.Add(1, v); !errors.Is(err, ErrNotFinite) {
		t.Fatalf("infinite vector: %v", err)
	}
	g.Add(5, []float32{0, 1, 0, 0, 0, 0, 0, 0})
	g.Add(4, []float32{0, 1, 0, 0, 0, 0, 0, 0})
	got := g.Search([]float32{0, 1, 0, 0, 0, 0, 0, 0}, 0)
	if got != nil {
		t.Fatalf("k=0 returned %v", got)
	}
	got = g.Search([]float32{0, 1, 0, 0, 0, 0, 0, 0}, 5)
	if len(got) != 2 || got[0].ID != 4 || got[1].ID != 5 || got[0].Score != got[1].Score {
		t.Fatalf("tie not broken by id: %v", got)
	}
	defer func() {
		if _, ok := recover().(*DimensionError); !ok {
			t.Fatal("a short query did not panic with *DimensionError")
		}
	}()
	g.Search([]float32{1}, 1)
}

func flat8Bench(b *testing.B, keep bool) (*Flat, *FlatInt8, synth.Matrix) {
	f, queries := flatBench(b)
	data, _ := benchData(100_000)
	g := NewFlatInt8(benchDim, FlatInt8Options{KeepFloat: keep})
	for i := range data.Rows {
		g.Add(uint64(i), data.Row(i))
	}
	return f, g, queries
}

// BenchmarkFlatInt8Search100k is a single query, k = 10, over 100k × 384
// vectors: "approx" holds codes only and reports its recall@10 against
// Flat, "exact" keeps the float32 vectors and returns Flat's results.
func BenchmarkFlatInt8Search100k(b *testing.B) {
	for _, keep := range []bool{false, true} {
		f, g, queries := flat8Bench(b, keep)
		name := map[bool]string{false: "approx", true: "exact"}[keep]
		b.Run(name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				g.Search(queries.Row(i%queries.Rows), 10)
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "QPS")
			b.StopTimer()
			b.ReportMetric(flat8Recall(f, g, queries.Slices()[:100], 10), "recall@10")
		})
	}
}

// BenchmarkFlatInt8SearchBatch1000 is SearchBatch of 1,000 queries.
func BenchmarkFlatInt8SearchBatch1000(b *testing.B) {
	for _, keep := range []bool{false, true} {
		_, g, queries := flat8Bench(b, keep)
		qs := queries.Slices()
		name := map[bool]string{false: "approx", true: "exact"}[keep]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				g.SearchBatch(qs, 10)
			}
			perQuery := b.Elapsed().Seconds() / float64(b.N*len(qs))
			b.ReportMetric(perQuery*1e9, "ns/query")
			b.ReportMetric(1/perQuery, "QPS")
		})
	}
}

// Run with -race: searches, batch searches, adds and deletes at once.
func TestFlatInt8Concurrent(t *testing.T) {
	const dim = 40
	for _, keep := range []bool{false, true} {
		g := NewFlatInt8(dim, FlatInt8Options{KeepFloat: keep})
		rng := rand.New(rand.NewPCG(27, 28))
		for i := range 300 {
			g.Add(uint64(i), gaussVector(rng, dim))
		}
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(w), 2))
				for i := range 100 {
					switch i % 4 {
					case 0:
						if err := g.Add(uint64(300+w*1000+i), gaussVector(r, dim)); err != nil {
							t.Error(err)
						}
					case 1:
						g.Delete(uint64(r.IntN(300)))
					case 2:
						g.SearchBatch([][]float32{gaussVector(r, dim), gaussVector(r, dim)}, 5)
					default:
						res := g.Search(gaussVector(r, dim), 10)
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
}
