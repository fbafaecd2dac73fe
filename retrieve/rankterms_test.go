package retrieve

import (
	"testing"

	"github.com/fonte-rag/fonte"
)

// TestFunctionWordsWeighLess: a passage that shares only a question's
// asking or grammar words (rare in the corpus) ranks below one that holds
// its content words (commoner), in English and in Italian. At full weight
// the asking words' higher idf put the first passage on top.
func TestFunctionWordsWeighLess(t *testing.T) {
	for _, tc := range []struct {
		lang, query, asking, content string
		others                       []string
	}{
		{"en", "Which files does every package need?",
			"Every team says which of the tools it keeps.",
			"The package holds the control files it builds from.",
			[]string{"A package is uploaded after review.", "The files are signed by the release team.",
				"Builds run on the project's machines.", "Reviewers read the changelog first."}},
		// "does" is no stop word, but a grammar word all the same
		// (analysis.FunctionWords).
		{"en", "Which files does every package need?",
			"Nobody does say which of the tools it keeps.",
			"The package holds the control files it builds from.",
			[]string{"A package is uploaded after review.", "The files are signed by the release team.",
				"Builds run on the project's machines.", "Reviewers read the changelog first."}},
		{"it", "Cosa devo fare per firmare il pacchetto?",
			"Adesso devo fare la mia parte, dice il gruppo.",
			"Il pacchetto si firma prima di caricarlo, come il gruppo sa.",
			[]string{"Un pacchetto viene caricato dopo la revisione.", "Si firmano le versioni dei rilasci ufficiali.",
				"Le compilazioni girano sulle macchine del progetto.", "I revisori leggono prima il registro delle modifiche."}},
		// The conditional's plural and "quali" are function words to the
		// ranking too (analysis.RankingFunctionWords), not only "dovrebbe"
		// and "quale".
		{"it", "Quali moduli dovrebbero compilare gli uffici?",
			"Le regioni dovrebbero dire quali scelte hanno fatto.",
			"Gli uffici compilano i moduli di richiesta entro marzo.",
			[]string{"Un modulo viene archiviato dagli uffici.", "Gli uffici compilano le richieste.",
				"Si compila un modulo per ogni pratica.", "Le richieste arrivano per posta."}},
	} {
		var c Corpus
		for i, text := range append([]string{tc.asking, tc.content}, tc.others...) {
			id := string(rune('a' + i))
			c.Chunks = append(c.Chunks, fonte.Chunk{ID: id + "#0", DocID: id, Text: text})
			c.Langs = append(c.Langs, tc.lang)
		}
		ix, err := New(c, DefaultAnalyzers())
		if err != nil {
			t.Fatal(err)
		}
		hits, err := ix.Search(Request{Query: tc.query, Lang: tc.lang, Mode: BM25})
		if err != nil {
			t.Fatal(err)
		}
		if first(hits) != tc.content {
			t.Errorf("%s: %q ranks first %q, want %q", tc.lang, tc.query, first(hits), tc.content)
		}
	}
}

// first is the text of the best hit, "" for none.
func first(hits []fonte.Hit) string {
	if len(hits) == 0 {
		return ""
	}
	return hits[0].Chunk.Text
}

// TestRankTermsRepeatAdjacent: a content word's two tokens are next to
// each other (so the lexical view walks its postings once), a function
// word's token is there once, and nothing else moves: the same tokens as
// the words followed by the content words.
func TestRankTermsRepeatAdjacent(t *testing.T) {
	a := DefaultAnalyzers()
	for _, tc := range []struct{ lang, query string }{
		{"en", "Which files does every package need before the upload?"},
		{"it", "Cosa devo fare per firmare il pacchetto prima del caricamento?"},
	} {
		got := a.rankTerms(tc.query, tc.lang)
		count := map[string]int{}
		for _, tok := range got {
			count[tok]++
		}
		twice := 0
		for i, tok := range got {
			if count[tok] == 2 {
				twice++
				if (i == 0 || got[i-1] != tok) && (i+1 == len(got) || got[i+1] != tok) {
					t.Errorf("%s: %q's two tokens are apart in %q", tc.lang, tok, got)
				}
			}
		}
		if twice == 0 {
			t.Errorf("%s: no content word counted twice in %q", tc.lang, got)
		}
		want := map[string]int{}
		for _, tok := range a.of(tc.lang).Analyze(tc.query) {
			want[tok]++
		}
		for _, tok := range a.contentOf(tc.lang).Analyze(tc.query) {
			want[tok]++
		}
		for tok, n := range want {
			if count[tok] != n && !(n == 2 && count[tok] == 1) {
				t.Errorf("%s: %q counted %d times, want %d (or once for a grammar word)", tc.lang, tok, count[tok], n)
			}
		}
		if len(count) != len(want) {
			t.Errorf("%s: tokens %v, want those of %v", tc.lang, count, want)
		}
	}
}
