package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

func TestMessagesFor(t *testing.T) {
	if m := MessagesFor("it"); m.DontKnow != "Non lo so." || m.Lang != "it" || !strings.Contains(m.NotAnswered, "%.2f") {
		t.Errorf("Italian messages = %+v", m)
	}
	for _, l := range []string{"en", "", "de"} {
		if m := MessagesFor(l); m.DontKnow != DontKnow || m.Lang != "en" {
			t.Errorf("MessagesFor(%q) = %+v, want English", l, m)
		}
	}
	for _, l := range []string{"en", "it"} {
		if !IsDontKnow(MessagesFor(l).DontKnow) {
			t.Errorf("IsDontKnow does not recognise the %s abstention", l)
		}
	}
}

func TestCrossLanguageNotice(t *testing.T) {
	if got, want := CrossLanguageNotice("it", "en"), "Non ho trovato nulla in italiano: i passaggi trovati sono in inglese."; got != want {
		t.Errorf("Italian notice = %q, want %q", got, want)
	}
	if got, want := CrossLanguageNotice("en", "it"), "Nothing was found in English: the passages found are in Italian."; got != want {
		t.Errorf("English notice = %q, want %q", got, want)
	}
	if got := CrossLanguageNotice("it", "de"); !strings.HasSuffix(got, "sono in tedesco.") {
		t.Errorf("a language fonte detects in documents is named: %q", got)
	}
	if got := CrossLanguageNotice("en", "sv"); !strings.HasSuffix(got, "are in sv.") {
		t.Errorf("a language fonte does not name is given by its code: %q", got)
	}
}

func TestNoMatchNotice(t *testing.T) {
	for _, c := range []struct {
		q    string
		docs []string
		want string
	}{
		{"it", []string{"en"}, "Non ho trovato nulla in italiano: i documenti sono in inglese, e nessun passaggio ha parole in comune con la domanda."},
		{"en", []string{"it"}, "Nothing was found in English: the documents are in Italian, and no passage shares a word with the question."},
		{"it", []string{"de", "en", "fr"}, "Non ho trovato nulla in italiano: i documenti sono in tedesco, inglese e francese, e nessun passaggio ha parole in comune con la domanda."},
		{"en", []string{"de", "it"}, "Nothing was found in English: the documents are in German and Italian, and no passage shares a word with the question."},
	} {
		if got := NoMatchNotice(c.q, c.docs); got != c.want {
			t.Errorf("NoMatchNotice(%q, %q) = %q, want %q", c.q, c.docs, got, c.want)
		}
	}
}

func TestCrossLanguageLooksAtCoveredPassages(t *testing.T) {
	docs := map[string]fonte.Document{"en.md": {Language: "en"}, "it.md": {Language: "it"}}
	hits := []fonte.Hit{{Chunk: fonte.Chunk{ID: "en.md#0", DocID: "en.md"}}, {Chunk: fonte.Chunk{ID: "it.md#0", DocID: "it.md"}}}
	// The Italian passage holds a word of the question, the English one
	// most of it: what answers is in English.
	c := &Coverage{MinHeld: 0.5, Held: []Held{{"en.md#0", 0.8}, {"it.md#0", 0.2}}}
	if got := crossLanguage("it", hits, docs, c); got != "en" {
		t.Errorf("crossLanguage = %q, want en", got)
	}
	// When the Italian passage holds as much, it is not cross-language.
	c.Held[1].Share = 0.6
	if got := crossLanguage("it", hits, docs, c); got != "" {
		t.Errorf("crossLanguage = %q, want none", got)
	}
	// When no passage holds enough, every hit is looked at.
	c.Held[0].Share, c.Held[1].Share = 0.1, 0.1
	if got := crossLanguage("it", hits, docs, c); got != "" {
		t.Errorf("crossLanguage = %q, want none (an Italian hit)", got)
	}
}

func TestCrossLanguage(t *testing.T) {
	docs := map[string]fonte.Document{"en.md": {Language: "en"}, "it.md": {Language: "it"}, "x.md": {}}
	hit := func(doc string) fonte.Hit { return fonte.Hit{Chunk: fonte.Chunk{DocID: doc}} }
	for _, c := range []struct {
		lang string
		hits []fonte.Hit
		want string
	}{
		{"it", []fonte.Hit{hit("en.md"), hit("en.md")}, "en"},
		{"en", []fonte.Hit{hit("it.md")}, "it"},
		{"it", []fonte.Hit{hit("en.md"), hit("it.md")}, ""}, // one passage in the question's language
		{"it", []fonte.Hit{hit("en.md"), hit("x.md")}, ""},  // a passage of unknown language
		{"", []fonte.Hit{hit("en.md")}, ""},                 // a question of unknown language
		{"de", []fonte.Hit{hit("en.md")}, ""},               // a language fonte does not speak
		{"it", nil, ""},
	} {
		if got := crossLanguage(c.lang, c.hits, docs, nil); got != c.want {
			t.Errorf("crossLanguage(%q, %d hits) = %q, want %q", c.lang, len(c.hits), got, c.want)
		}
	}
}

// englishHits is an English passage that shares words ("password",
// "Wi-Fi") with an Italian question about it.
func englishHits() ([]fonte.Hit, map[string]fonte.Document) {
	c := fonte.Chunk{ID: "wifi.md#0", DocID: "wifi.md", Title: "Guest Wi-Fi", Text: "The guest Wi-Fi password is printed at the reception desk."}
	return []fonte.Hit{{Chunk: c, Relevance: 0.6}}, map[string]fonte.Document{"wifi.md": {ID: "wifi.md", Language: "en"}}
}

func TestAskAbstainsInTheQuestionsLanguage(t *testing.T) {
	hits, docs := handbookHits()
	for _, c := range []struct{ lang, want string }{{"it", "Non lo so."}, {"en", DontKnow}, {"", DontKnow}} {
		a, err := Ask(context.Background(), "q", hits, docs, Config{Floor: 0.9, Lang: c.lang})
		if err != nil {
			t.Fatal(err)
		}
		if !a.Abstained || a.Text != c.want || a.Lang != c.lang {
			t.Errorf("lang %q: abstained %v, text %q, lang %q; want %q", c.lang, a.Abstained, a.Text, a.Lang, c.want)
		}
	}
	// A model's refusal, asked for in English, reaches an Italian reader
	// in Italian.
	a, err := Ask(context.Background(), "q", hits, docs, Config{Lang: "it", Generator: &scripted{text: DontKnow}})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Abstained || a.Text != "Non lo so." {
		t.Errorf("model refusal: abstained %v, text %q", a.Abstained, a.Text)
	}
}

func TestAskAcrossLanguages(t *testing.T) {
	hits, docs := englishHits()
	q := "Qual è la password del Wi-Fi?"
	// The extractive answerer would quote the English sentence by the
	// words the languages share: it abstains, says why in Italian and
	// shows the passage found.
	tr := &Trace{}
	a, err := Ask(context.Background(), q, hits, docs, Config{Floor: 0.25, Lang: "it", Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Abstained || a.Text != "Non lo so." || a.Notice != CrossLanguageNotice("it", "en") {
		t.Errorf("abstained %v, text %q, notice %q", a.Abstained, a.Text, a.Notice)
	}
	if len(a.Citations) != 1 || a.Citations[0].DocID != "wifi.md" {
		t.Errorf("citations %+v, want the English passage found", a.Citations)
	}
	if !tr.Abstained || !strings.Contains(tr.AbstainReason, "language") {
		t.Errorf("trace: abstained %v, reason %q", tr.Abstained, tr.AbstainReason)
	}
	// In the question's language the same passage answers, with no notice.
	docs["wifi.md"] = fonte.Document{ID: "wifi.md", Language: "it"}
	if a, _ := Ask(context.Background(), q, hits, docs, Config{Floor: 0.25, Lang: "it"}); a.Abstained || a.Notice != "" {
		t.Errorf("same language: abstained %v, notice %q", a.Abstained, a.Notice)
	}
	// A model reads both languages: it answers, and the reader is told
	// the sources are in English.
	docs["wifi.md"] = fonte.Document{ID: "wifi.md", Language: "en"}
	a, err = Ask(context.Background(), q, hits, docs, Config{Floor: 0.25, Lang: "it", Generator: &scripted{text: "La password del Wi-Fi è stampata alla reception [1]."}})
	if err != nil {
		t.Fatal(err)
	}
	if a.Abstained || a.Notice != CrossLanguageNotice("it", "en") {
		t.Errorf("model: abstained %v, notice %q", a.Abstained, a.Notice)
	}
}

func TestUnknownWordsNotice(t *testing.T) {
	for _, c := range []struct {
		lang  string
		words []string
		want  string
	}{
		{"en", []string{"parrot"}, "No document uses “parrot”; if the documents say it in other words, ask in theirs."},
		{"en", []string{"parrot", "cage", "seed"}, "No document uses “parrot”, “cage” or “seed”; if the documents say it in other words, ask in theirs."},
		{"it", []string{"pappagallo", "gabbia"}, "Nessun documento usa «pappagallo» o «gabbia»; se i documenti lo dicono con altre parole, chiedi con le loro."},
		{"", []string{"parrot"}, "No document uses “parrot”; if the documents say it in other words, ask in theirs."},
		{"it", nil, ""},
	} {
		if got := UnknownWordsNotice(c.lang, c.words); got != c.want {
			t.Errorf("UnknownWordsNotice(%q, %q) = %q, want %q", c.lang, c.words, got, c.want)
		}
	}
}

// The reasons of the abstentions past the floor are said in the
// question's language, naming the question's own word.
func TestAbstentionReasonNotices(t *testing.T) {
	if got := UnnamedCaseNotice("it", "Photoshop"); got != "Nessuno dei passaggi trovati nomina «Photoshop», che la domanda nomina." {
		t.Errorf("Italian: %q", got)
	}
	if got := UnnamedCaseNotice("en", "Denver"); got != "None of the passages found names “Denver”, which the question names." {
		t.Errorf("English: %q", got)
	}
	if UnstatedKindNotice("it") == UnstatedKindNotice("en") || !strings.HasPrefix(UnstatedKindNotice("it"), "I passaggi") {
		t.Errorf("kind notices: %q, %q", UnstatedKindNotice("it"), UnstatedKindNotice("en"))
	}
}
