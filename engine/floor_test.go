package engine

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/eval"
)

// TestFloorsPerLanguage: a floor set for Italian judges Italian questions
// only, and eval reports one floor block per question language at the
// floor each gets.
func TestFloorsPerLanguage(t *testing.T) {
	ctx := context.Background()
	e, err := Open(ctx, Settings{IndexDir: filepath.Join(t.TempDir(), "idx"), Floors: map[string]float64{"it": 0.99}}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Index(ctx, "../examples/handbook", nil); err != nil {
		t.Fatal(err)
	}
	it, err := e.Ask(ctx, "Quanti giorni di ferie maturano ogni anno i dipendenti a tempo pieno?", AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !it.Abstained {
		t.Errorf("an Italian question passed the Italian floor of 0.99: relevance %.2f", it.Relevance)
	}
	en, err := e.Ask(ctx, "How many days of annual leave do full-time employees accrue per year?", AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if en.Abstained {
		t.Errorf("an English question was judged by the Italian floor (relevance %.2f)", en.Relevance)
	}
	qs, err := eval.LoadQuestions("../examples/questions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.EvalQuestions(ctx, qs, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	by := r.Report.AbstainByLanguage
	if by["it"] == nil || by["en"] == nil || by["it"].Floor != 0.99 || by["en"].Floor != answer.DefaultFloor {
		t.Fatalf("floor blocks by language: %+v", by)
	}
	ans, _ := by["it"].Totals()
	if by["it"].AnswerableBlocked != ans {
		t.Errorf("at 0.99 every Italian answerable question is blocked: %d of %d", by["it"].AnswerableBlocked, ans)
	}
}

// TestQuestionLanguage: a short question gets English or Italian from
// its words, other scripts keep the document detector's answer, and a
// question of codes alone falls back, for its floor, to the language of
// the document that matched it best.
func TestQuestionLanguage(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"Entro quando va presentata la nota spese?", "it"},
		{"Chi firma gli ordini?", "it"},
		{"Who signs purchase orders?", "en"},
		{"会議室はどこですか", "ja"},
		{"SOP-014?", ""},
	} {
		if got := QuestionLanguage(c.q); got != c.want {
			t.Errorf("QuestionLanguage(%q) = %q, want %q", c.q, got, c.want)
		}
	}
	hits := []fonte.Hit{
		{Chunk: fonte.Chunk{DocID: "a.md"}, Relevance: 0.2},
		{Chunk: fonte.Chunk{DocID: "b.md"}, Relevance: 0.6},
	}
	docs := map[string]fonte.Document{"a.md": {Language: "en"}, "b.md": {Language: "it"}}
	if got := floorLanguage("SOP-014?", hits, docs); got != "it" {
		t.Errorf("floorLanguage of a question without evidence = %q, want the best hit's document's, it", got)
	}
	if got := floorLanguage("Who signs SOP-014?", hits, docs); got != "en" {
		t.Errorf("floorLanguage of an English question = %q, want en", got)
	}
}

// TestSearchLanguage: a keyword search is analysed in every language of
// the corpus unless its words are decisive.
func TestSearchLanguage(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"zephyrruna", ""},
		{"Chi firma gli ordini?", "it"},
		{"Who signs purchase orders?", "en"},
		{"会議室はどこですか", "ja"},
	} {
		if got := searchLanguage(c.q); got != c.want {
			t.Errorf("searchLanguage(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}
