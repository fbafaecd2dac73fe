package postgres

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

func TestCreateReopen(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t)
	s := open(t, u, fonte.StoreOptions{Settings: testSettings})
	if st, err := s.Settings(ctx); err != nil || !st.IsZero() {
		t.Fatalf("Settings of a new collection = %+v, %v; want zero", st, err)
	}
	st := status(t, s)
	if st.Generation != 0 || st.Documents != 0 || st.Backend != "postgres" {
		t.Fatalf("new collection status %+v", st)
	}
	a, b := record("a.md", 4, "alpha beta", "gamma"), record("b.md", 4, "beta delta")
	put(t, s, a, b)
	st = status(t, s)
	if st.Generation != 1 || st.Documents != 2 || st.Chunks != 3 || st.Committed.IsZero() {
		t.Fatalf("after one commit: %+v", st)
	}
	if !strings.Contains(st.Lexical, "pg_textsearch BM25") || !strings.HasPrefix(st.Dense, "exact") {
		t.Fatalf("legs: lexical %q, dense %q", st.Lexical, st.Dense)
	}
	s.Close()

	for _, o := range []fonte.StoreOptions{{Settings: testSettings}, {}, {ReadOnly: true}} {
		s2 := open(t, u, o)
		got, err := s2.Settings(ctx)
		if err != nil || got != testSettings {
			t.Fatalf("reopened with %+v: Settings = %+v, %v", o, got, err)
		}
		docs, err := s2.Documents(ctx)
		if err != nil || len(docs) != 2 || docs[0].ID != "a.md" || docs[1].ID != "b.md" || docs[0].Chunks != 2 || docs[0].Bytes != len(a.Doc.Text) {
			t.Fatalf("Documents = %+v, %v", docs, err)
		}
		if st := status(t, s2); st.Generation != 1 {
			t.Fatalf("reopened generation %d", st.Generation)
		}
	}
}

func TestDocumentRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := open(t, newCollection(t), fonte.StoreOptions{Settings: testSettings})
	r := record("dir/x.md", 4, "Première partie: l'été à Milano", "SOP-014 and TNF-alpha", "third")
	r.Doc.Tags = []string{"hr", "policy"}
	r.Meta = map[string]string{"format": "markdown", "lang-detect": "declared"}
	r.Chunks[1].Page = 7
	r.Terms[1] = []string{"sop-014", "tnf-alpha", "città", "", "a b", "zz"}
	put(t, s, r)
	got, err := s.Document(ctx, "dir/x.md")
	if err != nil {
		t.Fatal(err)
	}
	if !got.Doc.Updated.Equal(r.Doc.Updated) {
		t.Errorf("Updated = %v, want %v", got.Doc.Updated, r.Doc.Updated)
	}
	got.Doc.Updated = r.Doc.Updated
	if !reflect.DeepEqual(got, r) {
		t.Errorf("Document round trip:\n got %+v\nwant %+v", got, r)
	}
	if _, err := s.Document(ctx, "missing.md"); !errors.Is(err, fonte.ErrNotFound) || !strings.Contains(err.Error(), "missing.md") {
		t.Errorf("missing document: %v", err)
	}
}
