package engine

import (
	"context"
	"testing"

	"github.com/fonte-rag/fonte/eval"
)

// TestMisdetectedLanguageStillFinds searches the dev questions of every
// one-language set as if their language had been mis-detected (an
// English question taken for Italian over English documents, and the
// reverse) and fails when that finds fewer gold passages in the first
// ten hits than the right language does: a language no document is
// written in is not the analysis of the query (analysisLanguage), so a
// mis-detection costs nothing. It also counts the dev questions whose
// detected language is the wrong one.
func TestMisdetectedLanguageStillFinds(t *testing.T) {
	ctx := context.Background()
	langOf := map[string]string{"18f": "en", "maint-guide-en": "en", "gds-way-en": "en", "seed002-en": "en",
		"debian-it": "it", "linee-guida-it": "it", "seed000-it": "it"}
	wrong := map[string]string{"en": "it", "it": "en"}
	for _, set := range defaultSets(t) {
		lang, ok := langOf[set.name]
		if !ok {
			continue // the example handbook holds both languages
		}
		e, err := Open(ctx, Settings{Store: t.TempDir()}, OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Index(ctx, set.docs, nil); err != nil {
			t.Fatalf("%s: %v", set.name, err)
		}
		found := map[string]int{}
		n, misdetected := 0, 0
		for _, q := range devQuestions(set.questions) {
			if q.Unanswerable {
				continue
			}
			n++
			if QuestionLanguage(q.Question) == wrong[lang] {
				misdetected++
			}
			for _, l := range []string{lang, wrong[lang]} {
				hits, err := e.Search(ctx, q.Question, SearchOptions{K: 10, Lang: l})
				if err != nil {
					t.Fatal(err)
				}
				for _, h := range hits {
					if eval.IsHit(q, h.Chunk.DocID, h.Chunk.Text) {
						found[l]++
						break
					}
				}
			}
		}
		e.Close()
		t.Logf("%-15s %s, %2d answerable dev questions: gold in the top 10 analysed as %s %d, as %s %d; detected as %s: %d",
			set.name, lang, n, lang, found[lang], wrong[lang], found[wrong[lang]], wrong[lang], misdetected)
		if found[wrong[lang]] < found[lang] {
			t.Errorf("%s: analysed as %s, %d of %d questions find a gold passage in the top 10; as %s, %d",
				set.name, wrong[lang], found[wrong[lang]], n, lang, found[lang])
		}
	}
}
