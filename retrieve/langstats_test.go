package retrieve

import (
	"slices"
	"testing"

	"github.com/fonte-rag/fonte"
)

// langCorpus is a corpus of English and Italian chunks sharing the stem
// "can" (the English "can", the Italian "cane" stemmed), one Italian
// document readable only with label "hr".
func langCorpus(t *testing.T) *Index {
	t.Helper()
	docs := []struct {
		id, lang, text string
		tags           []string
	}{
		{"en/a", "en", "You can park your bike in the yard.", nil},
		{"en/a", "en", "You can ask the help desk for a new badge.", nil},
		{"en/b", "en", "Anyone can report an incident.", nil},
		{"it/c", "it", "Il cane del custode resta in cortile.", nil},
		{"it/d", "it", "Le biciclette restano in cortile.", nil},
		{"it/hr", "it", "Un cane guida è sempre ammesso in ufficio.", []string{fonte.AccessTag("hr")}},
	}
	var c Corpus
	for i, d := range docs {
		c.Chunks = append(c.Chunks, fonte.Chunk{ID: d.id + "#" + string(rune('0'+i)), DocID: d.id, Position: i, Text: d.text})
		c.Langs = append(c.Langs, d.lang)
		c.Tags = append(c.Tags, d.tags)
	}
	ix, err := New(c, DefaultAnalyzers())
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// TermStatsIn's document frequencies count the chunks of the languages
// asked, among those the reader may read: an Italian "can" is not
// counted from English text, a hidden Italian chunk counts for the reader
// who may read it only. The chunks and their length are every chunk the
// reader may read, and asking every language (or none) is TermStats.
func TestTermStatsInCountsOneLanguage(t *testing.T) {
	ix := langCorpus(t)
	terms := []string{"can", "cortil", "nothing"}
	if all := ix.TermStats(terms, Filter{}); all.Chunks != 6 || !slices.Equal(all.DF, []int{5, 2, 0}) {
		t.Fatalf("every language: %+v, want 6 chunks and df [5 2 0]", all)
	}
	for _, c := range []struct {
		name   string
		f      Filter
		chunks int
		df     []int
	}{
		{"unrestricted", Filter{}, 6, []int{2, 2, 0}},
		{"public reader", Filter{Restricted: true}, 5, []int{1, 2, 0}},
		{"hr reader", Filter{Restricted: true, Labels: []string{"hr"}}, 6, []int{2, 2, 0}},
		// Prefixes and tags narrow a search, not its statistics.
		{"prefix", Filter{Prefixes: []string{"en/"}}, 6, []int{2, 2, 0}},
	} {
		st := ix.TermStatsIn(terms, c.f, []string{"it"})
		all := ix.TermStats(terms, c.f)
		if st.Chunks != c.chunks || st.TotalTerms != all.TotalTerms || !slices.Equal(st.DF, c.df) {
			t.Errorf("%s, Italian: %d chunks of %d terms, df %v; want %d chunks of %d terms, df %v", c.name, st.Chunks, st.TotalTerms, st.DF, c.chunks, all.TotalTerms, c.df)
		}
	}
	if st := ix.TermStatsIn(terms, Filter{}, []string{"en"}); st.Chunks != 6 || !slices.Equal(st.DF, []int{3, 0, 0}) {
		t.Errorf("English: %+v, want 6 chunks and df [3 0 0]", st)
	}
	for _, langs := range [][]string{nil, {"en", "it"}, {"it", "en", "de"}} {
		reader := Filter{Restricted: true}
		if got, want := ix.TermStatsIn(terms, reader, langs), ix.TermStats(terms, reader); got.Chunks != want.Chunks || got.TotalTerms != want.TotalTerms || !slices.Equal(got.DF, want.DF) {
			t.Errorf("languages %v: %+v, want TermStats's %+v", langs, got, want)
		}
	}
}
