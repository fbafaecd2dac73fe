package analysis

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// fixtures is where the seeds' JSON lives, beside the repository.
const fixtures = "../../shared/fixtures/seeds"

// golden is testdata/tokens.json, written by testdata/gen_tokens.py with
// scikit-learn 1.2.1.
type golden struct {
	EnglishStopWords []string `json:"english_stop_words"`
	Cases            []struct {
		Input   string   `json:"input"`
		Lower   string   `json:"lower"`
		Word    []string `json:"word"`
		English []string `json:"english"`
		ASCII   []string `json:"ascii"`
		CharWB  []struct {
			Min, Max int
			Ngrams   []string `json:"ngrams"`
		} `json:"char_wb"`
	} `json:"cases"`
	Seed000 []struct {
		TextSHA256   string `json:"text_sha256"`
		Count        int    `json:"count"`
		TokensSHA256 string `json:"tokens_sha256"`
	} `json:"seed000"`
}

func loadJSON(t testing.TB, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("fixture missing: %v", err) // never skip: a lost fixture is a failure
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func loadGolden(t *testing.T) golden {
	var g golden
	loadJSON(t, filepath.Join("testdata", "tokens.json"), &g)
	if len(g.Cases) == 0 {
		t.Fatal("tokens.json has no cases")
	}
	return g
}

// same compares token lists treating nil and empty as equal.
func same(a, b []string) bool { return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b) }

func TestGoldenScikitLearn(t *testing.T) {
	g := loadGolden(t)
	ascii := &Chain{Lowercase: true, Tokenizer: ASCIITokenizer{}}
	for _, c := range g.Cases {
		if got := Lower(c.Input); got != c.Lower {
			t.Errorf("Lower(%q) = %q, Python %q", c.Input, got, c.Lower)
		}
		if got := Sklearn().Analyze(c.Input); !same(got, c.Word) {
			t.Errorf("Sklearn(%q) = %q, scikit-learn %q", c.Input, got, c.Word)
		}
		if got := SklearnEnglish().Analyze(c.Input); !same(got, c.English) {
			t.Errorf("SklearnEnglish(%q) = %q, scikit-learn %q", c.Input, got, c.English)
		}
		if got := ascii.Analyze(c.Input); !same(got, c.ASCII) {
			t.Errorf("[a-z0-9]+ on %q = %q, Python %q", c.Input, got, c.ASCII)
		}
		for _, w := range c.CharWB {
			if got := CharWB(w.Min, w.Max).Analyze(c.Input); !same(got, w.Ngrams) {
				t.Errorf("CharWB(%d, %d)(%q) =\n%q\nscikit-learn\n%q", w.Min, w.Max, c.Input, got, w.Ngrams)
			}
		}
	}
}

func digest(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// TestSeed000Sklearn checks Sklearn() on seed 000's Italian passages and
// questions, whose scikit-learn tokens are recorded by digest.
func TestSeed000Sklearn(t *testing.T) {
	g := loadGolden(t)
	var seed struct {
		Passages []struct {
			Text string `json:"text"`
		} `json:"passages"`
		Questions []struct {
			Question string `json:"question"`
		} `json:"questions"`
		Unanswerable []string `json:"unanswerable"`
	}
	loadJSON(t, filepath.Join(fixtures, "seed000-rulebook-it.json"), &seed)
	var texts []string
	for _, p := range seed.Passages {
		texts = append(texts, p.Text)
	}
	for _, q := range seed.Questions {
		texts = append(texts, q.Question)
	}
	texts = append(texts, seed.Unanswerable...)
	if len(texts) != len(g.Seed000) || len(texts) != 18+15+4 {
		t.Fatalf("%d texts, golden has %d, want 37", len(texts), len(g.Seed000))
	}
	for i, text := range texts {
		want := g.Seed000[i]
		if digest(text) != want.TextSHA256 {
			t.Fatalf("text %d differs from the one the golden was made from", i)
		}
		got := Sklearn().Analyze(text)
		if len(got) != want.Count || digest(strings.Join(got, "\n")) != want.TokensSHA256 {
			t.Errorf("text %d %q: tokens %q differ from scikit-learn's (%d tokens)", i, text, got, want.Count)
		}
	}
}

func TestStopLists(t *testing.T) {
	g := loadGolden(t)
	if got := SklearnEnglishStopWords.Words(); !slices.Equal(got, g.EnglishStopWords) {
		t.Errorf("SklearnEnglishStopWords differs from scikit-learn's ENGLISH_STOP_WORDS")
	}
	for _, c := range []struct {
		name string
		set  WordSet
		n    int
	}{
		{"sklearn", SklearnEnglishStopWords, 318},
		{"lucene", LuceneEnglishStopWords, 33},
		{"italian", ItalianStopWords, 279},
		{"seed001", Seed001StopWords, 30},
		{"seed002", Seed002StopWords, 33},
	} {
		if c.set.Len() != c.n {
			t.Errorf("%s: %d words, want %d", c.name, c.set.Len(), c.n)
		}
	}
	for _, c := range []struct {
		file string
		set  WordSet
	}{
		{"seed001-sops-en.json", Seed001StopWords},
		{"seed002-handbook-en.json", Seed002StopWords},
	} {
		var seed struct {
			StopWords []string `json:"stop_words"`
		}
		loadJSON(t, filepath.Join(fixtures, c.file), &seed)
		slices.Sort(seed.StopWords)
		if !slices.Equal(c.set.Words(), seed.StopWords) {
			t.Errorf("%s: stop words %q, fixture %q", c.file, c.set.Words(), seed.StopWords)
		}
	}
	for _, w := range []string{"dell", "nell", "all", "perché", "è", "più", "stessero"} {
		if !ItalianStopWords.Has(w) {
			t.Errorf("ItalianStopWords lacks %q", w)
		}
	}
}

func TestAnalyzers(t *testing.T) {
	for _, c := range []struct {
		name string
		an   Analyzer
		in   string
		want []string
	}{
		{"italian elision", Italian(), "dell'invio", []string{"invi"}},
		{"italian typographic apostrophe", Italian(), "Dell’Invio all’Ufficio", []string{"invi", "uffic"}},
		{"italian one-letter elision", Italian(), "l'uso c'è un'applicazione quest'anno", []string{"uso", "applic", "anno"}},
		{"italian sentence", Italian(), "Il rimborso delle spese è rimborsato entro cinque giorni.",
			[]string{"rimbors", "spes", "rimbors", "entro", "cinqu", "giorn"}},
		{"italian accents", Italian(), "La città è più bella", []string{"citt", "bell"}},
		{"italian codes", Italian(), "Errore ERR-4012.", []string{"error", "err-4012", "err", "4012"}},
		{"english stems", English(), "Refunds are refunded; the refunding company's policy.",
			[]string{"refund", "refund", "refund", "compani", "polici"}},
		{"english identifiers", English(), "See SOP-014 and v2.3.1.",
			[]string{"see", "sop-014", "sop", "014", "v2.3.1", "v2"}},
		{"english keeps content words", English(), "call the system", []string{"call", "system"}},
		{"sklearn english drops them", SklearnEnglish(), "call the system", nil},
		{"seed001", Seed001(), "How do I get the refund? SOP-014", []string{"refund", "sop", "014"}},
		{"seed001 keeps one letter", Seed001(), "a b c 5", []string{"b", "c", "5"}},
	} {
		if got := c.an.Analyze(c.in); !same(got, c.want) {
			t.Errorf("%s: Analyze(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

func TestIdentifierTokenizer(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"sop-014", []string{"sop-014", "sop", "014"}},
		{"err-4012 v2.3.1", []string{"err-4012", "err", "4012", "v2.3.1", "v2"}},
		{"end. next", []string{"end", "next"}},
		{"end.", []string{"end"}},
		{"-x- a--b a..b", []string{}},
		{"ab--cd a/b/c", []string{"ab", "cd", "a/b/c"}},
		{"https://example.com/path", []string{"https", "example.com/path", "example", "com", "path"}},
		{"dell'invio", []string{"dell", "invio"}},
		{"città-stato", []string{"città-stato", "città", "stato"}},
		{"snake_case x", []string{"snake_case"}},
	} {
		if got := (IdentifierTokenizer{}).Tokenize(c.in); !same(got, c.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLower(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"abc", "abc"},
		{"ABC dEf", "abc def"},
		{"ΟΔΟΣ", "οδος"},
		{"ΟΔΟΣ.", "οδος."},
		{"ΣΑ", "σα"},
		{"Σ", "σ"},
		{"Α'Σ'", "α'ς'"},
		{"İ", "i\u0307"},
		{"CITTÀ", "città"},
		{"\xffA", "\xffa"},
	} {
		if got := Lower(c.in); got != c.want {
			t.Errorf("Lower(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(10, func() { Lower("already lower") }); n != 0 {
		t.Errorf("Lower of lower-case ASCII allocates %v times", n)
	}
}

func TestStemmer(t *testing.T) {
	en, it := EnglishStemmer(), ItalianStemmer()
	for _, c := range []struct {
		s        Stemmer
		in, want string
	}{
		{en, "refunds", "refund"},
		{en, "generously", "generous"},
		{en, "sop-014", "sop-014"},
		{it, "rimborsato", "rimbors"},
		{it, "giorni", "giorn"},
	} {
		if got := c.s.Stem(c.in); got != c.want {
			t.Errorf("Stem(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	toks := []string{"refunds", "days"}
	if got := en.Filter(toks); !slices.Equal(got, []string{"refund", "day"}) {
		t.Errorf("Filter = %q", got)
	}
}

func TestCharWBRange(t *testing.T) {
	for _, r := range [][2]int{{0, 1}, {3, 2}, {-1, 4}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("CharWB(%d, %d) did not panic", r[0], r[1])
				}
			}()
			CharWB(r[0], r[1])
		}()
	}
}

func TestChainFilterOrder(t *testing.T) {
	c := &Chain{
		Tokenizer: TokenizerFunc(strings.Fields),
		Filters: []Filter{
			FilterFunc(func(ts []string) []string { return append(ts, "x") }),
			NewStopFilter(NewWordSet("x", "b")),
		},
	}
	if got := c.Analyze("a b C"); !slices.Equal(got, []string{"a", "C"}) {
		t.Errorf("Analyze = %q", got)
	}
	var _ Analyzer = AnalyzerFunc(strings.Fields)
}

func TestPorterStemmer(t *testing.T) {
	// Porter and Porter2 differ on words like "generously" and "fairly".
	p, s := PorterStemmer(), EnglishStemmer()
	if got := p.Stem("generalization"); got != "gener" {
		t.Errorf("porter generalization -> %q", got)
	}
	if p.Stem("fairly") == s.Stem("fairly") {
		t.Errorf("porter and porter2 agree on fairly (%q)", p.Stem("fairly"))
	}
}

// TestStemCacheConcurrent checks the memoised stems equal fresh ones when
// many goroutines fill the cache at once.
func TestStemCacheConcurrent(t *testing.T) {
	st := EnglishStemmer()
	words := strings.Fields("refunds refunded refunding approvals approved generously fairly running runs connection connections")
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				toks := append([]string(nil), words...)
				for i, got := range st.Filter(toks) {
					if want := st.Stem(words[i]); got != want {
						t.Errorf("%s: cached %q, fresh %q", words[i], got, want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}
