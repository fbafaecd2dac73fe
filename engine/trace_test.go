package engine

import (
	"context"
	"encoding/json"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/retrieve"
)

// handbook opens an engine over the example handbook and its questions.
func handbook(t *testing.T) (*Engine, []eval.Question) {
	t.Helper()
	// Hybrid, so every trace has both legs to show.
	e, err := Open(context.Background(), Settings{IndexDir: filepath.Join(t.TempDir(), "idx"), Mode: retrieve.Hybrid}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if _, err := e.Index(context.Background(), "../examples/handbook", nil); err != nil {
		t.Fatal(err)
	}
	qs, err := eval.LoadQuestions("../examples/questions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return e, qs
}

func stageNames(tr *Trace) []string {
	var out []string
	for _, s := range tr.Stages {
		if s.MS < 0 {
			panic("negative duration")
		}
		out = append(out, s.Name)
	}
	return out
}

// checkRanking asserts that r is hits, ranked 1..n.
func checkRanking(t *testing.T, what string, r []Ranked, hits []fonte.Hit) {
	t.Helper()
	if len(r) != len(hits) {
		t.Fatalf("%s: %d ranked, %d hits", what, len(r), len(hits))
	}
	for i, x := range r {
		h := hits[i]
		if x.Rank != i+1 || x.ChunkID != h.Chunk.ID || x.DocID != h.Chunk.DocID || x.Score != h.Score || x.Relevance != h.Relevance {
			t.Fatalf("%s: ranked %d is %+v, hit %s score %v relevance %v", what, i+1, x, h.Chunk.ID, h.Score, h.Relevance)
		}
	}
}

// checkLeg asserts that a leg's candidates are ranked 1..n, best first,
// within the cap.
func checkLeg(t *testing.T, what string, leg []Candidate, depth int) {
	t.Helper()
	if len(leg) > min(depth, retrieve.TraceCap) {
		t.Fatalf("%s: %d candidates, depth %d cap %d", what, len(leg), depth, retrieve.TraceCap)
	}
	for i, c := range leg {
		if c.Rank != i+1 || c.ChunkID == "" || c.DocID == "" || !strings.HasPrefix(c.ChunkID, c.DocID) {
			t.Fatalf("%s: candidate %d is %+v", what, i+1, c)
		}
		if i > 0 && c.Score > leg[i-1].Score {
			t.Fatalf("%s: candidate %d scores %v above %v", what, i+1, c.Score, leg[i-1].Score)
		}
	}
}

// checkSearchTrace asserts what a traced search must record about hits.
func checkSearchTrace(t *testing.T, what string, tr *Trace, query string, mode retrieve.Mode, hits []fonte.Hit) {
	t.Helper()
	if tr.Query != query || tr.Mode != mode || tr.K != 10 || tr.Depth != 50 {
		t.Fatalf("%s: query %q mode %s k %d depth %d", what, tr.Query, tr.Mode, tr.K, tr.Depth)
	}
	checkRanking(t, what+" fused", tr.Fused, hits)
	checkLeg(t, what+" lexical", tr.Lexical, tr.Depth)
	checkLeg(t, what+" dense", tr.Dense, tr.Depth)
	names := stageNames(tr)
	var want []string
	switch mode {
	case retrieve.BM25:
		want = []string{"lexical_leg", "fusion"}
		if len(tr.Lexical) == 0 || len(tr.Dense) != 0 {
			t.Fatalf("%s: %d lexical, %d dense candidates", what, len(tr.Lexical), len(tr.Dense))
		}
	case retrieve.Dense:
		want = []string{"embed_query", "dense_leg", "fusion"}
		if len(tr.Lexical) != 0 || len(tr.Dense) == 0 {
			t.Fatalf("%s: %d lexical, %d dense candidates", what, len(tr.Lexical), len(tr.Dense))
		}
	default:
		want = []string{"embed_query", "lexical_leg", "dense_leg", "fusion"}
	}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("%s: stages %v, want %v", what, names, want)
	}
	if len(hits) == 0 {
		return
	}
	// Every hit's leg ranks point at the legs' candidates: the top hit
	// is among them.
	top := hits[0]
	found := false
	for _, l := range top.Legs {
		var leg []Candidate
		switch l.Name {
		case "bm25":
			leg = tr.Lexical
		case "vector":
			leg = tr.Dense
		}
		if l.Rank == 0 || l.Rank > len(leg) {
			continue
		}
		c := leg[l.Rank-1]
		if c.ChunkID != top.Chunk.ID || !near(c.Score, l.Score) {
			t.Fatalf("%s: top hit %s has %s rank %d score %v, the trace has %+v", what, top.Chunk.ID, l.Name, l.Rank, l.Score, c)
		}
		found = true
	}
	if !found {
		t.Fatalf("%s: the top hit %s is in no leg's candidates", what, top.Chunk.ID)
	}
	if mode == retrieve.BM25 && tr.Lexical[0].ChunkID != top.Chunk.ID || mode == retrieve.Dense && tr.Dense[0].ChunkID != top.Chunk.ID {
		t.Fatalf("%s: single-leg top hit %s is not the leg's first", what, top.Chunk.ID)
	}
}

// TestTraceSearch: a traced search returns exactly what an untraced one
// does, in every mode, and records the query, both legs' candidates and
// the fused ranking, on the in-memory path and on the store path.
func TestTraceSearch(t *testing.T) {
	ctx := context.Background()
	e, qs := handbook(t)
	v, err := e.view(ctx)
	if err != nil {
		t.Fatal(err)
	}
	langs := map[string]bool{}
	docs := map[string]fonte.Document{}
	for _, d := range v.snap.Docs() {
		langs[d.Language] = true
		docs[d.ID] = d.Document()
	}
	// The store path: the legs come from fonte.Store, as in PostgreSQL.
	remote := &view{gen: v.gen, docs: docs, chunks: v.chunks, chunker: v.chunker,
		remote: &retrieve.StoreSearch{Store: e.store, An: e.an, Langs: slices.Sorted(maps.Keys(langs)), Dim: e.settings.Embedder.Dimension()}}
	for _, q := range qs {
		for _, mode := range []retrieve.Mode{retrieve.Hybrid, retrieve.BM25, retrieve.Dense} {
			want, err := e.Search(ctx, q.Question, SearchOptions{Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			var tr Trace
			got, err := e.Search(ctx, q.Question, SearchOptions{Mode: mode, Trace: &tr})
			if err != nil {
				t.Fatal(err)
			}
			what := q.ID + " " + string(mode)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: traced hits differ from untraced", what)
			}
			checkSearchTrace(t, what, &tr, q.Question, mode, got)

			var rt Trace
			rgot, err := e.search(ctx, remote, q.Question, SearchOptions{Mode: mode, Trace: &rt})
			if err != nil {
				t.Fatal(err)
			}
			rwant, err := e.search(ctx, remote, q.Question, SearchOptions{Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rgot, rwant) {
				t.Fatalf("%s store path: traced hits differ from untraced", what)
			}
			checkSearchTrace(t, what+" store path", &rt, q.Question, mode, rgot)
			for _, legs := range [][2][]Candidate{{rt.Lexical, tr.Lexical}, {rt.Dense, tr.Dense}} {
				if len(legs[0]) != len(legs[1]) {
					t.Fatalf("%s store path: %d candidates, the index has %d", what, len(legs[0]), len(legs[1]))
				}
				for i := range legs[0] {
					g, w := legs[0][i], legs[1][i]
					if g.ChunkID != w.ChunkID || g.Rank != w.Rank || !near(g.Score, w.Score) {
						t.Fatalf("%s store path: candidate %+v, the index has %+v", what, g, w)
					}
				}
			}
		}
	}
	// The trace is JSON with snake_case keys.
	var tr Trace
	if _, err := e.Search(ctx, qs[0].Question, SearchOptions{Trace: &tr}); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(&tr)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"stages":`, `"chunk_id":`, `"doc_id":`, `"fused":`, `"lexical":`, `"dense":`, `"ms":`} {
		if !strings.Contains(string(b), k) {
			t.Fatalf("trace JSON has no %s: %s", k, b)
		}
	}
}

// reverser reranks by putting the last hit first.
type reverser struct{}

func (reverser) Model() string { return "test/reverse" }
func (reverser) Rerank(_ context.Context, _ string, texts []string) ([]float64, error) {
	out := make([]float64, len(texts))
	for i := range out {
		out[i] = float64(i)
	}
	return out, nil
}

// TestTraceRerank: with a reranker the trace keeps the fused ranking and
// records the reranked one, which is the result.
func TestTraceRerank(t *testing.T) {
	ctx := context.Background()
	e, qs := handbook(t)
	e.settings.Reranker = reverser{}
	var tr Trace
	hits, err := e.Search(ctx, qs[0].Question, SearchOptions{Trace: &tr})
	if err != nil {
		t.Fatal(err)
	}
	checkRanking(t, "reranked", tr.Reranked, hits)
	if len(tr.Fused) != len(hits) || len(hits) < 2 || tr.Fused[0].ChunkID != hits[len(hits)-1].Chunk.ID {
		t.Fatalf("fused %+v, hits %d", tr.Fused, len(hits))
	}
	if names := stageNames(&tr); names[len(names)-1] != "rerank" {
		t.Fatalf("stages %v", names)
	}
}

// TestTraceAsk: a traced question gets exactly the untraced answer; an
// abstaining one records the floor it fell below, an answered one the
// fit (its fitted chunks are the citations' chunks) and one grounding
// verdict per sentence.
func TestTraceAsk(t *testing.T) {
	ctx := context.Background()
	e, qs := handbook(t)
	abstained, answered := 0, 0
	for _, q := range qs {
		want, err := e.Ask(ctx, q.Question, AskOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var tr Trace
		got, err := e.Ask(ctx, q.Question, AskOptions{SearchOptions: SearchOptions{Trace: &tr}})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: traced answer differs from untraced:\n%+v\n%+v", q.ID, got, want)
		}
		if tr.Question != q.Question || tr.Query != q.Question || tr.Floor == nil || tr.Abstained != got.Abstained {
			t.Fatalf("%s: trace %+v", q.ID, tr)
		}
		if tr.Prompt != "" {
			t.Fatalf("%s: the extractive answerer sends no prompt, the trace has %q", q.ID, tr.Prompt)
		}
		f := tr.Floor
		if f.Floor != answer.DefaultFloor || f.Relevance != got.Relevance {
			t.Fatalf("%s: floor %+v, answer relevance %v", q.ID, f, got.Relevance)
		}
		if len(tr.Fused) > 0 && !slices.ContainsFunc(tr.Fused, func(r Ranked) bool { return r.ChunkID == f.ChunkID && r.Relevance == f.Relevance }) {
			t.Fatalf("%s: the floor's chunk %s is not a hit with relevance %v", q.ID, f.ChunkID, f.Relevance)
		}
		names := stageNames(&tr)
		if names[0] != "rewrite" || !slices.Contains(names, "floor") {
			t.Fatalf("%s: stages %v", q.ID, names)
		}
		if f.Abstained {
			abstained++
			// The floor compares the relevance of the passages that hold
			// the question's words (Judged), which may be below the best.
			if !got.Abstained || !tr.Abstained || f.Judged >= f.Floor || f.Judged > f.Relevance || tr.Fit != nil || len(tr.Grounding) != 0 ||
				!strings.Contains(f.Reason, "floor") || tr.AbstainReason != f.Reason {
				t.Fatalf("%s: abstained at the floor but trace %+v floor %+v, answer %+v", q.ID, tr, f, got)
			}
			continue
		}
		if got.Abstained && strings.Contains(tr.AbstainReason, "language") {
			// No passage in the question's language: the extractive
			// answerer shows what was found instead of quoting it, and
			// the notice says so.
			if tr.Fit != nil || got.Notice == "" {
				t.Fatalf("%s: abstained across languages, trace %+v, notice %q", q.ID, tr, got.Notice)
			}
			continue
		}
		if got.Abstained && tr.Fit == nil {
			// Past the floor, the passages holding the question's words
			// state no figure of the kind it asks for, or never name its
			// case (answer/askedkind.go): the trace says which, and the
			// notice tells the reader why, since the relevance is over
			// the floor.
			if !tr.Abstained || !strings.Contains(tr.AbstainReason, "asks for a figure") && !strings.Contains(tr.AbstainReason, "the question names") || got.Notice == "" {
				t.Fatalf("%s: abstained past the floor, trace %+v, notice %q", q.ID, tr, got.Notice)
			}
			continue
		}
		if f.Judged < f.Floor || f.Relevance < f.Floor || tr.Fit == nil {
			t.Fatalf("%s: passed the floor with %+v, fit %v", q.ID, f, tr.Fit)
		}
		if want := []string{"rewrite", "embed_query", "lexical_leg", "dense_leg", "fusion", "floor", "fit", "prompt", "generate", "grounding_check"}; !reflect.DeepEqual(names, want) {
			t.Fatalf("%s: stages %v, want %v", q.ID, names, want)
		}
		fit := tr.Fit
		if len(fit.Fitted) != len(got.Citations) || len(fit.Fitted)+len(fit.Cut) != len(tr.Fused) || fit.Used > fit.Budget {
			t.Fatalf("%s: fit %+v, %d citations, %d hits", q.ID, fit, len(got.Citations), len(tr.Fused))
		}
		for i, c := range fit.Fitted {
			if c.ChunkID != got.Citations[i].Chunk.ID || c.Source != got.Citations[i].N || c.Tokens != answer.Tokens(got.Citations[i].Chunk.Text) {
				t.Fatalf("%s: fitted %d is %+v, citation [%d] %s", q.ID, i, c, got.Citations[i].N, got.Citations[i].Chunk.ID)
			}
		}
		for _, c := range fit.Cut {
			if !strings.HasPrefix(c.Reason, "over budget") {
				t.Fatalf("%s: cut %+v", q.ID, c)
			}
		}
		if got.Abstained {
			// The extractive answerer found nothing to quote.
			if tr.AbstainReason == "" || len(tr.Grounding) != 0 {
				t.Fatalf("%s: abstained after the floor, trace %+v", q.ID, tr)
			}
			continue
		}
		answered++
		sentences := answer.Sentences(got.Text)
		if len(tr.Grounding) != len(sentences) {
			t.Fatalf("%s: %d verdicts for %d sentences", q.ID, len(tr.Grounding), len(sentences))
		}
		var unsupported []string
		for i, v := range tr.Grounding {
			if v.Sentence != sentences[i] {
				t.Fatalf("%s: verdict %d on %q, sentence %q", q.ID, i, v.Sentence, sentences[i])
			}
			if !v.Supported {
				unsupported = append(unsupported, v.Sentence)
			}
			if v.Checked && v.Supported && (v.Score != 1 || v.ChunkID == "" || len(v.Missing) != 0) {
				t.Fatalf("%s: supported verdict %+v", q.ID, v)
			}
		}
		if !slices.Equal(unsupported, got.Unsupported) {
			t.Fatalf("%s: unsupported %q, answer %q", q.ID, unsupported, got.Unsupported)
		}
		// The extractive answer quotes source [n]: its last sentence cites
		// it and is supported by it.
		last := tr.Grounding[len(tr.Grounding)-1]
		if n := answer.Citations(got.Text); len(n) != 1 || !slices.Equal(last.Cited, n) || !last.Supported ||
			last.ChunkID != got.Citations[n[0]-1].Chunk.ID {
			t.Fatalf("%s: last verdict %+v for %q", q.ID, last, got.Text)
		}
	}
	if abstained == 0 || answered == 0 {
		t.Fatalf("%d questions abstained at the floor, %d answered: want some of each", abstained, answered)
	}
	t.Logf("%d abstained at the floor, %d answered", abstained, answered)
}

// fixed is a generator that always says the same thing.
type fixed struct{ text string }

func (fixed) Model() string { return "test/fixed" }
func (g fixed) Generate(context.Context, []fonte.Message, func(string)) (string, error) {
	return g.text, nil
}

// TestTraceAskGenerator: with a generator the trace holds the prompt sent
// and flags the invented sentence; with a small budget it records the cut
// chunks.
func TestTraceAskGenerator(t *testing.T) {
	ctx := context.Background()
	e, _ := handbook(t)
	e.settings.Generator = fixed{"Full-time employees accrue 26 working days of annual leave [1]. The office has a zeppelin hangar [1]."}
	e.settings.Budget = 400
	q := "How many vacation days do I get in a year if I work full time?"
	var tr Trace
	a, err := e.Ask(ctx, q, AskOptions{SearchOptions: SearchOptions{Trace: &tr}})
	if err != nil {
		t.Fatal(err)
	}
	if a.Abstained || tr.Prompt == "" || tr.Prompt != a.Prompt {
		t.Fatalf("abstained %v, prompt %q", a.Abstained, tr.Prompt)
	}
	if len(tr.Grounding) != 2 || !tr.Grounding[0].Supported || tr.Grounding[1].Supported ||
		!slices.Contains(tr.Grounding[1].Missing, "zeppelin") || tr.Grounding[1].Score >= 1 ||
		!slices.Equal(a.Unsupported, []string{tr.Grounding[1].Sentence}) {
		t.Fatalf("grounding %+v, unsupported %q", tr.Grounding, a.Unsupported)
	}
	if tr.Fit == nil || len(tr.Fit.Cut) == 0 || tr.Fit.Used > 400 || len(tr.Fit.Fitted) != len(a.Citations) {
		t.Fatalf("fit %+v", tr.Fit)
	}
	if !strings.Contains(tr.Prompt, strings.TrimSpace(a.Citations[0].Chunk.Text[:40])) {
		t.Fatalf("the prompt lacks the first source")
	}
}

// TestTraceRemovedSentence: a sentence of a model's answer stating a
// figure no cited source holds is left out of the answer and named in the
// trace.
func TestTraceRemovedSentence(t *testing.T) {
	ctx := context.Background()
	e, _ := handbook(t)
	invented := "Part-time employees accrue 97 working days of annual leave [1]."
	e.settings.Generator = fixed{"Full-time employees accrue 26 working days of annual leave [1]. " + invented}
	var tr Trace
	a, err := e.Ask(ctx, "How many vacation days do I get in a year if I work full time?", AskOptions{SearchOptions: SearchOptions{Trace: &tr}})
	if err != nil {
		t.Fatal(err)
	}
	if a.Abstained || strings.Contains(a.Text, "97") || !strings.Contains(a.Text, "26 working days") {
		t.Fatalf("answer %q: the invented figure should be left out, the supported sentence kept", a.Text)
	}
	if !slices.ContainsFunc(tr.Removed, func(s string) bool { return strings.Contains(s, "97 working days") }) {
		t.Fatalf("trace removed %q, want the sentence with 97", tr.Removed)
	}
}
