// Package storetest is fonte's store conformance suite: the same cases,
// run through the engine as a user runs fonte, against every fonte.Store
// (the embedded folder, PostgreSQL, Redis on one node and on a cluster).
// Each case compares the store under test with the embedded store on the
// same documents, so moving an index to another store is a flag, not a
// change in answers.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/retrieve"
)

// Backend is one store under test.
type Backend struct {
	Name string
	// New returns the location of a new, empty store: a fresh folder or
	// collection, so cases do not see each other's data.
	New func(t *testing.T) string
	// Holds asks the engine behind location directly (files, tables,
	// keys), not through fonte, whether any byte of word is still there.
	Holds func(t *testing.T, location, word string) bool
	// Dead returns the location of a store whose server does not answer;
	// nil for the embedded store, which has no server.
	Dead func(t *testing.T) string
	// LexicalTolerance explains how the store's lexical leg may differ
	// from fonte's BM25; empty means it must not (same chunks, same
	// order, same scores).
	LexicalTolerance string
	// AccessSeeds is how many random corpora HiddenMovesNothing runs
	// (default 3: each costs two stores).
	AccessSeeds int
}

func (b Backend) seeds() int {
	if b.AccessSeeds > 0 {
		return b.AccessSeeds
	}
	return 3
}

// Root is the repository root, found from the working directory.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("storetest: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Run runs every case against b.
func Run(t *testing.T, b Backend) {
	t.Run("SameAnswers", func(t *testing.T) { testSameAnswers(t, b) })
	t.Run("Filters", func(t *testing.T) { testFilters(t, b) })
	t.Run("HiddenMovesNothing", func(t *testing.T) { testHiddenMovesNothing(t, b, b.seeds()) })
	t.Run("HiddenMovesNothingGraph", func(t *testing.T) { testHiddenMovesNothingGraph(t, b) })
	t.Run("LanguageCoverage", func(t *testing.T) { testLanguageCoverage(t, b) })
	t.Run("Incremental", func(t *testing.T) { testIncremental(t, b) })
	t.Run("DeleteLeavesNothing", func(t *testing.T) { testDelete(t, b) })
	t.Run("SettingsMismatch", func(t *testing.T) { testMismatch(t, b) })
	t.Run("NoPartialCommit", func(t *testing.T) { testNoPartialCommit(t, b) })
	t.Run("DumpRestore", func(t *testing.T) { testDumpRestore(t, b) })
	t.Run("CLI", func(t *testing.T) { testCLI(t, b) })
	if b.Dead != nil {
		t.Run("DeadServer", func(t *testing.T) { testDead(t, b) })
	}
}

func open(t *testing.T, location string, s engine.Settings, o engine.OpenOptions) *engine.Engine {
	t.Helper()
	s.Store = location
	e, err := engine.Open(context.Background(), s, o)
	if err != nil {
		t.Fatalf("opening %s: %v", location, err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// corpus copies the example handbook into a new folder, so cases can
// change it.
func corpus(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "handbook")
	CopyTree(t, filepath.Join(Root(t), "examples", "handbook"), dst)
	return dst
}

// CopyTree copies the files under src to dst (created as needed).
func CopyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatalf("copying %s: %v", src, err)
	}
}

func index(t *testing.T, e *engine.Engine, dir string) *engine.IndexReport {
	t.Helper()
	rep, err := e.Index(context.Background(), dir, nil)
	if err != nil {
		t.Fatalf("indexing %s: %v", dir, err)
	}
	return rep
}

func questions(t *testing.T) []eval.Question {
	t.Helper()
	qs, err := eval.LoadQuestions(filepath.Join(Root(t), "examples", "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// reference indexes dir into a new embedded store.
func reference(t *testing.T, dir string) *engine.Engine {
	t.Helper()
	return referenceWith(t, dir, engine.Settings{})
}

// referenceWith is reference with settings s.
func referenceWith(t *testing.T, dir string, s engine.Settings) *engine.Engine {
	t.Helper()
	ref := open(t, filepath.Join(t.TempDir(), "reference"), s, engine.OpenOptions{})
	index(t, ref, dir)
	return ref
}

// scoreTol is how far a store's scores may be from the embedded store's:
// databases compute cosine distances in float32 and sum BM25 in another
// order, so scores agree to about 1e-6, and two chunks whose scores are
// that close may swap places.
const scoreTol = 1e-5

// sameRanking reports where got and want first differ beyond ties: a
// chunk at the same rank, or one swapped with a neighbour whose score is
// within scoreTol. "" when they agree.
func sameRanking(got, want []fonte.Hit, leg int) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d hits, the embedded store has %d (%v vs %v)", len(got), len(want), ids(got), ids(want))
	}
	score := func(h fonte.Hit) float64 {
		if leg < 0 {
			return h.Score
		}
		return h.Legs[leg].Score
	}
	for i := range want {
		if got[i].Chunk.ID == want[i].Chunk.ID {
			if d := math.Abs(score(got[i]) - score(want[i])); d > scoreTol {
				return fmt.Sprintf("hit %d (%s): score %v, the embedded store has %v", i+1, want[i].Chunk.ID, score(got[i]), score(want[i]))
			}
			continue
		}
		// A swap is fine only between chunks the embedded store scores
		// alike.
		j := slices.IndexFunc(want, func(h fonte.Hit) bool { return h.Chunk.ID == got[i].Chunk.ID })
		if j < 0 && i == len(want)-1 && math.Abs(score(got[i])-score(want[i])) <= scoreTol {
			continue // a tie at the cut
		}
		if j < 0 || math.Abs(score(want[j])-score(want[i])) > scoreTol {
			return fmt.Sprintf("hit %d is %s (score %v), the embedded store has %s (score %v): %v vs %v",
				i+1, got[i].Chunk.ID, score(got[i]), want[i].Chunk.ID, score(want[i]), ids(got), ids(want))
		}
	}
	return ""
}

func ids(hits []fonte.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Chunk.ID
	}
	return out
}

// overlap is the share of want's chunks that got also holds.
func overlap(got, want []fonte.Hit) float64 {
	if len(want) == 0 {
		return 1
	}
	n := 0
	for _, w := range want {
		if slices.ContainsFunc(got, func(g fonte.Hit) bool { return g.Chunk.ID == w.Chunk.ID }) {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

// testSameAnswers: the example handbook indexed into the store gives the
// embedded store's hits on every leg for every example question, and the
// same answers with the same citations.
func testSameAnswers(t *testing.T, b Backend) {
	ctx := context.Background()
	dir := corpus(t)
	ref := reference(t, dir)
	e := open(t, b.New(t), engine.Settings{}, engine.OpenOptions{})
	rep := index(t, e, dir)
	if want, _ := ref.Status(ctx); rep.Chunks != want.Chunks {
		t.Fatalf("%d chunks indexed, the embedded store has %d", rep.Chunks, want.Chunks)
	}
	var lexTop1, lexOverlap float64
	qs := questions(t)
	for _, q := range qs {
		for _, mode := range []retrieve.Mode{retrieve.BM25, retrieve.Dense, retrieve.Hybrid} {
			o := engine.SearchOptions{K: 10, Mode: mode}
			want, err := ref.Search(ctx, q.Question, o)
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.Search(ctx, q.Question, o)
			if err != nil {
				t.Fatalf("%s search %q: %v", mode, q.Question, err)
			}
			switch {
			case mode == retrieve.Dense || b.LexicalTolerance == "":
				// The dense leg is exact at this size on every store
				// (FLAT, or an exact scan below the HNSW threshold).
				if d := sameRanking(got, want, -1); d != "" {
					t.Errorf("%s %q: %s", mode, q.Question, d)
				}
				for i := range min(len(got), len(want)) {
					if math.Abs(got[i].Relevance-want[i].Relevance) > scoreTol && got[i].Chunk.ID == want[i].Chunk.ID {
						t.Errorf("%s %q hit %d: relevance %v, the embedded store has %v", mode, q.Question, i+1, got[i].Relevance, want[i].Relevance)
					}
				}
			case mode == retrieve.BM25:
				if len(got) > 0 && len(want) > 0 && got[0].Chunk.ID == want[0].Chunk.ID {
					lexTop1++
				}
				lexOverlap += overlap(got, want)
			}
		}
	}
	if b.LexicalTolerance != "" {
		n := float64(len(qs))
		t.Logf("lexical leg (%s): top hit the embedded store's on %.0f of %d questions, top-10 overlap %.3f", b.LexicalTolerance, lexTop1, len(qs), lexOverlap/n)
		if lexTop1/n < 0.8 || lexOverlap/n < 0.8 {
			t.Errorf("lexical leg too far from fonte's BM25: top hit %.0f/%d, overlap %.3f", lexTop1, len(qs), lexOverlap/n)
		}
		return
	}
	// Same hits, so the same answers with the same citations.
	for _, q := range qs {
		want, err := ref.Ask(ctx, q.Question, engine.AskOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.Ask(ctx, q.Question, engine.AskOptions{})
		if err != nil {
			t.Fatalf("ask %q: %v", q.Question, err)
		}
		if got.Abstained != want.Abstained || got.Text != want.Text || !slices.Equal(citations(got), citations(want)) {
			t.Errorf("ask %q: abstained %v, citations %v, answer %q; the embedded store: %v, %v, %q",
				q.Question, got.Abstained, citations(got), got.Text, want.Abstained, citations(want), want.Text)
		}
	}
}

func citations(a *fonte.Answer) []string {
	var out []string
	for _, c := range a.Citations {
		out = append(out, fmt.Sprintf("[%d] %s %s", c.N, c.Chunk.ID, c.Updated.UTC().Format("2006-01-02T15:04:05")))
	}
	return out
}

// testFilters: a filter by document prefix or tag holds in both legs and
// still returns K hits when enough chunks pass.
func testFilters(t *testing.T, b Backend) {
	ctx := context.Background()
	dir := corpus(t)
	// Access labels by folder: finance/ for "fin" readers, security/ for
	// "sec" ones; the rest open to all.
	access := engine.Settings{Access: map[string][]string{"finance/": {"fin"}, "security/": {"sec"}}}
	ref := referenceWith(t, dir, access)
	e := open(t, b.New(t), access, engine.OpenOptions{})
	index(t, e, dir)
	labelled := func(id string) bool { return strings.HasPrefix(id, "finance/") || strings.HasPrefix(id, "security/") }
	cases := []struct {
		filter fonte.Filter
		ok     func(h fonte.Hit, tags []string) bool
	}{
		{fonte.Filter{Prefixes: []string{"finance/"}}, func(h fonte.Hit, _ []string) bool { return strings.HasPrefix(h.Chunk.DocID, "finance/") }},
		{fonte.Filter{Prefixes: []string{"people/", "security/"}}, func(h fonte.Hit, _ []string) bool {
			return strings.HasPrefix(h.Chunk.DocID, "people/") || strings.HasPrefix(h.Chunk.DocID, "security/")
		}},
		{fonte.Filter{Tags: []string{"quadrante"}}, func(_ fonte.Hit, tags []string) bool { return slices.Contains(tags, "quadrante") }},
		{fonte.Filter{Prefixes: []string{"security/"}, Tags: []string{"it security"}}, func(h fonte.Hit, tags []string) bool {
			return strings.HasPrefix(h.Chunk.DocID, "security/") && slices.Contains(tags, "it security")
		}},
		{fonte.Filter{Restricted: true}, func(h fonte.Hit, _ []string) bool { return !labelled(h.Chunk.DocID) }},
		{fonte.Filter{Restricted: true, Labels: []string{"fin"}}, func(h fonte.Hit, _ []string) bool {
			return !strings.HasPrefix(h.Chunk.DocID, "security/")
		}},
		{fonte.Filter{Restricted: true, Labels: []string{"sec", "other"}, Prefixes: []string{"finance/", "security/"}}, func(h fonte.Hit, _ []string) bool {
			return strings.HasPrefix(h.Chunk.DocID, "security/")
		}},
	}
	docs, err := e.Store().Documents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tags := map[string][]string{}
	for _, d := range docs {
		tags[d.ID] = d.Tags
	}
	for _, c := range cases {
		for _, mode := range []retrieve.Mode{retrieve.BM25, retrieve.Dense, retrieve.Hybrid} {
			for _, q := range []string{"who approves a purchase", "what to do when an incident happens", "password rotation"} {
				o := engine.SearchOptions{K: 5, Mode: mode, Filter: c.filter}
				got, err := e.Search(ctx, q, o)
				if err != nil {
					t.Fatal(err)
				}
				want, err := ref.Search(ctx, q, o)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Errorf("filter %+v %s %q: %d hits, the embedded store has %d", c.filter, mode, q, len(got), len(want))
				}
				for _, h := range got {
					if !c.ok(h, tags[h.Chunk.DocID]) {
						t.Errorf("filter %+v %s %q let %s through", c.filter, mode, q, h.Chunk.ID)
					}
				}
			}
		}
	}
}

// testIncremental: re-indexing after one file changed writes that file
// only, embeds only its changed chunks, and a removed file leaves.
func testIncremental(t *testing.T, b Backend) {
	ctx := context.Background()
	dir := corpus(t)
	e := open(t, b.New(t), engine.Settings{}, engine.OpenOptions{})
	first := index(t, e, dir)
	if len(first.Indexed) < 10 {
		t.Fatalf("first run indexed %d documents", len(first.Indexed))
	}
	p := filepath.Join(dir, "people", "leave.md")
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	add := "\n\n## Sabbatical\n\nAfter seven years of service an employee may take a sabbatical of up to three months, unpaid, once.\n"
	if err := os.WriteFile(p, append(raw, add...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "it-help-desk.html")); err != nil {
		t.Fatal(err)
	}
	second := index(t, e, dir)
	if !slices.Equal(second.Indexed, []string{"people/leave.md"}) || !slices.Equal(second.Removed, []string{"it-help-desk.html"}) {
		t.Fatalf("second run indexed %v and removed %v; want people/leave.md and it-help-desk.html", second.Indexed, second.Removed)
	}
	if second.Unchanged != len(first.Indexed)-2 {
		t.Errorf("second run left %d documents unchanged, want %d", second.Unchanged, len(first.Indexed)-2)
	}
	if second.ChunksEmbedded == 0 || second.ChunksEmbedded > 3 {
		t.Errorf("second run embedded %d chunks; only the changed section's should be", second.ChunksEmbedded)
	}
	hits, err := e.Search(ctx, "sabbatical after seven years", engine.SearchOptions{K: 3})
	if err != nil || len(hits) == 0 || hits[0].Chunk.DocID != "people/leave.md" {
		t.Fatalf("the new section is not found first: %v %v", ids(hits), err)
	}
	if _, err := e.Store().Document(ctx, "it-help-desk.html"); err == nil {
		t.Fatal("the removed file is still a document of the store")
	}
	st, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Documents != len(first.Indexed)-1 || st.Generation <= 0 {
		t.Errorf("status after the second run: %d documents, generation %d", st.Documents, st.Generation)
	}
}

// testDelete: deleting a document leaves none of its bytes in the store,
// checked by asking the engine behind it directly.
func testDelete(t *testing.T, b Backend) {
	ctx := context.Background()
	dir := corpus(t)
	const marker = "zanzibarite"
	text := "# Geology club\n\nThe club meets on Thursdays to classify " + marker + " samples brought back from field trips.\n"
	if err := os.WriteFile(filepath.Join(dir, "people", "geology.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	loc := b.New(t)
	e := open(t, loc, engine.Settings{}, engine.OpenOptions{})
	index(t, e, dir)
	if !b.Holds(t, loc, marker) {
		t.Fatalf("the probe does not see %q after indexing it: it could not see it after a delete either", marker)
	}
	deleted, err := e.Delete(ctx, []string{"people/geology.md"})
	if err != nil || !slices.Equal(deleted, []string{"people/geology.md"}) {
		t.Fatalf("delete: %v %v", deleted, err)
	}
	if b.Holds(t, loc, marker) {
		t.Errorf("%s still holds %q after the delete", b.Name, marker)
	}
	if h, err := e.Search(ctx, marker+" samples", engine.SearchOptions{K: 5, Mode: retrieve.BM25}); err != nil || slices.ContainsFunc(h, func(h fonte.Hit) bool { return h.Chunk.DocID == "people/geology.md" }) {
		t.Errorf("search after delete: %v %v", ids(h), err)
	}
	if h, err := e.Search(ctx, "how many days of annual leave", engine.SearchOptions{K: 3}); err != nil || len(h) == 0 {
		t.Errorf("the other documents are gone too: %v %v", ids(h), err)
	}
}

// testMismatch: a store built with one chunker refuses to be indexed
// with another, unless rebuilt.
func testMismatch(t *testing.T, b Backend) {
	ctx := context.Background()
	dir := corpus(t)
	loc := b.New(t)
	e := open(t, loc, engine.Settings{}, engine.OpenOptions{})
	index(t, e, dir)
	e.Close()
	other := engine.Settings{Store: loc, Chunker: "window", ChunkSize: 50, Overlap: 10}
	e2, err := engine.Open(ctx, other, engine.OpenOptions{})
	if err == nil {
		_, err = e2.Index(ctx, dir, nil)
		e2.Close()
	}
	if !errors.Is(err, fonte.ErrSettingsMismatch) || !strings.Contains(err.Error(), "chunker") {
		t.Fatalf("indexing with another chunker: %v; want a settings mismatch naming the chunker", err)
	}
	e3 := open(t, loc, other, engine.OpenOptions{Rebuild: true})
	rep := index(t, e3, dir)
	st, err := e3.Status(ctx)
	if err != nil || st.Chunker == "" || !strings.HasPrefix(st.Chunker, "window") || st.Chunks != rep.Chunks {
		t.Fatalf("after the rebuild: %+v %v", st, err)
	}
}

// failingEmbedder is the default embedder, failing once it has embedded
// limit texts: an index run that dies half-way.
type failingEmbedder struct {
	fonte.Embedder
	limit, done int
}

func (f *failingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if f.done+len(texts) > f.limit {
		return nil, fmt.Errorf("embedding server gone")
	}
	f.done += len(texts)
	return f.Embedder.Embed(ctx, texts)
}

// testNoPartialCommit: an index run that fails after putting some
// documents leaves the store exactly as it was.
func testNoPartialCommit(t *testing.T, b Backend) {
	ctx := context.Background()
	dir := corpus(t)
	loc := b.New(t)
	e := open(t, loc, engine.Settings{}, engine.OpenOptions{})
	index(t, e, dir)
	before, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	// Enough new documents for several batches, so some are put before
	// the embedder fails.
	for i := range 150 {
		text := fmt.Sprintf("# Note %d\n\nMemo number %d about the quarterly figures of team %d.\n", i, i, i%9)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("note-%03d.md", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := &failingEmbedder{Embedder: engine.DefaultEmbedder(), limit: 100}
	e2 := open(t, loc, engine.Settings{Embedder: f}, engine.OpenOptions{})
	if _, err := e2.Index(ctx, dir, nil); err == nil {
		t.Fatal("the index run did not fail")
	}
	if f.done == 0 {
		t.Fatal("nothing was embedded before the failure: the case tests nothing")
	}
	after, err := e2.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after.Generation != before.Generation || after.Documents != before.Documents || after.Chunks != before.Chunks {
		t.Fatalf("a failed run changed the store: before %d docs %d chunks generation %d, after %d %d %d",
			before.Documents, before.Chunks, before.Generation, after.Documents, after.Chunks, after.Generation)
	}
	if h, err := e2.Search(ctx, "memo quarterly figures", engine.SearchOptions{K: 10, Mode: retrieve.BM25}); err != nil ||
		slices.ContainsFunc(h, func(h fonte.Hit) bool { return strings.HasPrefix(h.Chunk.DocID, "note-") }) {
		t.Fatalf("a failed run's documents are searchable: %v %v", ids(h), err)
	}
}

// testDead: a store whose server does not answer gives a clear error
// that names it.
func testDead(t *testing.T, b Backend) {
	loc := b.Dead(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30e9)
	defer cancel()
	e, err := engine.Open(ctx, engine.Settings{Store: loc}, engine.OpenOptions{})
	if err == nil {
		_, err = e.Index(ctx, corpus(t), nil)
		e.Close()
	}
	if err == nil || !errors.Is(err, fonte.ErrUnavailable) {
		t.Fatalf("a dead server: %v; want an error wrapping fonte.ErrUnavailable", err)
	}
	t.Logf("dead server: %v", err)
}
