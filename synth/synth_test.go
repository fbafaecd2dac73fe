package synth

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestClusteredNormalisedAndSeeded(t *testing.T) {
	a := Clustered(rand.New(rand.NewPCG(1, 2)), 500, 64, 10, 0.5)
	b := Clustered(rand.New(rand.NewPCG(1, 2)), 500, 64, 10, 0.5)
	if a.Rows != 500 || a.Dim != 64 || len(a.Data) != 500*64 {
		t.Fatalf("shape %d×%d, %d values", a.Rows, a.Dim, len(a.Data))
	}
	for i := range a.Data {
		if a.Data[i] != b.Data[i] {
			t.Fatalf("same seed, different value at %d: %v vs %v", i, a.Data[i], b.Data[i])
		}
	}
	for i := 0; i < a.Rows; i++ {
		var ss float64
		for _, x := range a.Row(i) {
			ss += float64(x) * float64(x)
		}
		if math.Abs(ss-1) > 1e-5 {
			t.Fatalf("row %d has squared norm %v", i, ss)
		}
	}
	c := Clustered(rand.New(rand.NewPCG(1, 3)), 500, 64, 10, 0.5)
	if c.Data[0] == a.Data[0] && c.Data[1] == a.Data[1] {
		t.Fatal("different seeds gave the same vectors")
	}
}

// The mixture must actually be clustered: a sample is closer to its own
// centre's direction than a uniform vector would be to any direction.
func TestMixtureHasStructure(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	m := NewMixture(rng, 4, 32, 3) // strong clusters so the check is sharp
	s := m.Sample(rng, 200)
	var sum float64
	for i := 0; i < s.Rows; i++ {
		best := math.Inf(-1)
		for c := 0; c < m.Centres.Rows; c++ {
			centre := m.Centres.Row(c)
			var dot, nn float64
			for j, x := range s.Row(i) {
				dot += float64(x) * float64(centre[j])
				nn += float64(centre[j]) * float64(centre[j])
			}
			best = max(best, dot/math.Sqrt(nn))
		}
		sum += best
	}
	// Scale 3 in 32 dimensions: centre norm ≈ 17, noise norm ≈ 5.7, so the
	// cosine to the own centre is ≈ 0.95; random directions give ≈ 0.3.
	if mean := sum / float64(s.Rows); mean < 0.8 {
		t.Fatalf("mean best cosine to a centre %.3f, want > 0.8", mean)
	}
}

func TestRowViews(t *testing.T) {
	m := NewMatrix(3, 2)
	rows := m.Slices()
	rows[1][0] = 5
	if m.Data[2] != 5 {
		t.Fatal("Slices does not alias Data")
	}
	r := m.Row(0)
	_ = append(r, 9) // must not write into row 1
	if m.Data[2] != 5 {
		t.Fatal("append to a row overwrote the next row")
	}
}

func TestSampleIntoAllocatesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := NewMixture(rng, 8, 16, 0.5)
	buf := make([]float32, 100*16)
	if n := testing.AllocsPerRun(10, func() { m.SampleInto(rng, buf) }); n != 0 {
		t.Fatalf("SampleInto allocated %v times", n)
	}
	s := Sphere(rng, 10, 16)
	for i := 0; i < s.Rows; i++ {
		var ss float64
		for _, x := range s.Row(i) {
			ss += float64(x) * float64(x)
		}
		if math.Abs(ss-1) > 1e-5 {
			t.Fatalf("sphere row %d squared norm %v", i, ss)
		}
	}
}

func BenchmarkClustered100kx384(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	m := NewMixture(rng, 50, 384, 0.5)
	buf := make([]float32, 100_000*384)
	b.SetBytes(int64(len(buf) * 4))
	for b.Loop() {
		m.SampleInto(rng, buf)
	}
}
