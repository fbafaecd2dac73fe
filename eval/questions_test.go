package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

func TestLoadQuestionsValid(t *testing.T) {
	qs, err := LoadQuestions(filepath.Join("testdata", "questions", "valid.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Question{
		{ID: "q1", Question: "How long is the warranty?", Answer: "Two years.",
			Gold: []Gold{{Doc: "docs/warranty.md", Quote: "The warranty lasts “two years” from delivery."}}, Split: "dev"},
		{ID: "q2", Question: "Who is the CEO?", Unanswerable: true, Split: "test"},
		{ID: "q3", Question: "Which ports and what voltage?",
			Gold: []Gold{{Doc: "manual.md", Quote: "USB-C port"}, {Doc: "manual.md", Quote: "5 V"}}},
	}
	if !reflect.DeepEqual(qs, want) {
		t.Errorf("LoadQuestions:\n got %#v\nwant %#v", qs, want)
	}
}

func TestLoadQuestionsErrors(t *testing.T) {
	const ok = `{"id":"a","question":"Q?","gold":[{"doc":"a.md","quote":"x"}]}`
	for _, tc := range []struct {
		name, body string
		line       int
		field      string // "" for the line as a whole
		msg        string
	}{
		{"missing id", `{"question":"Q?","unanswerable":true}`, 1, "id", "missing"},
		{"blank id", `{"id":"  ","question":"Q?","unanswerable":true}`, 1, "id", "missing"},
		{"null id", `{"id":null,"question":"Q?","unanswerable":true}`, 1, "id", "missing"},
		{"numeric id", `{"id":7,"question":"Q?","unanswerable":true}`, 1, "id", "want a string, got number"},
		{"duplicate id", ok + "\n// comment\n" + ok, 3, "id", `duplicate id "a", first on line 1`},
		{"empty question", `{"id":"a","question":" ","unanswerable":true}`, 1, "question", "missing"},
		{"no question", `{"id":"a","unanswerable":true}`, 1, "question", "missing"},
		{"both", `{"id":"a","question":"Q?","unanswerable":true,"gold":[{"doc":"a.md","quote":"x"}]}`, 1, "gold", "unanswerable"},
		{"neither", `{"id":"a","question":"Q?"}`, 1, "gold", "missing"},
		{"empty gold list", `{"id":"a","question":"Q?","gold":[]}`, 1, "gold", "missing"},
		{"unanswerable false, no gold", `{"id":"a","question":"Q?","unanswerable":false}`, 1, "gold", "missing"},
		{"answer on unanswerable", `{"id":"a","question":"Q?","unanswerable":true,"answer":"x"}`, 1, "answer", "unanswerable"},
		{"empty doc", `{"id":"a","question":"Q?","gold":[{"doc":"a.md","quote":"x"},{"doc":"","quote":"x"}]}`, 1, "gold[1].doc", "missing"},
		{"no doc", `{"id":"a","question":"Q?","gold":[{"quote":"x"}]}`, 1, "gold[0].doc", "missing"},
		{"absolute doc", `{"id":"a","question":"Q?","gold":[{"doc":"/a.md","quote":"x"}]}`, 1, "gold[0].doc", "relative"},
		{"dot doc", `{"id":"a","question":"Q?","gold":[{"doc":"./a.md","quote":"x"}]}`, 1, "gold[0].doc", "relative"},
		{"parent doc", `{"id":"a","question":"Q?","gold":[{"doc":"../a.md","quote":"x"}]}`, 1, "gold[0].doc", "relative"},
		{"backslash doc", `{"id":"a","question":"Q?","gold":[{"doc":"docs\\a.md","quote":"x"}]}`, 1, "gold[0].doc", "relative"},
		{"empty quote", `{"id":"a","question":"Q?","gold":[{"doc":"a.md","quote":""}]}`, 1, "gold[0].quote", "missing"},
		{"blank quote", `{"id":"a","question":"Q?","gold":[{"doc":"a.md","quote":" \u00a0\n"}]}`, 1, "gold[0].quote", "missing"},
		{"repeated gold", `{"id":"a","question":"Q?","gold":[{"doc":"a.md","quote":"x  y"},{"doc":"a.md","quote":"x y"}]}`, 1, "gold[1]", "repeats gold[0]"},
		{"misspelt field", `{"id":"a","question":"Q?","unanswerabe":true}`, 1, "unanswerabe", `unknown field; did you mean "unanswerable"?`},
		{"misspelt field, two edits", `{"id":"a","question":"Q?","unansverabe":true}`, 1, "unansverabe", `did you mean "unanswerable"?`},
		{"field in the wrong case", `{"id":"a","Question":"Q?","unanswerable":true}`, 1, "Question", `did you mean "question"? (field names are case-sensitive)`},
		{"ID in capitals", `{"ID":"a","question":"Q?","unanswerable":true}`, 1, "ID", `did you mean "id"?`},
		{"near-miss of a short field", `{"id":"a","question":"Q?","golds":[{"doc":"a.md","quote":"x"}]}`, 1, "golds", `did you mean "gold"?`},
		{"misspelt gold field", `{"id":"a","question":"Q?","gold":[{"doc":"a.md","qoute":"x"}]}`, 1, "gold[0].qoute", `did you mean "quote"?`},
		{"gold field in the wrong case", `{"id":"a","question":"Q?","gold":[{"Doc":"a.md","quote":"x"}]}`, 1, "gold[0].Doc", `did you mean "doc"?`},
		{"near miss after metadata", `{"id":"a","question":"Q?","answr":"y","category":"c","gold":[{"doc":"a.md","quote":"x"}]}`, 1, "answr", `did you mean "answer"?`},
		{"gold not a list", `{"id":"a","question":"Q?","gold":{"doc":"a.md","quote":"x"}}`, 1, "gold", "want a list, got object"},
		{"gold item not an object", `{"id":"a","question":"Q?","gold":["a.md"]}`, 1, "gold[0]", "not a JSON object"},
		{"unanswerable as string", `{"id":"a","question":"Q?","unanswerable":"yes"}`, 1, "unanswerable", "want true or false"},
		{"unknown split", ok + "\n" + `{"id":"b","question":"Q?","unanswerable":true,"split":"train"}`, 2, "split", `"train" is not a split`},
		{"split in capitals", `{"id":"a","question":"Q?","unanswerable":true,"split":"Test"}`, 1, "split", `"Test" is not a split`},
		{"split all", `{"id":"a","question":"Q?","unanswerable":true,"split":"all"}`, 1, "split", `"all" is not a split`},
		{"split not a string", `{"id":"a","question":"Q?","unanswerable":true,"split":1}`, 1, "split", "want a string, got number"},
		{"misspelt split", `{"id":"a","question":"Q?","unanswerable":true,"spilt":"dev"}`, 1, "spilt", `did you mean "split"?`},
		{"malformed", ok + "\n\n" + `{"id":"b","question":"Q?",}`, 3, "", "malformed JSON"},
		{"truncated", `{"id":"b","question":"Q?"`, 1, "", "malformed JSON"},
		{"trailing data", ok + ` x`, 1, "", "malformed JSON"},
		{"two objects", ok + ok, 1, "", "malformed JSON"},
		{"array", `[1]`, 1, "", "not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "set.jsonl")
			if err := os.WriteFile(path, []byte(tc.body+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadQuestions(path)
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("error %v, want a *LineError", err)
			}
			if le.File != path || le.Line != tc.line || le.Field != tc.field || !strings.Contains(le.Err.Error(), tc.msg) {
				t.Errorf("got %+v, want line %d field %q message containing %q", le, tc.line, tc.field, tc.msg)
			}
			prefix := path + ":" + strconv.Itoa(tc.line) + ": "
			if tc.field != "" {
				prefix += tc.field + ": "
			}
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("message %q does not start with %q", err, prefix)
			}
		})
	}
}

func TestLoadQuestionsMissingOrEmpty(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadQuestions(filepath.Join(dir, "nope.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %v, want not exist", err)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, []byte("# only a comment\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadQuestions(empty); err == nil || !strings.Contains(err.Error(), "empty.jsonl: no questions") {
		t.Errorf("empty set: error %v", err)
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"  a \t b\n\nc  ":            "a b c",
		"it\u2019s \u201Cfine\u201D": `it's "fine"`,
		"\u2018x\u2019":              "'x'",
		"5\u00a0V":                   "5 V",
		"a\u202f\u2003\u3000b":       "a b",
		"Case Kept":                  "Case Kept",
		"":                           "",
		" \u00a0 ":                   "",
	} {
		if got := normalize(in); got != want {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsHit(t *testing.T) {
	q := Question{ID: "q", Question: "?", Gold: []Gold{
		{Doc: "docs/warranty.md", Quote: "The warranty lasts \u201Ctwo years\u201D from\ndelivery."},
		{Doc: "faq.md", Quote: "it's free"},
	}}
	for _, tc := range []struct {
		doc, text string
		want      bool
	}{
		{"docs/warranty.md", `Terms. The warranty lasts "two years" from delivery. Other.`, true},
		{"docs/warranty.md", "The  warranty\u00a0lasts \u201Ctwo years\u201D\n\tfrom delivery.", true},
		{"docs/warranty.md", "The warranty lasts two years from delivery.", false},     // quotes are text too
		{"docs/warranty.md", "the warranty lasts \"two years\" from delivery.", false}, // case-sensitive
		{"docs/warranty.md", `The warranty lasts "two years"`, false},                  // partial quote
		{"other.md", `The warranty lasts "two years" from delivery.`, false},           // wrong document
		{"faq.md", "Yes, it\u2019s free.", true},
		{"docs/warranty.md", "Yes, it's free.", false}, // right quote, wrong document
	} {
		if got := IsHit(q, tc.doc, tc.text); got != tc.want {
			t.Errorf("IsHit(%q, %q) = %v, want %v", tc.doc, tc.text, got, tc.want)
		}
	}
	if IsHit(Question{ID: "u", Question: "?", Unanswerable: true}, "faq.md", "anything") {
		t.Error("an unanswerable question has no hits")
	}
}

func hit(doc, text string, score float64) fonte.Hit {
	return fonte.Hit{Chunk: fonte.Chunk{ID: doc + "#", DocID: doc, Text: text}, Score: score}
}

// Three gold items; the ranking finds item 1 at rank 2, item 0 at rank 3
// (rank 1 quotes it from the wrong document) and misses item 2.
func TestGoldRanksAndQuestionRun(t *testing.T) {
	q := Question{ID: "q", Question: "?", Gold: []Gold{
		{Doc: "a.md", Quote: "alpha"}, {Doc: "b.md", Quote: "beta"}, {Doc: "c.md", Quote: "gamma"},
	}}
	hits := []fonte.Hit{
		hit("x.md", "alpha beta gamma", 0.9),
		hit("b.md", "the beta part", 0.8),
		hit("a.md", "the alpha part", 0.7),
		hit("b.md", "beta again", 0.6),
	}
	if got := GoldRanks(q, hits); !reflect.DeepEqual(got, []int{3, 2, 0}) {
		t.Errorf("GoldRanks = %v", got)
	}
	u := Question{ID: "u", Question: "?", Unanswerable: true}
	noHits := Question{ID: "n", Question: "?", Gold: []Gold{{Doc: "a.md", Quote: "alpha"}}}
	qrels, run := QuestionRun([]Question{q, u, noHits}, map[string][]fonte.Hit{"q": hits, "u": hits})
	wantRun := Run{"q": {"hit/1", "gold/1", "gold/0", "hit/4"}, "n": {}}
	if !reflect.DeepEqual(run, wantRun) {
		t.Errorf("run = %v", run)
	}
	wantQrels := Qrels{"q": {"gold/0": 1, "gold/1": 1, "gold/2": 1}, "n": {"gold/0": 1}}
	if !reflect.DeepEqual(qrels, wantQrels) {
		t.Errorf("qrels = %v", qrels)
	}
	r := ScoreRun(qrels, run)
	// q: first gold at rank 2; recall@10 2/3. n: nothing, scores 0.
	want := Retrieval{Hit1: 0, Hit3: 0.5, Hit5: 0.5, Recall10: 1.0 / 3, Recall100: 1.0 / 3, MRR: 0.25, Queries: 2,
		NDCG10: (1/math.Log2(3) + 1/math.Log2(4)) / (1 + 1/math.Log2(3) + 1/math.Log2(4)) / 2}
	if !retrievalNear(r, want) {
		t.Errorf("ScoreRun =\n %+v\nwant\n %+v", r, want)
	}
}

// A chunk holding two gold quotes credits one of them; the other counts
// when a later hit contains it.
func TestQuestionRunOneCreditPerHit(t *testing.T) {
	q := Question{ID: "q", Question: "?", Gold: []Gold{{Doc: "a.md", Quote: "alpha"}, {Doc: "a.md", Quote: "beta"}}}
	hits := []fonte.Hit{hit("a.md", "alpha and beta", 1), hit("z.md", "", 0.5), hit("a.md", "only beta", 0.4)}
	_, run := QuestionRun([]Question{q}, map[string][]fonte.Hit{"q": hits})
	if want := []string{"gold/0", "hit/2", "gold/1"}; !reflect.DeepEqual(run["q"], want) {
		t.Errorf("ranking = %v, want %v", run["q"], want)
	}
	if got := GoldRanks(q, hits); !reflect.DeepEqual(got, []int{1, 1}) {
		t.Errorf("GoldRanks = %v: both quotes are in the first hit", got)
	}
}

func TestTopScores(t *testing.T) {
	qs := []Question{
		{ID: "a", Question: "?", Gold: []Gold{{Doc: "a.md", Quote: "x"}}},
		{ID: "u", Question: "?", Unanswerable: true},
		{ID: "b", Question: "?", Gold: []Gold{{Doc: "a.md", Quote: "x"}}},
	}
	hits := map[string][]fonte.Hit{
		"a": {hit("a.md", "", 0.3), hit("a.md", "", 0.5)}, // the best, not the first
		"u": {hit("a.md", "", 0.2)},
	}
	ans, unans := TopScores(qs, hits)
	if len(ans) != 2 || ans[0] != 0.5 || !math.IsInf(ans[1], -1) || !reflect.DeepEqual(unans, []float64{0.2}) {
		t.Errorf("TopScores = %v, %v", ans, unans)
	}
}

func retrievalNear(a, b Retrieval) bool {
	return near(a.Hit1, b.Hit1) && near(a.Hit3, b.Hit3) && near(a.Hit5, b.Hit5) &&
		near(a.Recall10, b.Recall10) && near(a.Recall100, b.Recall100) &&
		near(a.MRR, b.MRR) && near(a.NDCG10, b.NDCG10) && a.Queries == b.Queries
}

// Any line either fails with a field-naming error or yields a question
// that survives a JSON round trip unchanged.
func FuzzParseQuestion(f *testing.F) {
	f.Add([]byte(`{"id":"a","question":"Q?","gold":[{"doc":"a.md","quote":"x"}],"answer":"y"}`))
	f.Add([]byte(`{"id":"u","question":"Q?","unanswerable":true}`))
	f.Add([]byte(`{"id":"a","question":"Q?","gold":[{"doc":"a/../b","quote":" "}]}`))
	f.Add([]byte(`[{"id":1}]`))
	f.Fuzz(func(t *testing.T, line []byte) {
		q, _, field, err := parseQuestion(line)
		if err != nil {
			return
		}
		if field != "" {
			t.Fatalf("field %q without an error", field)
		}
		data, err := json.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		again, unknown, _, err := parseQuestion(data)
		if len(unknown) > 0 {
			t.Fatalf("round trip of %s: unknown fields %v", data, unknown)
		}
		if err != nil || !reflect.DeepEqual(again, q) {
			t.Fatalf("round trip of %s: %+v, %v", data, again, err)
		}
	})
}

func TestLoadQuestionsUnknownFields(t *testing.T) {
	body := strings.Join([]string{
		`{"id":"a","question":"Q?","category":"setup","gold":[{"doc":"a.md","quote":"x","page":3}]}`,
		`{"id":"b","question":"Q?","category":"setup","ts":"2024","unanswerable":true}`,
		`# a comment`,
		`{"id":"c","question":"Q?","category":"other","unanswerable":true}`,
		`{"id":"d","question":"Q?","unanswerable":true}`,
		`{"id":"e","question":"Q?","category":"x","source":"manual","gold":[{"doc":"a.md","quote":"x"}]}`,
	}, "\n")
	path := filepath.Join(t.TempDir(), "set.jsonl")
	if err := os.WriteFile(path, []byte(body+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, warnings, err := LoadQuestionsWarn(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 5 || qs[0].Gold[0] != (Gold{Doc: "a.md", Quote: "x"}) || !qs[1].Unanswerable {
		t.Errorf("questions %+v", qs)
	}
	want := path + ": ignored fields fonte does not know: category (lines 1-2, 4, 6), gold[].page (line 1), source (line 6), ts (line 2)"
	if len(warnings) != 1 || warnings[0] != want {
		t.Errorf("warnings %q\nwant [%q]", warnings, want)
	}

	// LoadQuestions reads the same questions and logs the warning.
	var log bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&log, nil)))
	defer slog.SetDefault(prev)
	got, err := LoadQuestions(path)
	if err != nil || !reflect.DeepEqual(got, qs) {
		t.Errorf("LoadQuestions: %+v, %v", got, err)
	}
	if n := strings.Count(log.String(), "level=WARN"); n != 1 || !strings.Contains(log.String(), "gold[].page (line 1)") {
		t.Errorf("log %q, want one warning", log.String())
	}

	// A set without unknown fields warns of nothing.
	if _, warnings, err := ReadQuestionsWarn(strings.NewReader(`{"id":"a","question":"Q?","unanswerable":true}`), "s"); err != nil || warnings != nil {
		t.Errorf("plain set: %q, %v", warnings, err)
	}
}

func TestLineRanges(t *testing.T) {
	for _, tc := range []struct {
		lines []int
		want  string
	}{
		{[]int{4}, "line 4"},
		{[]int{1, 2, 3, 7}, "lines 1-3, 7"},
		{[]int{1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 22}, "lines 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, ... (12 lines)"},
	} {
		if got := lineRanges(tc.lines); got != tc.want {
			t.Errorf("lineRanges(%v) = %q, want %q", tc.lines, got, tc.want)
		}
	}
}

func TestResembles(t *testing.T) {
	for _, tc := range []struct {
		name, want string
	}{
		{"unanswerabe", "unanswerable"},
		{"Unanswerable", "unanswerable"},
		{"questoin", "question"},
		{"qid", "id"},
		{"ts", ""}, // two edits from "id", but "id" is short
		{"category", ""},
		{"source", ""},
		{"gold_quote", ""},
		{"notes", ""},
	} {
		if got, _ := resembles(tc.name, questionFields); got != tc.want {
			t.Errorf("resembles(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
