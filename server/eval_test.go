package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"strings"
	"testing"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/retrieve"
	"github.com/fonte-rag/fonte/server"
)

// startEval is start with a question folder (Options.EvalDir), failing
// if the server logs an error.
func startEval(t *testing.T, evalDir string) *testServer {
	t.Helper()
	return start(t, config{evalDir: evalDir, noErrors: true})
}

// evalFolder is a question folder holding a copy of the handbook's
// questions, a file that is not a question set, and files that are not
// offered (another extension, a sub-folder).
func evalFolder(t *testing.T) (dir string, questions []byte) {
	t.Helper()
	questions, err := os.ReadFile("../examples/questions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	for name, content := range map[string]string{
		"handbook.jsonl":   string(questions),
		"broken.jsonl":     "{\"id\": \"a\", \"question\": \"q?\", \"unanswerable\": true}\n{\"id\": \"b\", \"questoin\": \"typo\"}\n",
		"notes.txt":        "not a question set",
		"sub/nested.jsonl": string(questions),
		"../outside.jsonl": string(questions),
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, questions
}

func TestEvalFiles(t *testing.T) {
	dir, questions := evalFolder(t)
	ts := startEval(t, dir)
	for _, path := range []string{"/v1/eval/files", "/v1/collections/default/eval/files"} {
		status, raw, _ := ts.call(t, "GET", path, adminToken, nil)
		if status != 200 {
			t.Fatalf("GET %s: %d %s", path, status, raw)
		}
		var got server.EvalFilesResponse
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Files) != 2 {
			t.Fatalf("files: %s", raw)
		}
		broken, handbook := got.Files[0], got.Files[1]
		if handbook.Name != "handbook.jsonl" || handbook.Questions != strings.Count(string(questions), "\n") || handbook.Bytes != int64(len(questions)) || handbook.Error != "" {
			t.Errorf("handbook.jsonl: %+v", handbook)
		}
		if broken.Name != "broken.jsonl" || !strings.Contains(broken.Error, "broken.jsonl:2") {
			t.Errorf("broken.jsonl: %+v", broken)
		}
	}
	if status, raw, _ := ts.call(t, "GET", "/v1/eval/files", readToken, nil); status != 403 {
		t.Errorf("read token: %d %s", status, raw)
	}
	// No folder: no files.
	none := startEval(t, "")
	if status, raw, _ := none.call(t, "GET", "/v1/eval/files", adminToken, nil); status != 200 || string(raw) != "{\"files\":[]}\n" {
		t.Errorf("no eval folder: %d %s", status, raw)
	}
}

func TestEval(t *testing.T) {
	dir, questions := evalFolder(t)
	ts := startEval(t, dir)
	all, err := eval.LoadQuestions("../examples/questions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// The set is split: without a split asked for, its dev part is
	// evaluated, never dev and test mixed.
	parts, err := eval.Parts(all, eval.SplitDev)
	if err != nil {
		t.Fatal(err)
	}
	qs := parts[0].Questions
	if len(qs) == 0 || len(qs) == len(all) {
		t.Fatalf("the example set's dev part has %d of %d questions", len(qs), len(all))
	}
	want := map[string]*engine.EvalResult{}
	for _, m := range []retrieve.Mode{retrieve.Hybrid, retrieve.BM25, retrieve.Dense} {
		r, err := ts.engine.EvalQuestions(t.Context(), qs, engine.EvalOptions{Mode: m, Depth: 100, TargetShare: 0.2, Generation: true})
		if err != nil {
			t.Fatal(err)
		}
		want[string(m)] = r
	}
	bodies := map[string]any{
		"questions": map[string]any{"questions": string(questions)},
		"file":      map[string]any{"file": "handbook.jsonl"},
	}
	// Without retrievers named, the collection's own comes first (BM25
	// with the built-in embedder), so the floor analysed is the one the
	// collection answers with.
	own := string(ts.engine.Settings().Mode)
	if own != "bm25" {
		t.Fatalf("the test collection's retriever is %q, want bm25 (the built-in embedder's default)", own)
	}
	for how, body := range bodies {
		status, raw, _ := ts.call(t, "POST", "/v1/eval", adminToken, body)
		if status != 200 {
			t.Fatalf("%s: %d %s", how, status, raw)
		}
		var got server.EvalResponse
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		if got.Collection != "default" || got.Split != "dev" || got.Questions != len(qs) || got.Retriever != own || len(got.Retrievers) != 3 {
			t.Fatalf("%s: %s", how, raw[:min(len(raw), 400)])
		}
		for name, w := range want {
			g := got.Retrievers[name]
			if g.Retrieval != w.Report.Retrieval || g.Retriever != name || g.K != w.Report.K {
				t.Errorf("%s: %s: %+v, want %+v", how, name, g.Retrieval, w.Report.Retrieval)
			}
			if len(g.Recall) != 100 || g.Recall[99] != w.Recall[99] || g.Recall[0] != w.Recall[0] {
				t.Errorf("%s: %s recall: %v", how, name, g.Recall)
			}
			if (g.Generation == nil) != (w.Report.Generation == nil) || g.Generation != nil && *g.Generation != *w.Report.Generation {
				t.Errorf("%s: %s generation: %+v, want %+v", how, name, g.Generation, w.Report.Generation)
			}
		}
		a := want[own].Report.Abstain
		if a == nil || got.Floor.InUse != a.Floor || len(got.Floor.Rows) != len(a.Curve) || (got.Floor.Suggested == nil) != (a.SuggestedFloor == nil) {
			t.Errorf("%s: floor %+v, want %+v", how, got.Floor, a)
		}
		if ans, unans := a.Totals(); got.Floor.Answerable != ans || got.Floor.Unanswerable != unans || unans == 0 {
			t.Errorf("%s: floor totals %d/%d, want %d/%d", how, got.Floor.Answerable, got.Floor.Unanswerable, ans, unans)
		}
		if !strings.HasPrefix(got.Plots.Floor, "<svg") || !strings.HasPrefix(got.Plots.Recall, "<svg") {
			t.Errorf("%s: plots %.40q %.40q", how, got.Plots.Floor, got.Plots.Recall)
		}
		if len(got.PerQuestion) != len(qs) || got.PerQuestion[0].ID != qs[0].ID || got.PerQuestion[0].GoldRank != want[own].Questions[0].GoldRank {
			t.Errorf("%s: per question: %+v", how, got.PerQuestion[:min(len(got.PerQuestion), 1)])
		}
		for _, key := range []string{`"hit@1"`, `"ndcg@10"`, `"abstain"`, `"suggested_floor"`, `"recall":[`, `"in_use"`, `"suggested"`, `"rows":[{"floor"`, `"let_through"`, `"per_question":[{"id"`, `"gold_rank"`} {
			if !strings.Contains(string(raw), key) {
				t.Errorf("%s: no %s in the response", how, key)
			}
		}
	}
	// The test part when asked for, and a set without splits whole.
	for _, c := range []struct {
		body  map[string]any
		split string
		n     int
	}{
		{map[string]any{"file": "handbook.jsonl", "split": "test", "generation": false}, "test", len(all) - len(qs)},
		{map[string]any{"questions": "{\"id\": \"a\", \"question\": \"How many vacation days do I get?\", \"unanswerable\": true}\n", "generation": false}, "none", 1},
	} {
		status, raw, _ := ts.call(t, "POST", "/v1/eval", adminToken, c.body)
		var got server.EvalResponse
		if status != 200 || json.Unmarshal(raw, &got) != nil || got.Split != c.split || got.Questions != c.n || len(got.PerQuestion) != c.n {
			t.Errorf("%v: %d split %q, %d questions, want %q and %d", c.body, status, got.Split, got.Questions, c.split, c.n)
		}
		// Floors are chosen on dev: the test part suggests none, in the
		// floor block and in each retriever's report.
		test := c.split == eval.SplitTest
		if got.Floor.HeldOut != test || test && got.Floor.Suggested != nil {
			t.Errorf("%v: floor held out %v, suggested %v", c.body, got.Floor.HeldOut, got.Floor.Suggested)
		}
		for name, r := range got.Retrievers {
			if a := r.Abstain; a == nil || a.HeldOut != test || test && a.SuggestedFloor != nil {
				t.Errorf("%v: %s's abstain block %+v", c.body, name, a)
			}
		}
	}
	// One retriever, the options, on a named collection route.
	status, raw, _ := ts.call(t, "POST", "/v1/collections/default/eval", adminToken,
		map[string]any{"file": "handbook.jsonl", "retrievers": []string{"tfidf"}, "k": 5, "depth": 20, "target": 0.5, "generation": false})
	if status != 200 {
		t.Fatalf("tfidf: %d %s", status, raw)
	}
	var got server.EvalResponse
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	r, err := ts.engine.EvalQuestions(t.Context(), qs, engine.EvalOptions{Mode: retrieve.TFIDF, Depth: 20, K: 5, TargetShare: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	g := got.Retrievers["tfidf"]
	if got.Retriever != "tfidf" || len(got.Retrievers) != 1 || g.Retrieval != r.Report.Retrieval || len(g.Recall) != 20 || g.K != 5 || g.Generation != nil {
		t.Errorf("tfidf: %s", raw[:min(len(raw), 600)])
	}
}

func TestEvalProblems(t *testing.T) {
	dir, questions := evalFolder(t)
	ts := startEval(t, dir)
	cases := []struct {
		name   string
		body   any
		status int
		field  string
		detail string
	}{
		{"neither", map[string]any{}, 400, "questions", "exactly one"},
		{"both", map[string]any{"questions": string(questions), "file": "handbook.jsonl"}, 400, "questions", "exactly one"},
		{"slash", map[string]any{"file": "sub/nested.jsonl"}, 400, "file", "bare name"},
		{"dot-dot", map[string]any{"file": "../outside.jsonl"}, 400, "file", "bare name"},
		{"dot-dot only", map[string]any{"file": "..jsonl"}, 400, "file", "bare name"},
		{"absolute", map[string]any{"file": "/etc/passwd"}, 400, "file", "bare name"},
		{"not jsonl", map[string]any{"file": "notes.txt"}, 400, "file", "bare name"},
		{"missing", map[string]any{"file": "nothing.jsonl"}, 400, "file", "no question file"},
		{"broken file", map[string]any{"file": "broken.jsonl"}, 400, "file", "broken.jsonl:2"},
		{"bad line", map[string]any{"questions": "{\"id\": \"a\", \"question\": \"q?\", \"unanswerable\": true}\n\n{\"id\": \"b\", \"question\": 3}\n"}, 400, "questions", "line 3: question"},
		{"not json", map[string]any{"questions": "{\"id\": \"a\", \"question\": \"q?\", \"unanswerable\": true}\nnot json\n"}, 400, "questions", "line 2"},
		{"empty", map[string]any{"questions": "\n"}, 400, "questions", "no question"},
		{"retriever", map[string]any{"file": "handbook.jsonl", "retrievers": []string{"hybrid", "magic"}}, 400, "retrievers", `"magic": want auto, hybrid, bm25, tfidf or vector`},
		{"twice", map[string]any{"file": "handbook.jsonl", "retrievers": []string{"bm25", "BM25"}}, 400, "retrievers", "twice"},
		{"auto is the own", map[string]any{"file": "handbook.jsonl", "retrievers": []string{"auto", "bm25"}}, 400, "retrievers", "twice"},
		{"k", map[string]any{"file": "handbook.jsonl", "k": 0}, 400, "k", ""},
		{"depth", map[string]any{"file": "handbook.jsonl", "depth": 5000}, 400, "depth", ""},
		{"target", map[string]any{"file": "handbook.jsonl", "target": 1.5}, 400, "target", ""},
		{"type", map[string]any{"file": "handbook.jsonl", "generation": "yes"}, 400, "generation", ""},
		{"unknown", map[string]any{"file": "handbook.jsonl", "retriever": "bm25"}, 400, "retriever", ""},
		{"split", map[string]any{"file": "handbook.jsonl", "split": "train"}, 400, "split", "want dev, test or none"},
		{"split absent", map[string]any{"file": "handbook.jsonl", "split": "none"}, 400, "split", "no question in split none"},
	}
	for _, c := range cases {
		status, raw, _ := ts.call(t, "POST", "/v1/eval", adminToken, c.body)
		var p server.Problem
		_ = json.Unmarshal(raw, &p)
		if status != c.status || p.Field != c.field || !strings.Contains(p.Detail, c.detail) {
			t.Errorf("%s: %d %s, want %d naming %s", c.name, status, raw, c.status, c.field)
		}
	}
	const line = "{\"id\": \"q%d\", \"question\": \"q?\", \"unanswerable\": true}\n"
	var b strings.Builder
	for i := range server.MaxEvalQuestions + 1 {
		fmt.Fprintf(&b, line, i)
	}
	if status, raw, _ := ts.call(t, "POST", "/v1/eval", adminToken, map[string]any{"questions": b.String()}); status != 400 || !strings.Contains(string(raw), `"field":"questions"`) {
		t.Errorf("too many questions: %d %s", status, raw)
	}
	// A body of a few MB is taken; one over the limit is a 413.
	if status, raw, _ := ts.call(t, "POST", "/v1/eval", adminToken, map[string]any{"questions": strings.Repeat(" ", 3<<20) + string(questions), "retrievers": []string{"bm25"}, "generation": false}); status != 200 {
		t.Errorf("a 3 MB body: %d %.300s", status, raw)
	}
	if status, raw, _ := ts.call(t, "POST", "/v1/eval", adminToken, map[string]any{"questions": strings.Repeat(" ", server.MaxEvalBodyBytes)}); status != 413 || !strings.Contains(string(raw), "body-too-large") {
		t.Errorf("a body over the limit: %d %.300s", status, raw)
	}
	if status, raw, _ := ts.call(t, "POST", "/v1/eval", readToken, map[string]any{"file": "handbook.jsonl"}); status != 403 {
		t.Errorf("read token: %d %s", status, raw)
	}
	if status, raw, _ := ts.call(t, "POST", "/v1/collections/nope/eval", adminToken, map[string]any{"file": "handbook.jsonl"}); status != 404 {
		t.Errorf("unknown collection: %d %s", status, raw)
	}
	// Without an eval folder, files cannot be named.
	none := startEval(t, "")
	if status, raw, _ := none.call(t, "POST", "/v1/eval", adminToken, map[string]any{"file": "handbook.jsonl"}); status != 400 || !strings.Contains(string(raw), "--eval-dir") {
		t.Errorf("no eval folder: %d %s", status, raw)
	}
}
