package embed_test

import (
	"context"
	"math"
	"sort"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/embed"
	"github.com/fonte-rag/fonte/seeds"
)

const fixtures = "../../shared/fixtures/seeds"

// TestHashSurrogateSeed001 checks the surrogate against seed 001's printed
// vector rankings (scores > 0 only, ties by id).
func TestHashSurrogateSeed001(t *testing.T) {
	f, err := seeds.Load(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	s := f.S001
	an := analysis.Seed001()
	h, err := embed.NewHashSurrogate(an, s.Dim, s.SynonymGroups)
	if err != nil {
		t.Fatal(err)
	}
	var ids, texts []string
	for id, text := range s.Documents {
		ids = append(ids, id)
		texts = append(texts, id+". "+text)
	}
	docs, err := h.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"SOP-014":                 {"SOP-014", "SOP-007", "SOP-011"},
		"how do I get the refund": {"SOP-007", "SOP-023"},
		"who keeps the keys":      {"SOP-019", "SOP-001"},
	}
	for q, exp := range want {
		qv, _ := h.Embed(context.Background(), []string{q})
		type scored struct {
			id string
			s  float64
		}
		var ranked []scored
		for i, d := range docs {
			var dot float64
			for j := range d {
				dot += float64(d[j]) * float64(qv[0][j])
			}
			if dot > 1e-9 {
				ranked = append(ranked, scored{ids[i], dot})
			}
		}
		sort.Slice(ranked, func(a, b int) bool {
			if ranked[a].s != ranked[b].s {
				return ranked[a].s > ranked[b].s
			}
			return ranked[a].id < ranked[b].id
		})
		var got []string
		for i := 0; i < len(ranked) && i < 3; i++ {
			got = append(got, ranked[i].id)
		}
		if len(got) != len(exp) {
			t.Fatalf("%q: got %v, want %v", q, got, exp)
		}
		for i := range exp {
			if got[i] != exp[i] {
				t.Fatalf("%q: got %v, want %v", q, got, exp)
			}
		}
	}
}

func TestHashSurrogateProperties(t *testing.T) {
	h, err := embed.NewHashSurrogate(analysis.Seed001(), 128, [][]string{{"refund", "claim"}})
	if err != nil {
		t.Fatal(err)
	}
	if h.Dimension() != 128 || h.Model() != "hash-surrogate/128" {
		t.Fatalf("dimension %d model %q", h.Dimension(), h.Model())
	}
	vs, err := h.Embed(context.Background(), []string{"refund", "claim", "", "the"})
	if err != nil {
		t.Fatal(err)
	}
	// Synonyms land on the same vector; stop words and empty text give zeros.
	for j := range vs[0] {
		if vs[0][j] != vs[1][j] {
			t.Fatalf("synonyms differ at %d", j)
		}
	}
	var norm float64
	for _, x := range vs[0] {
		norm += float64(x) * float64(x)
	}
	if math.Abs(norm-1) > 1e-6 {
		t.Fatalf("norm %v, want 1", norm)
	}
	for _, v := range vs[2:] {
		for _, x := range v {
			if x != 0 {
				t.Fatal("empty text must embed to the zero vector")
			}
		}
	}
	if _, err := embed.NewHashSurrogate(analysis.Seed001(), 0, nil); err == nil {
		t.Fatal("dimension 0 accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Embed(ctx, []string{"x"}); err == nil {
		t.Fatal("cancelled context ignored")
	}
}
