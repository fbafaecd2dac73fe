package lexical

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
)

// buildInPlace runs an InPlaceBuilder with the given budget over docs'
// tokens, writing its form to a file under a fresh directory and its runs
// under another; it checks that Finish reports the file's size and leaves
// no run behind, and returns the form and the runs spilled.
func buildInPlace(t *testing.T, docs [][]string, opts BM25Options, budget int64) ([]byte, int) {
	t.Helper()
	runDir := t.TempDir()
	b := NewInPlaceBuilder(InPlaceBuilderOptions{BM25: opts, Budget: budget, Dir: runDir})
	for d, tokens := range docs {
		if err := b.Add(tokens); err != nil {
			t.Fatalf("adding document %d: %v", d, err)
		}
	}
	runs := b.Runs()
	if left := dirEntries(t, runDir); left != runs {
		t.Fatalf("%d files in the run directory, %d runs spilled", left, runs)
	}
	path := filepath.Join(t.TempDir(), "bm25.form")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := b.Finish(f)
	if err != nil {
		t.Fatalf("Finish: %v", err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if left := dirEntries(t, runDir); left != 0 {
		t.Fatalf("%d run files left after Finish", left)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("Close after Finish: %v", err)
	}
	form, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(len(form)) {
		t.Fatalf("Finish reported %d bytes, wrote %d", n, len(form))
	}
	return form, runs
}

func dirEntries(t *testing.T, dir string) int {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

// accounted is the memory a builder accounts to docs held in one run.
func accounted(t *testing.T, docs [][]string) int64 {
	t.Helper()
	b := NewInPlaceBuilder(InPlaceBuilderOptions{BM25: DefaultBM25Options(), Budget: 1 << 50, Dir: t.TempDir()})
	defer b.Close()
	for _, tokens := range docs {
		if err := b.Add(tokens); err != nil {
			t.Fatal(err)
		}
	}
	return b.mem
}

// nonEmpty counts the documents with tokens: with a budget of one byte,
// each of them spills a run.
func nonEmpty(docs [][]string) int {
	n := 0
	for _, d := range docs {
		if len(d) > 0 {
			n++
		}
	}
	return n
}

// checkBuilder builds docs' form with budgets giving no run file, one,
// several and one per document, and demands the bytes AppendInPlace
// writes for the same tokens; the form must open and verify, and answer
// queries exactly as the model in memory does.
func checkBuilder(t *testing.T, docs [][]string, an analysis.Analyzer, opts BM25Options, queries []string) {
	t.Helper()
	m := NewBM25Index(NewIndexTokens(len(docs), func(d int) []string { return docs[d] }, an), opts)
	want := m.AppendInPlace(nil)
	mem := accounted(t, docs)
	// One run: a budget the first k documents reach, k such that the
	// rest, in a run of their own, stay below it.
	one, k := int64(0), len(docs)*2/3
	for ; k <= len(docs); k++ {
		if one = accounted(t, docs[:k]); one > 0 && one > accounted(t, docs[k:]) && (k == 0 || len(docs[k-1]) > 0) {
			break
		}
	}
	for _, c := range []struct {
		name     string
		budget   int64
		min, max int // runs spilled
	}{
		{"in-memory", 1 << 40, 0, 0},
		{"one-run", one, 1, 1},
		{"several", mem / 6, min(3, nonEmpty(docs)), nonEmpty(docs)},
		{"per-document", 1, nonEmpty(docs), nonEmpty(docs)},
	} {
		if mem == 0 { // no postings: nothing ever spills
			c.min, c.max = 0, 0
			c.budget = max(c.budget, 1)
		}
		form, runs := buildInPlace(t, docs, opts, c.budget)
		if runs < c.min || runs > c.max {
			t.Fatalf("%s: budget %d of %d spilled %d runs, want %d to %d", c.name, c.budget, mem, runs, c.min, c.max)
		}
		if !bytes.Equal(form, want) {
			t.Fatalf("%s (%d runs): the form differs from AppendInPlace's (%d bytes, want %d) from byte %d", c.name, runs, len(form), len(want), firstDiff(form, want))
		}
		data := alignedCopy(form, 0)
		if err := VerifyInPlace(data); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		flat, err := OpenBM25InPlace(data, an)
		if err != nil {
			t.Fatalf("%s: opening the form: %v", c.name, err)
		}
		if c.name == "several" && len(queries) > 0 && m.N() > 0 {
			compareModels(t, m, flat, queries, []int{1, 10}) // once: the bytes are the same for every budget
		} else if flat.N() != m.N() {
			t.Fatalf("%s: %d documents, want %d", c.name, flat.N(), m.N())
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func analyseAll(docs []string, an analysis.Analyzer) [][]string {
	out := make([][]string, len(docs))
	for i, d := range docs {
		out[i] = an.Analyze(d)
	}
	return out
}

func TestInPlaceBuilderSeeds(t *testing.T) {
	for _, c := range seedCorpora(t) {
		t.Run(c.name, func(t *testing.T) {
			checkBuilder(t, analyseAll(c.docs, c.an), c.an, c.opts, c.queries)
		})
	}
}

// unicodeWords are terms whose byte order differs from their order by
// letter or by code point length: the form sorts terms by bytes.
var unicodeWords = []string{
	"a", "z", "é", "e\u0301", "ß", "ss", "日本", "日", "本", "🙂", "Ω", "ω", "x\x00y", "naïve", "naive",
	"ﬁ", "fi", "İ", "i", "a b", strings.Repeat("long", 40),
}

// randomTokens is n documents of unicode terms, some empty, a few with
// one term repeated often enough to need frequencies of width 2 or 4.
func randomTokens(rng *rand.Rand, n int, often int) [][]string {
	docs := make([][]string, n)
	for d := range docs {
		switch rng.IntN(8) {
		case 0: // empty
		case 1:
			docs[d] = []string{unicodeWords[rng.IntN(len(unicodeWords))]}
		default:
			for range 1 + rng.IntN(40) {
				docs[d] = append(docs[d], unicodeWords[rng.IntN(len(unicodeWords))]+fmt.Sprint(rng.IntN(3)))
			}
		}
	}
	if often > 0 && n > 0 {
		d := rng.IntN(n)
		for range often {
			docs[d] = append(docs[d], "often")
		}
	}
	return docs
}

func TestInPlaceBuilderRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, c := range []struct {
		docs, often int
		width       int
	}{
		{0, 0, 1}, {1, 0, 1}, {1, 300, 2}, {3, 0, 1}, {60, 0, 1}, {200, 0, 1},
		{80, 255, 1}, {80, 256, 2}, {80, 65535, 2}, {80, 65536, 4}, {80, 70001, 4},
	} {
		t.Run(fmt.Sprintf("docs=%d,often=%d", c.docs, c.often), func(t *testing.T) {
			docs := randomTokens(rng, c.docs, c.often)
			checkBuilder(t, docs, analysis.Sklearn(), DefaultBM25Options(), []string{"often", "a0 z1 often", "naive0 naïve1", "absent"})
			if c.docs == 0 {
				return
			}
			form, _ := buildInPlace(t, docs, DefaultBM25Options(), 1)
			flat, err := OpenBM25InPlace(alignedCopy(form, 0), analysis.Sklearn())
			if err != nil {
				t.Fatal(err)
			}
			if flat.ix.flat.width != c.width {
				t.Fatalf("frequencies stored in %d bytes, want %d", flat.ix.flat.width, c.width)
			}
		})
	}
	// Every document empty: no terms, no postings, but lengths.
	checkBuilder(t, make([][]string, 5), analysis.Sklearn(), DefaultBM25Options(), nil)
}

// TestInPlaceBuilderClose abandons a builder with runs on disk: Close
// removes them, twice is harmless, and the builder refuses further use.
func TestInPlaceBuilderClose(t *testing.T) {
	dir := t.TempDir()
	b := NewInPlaceBuilder(InPlaceBuilderOptions{BM25: DefaultBM25Options(), Budget: 1, Dir: dir})
	for _, doc := range randomTokens(rand.New(rand.NewPCG(5, 6)), 20, 0) {
		if err := b.Add(doc); err != nil {
			t.Fatal(err)
		}
	}
	if b.Runs() < 10 || dirEntries(t, dir) != b.Runs() {
		t.Fatalf("%d runs, %d files", b.Runs(), dirEntries(t, dir))
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if n := dirEntries(t, dir); n != 0 {
		t.Fatalf("%d run files left after Close", n)
	}
	if err := b.Add([]string{"x"}); err == nil {
		t.Fatal("Add after Close succeeded")
	}
	if _, err := b.Finish(&bytes.Buffer{}); err == nil {
		t.Fatal("Finish after Close succeeded")
	}
}

// TestInPlaceBuilderErrors: a Dir that cannot hold files, a full disk
// under the form, a run damaged on disk and Finish called twice give
// errors naming the file, and leave no run file behind.
func TestInPlaceBuilderErrors(t *testing.T) {
	docs := randomTokens(rand.New(rand.NewPCG(7, 8)), 30, 0)
	notDir := filepath.Join(t.TempDir(), "plain-file")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{notDir, filepath.Join(t.TempDir(), "missing")} {
		b := NewInPlaceBuilder(InPlaceBuilderOptions{BM25: DefaultBM25Options(), Budget: 1, Dir: dir})
		var err error
		for _, doc := range docs {
			if err = b.Add(doc); err != nil {
				break
			}
		}
		if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "Dir") {
			t.Fatalf("runs under %s: error %v, want one naming the directory and the option", dir, err)
		}
		if again := b.Add(docs[0]); again == nil || again.Error() != err.Error() {
			t.Fatalf("Add after an error: %v, want %v", again, err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
	}

	// The form written to a full device: the error names it, the runs go.
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Fatalf("/dev/full is needed for this test: %v", err)
	}
	defer full.Close()
	dir := t.TempDir()
	b := NewInPlaceBuilder(InPlaceBuilderOptions{BM25: DefaultBM25Options(), Budget: 200, Dir: dir})
	for _, doc := range docs {
		if err := b.Add(doc); err != nil {
			t.Fatal(err)
		}
	}
	if b.Runs() < 2 {
		t.Fatalf("%d runs", b.Runs())
	}
	if _, err := b.Finish(full); err == nil || !strings.Contains(err.Error(), "/dev/full") {
		t.Fatalf("writing to /dev/full: %v", err)
	}
	if n := dirEntries(t, dir); n != 0 {
		t.Fatalf("%d run files left after a failed Finish", n)
	}
	if _, err := b.Finish(&bytes.Buffer{}); err == nil {
		t.Fatal("second Finish succeeded")
	}

	// A run cut short on disk: Finish names it.
	for _, cut := range []int64{0, 1, 7} {
		b := NewInPlaceBuilder(InPlaceBuilderOptions{BM25: DefaultBM25Options(), Budget: 200, Dir: dir})
		for _, doc := range docs {
			if err := b.Add(doc); err != nil {
				t.Fatal(err)
			}
		}
		victim := b.runs[1]
		st, err := os.Stat(victim)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(victim, st.Size()-1-cut); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if _, err := b.Finish(&out); err == nil || !strings.Contains(err.Error(), victim) {
			t.Fatalf("a run cut by %d bytes: error %v, want one naming %s", 1+cut, err, victim)
		}
		if n := dirEntries(t, dir); n != 0 {
			t.Fatalf("%d run files left after a failed Finish", n)
		}
	}
}

// TestInPlaceBuilderAddBatched: documents added in parallel batches, of
// any size, come out exactly as added one by one, in order.
func TestInPlaceBuilderAddBatched(t *testing.T) {
	docs := randomTokens(rand.New(rand.NewPCG(41, 42)), 300, 0)
	var want bytes.Buffer
	one := NewInPlaceBuilder(InPlaceBuilderOptions{BM25: DefaultBM25Options(), Dir: t.TempDir()})
	for _, d := range docs {
		if err := one.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := one.Finish(&want); err != nil {
		t.Fatal(err)
	}
	for _, batch := range []int{0, 1, 7, 300, 1000} {
		b := NewInPlaceBuilder(InPlaceBuilderOptions{BM25: DefaultBM25Options(), Budget: 2 << 10, Dir: t.TempDir()})
		if err := b.AddBatched(len(docs), batch, func(i int) []string { return docs[i] }); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if _, err := b.Finish(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("batches of %d: %d bytes, one by one %d", batch, got.Len(), want.Len())
		}
	}
}
