package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte"
)

// TestReadableLanguagesFromTheIndex indexes forty documents, each with a
// tag of its own, in two languages and three access classes: the
// languages a reader may read come from the embedded index (its
// languages, or its access classes'), with nothing kept per document,
// since a query asks them and a corpus may hold a million documents
// (reading the document list made the first query at a million chunks
// take 3 s more and 1.5 GiB); and they are those of what it may read.
func TestReadableLanguagesFromTheIndex(t *testing.T) {
	src := t.TempDir()
	for i := range 40 {
		lang, body := "en", "Refunds are returned within five working days."
		if i%2 == 1 {
			lang, body = "it", "Le ferie si chiedono quindici giorni prima."
		}
		access := []string{"", "access: [hr]\n", "access: [legal]\n"}[i%3]
		if lang == "it" && access == "access: [legal]\n" {
			access = "access: [hr]\n" // no Italian document for legal
		}
		write(t, src, fmt.Sprintf("d%02d.md", i), fmt.Sprintf("---\ntitle: Doc %d\nlang: %s\ntags: [own-%d]\n%s---\n# Doc %d\n\n%s\n", i, lang, i, access, i, body))
	}
	v := indexedView(t, src)
	for _, c := range []struct {
		name   string
		filter fonte.Filter
		want   []string
	}{
		{"unrestricted", fonte.Filter{}, []string{"en", "it"}},
		{"public only", fonte.Filter{Restricted: true}, []string{"en", "it"}},
		{"legal", fonte.Filter{Restricted: true, Labels: []string{"legal"}}, []string{"en", "it"}},
	} {
		if got := v.readableLanguages(c.filter); !slices.Equal(got, c.want) {
			t.Errorf("%s: languages %v; want %v", c.name, got, c.want)
		}
	}

	// A reader of the legal class alone, over documents none of which is
	// public: only English.
	src2 := t.TempDir()
	write(t, src2, "a.md", "---\ntitle: A\nlang: en\naccess: [legal]\n---\n# A\n\nContracts are signed by two directors.\n")
	write(t, src2, "b.md", "---\ntitle: B\nlang: it\naccess: [hr]\n---\n# B\n\nLe ferie si chiedono prima.\n")
	v2 := indexedView(t, src2)
	if got := v2.readableLanguages(fonte.Filter{Restricted: true, Labels: []string{"legal"}}); !slices.Equal(got, []string{"en"}) {
		t.Errorf("legal reader: languages %v; want [en]", got)
	}
	if got := v2.readableLanguages(fonte.Filter{Restricted: true}); len(got) != 0 {
		t.Errorf("public reader: languages %v; want none", got)
	}
}

// indexedView indexes src into a new engine and returns its current view.
func indexedView(t *testing.T, src string) *view {
	t.Helper()
	ctx := context.Background()
	e := open(t, t.TempDir())
	if _, err := e.Index(ctx, src, nil); err != nil {
		t.Fatal(err)
	}
	v, err := e.view(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
