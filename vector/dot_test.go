package vector

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/fonte-rag/fonte/synth"
)

// Kernel tests. The assembly kernels are checked against the pure-Go
// kernel within float32 rounding, against each other bit for bit (AVX2 and
// AVX-512 follow one order of arithmetic), and every entry point (Dot, the
// many-rows kernel, the batch tile) against Dot bit for bit, since the
// indexes' exactness rests on that. Tests that switch levels must not run
// in parallel.

// levels returns the kernel levels this machine can run, generic first.
func levels() []int {
	var out []int
	for lv := levelGeneric; lv <= bestLevel; lv++ {
		out = append(out, lv)
	}
	return out
}

func levelName(lv int) string {
	return [...]string{"generic", "avx2", "avx512"}[lv]
}

// setLevel switches the kernels and returns the function that restores
// them.
func setLevel(lv int) func() {
	old := kernelLevel
	kernelLevel = lv
	return func() { kernelLevel = old }
}

// dotTolerance bounds |a - b| for two float32 inner products of vectors
// whose products have absolute sum mag, each computed with at most
// n/4+32 roundings in a chain (see FlatInt8.errorBound).
func dotTolerance(n int, mag float64) float64 {
	return 2*float64(n/4+32)*math.Ldexp(1, -24)*mag + 1e-30
}

// randVec draws n standard normal values at offset off of a fresh
// slice, so the kernels also see addresses that are not 32-byte aligned.
func randVec(rng *rand.Rand, n, off int) []float32 {
	buf := make([]float32, n+off)
	v := buf[off:]
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

func TestDotKernelsMatchGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, lv := range levels()[1:] {
		t.Run(levelName(lv), func(t *testing.T) {
			defer setLevel(lv)()
			for n := 0; n <= 1000; n++ {
				for off := range 4 {
					a, b := randVec(rng, n, off), randVec(rng, n, 3-off)
					var want, mag float64
					for i := range a {
						want += float64(a[i]) * float64(b[i])
						mag += math.Abs(float64(a[i]) * float64(b[i]))
					}
					got, gen := Dot(a, b), dotGeneric(a, b)
					if d := math.Abs(float64(got) - float64(gen)); d > dotTolerance(n, mag) {
						t.Fatalf("n=%d off=%d: %s %v, generic %v (diff %g, magnitude %g)", n, off, levelName(lv), got, gen, d, mag)
					}
					if d := math.Abs(float64(got) - want); d > dotTolerance(n, mag)/2 {
						t.Fatalf("n=%d off=%d: %s %v, float64 %v", n, off, levelName(lv), got, want)
					}
				}
			}
		})
	}
}

// TestDotEntryPointsAgree checks, at every level, that dotRows and dotQuad
// give Dot's bits for every row and query, leave the output past the rows
// untouched, and that AVX2 and AVX-512 give the same bits.
func TestDotEntryPointsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	dims := []int{1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 383, 384, 385, 1000}
	for _, dim := range dims {
		qs := make([][]float32, quadQueries)
		for j := range qs {
			qs[j] = randVec(rng, dim, j%3)
		}
		const maxRows = 13
		data := randVec(rng, maxRows*dim, 1)
		ref := map[[2]int]float32{} // (query, row) -> bits at the best level
		for _, lv := range levels() {
			restore := setLevel(lv)
			for nr := 0; nr <= maxRows; nr++ {
				rows := data[:nr*dim]
				for j, q := range qs {
					out := make([]float32, nr+2)
					out[nr], out[nr+1] = -7, -7
					dotRows(q, rows, out[:nr])
					for r := range nr {
						want := Dot(q, rows[r*dim:(r+1)*dim])
						if math.Float32bits(out[r]) != math.Float32bits(want) {
							t.Fatalf("%s dim=%d nr=%d: dotRows[%d] = %v, Dot %v", levelName(lv), dim, nr, r, out[r], want)
						}
						if lv >= levelAVX2 {
							if old, ok := ref[[2]int{j, r}]; ok && math.Float32bits(old) != math.Float32bits(want) {
								t.Fatalf("dim=%d: %s gives %v, another assembly level %v", dim, levelName(lv), want, old)
							}
							ref[[2]int{j, r}] = want
						}
					}
					if out[nr] != -7 || out[nr+1] != -7 {
						t.Fatalf("%s dim=%d nr=%d: dotRows wrote past its rows", levelName(lv), dim, nr)
					}
				}
				for nq := 1; nq <= quadQueries; nq++ {
					quad := make([]float32, quadLen(dim))
					packQuad(quad, qs[:nq], dim)
					ldo := nr + 3
					out := make([]float32, quadQueries*ldo)
					for i := range out {
						out[i] = -7
					}
					dotQuad(quad, rows, dim, nr, out, ldo)
					for j := range quadQueries {
						for r := range ldo {
							got := out[j*ldo+r]
							if r >= nr {
								if got != -7 {
									t.Fatalf("%s dim=%d nr=%d: dotQuad wrote past its rows", levelName(lv), dim, nr)
								}
								continue
							}
							want := float32(0)
							if j < nq {
								want = Dot(qs[j], rows[r*dim:(r+1)*dim])
							}
							if math.Float32bits(got) != math.Float32bits(want) && !(got == 0 && want == 0) {
								t.Fatalf("%s dim=%d nq=%d nr=%d: dotQuad[%d][%d] = %v, Dot %v", levelName(lv), dim, nq, nr, j, r, got, want)
							}
						}
					}
				}
			}
			restore()
		}
	}
}

func TestFirstGE(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, lv := range levels() {
		defer setLevel(lv)()
		for n := range 100 {
			s := randVec(rng, n, n%3)
			for range 20 {
				thr := float32(rng.NormFloat64() * 2)
				if rng.IntN(4) == 0 && n > 0 {
					thr = s[rng.IntN(n)] // equality counts
				}
				want := len(s)
				for i, x := range s {
					if x >= thr {
						want = i
						break
					}
				}
				if got := firstGE(s, thr); got != want {
					t.Fatalf("%s n=%d thr=%v: firstGE %d, want %d", levelName(lv), n, thr, got, want)
				}
			}
		}
	}
}

// TestFlatExactAtEveryLevel compares Flat's results, at every kernel
// level, with a float64 brute force: the ids must agree rank by rank,
// except that two vectors whose float64 scores are within 1e-6 may come in
// either order. Search must also match the bruteForce of helpers_test.go
// (same kernel, exact ties by id) exactly, and SearchBatch Search.
func TestFlatExactAtEveryLevel(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	const dim, n = 100, 3000
	mix := synth.NewMixture(rng, 20, dim, 0.5)
	data := mix.Sample(rng, n)
	vecs := map[uint64][]float32{}
	for i := range n {
		vecs[uint64(i*3+1)] = data.Row(i)
	}
	for i := range 10 { // duplicates: exact ties
		vecs[uint64(100000+i)] = data.Row(7)
	}
	queries := append(mix.Sample(rng, 40).Slices(), data.Row(7))
	for _, lv := range levels() {
		t.Run(levelName(lv), func(t *testing.T) {
			defer setLevel(lv)()
			f := NewFlat(dim)
			for id, v := range vecs {
				if err := f.Add(id, v); err != nil {
					t.Fatal(err)
				}
			}
			for _, k := range []int{1, 10, 50} {
				batch := f.SearchBatch(queries, k)
				for qi, q := range queries {
					got := f.Search(q, k)
					if !equalResults(got, bruteForce(vecs, q, k)) {
						t.Fatalf("k=%d query %d: Search differs from bruteForce", k, qi)
					}
					if !equalResults(batch[qi], got) {
						t.Fatalf("k=%d query %d: SearchBatch differs from Search", k, qi)
					}
					want := bruteForce64(vecs, q, k)
					for i := range got {
						if got[i].ID == want[i].ID {
							continue
						}
						a, b := dot64(q, vecs[got[i].ID]), dot64(q, vecs[want[i].ID])
						if math.Abs(a-b) > 1e-6 {
							t.Fatalf("k=%d query %d rank %d: id %d (%.9f), float64 reference %d (%.9f)", k, qi, i, got[i].ID, a, want[i].ID, b)
						}
					}
				}
			}
		})
	}
}

func dot64(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// bruteForce64 ranks vecs by float64 inner product with q, ties by id.
func bruteForce64(vecs map[uint64][]float32, q []float32, k int) []Result {
	type scored struct {
		id uint64
		s  float64
	}
	all := make([]scored, 0, len(vecs))
	for id, v := range vecs {
		all = append(all, scored{id, dot64(q, v)})
	}
	sort.Slice(all, func(i, j int) bool {
		return all[i].s > all[j].s || (all[i].s == all[j].s && all[i].id < all[j].id)
	})
	out := make([]Result, 0, k)
	for _, x := range all[:min(k, len(all))] {
		out = append(out, Result{ID: x.id, Score: float32(x.s)})
	}
	return out
}

// FuzzDotKernels feeds arbitrary lengths and values to every kernel: each
// level must stay within rounding of the generic kernel, and dotRows and
// dotQuad must give Dot's bits.
func FuzzDotKernels(f *testing.F) {
	f.Add([]byte{}, uint8(0))
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8}, uint8(3))
	f.Add(make([]byte, 8*40), uint8(200))
	f.Fuzz(func(t *testing.T, raw []byte, shift uint8) {
		// Two bytes per value, a signed 16-bit integer scaled by a power
		// of two: finite values over a wide range, with exact ties.
		vals := make([]float32, len(raw)/2)
		e := int(shift%40) - 20
		for i := range vals {
			vals[i] = float32(math.Ldexp(float64(int16(binary.LittleEndian.Uint16(raw[2*i:]))), e))
		}
		n := len(vals) / 2
		a, b := vals[:n], vals[n:2*n]
		var mag float64
		for i := range a {
			mag += math.Abs(float64(a[i]) * float64(b[i]))
		}
		if math.IsInf(mag, 0) || mag > 1e30 {
			return
		}
		gen := dotGeneric(a, b)
		for _, lv := range levels() {
			restore := setLevel(lv)
			got := Dot(a, b)
			if d := math.Abs(float64(got) - float64(gen)); d > dotTolerance(n, mag) {
				t.Fatalf("%s n=%d: %v, generic %v", levelName(lv), n, got, gen)
			}
			rows := slices.Concat(b, a, b)
			out := make([]float32, 3)
			dotRows(a, rows, out)
			want := []float32{got, Dot(a, a), got}
			for r := range out {
				if math.Float32bits(out[r]) != math.Float32bits(want[r]) {
					t.Fatalf("%s n=%d: dotRows[%d] %v, Dot %v", levelName(lv), n, r, out[r], want[r])
				}
			}
			if n > 0 {
				quad := make([]float32, quadLen(n))
				packQuad(quad, [][]float32{a, b, a}, n)
				qo := make([]float32, quadQueries*3)
				dotQuad(quad, rows, n, 3, qo, 3)
				for r := range 3 {
					if math.Float32bits(qo[r]) != math.Float32bits(want[r]) || math.Float32bits(qo[6+r]) != math.Float32bits(want[r]) {
						t.Fatalf("%s n=%d: dotQuad row %d %v/%v, Dot %v", levelName(lv), n, r, qo[r], qo[6+r], want[r])
					}
				}
			}
			restore()
		}
	})
}

func BenchmarkDotLevels(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y := gaussVector(rng, benchDim), gaussVector(rng, benchDim)
	for _, lv := range levels() {
		b.Run(levelName(lv), func(b *testing.B) {
			defer setLevel(lv)()
			b.SetBytes(8 * benchDim)
			var s float32
			for b.Loop() {
				s += Dot(x, y)
			}
			sink = s
		})
	}
}

// flatBench returns the 100k × 384 benchmark index and its queries.
func flatBench(b *testing.B) (*Flat, synth.Matrix) {
	data, queries := benchData(100_000)
	f := NewFlat(benchDim)
	for i := range data.Rows {
		f.Add(uint64(i), data.Row(i))
	}
	return f, queries
}

// BenchmarkFlatSearch100k is a single query, k = 10, over 100k × 384
// clustered vectors, at every kernel level; run it with -cpu 1 for the
// single-thread figure.
func BenchmarkFlatSearch100k(b *testing.B) {
	f, queries := flatBench(b)
	for _, lv := range levels() {
		b.Run(levelName(lv), func(b *testing.B) {
			defer setLevel(lv)()
			i := 0
			for b.Loop() {
				f.Search(queries.Row(i%queries.Rows), 10)
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "QPS")
		})
	}
}

// BenchmarkFlatSearchBatch1000 is SearchBatch of 1,000 queries, k = 10,
// over 100k × 384 vectors; it reports the time per query and the QPS.
func BenchmarkFlatSearchBatch1000(b *testing.B) {
	f, queries := flatBench(b)
	qs := queries.Slices()
	for _, lv := range levels() {
		b.Run(levelName(lv), func(b *testing.B) {
			defer setLevel(lv)()
			for b.Loop() {
				f.SearchBatch(qs, 10)
			}
			perQuery := b.Elapsed().Seconds() / float64(b.N*len(qs))
			b.ReportMetric(perQuery*1e9, "ns/query")
			b.ReportMetric(1/perQuery, "QPS")
		})
	}
}
