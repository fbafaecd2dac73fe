package eval

import (
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// scifact is the shared BEIR SciFact copy; see its README.md for the
// counts checked here.
const scifact = "../../shared/data/scifact"

func TestLoadBEIRSciFact(t *testing.T) {
	if _, err := os.Stat(scifact); err != nil {
		t.Fatalf("SciFact data missing: %v", err) // a missing data set is a failure, not a skip
	}
	b, err := LoadBEIR(scifact, "test")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Corpus) != 5183 {
		t.Errorf("corpus: %d documents, want 5,183", len(b.Corpus))
	}
	// File order, not sorted: the file starts with 4983 and ends with 198309074.
	if first, last := b.Corpus[0], b.Corpus[len(b.Corpus)-1]; first.ID != "4983" ||
		!strings.HasPrefix(first.Title, "Microstructural development of human newborn cerebral white matter") ||
		!strings.HasPrefix(first.Text, "Alterations of the architecture of cerebral white matter") ||
		last.ID != "198309074" {
		t.Errorf("corpus ends: %q %q ... %q", first.ID, first.Title, last.ID)
	}
	if len(b.Queries) != 300 || len(b.Qrels) != 300 {
		t.Errorf("%d queries, %d judged queries, want 300 and 300", len(b.Queries), len(b.Qrels))
	}
	if q := b.Queries[0]; q != (Query{ID: "1", Text: "0-dimensional biomaterials show inductive properties."}) {
		t.Errorf("first query %+v", q)
	}
	if got := b.Queries[len(b.Queries)-1].ID; got != "1395" {
		t.Errorf("last query %q, want 1395", got)
	}
	if !slices.IsSortedFunc(b.Queries, func(x, y Query) int { return compareIDs(x.ID, y.ID) }) {
		t.Error("queries not sorted by id")
	}
	docs := map[string]bool{}
	for _, d := range b.Corpus {
		docs[d.ID] = true
	}
	// 339 judgments; 277 queries with 1 relevant document, 14 with 2, 4
	// with 3, 3 with 4 and 2 with 5; every grade is 1.
	rows, shape := 0, map[int]int{}
	for q, rel := range b.Qrels {
		rows += len(rel)
		shape[rel.Relevant()]++
		for d, g := range rel {
			if g != 1 || !docs[d] {
				t.Errorf("judgment %s %s %d: grade not 1 or document not in corpus", q, d, g)
			}
		}
	}
	if rows != 339 {
		t.Errorf("%d judgments, want 339", rows)
	}
	if want := map[int]int{1: 277, 2: 14, 3: 4, 4: 3, 5: 2}; !reflect.DeepEqual(shape, want) {
		t.Errorf("relevant documents per query %v, want %v", shape, want)
	}

	train, err := LoadBEIR(scifact, "train")
	if err != nil {
		t.Fatal(err)
	}
	rows = 0
	for _, rel := range train.Qrels {
		rows += len(rel)
	}
	if len(train.Queries) != 809 || rows != 919 {
		t.Errorf("train: %d queries, %d judgments, want 809 and 919", len(train.Queries), rows)
	}
}

func TestLoadBEIRSynthetic(t *testing.T) {
	b, err := LoadBEIR(filepath.Join("testdata", "beir", "ok"), "test")
	if err != nil {
		t.Fatal(err)
	}
	want := &BEIR{
		Corpus: []fonte.Document{
			{ID: "d10", Title: "Ten", Text: "The tenth document."},
			{ID: "d2", Text: "The second document, café."},
			{ID: "d1", Title: "One", Text: "The first document."},
		},
		// Numeric ids in numeric order, then the rest; query 7 is judged
		// only in another split.
		Queries: []Query{{ID: "2", Text: "second query"}, {ID: "10", Text: "tenth query"}, {ID: "a", Text: "a letter id"}},
		Qrels:   Qrels{"10": {"d10": 1}, "2": {"d2": 2, "d1": 0}, "a": {"d1": 1}},
	}
	if !reflect.DeepEqual(b, want) {
		t.Errorf("LoadBEIR:\n got %+v\nwant %+v", b, want)
	}
	dev, err := LoadBEIR(filepath.Join("testdata", "beir", "ok"), "dev")
	if err != nil || len(dev.Queries) != 1 || dev.Queries[0].ID != "7" {
		t.Errorf("dev split: %+v, %v", dev, err)
	}
}

// The gzipped forms read the same, and qrels-<split>.tsv is found too.
func TestLoadBEIRGzip(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("testdata", "beir", "ok")
	for _, name := range []string{"corpus.jsonl", "queries.jsonl"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		writeGzip(t, filepath.Join(dir, name+".gz"), data)
	}
	copyFile(t, filepath.Join(src, "qrels", "test.tsv"), filepath.Join(dir, "qrels-test.tsv"))
	got, err := LoadBEIR(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	want, err := LoadBEIR(src, "test")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("gzip:\n got %+v\nwant %+v", got, want)
	}
}

func TestLoadBEIRMalformedLine(t *testing.T) {
	_, err := LoadBEIR(filepath.Join("testdata", "beir", "badline"), "test")
	var le *LineError
	if !errors.As(err, &le) || le.File != filepath.Join("testdata", "beir", "badline", "corpus.jsonl") || le.Line != 3 {
		t.Fatalf("error %v, want a LineError at corpus.jsonl line 3", err)
	}
	if !strings.Contains(err.Error(), "corpus.jsonl:3: malformed JSON") {
		t.Errorf("message %q", err)
	}
}

func TestLoadBEIRErrors(t *testing.T) {
	const (
		corpus  = `{"_id": "d1", "title": "", "text": "x"}` + "\n"
		queries = `{"_id": "1", "text": "q"}` + "\n"
		qrels   = "query-id\tcorpus-id\tscore\n1\td1\t1\n"
	)
	for _, tc := range []struct {
		name    string
		files   map[string]string // nil value: file absent
		split   string
		wantMsg string
	}{
		{"no qrels", map[string]string{"qrels/test.tsv": ""}, "test", "none of"},
		{"no corpus", map[string]string{"corpus.jsonl": ""}, "test", "corpus.jsonl.gz found"},
		{"no queries", map[string]string{"queries.jsonl": ""}, "test", "queries.jsonl.gz found"},
		{"other split", nil, "dev", "qrels-dev.tsv found"},
		{"bad split", nil, "../test", "bad split name"},
		{"empty split", nil, "", "bad split name"},
		{"corpus id missing", map[string]string{"corpus.jsonl": corpus + `{"title": "t", "text": "x"}` + "\n"}, "test", "corpus.jsonl:2: _id: missing"},
		{"corpus id number", map[string]string{"corpus.jsonl": `{"_id": 5, "text": "x"}` + "\n"}, "test", "corpus.jsonl:1: _id: want a string, got number"},
		{"corpus duplicate", map[string]string{"corpus.jsonl": corpus + "\n" + corpus}, "test", `corpus.jsonl:3: _id: duplicate id "d1", first on line 1`},
		{"query malformed", map[string]string{"queries.jsonl": queries + "{\n"}, "test", "queries.jsonl:2: malformed JSON"},
		{"judged query missing", map[string]string{"qrels/test.tsv": qrels + "9\td1\t1\n"}, "test", `1 judged queries are not in`},
		{"qrels columns", map[string]string{"qrels/test.tsv": qrels + "1 d1 1\n"}, "test", "test.tsv:3: want 3 tab-separated columns"},
		{"qrels score", map[string]string{"qrels/test.tsv": qrels + "1\td2\thigh\n"}, "test", `test.tsv:3: score: not an integer: "high"`},
		{"qrels empty id", map[string]string{"qrels/test.tsv": qrels + "\td2\t1\n"}, "test", "test.tsv:3: query-id: empty"},
		{"qrels conflict", map[string]string{"qrels/test.tsv": qrels + "1\td1\t2\n"}, "test", "test.tsv:3: score: 1 d1 judged 1 earlier, now 2"},
		{"qrels only header", map[string]string{"qrels/test.tsv": "query-id\tcorpus-id\tscore\n"}, "test", "no judgments"},
		{"bad gzip", map[string]string{"corpus.jsonl": "", "corpus.jsonl.gz": "not gzip"}, "test", "corpus.jsonl.gz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"corpus.jsonl": corpus, "queries.jsonl": queries, "qrels/test.tsv": qrels}
			for name, body := range tc.files {
				files[name] = body
			}
			for name, body := range files {
				if body == "" {
					continue
				}
				path := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := LoadBEIR(dir, tc.split)
			if err == nil || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("error %v, want one containing %q", err, tc.wantMsg)
			}
		})
	}
	if _, err := LoadBEIR(filepath.Join(t.TempDir(), "absent"), "test"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing folder: %v", err)
	}
}

func TestCompareIDs(t *testing.T) {
	ids := []string{"b", "10", "a10", "2", "010", "a9", "1", "", "9"}
	slices.SortFunc(ids, compareIDs)
	if want := []string{"1", "2", "9", "010", "10", "", "a10", "a9", "b"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("sorted %q, want %q", ids, want)
	}
}

func writeGzip(t *testing.T, path string, data []byte) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := gzip.NewWriter(f)
	if _, err := z.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
