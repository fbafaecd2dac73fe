package vector

import (
	"math/rand/v2"
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

func TestSignDotsMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, words := range []int{1, 2, 6, 8, 9} {
		rows := 37
		codes := make([]uint64, rows*words)
		planes := make([]uint64, 4*words)
		for i := range codes {
			codes[i] = rng.Uint64()
		}
		for i := range planes {
			planes[i] = rng.Uint64()
		}
		wide := make([]uint64, 32)
		for i := range min(words, 8) {
			for j := range 4 {
				wide[8*j+i] = planes[4*i+j]
			}
		}
		if words > 8 {
			wide = nil
		}
		want := make([]int32, rows)
		signDotsGo(codes, planes, words, want)
		for _, level := range levels() {
			got := make([]int32, rows)
			restore := setLevel(level)
			signDots(codes, planes, wide, words, got)
			restore()
			for r := range got {
				if got[r] != want[r] {
					t.Fatalf("%s kernel, %d words, row %d: %d, want %d", levelName(level), words, r, got[r], want[r])
				}
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
	data := clusteredRows(rng, n, dim, 20)
	f, err := NewFlatView(dim, []FlatPart{{Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	var a, b []int
	for i := range n {
		if i%3 == 0 {
			a = append(a, i)
		} else {
			b = append(b, i)
		}
	}
	ga, _ := f.Gather(a)
	gb, _ := f.Gather(b)
	gs := []*Gathered{ga, gb}
	ss := []*SignCodes{f.SignCodes(ga), f.SignCodes(gb)}
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
