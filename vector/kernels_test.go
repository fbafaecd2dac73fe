package vector

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

func TestDotMatchesFloat64(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{0, 1, 3, 7, 8, 9, 15, 16, 17, 64, 383, 384, 1000} {
		a, b := make([]float32, n), make([]float32, n)
		var want, mag float64
		for i := range a {
			a[i], b[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
			want += float64(a[i]) * float64(b[i])
			mag += math.Abs(float64(a[i]) * float64(b[i]))
		}
		got := float64(Dot(a, b))
		// float32 accumulation: error bounded by a few ulps of the sum of
		// magnitudes.
		if math.Abs(got-want) > 1e-6*mag+1e-7 {
			t.Errorf("n=%d: Dot %v, float64 reference %v", n, got, want)
		}
	}
}

func TestDotLengthMismatchPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Dot of different lengths did not panic")
		}
	}()
	Dot(make([]float32, 3), make([]float32, 4))
}

func TestNormalize(t *testing.T) {
	v := []float32{3, 4}
	Normalize(v)
	if v[0] != 0.6 || v[1] != 0.8 {
		t.Fatalf("Normalize(3,4) = %v", v)
	}
	z := []float32{0, 0, 0}
	Normalize(z)
	for _, x := range z {
		if x != 0 {
			t.Fatalf("zero vector changed to %v", z)
		}
	}
	rng := rand.New(rand.NewPCG(2, 2))
	u := gaussVector(rng, 384)
	if d := Dot(u, u); math.Abs(float64(d)-1) > 1e-5 {
		t.Fatalf("normalised vector has squared norm %v", d)
	}
}

func TestSqDist(t *testing.T) {
	a := []float32{1, 2, 3, 4, 5}
	b := []float32{0, 2, 5, 4, 2}
	if d := sqDist(a, b); d != 1+4+9 {
		t.Fatalf("sqDist = %v, want 14", d)
	}
}

func BenchmarkDot(b *testing.B) {
	for _, n := range []int{384, 768} {
		rng := rand.New(rand.NewPCG(1, 1))
		x, y := gaussVector(rng, n), gaussVector(rng, n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(8 * n))
			var s float32
			for b.Loop() {
				s += Dot(x, y)
			}
			sink = s
		})
	}
}

var sink float32
