package engine

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/retrieve"
)

// evalSet is a corpus folder and its questions.
type evalSet struct {
	name, docs string
	questions  []eval.Question
}

// defaultSets are every question set of the repository and of ../shared
// that runs in seconds: the example handbook (English and Italian), the
// 18F handbook, the Debian Italian and English sets of evalsets/, and the
// seeds' Italian rulebook and English shop handbook (rebuilt from the
// fixtures into a temporary folder). SciFact is left to the benchmark.
func defaultSets(t *testing.T) []evalSet {
	t.Helper()
	load := func(name, docs, questions string) evalSet {
		qs, err := eval.LoadQuestions(questions)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := os.Stat(docs); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return evalSet{name: name, docs: docs, questions: qs}
	}
	sets := []evalSet{
		load("examples", "../examples/handbook", "../examples/questions.jsonl"),
		load("18f", "../../shared/data/handbook", "../examples/handbook-18f-questions.jsonl"),
		load("debian-it", "../evalsets/debian-reference-it/docs", "../evalsets/debian-reference-it/questions.jsonl"),
		load("maint-guide-en", "../evalsets/maint-guide-en/docs", "../evalsets/maint-guide-en/questions.jsonl"),
	}
	return append(sets, seedSet000(t), seedSet002(t))
}

// seedSet000 rebuilds seed 000's Italian rulebook: one Markdown file per
// document, a question's gold the first words of its gold passage.
func seedSet000(t *testing.T) evalSet {
	var fx struct {
		Documents map[string][]string `json:"documents"`
		Passages  []struct {
			Text string `json:"text"`
		} `json:"passages"`
		Questions []struct {
			Question    string `json:"question"`
			GoldPassage int    `json:"gold_passage"`
			GoldDoc     string `json:"gold_doc"`
		} `json:"questions"`
		Unanswerable []string `json:"unanswerable"`
	}
	readFixture(t, "seed000-rulebook-it.json", &fx)
	dir := t.TempDir()
	for name, paras := range fx.Documents {
		writeFile(t, filepath.Join(dir, name+".md"), strings.Join(paras, "\n\n")+"\n")
	}
	s := evalSet{name: "seed000-it", docs: dir}
	for _, q := range fx.Questions {
		words := strings.Fields(fx.Passages[q.GoldPassage].Text)
		s.questions = append(s.questions, eval.Question{ID: q.Question, Question: q.Question,
			Gold: []eval.Gold{{Doc: q.GoldDoc + ".md", Quote: strings.Join(words[:min(8, len(words))], " ")}}})
	}
	for _, u := range fx.Unanswerable {
		s.questions = append(s.questions, eval.Question{ID: u, Question: u, Unanswerable: true})
	}
	return s
}

// seedSet002 rebuilds seed 002's shop handbook: one Markdown file, a
// question's gold the sentence of its gold section.
func seedSet002(t *testing.T) evalSet {
	var fx struct {
		Handbook string `json:"handbook"`
		Eval     []struct {
			Question     string `json:"question"`
			GoldChunk    string `json:"gold_chunk"`
			GoldSentence int    `json:"gold_sentence"`
		} `json:"eval"`
		Unanswerable []string `json:"unanswerable"`
	}
	readFixture(t, "seed002-handbook-en.json", &fx)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "handbook.md"), fx.Handbook)
	var sections [][]string
	for _, sec := range strings.Split("\n"+fx.Handbook, "\n# ")[1:] {
		var lines []string
		for _, l := range strings.Split(sec, "\n")[1:] {
			if strings.TrimSpace(l) != "" {
				lines = append(lines, l)
			}
		}
		sections = append(sections, lines)
	}
	s := evalSet{name: "seed002-en", docs: dir}
	for _, q := range fx.Eval {
		c, err := strconv.Atoi(strings.TrimPrefix(q.GoldChunk, "c"))
		if err != nil || c >= len(sections) || q.GoldSentence >= len(sections[c]) {
			t.Fatalf("seed 002: gold %s/%d", q.GoldChunk, q.GoldSentence)
		}
		s.questions = append(s.questions, eval.Question{ID: q.Question, Question: q.Question,
			Gold: []eval.Gold{{Doc: "handbook.md", Quote: sections[c][q.GoldSentence]}}})
	}
	for _, u := range fx.Unanswerable {
		s.questions = append(s.questions, eval.Question{ID: u, Question: u, Unanswerable: true})
	}
	return s
}

func readFixture(t *testing.T, name string, v any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "shared", "fixtures", "seeds", name))
	if err != nil {
		t.Fatalf("seed fixture: %v", err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("seed fixture %s: %v", name, err)
	}
}

func writeFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDefaultRetrieverHoldsAgainstBM25: with no embedding model
// configured, the default retriever scores at least BM25 alone's nDCG@10
// and hit@1 on every question set we have (a default that loses to one
// of its own legs is a defect), and the hybrid it replaced is measured
// beside it for the record.
func TestDefaultRetrieverHoldsAgainstBM25(t *testing.T) {
	ctx := context.Background()
	for _, set := range defaultSets(t) {
		e, err := Open(ctx, Settings{Store: t.TempDir()}, OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Index(ctx, set.docs, nil); err != nil {
			t.Fatalf("%s: %v", set.name, err)
		}
		scores := map[retrieve.Mode]eval.Retrieval{}
		for _, m := range []retrieve.Mode{"", retrieve.BM25, retrieve.Hybrid} {
			r, err := e.EvalQuestions(ctx, set.questions, EvalOptions{Mode: m})
			if err != nil {
				t.Fatalf("%s %s: %v", set.name, m, err)
			}
			scores[m] = r.Report.Retrieval
			if m == "" {
				checkAbstention(t, set.name, r.Questions, e.floorFor)
			}
		}
		e.Close()
		def, bm25, hybrid := scores[""], scores[retrieve.BM25], scores[retrieve.Hybrid]
		t.Logf("%-15s %3d questions  nDCG@10 default %.4f  bm25 %.4f  hybrid(0.5) %.4f   hit@1 %.3f %.3f %.3f",
			set.name, def.Queries, def.NDCG10, bm25.NDCG10, hybrid.NDCG10, def.Hit1, bm25.Hit1, hybrid.Hit1)
		if def.Queries == 0 {
			t.Errorf("%s: no answerable question was evaluated", set.name)
		}
		if def.NDCG10 < bm25.NDCG10-1e-9 || def.Hit1 < bm25.Hit1-1e-9 {
			t.Errorf("%s: the default retriever (nDCG@10 %.4f, hit@1 %.3f) loses to BM25 alone (%.4f, %.3f)",
				set.name, def.NDCG10, def.Hit1, bm25.NDCG10, bm25.Hit1)
		}
	}
}

// checkAbstention logs, per language of a set, what the abstain floor in
// use lets through and blocks, the fewest answerable questions any floor
// blocks while letting at most a quarter of the unanswerable ones through
// (issue 11's target asks for at most a tenth), and how well relevance
// separates the two kinds (the area under the ROC curve). It fails when
// relevance separates them no better than 0.6 where each kind has at
// least three questions: the floor's evidence would have broken.
func checkAbstention(t *testing.T, set string, qs []QuestionResult, floor func(string) float64) {
	t.Helper()
	by := map[string][2][]float64{}
	for _, q := range qs {
		g := by[q.Language]
		if q.Unanswerable {
			g[1] = append(g[1], q.Relevance)
		} else {
			g[0] = append(g[0], q.Relevance)
		}
		by[q.Language] = g
	}
	for _, lang := range slices.Sorted(maps.Keys(by)) {
		ans, unans := by[lang][0], by[lang][1]
		if len(unans) == 0 || len(ans) == 0 {
			continue
		}
		f := floor(lang)
		through, blocked := countFloor(ans, unans, f)
		best := len(ans)
		for _, x := range append(slices.Clone(ans), unans...) {
			if th, bl := countFloor(ans, unans, x); 4*th <= len(unans) {
				best = min(best, bl)
			}
		}
		auc := rocArea(ans, unans)
		t.Logf("%-15s %-2s abstain at floor %.2f: %d/%d unanswerable let through, %d/%d answerable blocked; "+
			"at most 25%% through blocks at best %d/%d; relevance AUC %.2f",
			set, lang, f, through, len(unans), blocked, len(ans), best, len(ans), auc)
		if len(ans) >= 3 && len(unans) >= 3 && auc < 0.6 {
			t.Errorf("%s %s: relevance separates answerable from unanswerable questions at AUC %.2f", set, lang, auc)
		}
	}
}

// countFloor counts the unanswerable relevances at or above floor and
// the answerable ones below it.
func countFloor(ans, unans []float64, floor float64) (through, blocked int) {
	for _, x := range unans {
		if x >= floor {
			through++
		}
	}
	for _, x := range ans {
		if x < floor {
			blocked++
		}
	}
	return through, blocked
}

// rocArea is the probability that an answerable question's relevance
// exceeds an unanswerable one's (ties count half).
func rocArea(ans, unans []float64) float64 {
	if len(ans) == 0 || len(unans) == 0 {
		return 0
	}
	wins := 0.0
	for _, a := range ans {
		for _, u := range unans {
			switch {
			case a > u:
				wins++
			case a == u:
				wins += 0.5
			}
		}
	}
	return wins / float64(len(ans)*len(unans))
}
