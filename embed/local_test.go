package embed_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/embed"
	"github.com/fonte-rag/fonte/lexical"
)

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestCharNGram(t *testing.T) {
	e, err := embed.NewCharNGram(analysis.CharWB(3, 5), "char_wb-3-5", 512)
	if err != nil {
		t.Fatal(err)
	}
	if e.Dimension() != 512 || e.Model() != "charngram/char_wb-3-5/512" {
		t.Fatalf("dimension %d model %q", e.Dimension(), e.Model())
	}
	ctx := context.Background()
	vs, err := e.Embed(ctx, []string{"refunds take five days", "refund", "delivery address", "refunds take five days"})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		if n := dot(v, v); math.Abs(n-1) > 1e-5 {
			t.Fatalf("vector %d norm² %v", i, n)
		}
	}
	// Inflections share n-grams, unrelated words do not; the same text gives
	// the same vector whatever else is in the batch.
	if dot(vs[0], vs[1]) <= dot(vs[0], vs[2]) {
		t.Errorf("refund/refunds %.3f not above refunds/delivery %.3f", dot(vs[0], vs[1]), dot(vs[0], vs[2]))
	}
	alone, _ := e.Embed(ctx, []string{"refunds take five days"})
	for j := range alone[0] {
		if alone[0][j] != vs[3][j] || vs[0][j] != vs[3][j] {
			t.Fatal("vector depends on the batch")
		}
	}
	if _, err := embed.NewCharNGram(analysis.CharWB(3, 5), "x", 0); err == nil {
		t.Fatal("dimension 0 accepted")
	}
}

// TestLSARandomizedMatchesExact checks the randomized solver used for large
// corpora against the exact SVD on a corpus where both run: the leading
// singular values agree, and so do cosine rankings.
func TestLSARandomizedMatchesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	words := []string{"refund", "card", "bank", "delivery", "parcel", "address", "password", "login", "invoice", "vat",
		"gift", "cash", "subscription", "cancel", "support", "phone", "chat", "damage", "photo", "return"}
	var docs []string
	for d := 0; d < 300; d++ {
		topic := d % 5
		doc := ""
		for w := 0; w < 30; w++ {
			i := topic*4 + rng.IntN(4)
			if rng.IntN(4) == 0 {
				i = rng.IntN(len(words))
			}
			doc += words[i] + " "
		}
		docs = append(docs, doc)
	}
	tf := lexical.NewTFIDF(docs, analysis.Sklearn(), lexical.TFIDFOptions{})
	exact, err := embed.FitLSA(tf, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !exact.Exact() {
		t.Fatal("small corpus should use the exact SVD")
	}
	approx, err := embed.FitLSARandomized(tf, 5, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	ev, av := exact.SingularValues(), approx.SingularValues()
	for i := range ev {
		if math.Abs(ev[i]-av[i]) > 1e-6*ev[0] {
			t.Errorf("singular value %d: exact %.9f randomized %.9f", i, ev[i], av[i])
		}
	}
	q := "refund card bank"
	for d := 0; d < 20; d++ {
		ce := embed.Cosine(exact.Project(tf.Row(d)), exact.ProjectText(q))
		ca := embed.Cosine(approx.Project(tf.Row(d)), approx.ProjectText(q))
		if math.Abs(math.Abs(ce)-math.Abs(ca)) > 1e-6 {
			t.Errorf("doc %d cosine exact %.6f randomized %.6f", d, ce, ca)
		}
	}
	if _, err := embed.FitLSA(tf, 0, nil); err == nil {
		t.Error("k = 0 accepted")
	}
}
