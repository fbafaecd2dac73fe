package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// devQuestions returns the example set's dev questions as JSON objects;
// the tests below relabel them, so no test question of the set is run.
func devQuestions(t *testing.T) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(examplesDir, "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//") {
			continue
		}
		var q map[string]any
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			t.Fatal(err)
		}
		if q["split"] == "dev" {
			qs = append(qs, q)
		}
	}
	if len(qs) < 10 {
		t.Fatalf("examples/questions.jsonl has %d dev questions; the tests need 10", len(qs))
	}
	return qs
}

// splitCounts is how many questions, answerable and unanswerable, a
// split holds.
type splitCounts struct{ all, answerable, unanswerable int }

// writeRelabelled writes qs to a question file with split(i) as the i-th
// question's split ("" for none) and returns the file and the counts by
// split ("none" for no split).
func writeRelabelled(t *testing.T, qs []map[string]any, split func(i int) string) (string, map[string]splitCounts) {
	t.Helper()
	var buf bytes.Buffer
	counts := map[string]splitCounts{}
	for i, q := range qs {
		c := make(map[string]any, len(q))
		for k, v := range q {
			c[k] = v
		}
		name := split(i)
		delete(c, "split")
		if name != "" {
			c["split"] = name
		} else {
			name = "none"
		}
		line, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(append(line, '\n'))
		n := counts[name]
		n.all++
		if c["unanswerable"] == true {
			n.unanswerable++
		} else {
			n.answerable++
		}
		counts[name] = n
	}
	path := filepath.Join(t.TempDir(), "questions.jsonl")
	writeFile(t, path, buf.Bytes())
	return path, counts
}

// fonte eval reports dev and test apart, in text and JSON, never one
// figure over both; --split selects one.
func TestE2EEvalReportsSplitsApart(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	path, counts := writeRelabelled(t, devQuestions(t), func(i int) string { return []string{"dev", "test"}[i%2] })

	text := mustOK(t, run{}, "eval", "--questions", path, "--index", idx, "--no-generation")
	headings := regexp.MustCompile(`(?m)^split (\w+): (\d+) questions \((\d+) answerable, (\d+) unanswerable\)$`).FindAllStringSubmatch(text, -1)
	var names []string
	for _, h := range headings {
		names = append(names, h[1])
		c := counts[h[1]]
		if want := fmt.Sprintf("%d %d %d", c.all, c.answerable, c.unanswerable); strings.Join(h[2:], " ") != want {
			t.Errorf("heading %q: want counts %s", h[0], want)
		}
	}
	if !slices.Equal(names, []string{"dev", "test"}) {
		t.Fatalf("text report headed %v, want dev then test:\n%s", names, text)
	}
	// Each split has its own retrieval block over its own answerable
	// questions, and there is no block over both.
	queries := regexp.MustCompile(`(?m)^retrieval, (\d+) queries$`).FindAllStringSubmatch(text, -1)
	if len(queries) != 2 || queries[0][1] != fmt.Sprint(counts["dev"].answerable) || queries[1][1] != fmt.Sprint(counts["test"].answerable) {
		t.Errorf("retrieval blocks %v, want one of %d queries then one of %d", queries, counts["dev"].answerable, counts["test"].answerable)
	}

	svg := filepath.Join(t.TempDir(), "charts")
	out := mustOK(t, run{}, "eval", "--questions", path, "--index", idx, "--json", "--no-generation", "--svg", svg)
	var bySplit map[string]struct {
		Retrieval struct {
			Queries int `json:"queries"`
		} `json:"retrieval"`
		QuestionCount     *int `json:"question_count"`
		AnswerableCount   *int `json:"answerable_count"`
		UnanswerableCount *int `json:"unanswerable_count"`
	}
	if err := json.Unmarshal([]byte(out), &bySplit); err != nil {
		t.Fatalf("eval --json: %v\n%s", err, out)
	}
	if len(bySplit) != 2 {
		t.Errorf("eval --json keys: %d splits, want dev and test:\n%s", len(bySplit), out)
	}
	for _, name := range []string{"dev", "test"} {
		r, ok := bySplit[name]
		c := counts[name]
		switch {
		case !ok:
			t.Errorf("eval --json has no %q report:\n%s", name, out)
		case r.QuestionCount == nil || r.AnswerableCount == nil || r.UnanswerableCount == nil:
			t.Errorf("%s: counts missing:\n%s", name, out)
		case *r.QuestionCount != c.all || *r.AnswerableCount != c.answerable || *r.UnanswerableCount != c.unanswerable:
			t.Errorf("%s: counts %d/%d/%d, want %+v", name, *r.QuestionCount, *r.AnswerableCount, *r.UnanswerableCount, c)
		case r.Retrieval.Queries != c.answerable:
			t.Errorf("%s: retrieval over %d queries, want its %d answerable questions", name, r.Retrieval.Queries, c.answerable)
		}
		if _, err := os.Stat(filepath.Join(svg, name, "recall.svg")); err != nil {
			t.Errorf("--svg: no chart for %s: %v", name, err)
		}
	}

	out = mustOK(t, run{}, "eval", "--questions", path, "--index", idx, "--json", "--no-generation", "--split", "test")
	only := requireKeys(t, "eval --split test --json", out, "test")
	if len(only) != 1 {
		t.Errorf("eval --split test reports %d splits, want test alone:\n%s", len(only), out)
	}
}

// A set without splits reports as before; asking it for a split it lacks,
// or for an unknown split, is an error.
func TestE2EEvalUnsplitSet(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	path, _ := writeRelabelled(t, devQuestions(t), func(int) string { return "" })
	out := mustOK(t, run{}, "eval", "--questions", path, "--index", idx, "--json", "--no-generation")
	requireKeys(t, "eval --json of an unsplit set", out, "retrieval", "abstain")

	res := run{}.exec(t, "eval", "--questions", path, "--index", idx, "--split", "dev")
	if res.code == 0 || !strings.Contains(res.stderr, "no question of the set is in split dev") {
		t.Errorf("eval --split dev of an unsplit set: want an error saying it has no dev question; got %s", res)
	}
	res = run{}.exec(t, "eval", "--questions", path, "--index", idx, "--split", "train")
	if res.code != exitUsage || !strings.Contains(res.stderr, `--split "train"`) {
		t.Errorf("eval --split train: want a usage error naming the flag; got %s", res)
	}
}

// The test split suggests no abstain floor (floors are chosen on dev):
// it shows what the floor dev suggested does on its questions instead,
// overall and per language, in text and JSON.
func TestE2EEvalTestSplitSuggestsNoFloor(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	path, _ := writeRelabelled(t, devQuestions(t), func(i int) string { return []string{"dev", "test"}[i%2] })

	type block struct {
		Floor          float64  `json:"floor"`
		SuggestedFloor *float64 `json:"suggested_floor"`
		HeldOut        bool     `json:"held_out"`
		DevFloor       *struct {
			Floor      float64 `json:"floor"`
			LetThrough int     `json:"let_through"`
			Blocked    int     `json:"blocked"`
		} `json:"dev_floor"`
	}
	var bySplit map[string]struct {
		Abstain           *block            `json:"abstain"`
		AbstainByLanguage map[string]*block `json:"abstain_by_language"`
	}
	out := mustOK(t, run{}, "eval", "--questions", path, "--index", idx, "--json", "--no-generation")
	if err := json.Unmarshal([]byte(out), &bySplit); err != nil {
		t.Fatalf("eval --json: %v\n%s", err, out)
	}
	dev, test := bySplit["dev"].Abstain, bySplit["test"].Abstain
	if dev == nil || test == nil {
		t.Fatalf("eval --json: no abstain block for dev or test:\n%s", out)
	}
	if dev.SuggestedFloor == nil || dev.HeldOut {
		t.Fatalf("dev suggests no floor (held out %v): the test shows nothing:\n%s", dev.HeldOut, out)
	}
	if !test.HeldOut || test.SuggestedFloor != nil || test.DevFloor == nil || test.DevFloor.Floor != *dev.SuggestedFloor {
		t.Errorf("test: held out %v, suggested %v, dev floor %+v; want no suggestion and dev's %v read on test", test.HeldOut, test.SuggestedFloor, test.DevFloor, *dev.SuggestedFloor)
	}
	if len(bySplit["test"].AbstainByLanguage) == 0 {
		t.Errorf("test: no block per language:\n%s", out)
	}
	for lang, b := range bySplit["test"].AbstainByLanguage {
		d := bySplit["dev"].AbstainByLanguage[lang]
		if !b.HeldOut || b.SuggestedFloor != nil || (d != nil && d.SuggestedFloor != nil) != (b.DevFloor != nil) {
			t.Errorf("test, %s: held out %v, suggested %v, dev floor %+v; dev's block %+v", lang, b.HeldOut, b.SuggestedFloor, b.DevFloor, d)
		}
	}

	text := mustOK(t, run{}, "eval", "--questions", path, "--index", idx, "--no-generation")
	devText, testText, ok := strings.Cut(text, "\nsplit test: ")
	if !ok {
		t.Fatalf("no test split in:\n%s", text)
	}
	if !regexp.MustCompile(`(?m)^  suggested floor +\d`).MatchString(devText) || strings.Contains(devText, "held-out") {
		t.Errorf("dev's report does not suggest a floor:\n%s", devText)
	}
	if regexp.MustCompile(`(?m)^  suggested floor +\d|  suggested$`).MatchString(testText) ||
		!strings.Contains(testText, "none on a held-out split: floors are chosen on dev") ||
		!regexp.MustCompile(`(?m)^  dev's suggested floor +[0-9.]+: lets through \d`).MatchString(testText) {
		t.Errorf("the test split's report suggests a floor of its own or lacks dev's:\n%s", testText)
	}

	// Asked alone, the test split still suggests nothing.
	alone := mustOK(t, run{}, "eval", "--questions", path, "--index", idx, "--no-generation", "--split", "test")
	if regexp.MustCompile(`(?m)^  suggested floor +\d`).MatchString(alone) || !strings.Contains(alone, "none on a held-out split") {
		t.Errorf("eval --split test suggests a floor:\n%s", alone)
	}
}
