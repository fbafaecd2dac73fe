package vector

import (
	"cmp"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// signFixture is a view over n Gaussian rows of dim values and the
// gathered set of its even rows, with their 1-bit copy.
func signFixture(t testing.TB, n, dim int) (*FlatView, *Gathered, *SignCodes) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]float32, 0, n*dim)
	for range n {
		data = append(data, gaussVector(rng, dim)...)
	}
	f, err := NewFlatView(dim, []FlatPart{{Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for i := 0; i < n; i += 2 {
		ids = append(ids, i)
	}
	g, err := f.Gather(ids)
	if err != nil {
		t.Fatal(err)
	}
	return f, g, f.SignCodes(g)
}

func BenchmarkSearchSigned(b *testing.B) {
	f, _, s := signFixture(b, 100_000, 384)
	q := gaussVector(rand.New(rand.NewPCG(3, 4)), 384)
	for b.Loop() {
		f.SearchSigned(q, 10, 2000, []*SignCodes{s}, nil)
	}
}

func BenchmarkSearchGatheredHalf(b *testing.B) {
	f, g, _ := signFixture(b, 100_000, 384)
	q := gaussVector(rand.New(rand.NewPCG(3, 4)), 384)
	for b.Loop() {
		f.SearchGathered(q, 10, []*Gathered{g}, nil)
	}
}

// clusteredRows draws n normalised rows of dim values around a few
// centres, as embeddings of a handful of topics lie.
func clusteredRows(rng *rand.Rand, n, dim, topics int) []float32 {
	centres := make([][]float32, topics)
	for i := range centres {
		centres[i] = gaussVector(rng, dim)
	}
	data := make([]float32, 0, n*dim)
	for range n {
		c := centres[rng.IntN(topics)]
		v := gaussVector(rng, dim)
		for i := range v {
			v[i] = c[i] + 0.6*v[i]
		}
		Normalize(v)
		data = append(data, v...)
	}
	return data
}

// TestSignDotsMatchesGo checks every kernel against the weighted
// popcounts of rows held one after another, the codes laid out in blocks
// (signWord), for row lengths below, at and past a register's 8 words.
// clusteredSets is a view over n clustered rows of dim values (data) and
// two gathered sets of them, every every-th row and the others, with
// their 1-bit copies.
func clusteredSets(t *testing.T, rng *rand.Rand, n, dim, every int) (*FlatView, []float32, []*Gathered, []*SignCodes) {
	data := clusteredRows(rng, n, dim, 20)
	f, err := NewFlatView(dim, []FlatPart{{Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	var a, b []int
	for i := range n {
		if i%every == 0 {
			a = append(a, i)
		} else {
			b = append(b, i)
		}
	}
	ga, _ := f.Gather(a)
	gb, _ := f.Gather(b)
	return f, data, []*Gathered{ga, gb}, []*SignCodes{f.SignCodes(ga), f.SignCodes(gb)}
}

func TestSignDotsMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, words := range []int{1, 2, 6, 8, 9, 12} {
		const rows = 40
		flat := make([]uint64, rows*words)
		planes := make([]uint64, 4*words)
		for i := range flat {
			flat[i] = rng.Uint64()
		}
		for i := range planes {
			planes[i] = rng.Uint64()
		}
		codes := make([]uint64, rows*words)
		want := make([]int32, rows)
		for r := range rows {
			for i := range words {
				x := flat[r*words+i]
				codes[signWord(r, i, words)] = x
				for j := range 4 {
					want[r] += int32(bits.OnesCount64(x&planes[4*i+j])) << j
				}
			}
		}
		for _, level := range levels() {
			got := make([]int32, rows)
			restore := setLevel(level)
			signDots(codes, planes, words, got)
			restore()
			for r := range got {
				if got[r] != want[r] {
					t.Fatalf("%s kernel, %d words, row %d: %d, want %d", levelName(level), words, r, got[r], want[r])
				}
			}
		}
	}
}

// TestSignEstimateKernels checks that every kernel's estimates agree
// with the Go ones (float32 against float64 arithmetic: to a few ulps of
// the terms) and that each marks exactly its rows at or above the
// threshold, a set's last block past its rows included.
func TestSignEstimateKernels(t *testing.T) {
	_, _, s := signFixture(t, 1000, 384) // 500 rows: a partial last block
	rng := rand.New(rand.NewPCG(15, 16))
	q := gaussVector(rng, 384)
	sq := newSignQuery(q, s.words)
	const qc = 0.25
	rows := signRows(s.Len())
	want := make([]float32, rows)
	restore := setLevel(levelGeneric)
	s.estimate(&sq, qc, 0, 0, make([]int32, rows), want, make([]uint8, rows/signLanes))
	restore()
	// The threshold: the median estimate, so that about half are marked.
	sorted := slices.Clone(want[:s.Len()])
	slices.Sort(sorted)
	thr := sorted[len(sorted)/2]
	marked := 0
	for _, level := range levels() {
		got := make([]float32, rows)
		masks := make([]uint8, rows/signLanes)
		restore := setLevel(level)
		s.estimate(&sq, qc, thr, 0, make([]int32, rows), got, masks)
		restore()
		for r := range rows {
			// The terms are of the order of factor·Σ|q_i|.
			tol := 1e-5 * (1 + float64(s.factor[r])*float64(len(q))*4)
			if d := math.Abs(float64(got[r] - want[r])); d > tol {
				t.Fatalf("%s kernel, row %d: estimate %v, Go gives %v", levelName(level), r, got[r], want[r])
			}
			if mark := masks[r/signLanes]>>(r%signLanes)&1 == 1; mark != (got[r] >= thr) {
				t.Fatalf("%s kernel, row %d: estimate %v marked %v against %v", levelName(level), r, got[r], mark, thr)
			}
			if got[r] >= thr {
				marked++
			}
		}
	}
	if marked == 0 {
		t.Fatal("no row marked: the threshold tests nothing")
	}
}

// TestSignPassKeepsTheBestEstimates checks that the pass, with its
// sampled first threshold, keeps exactly the best cands estimates of the
// sets' rows: the scores it holds are those of a sort of every estimate.
func TestSignPassKeepsTheBestEstimates(t *testing.T) {
	const n, dim = 20_000, 128
	rng := rand.New(rand.NewPCG(17, 18))
	f, data, _, ss := clusteredSets(t, rng, n, dim, 5)
	for _, cands := range []int{10, 40, 300, 1000, 5000} {
		for range 5 {
			q := data[rng.IntN(n)*dim:][:dim]
			sq := newSignQuery(q, ss[0].words)
			var all []float32
			for _, s := range ss {
				rows := signRows(s.Len())
				out := make([]float32, rows)
				s.estimate(&sq, float64(dot(q, s.center)), 0, 0, make([]int32, rows), out, make([]uint8, rows/signLanes))
				all = append(all, out[:s.Len()]...)
			}
			slices.SortFunc(all, func(x, y float32) int { return cmp.Compare(y, x) })
			var got []float32
			for _, c := range f.signPass(q, cands, ss, nil) {
				got = append(got, c.score)
			}
			slices.SortFunc(got, func(x, y float32) int { return cmp.Compare(y, x) })
			if !slices.Equal(got, all[:cands]) {
				t.Fatalf("%d candidates: kept %d estimates, not the best %d", cands, len(got), cands)
			}
		}
	}
}

func TestSearchSignedAllCandidatesIsExact(t *testing.T) {
	f, g, s := signFixture(t, 3000, 100)
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20 {
		q := gaussVector(rng, 100)
		want := f.SearchGathered(q, 10, []*Gathered{g}, nil)
		if got := f.SearchSigned(q, 10, g.Len(), []*SignCodes{s}, nil); !equalResults(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// TestSearchSignedRecall checks that on clustered rows the 1-bit pass
// keeps the true top 10 among a thousand candidates of 20,000, and that what it
// returns is exact: rows of the set, Dot's scores, in order.
func TestSearchSignedRecall(t *testing.T) {
	const n, dim = 20_000, 384
	rng := rand.New(rand.NewPCG(9, 10))
	f, data, gs, ss := clusteredSets(t, rng, n, dim, 3)
	found, total := 0, 0
	for range 50 {
		q := data[rng.IntN(n)*dim:][:dim]
		want := f.SearchGathered(q, 10, gs, nil)
		got := f.SearchSigned(q, 10, 1000, ss, nil)
		truth := map[uint64]bool{}
		for _, r := range want {
			truth[r.ID] = true
		}
		for i, r := range got {
			if r.Score != Dot(q, data[int(r.ID)*dim:][:dim]) {
				t.Fatalf("row %d scored %v, Dot gives %v", r.ID, r.Score, Dot(q, data[int(r.ID)*dim:][:dim]))
			}
			if i > 0 && before(r, got[i-1]) {
				t.Fatalf("results out of order: %v", got)
			}
			if truth[r.ID] {
				found++
			}
		}
		total += len(want)
	}
	if recall := float64(found) / float64(total); recall < 0.95 {
		t.Fatalf("recall@10 %.3f with 1000 candidates of %d, want >= 0.95", recall, n)
	}
}

// TestSearchSignedFilter checks that a rejected row is never returned and
// that the filter is asked about the set's rows alone.
func TestSearchSignedFilter(t *testing.T) {
	f, _, s := signFixture(t, 4000, 64)
	q := gaussVector(rand.New(rand.NewPCG(11, 12)), 64)
	got := f.SearchSigned(q, 10, 100, []*SignCodes{s}, func(id uint64) bool {
		if id%2 != 0 {
			t.Fatalf("filter asked about row %d, not in the set", id)
		}
		return id%4 == 0
	})
	if len(got) != 10 {
		t.Fatalf("%d results, want 10", len(got))
	}
	for _, r := range got {
		if r.ID%4 != 0 {
			t.Fatalf("row %d returned, the filter rejects it", r.ID)
		}
	}
	if got := f.SearchSigned(q, 10, 100, []*SignCodes{s}, func(uint64) bool { return false }); len(got) != 0 {
		t.Fatalf("%v returned with every row rejected", got)
	}
}
