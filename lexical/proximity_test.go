package lexical

import (
	"math"
	"strings"
	"testing"
)

// proximity scores doc (space-separated terms) for the query terms, every
// term of idf 2, with fonte's k1 and b and an average length of 10.
func proximity(query, doc string) float64 {
	return NewProximity(strings.Fields(query), func(int) float64 { return 2 }, 0.9, 0.4, 10).Score(strings.Fields(doc))
}

// TestProximityNearBeatsFar: the same two terms, once each, in documents
// of the same length score higher the nearer they lie, and not at all
// when only one of them is there.
func TestProximityNearBeatsFar(t *testing.T) {
	adjacent := proximity("a b", "x a b x x x x x x x")
	near := proximity("a b", "x a x x b x x x x x")
	far := proximity("a b", "a x x x x x x x x b")
	if !(adjacent > near && near > far && far > 0) {
		t.Fatalf("adjacent %v, three apart %v, nine apart %v: want decreasing and positive", adjacent, near, far)
	}
	if got := proximity("a b", "a x x x x x x x x x"); got != 0 {
		t.Fatalf("one of the terms only: %v, want 0", got)
	}
}

// TestProximityValue: BM25TP's expression on a case worked by hand: "a b"
// with idf(a) 2, idf(b) 3, in a document of average length 2 (norm k1):
// acc(a) = 3, acc(b) = 2, prox = 1·3·1.9/3.9 + 1·2·1.9/2.9.
func TestProximityValue(t *testing.T) {
	idf := []float64{2, 3}
	p := NewProximity([]string{"a", "b"}, func(i int) float64 { return idf[i] }, 0.9, 0.4, 2)
	want := 3*1.9/3.9 + 2*1.9/2.9
	if got := p.Score([]string{"a", "b"}); math.Abs(got-want) > 1e-12 {
		t.Fatalf("score %v, want %v", got, want)
	}
	// An idf under 1 caps the term's own weight at its idf (min(1, idf)).
	idf = []float64{0.5, 3}
	p = NewProximity([]string{"a", "b"}, func(i int) float64 { return idf[i] }, 0.9, 0.4, 2)
	want = 0.5*3*1.9/3.9 + 1*0.5*1.9/(0.5+0.9)
	if got := p.Score([]string{"a", "b"}); math.Abs(got-want) > 1e-12 {
		t.Fatalf("capped idf: score %v, want %v", got, want)
	}
}

// TestProximityFewTerms: a query of no term or of one distinct term
// scores nothing, and so do repeats of one term in the document.
func TestProximityFewTerms(t *testing.T) {
	for _, q := range []string{"", "a", "a a"} {
		if got := proximity(q, "a a b a"); got != 0 {
			t.Fatalf("query %q: %v, want 0", q, got)
		}
	}
	if got := proximity("a b", "a a a a"); got != 0 {
		t.Fatalf("one term repeated: %v, want 0", got)
	}
}

// TestProximityRepeatedQueryTerm: a term the query gives twice counts
// twice, as in BM25's sum; a Proximity reused on another document starts
// from zero.
func TestProximityRepeatedQueryTerm(t *testing.T) {
	once, twice := proximity("a b", "a b"), proximity("a a b", "a b")
	if want := once * 1.5; math.Abs(twice-want) > 1e-12 {
		t.Fatalf("a twice: %v, want %v (a's part doubled, same idf)", twice, want)
	}
	p := NewProximity([]string{"a", "b"}, func(int) float64 { return 2 }, 0.9, 0.4, 10)
	first := p.Score(strings.Fields("a b"))
	p.Score(strings.Fields("a b a b a b"))
	if again := p.Score(strings.Fields("a b")); again != first {
		t.Fatalf("second score of the same document %v, first %v", again, first)
	}
}

// BenchmarkProximity scores 100 chunks of 200 terms for a question of 8
// terms (two repeated): the work of one search's rescoring, analysis
// aside.
func BenchmarkProximity(b *testing.B) {
	terms := strings.Fields("t1 t2 t2 t3 t4 t4 t5 t6")
	docs := make([][]string, 100)
	for i := range docs {
		doc := make([]string, 200)
		for j := range doc {
			doc[j] = "w" + string(rune('a'+(i*7+j*13)%26))
			if (i+j)%17 == 0 {
				doc[j] = terms[(i+j)%len(terms)]
			}
		}
		docs[i] = doc
	}
	b.ReportAllocs()
	for b.Loop() {
		p := NewProximity(terms, func(int) float64 { return 2 }, 0.9, 0.4, 200)
		for _, d := range docs {
			p.Score(d)
		}
	}
}
