package eval

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzReadQuestions reads arbitrary question files: either an error (a
// *LineError on a line of the input, naming a field when it blames one) or
// questions that pass their own validation, with unique ids.
func FuzzReadQuestions(f *testing.F) {
	if raw, err := os.ReadFile("testdata/questions/valid.jsonl"); err == nil {
		f.Add(raw)
	}
	for _, s := range []string{
		`{"id":"a","question":"Q?","gold":[{"doc":"a.md","quote":"x"}],"answer":"y"}`,
		"\ufeff{\"id\":\"u\",\"question\":\"Q?\",\"unanswerable\":true}\r\n# c\n// c\n\n",
		`{"id":"a","question":"Q?","unanswerabe":true}`,
		`{"id":"a","question":"Q?","gold":[{"doc":"a.md","quote":"x","page":2}],"category":1}` + "\n" + `{"id":"a","question":"Q?","unanswerable":true}`,
		`{"id":"a","question":"Q?","gold":[{"doc":"./a.md","quote":"x"},{"doc":"a.md","quote":" x "}]}`,
		`{"id":"a","question":"Q?","gold":{"doc":"a.md"}}`,
		`[1,2]`,
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		qs, warnings, err := ReadQuestionsWarn(bytes.NewReader(raw), "set.jsonl")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "set.jsonl") {
				t.Fatalf("error does not name the file: %v", err)
			}
			var le *LineError
			if errors.As(err, &le) {
				lines := bytes.Count(raw, []byte("\n")) + 1
				if le.Line < 1 || le.Line > lines {
					t.Fatalf("error on line %d of a %d-line file: %v", le.Line, lines, err)
				}
			}
			return
		}
		if len(qs) == 0 {
			t.Fatal("no questions and no error")
		}
		seen := map[string]bool{}
		for _, q := range qs {
			if field, err := validate(q); err != nil {
				t.Fatalf("question %+v fails its own validation: %s: %v", q, field, err)
			}
			if seen[q.ID] {
				t.Fatalf("duplicate id %q accepted", q.ID)
			}
			seen[q.ID] = true
		}
		for _, w := range warnings {
			if !strings.HasPrefix(w, "set.jsonl") {
				t.Fatalf("warning does not name the file: %q", w)
			}
		}
	})
}

// FuzzLoadBEIR loads arbitrary BEIR corpus, queries and qrels files: an
// error names one of the files, and a result has unique non-empty corpus
// ids, exactly the judged queries sorted by id, and judgments whose ids
// are non-empty.
func FuzzLoadBEIR(f *testing.F) {
	read := func(path string) []byte {
		raw, _ := os.ReadFile(path)
		return raw
	}
	f.Add(read("testdata/beir/ok/corpus.jsonl"), read("testdata/beir/ok/queries.jsonl"), read("testdata/beir/ok/qrels/test.tsv"))
	f.Add(read("testdata/beir/badline/corpus.jsonl"), read("testdata/beir/badline/queries.jsonl"), read("testdata/beir/badline/qrels-test.tsv"))
	f.Add([]byte(`{"_id":"d","text":1}`), []byte(`{"_id":"q"}`+"\n"+`{"_id":"q"}`), []byte("q\td\tx\nq\td\t1\nq\td\t2\n"))
	f.Add([]byte(`{"_id":"d"}`), []byte(`{"_id":"10"}`+"\r\n"+`{"_id":"9"}`+"\n"+`{"_id":"b"}`), []byte("query-id\tcorpus-id\tscore\n10\td\t1\n9\td\t0\nb\td\t-1\n"))
	f.Fuzz(func(t *testing.T, corpus, queries, qrels []byte) {
		dir := t.TempDir()
		for name, data := range map[string][]byte{"corpus.jsonl": corpus, "queries.jsonl": queries, "qrels-test.tsv": qrels} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		b, err := LoadBEIR(dir, "test")
		if err != nil {
			if !strings.Contains(err.Error(), dir) {
				t.Fatalf("error names no file: %v", err)
			}
			return
		}
		ids := map[string]bool{}
		for _, d := range b.Corpus {
			if d.ID == "" || ids[d.ID] {
				t.Fatalf("corpus id %q empty or repeated", d.ID)
			}
			ids[d.ID] = true
		}
		if len(b.Queries) != len(b.Qrels) {
			t.Fatalf("%d queries for %d judged ids", len(b.Queries), len(b.Qrels))
		}
		if !slices.IsSortedFunc(b.Queries, func(x, y Query) int { return compareIDs(x.ID, y.ID) }) {
			t.Fatal("queries not sorted by id")
		}
		for i, q := range b.Queries {
			if _, ok := b.Qrels[q.ID]; !ok {
				t.Fatalf("query %q is not judged", q.ID)
			}
			if i > 0 && b.Queries[i-1].ID == q.ID {
				t.Fatalf("query %q repeated", q.ID)
			}
		}
		for q, rel := range b.Qrels {
			if strings.TrimSpace(q) == "" || len(rel) == 0 {
				t.Fatalf("judgments %q: %v", q, rel)
			}
			for doc := range rel {
				if strings.TrimSpace(doc) == "" {
					t.Fatalf("query %q judges an empty corpus id", q)
				}
			}
		}
	})
}
