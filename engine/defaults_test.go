package engine

import (
	"context"
	"encoding/json"
	"fmt"
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
// 18F handbook, the Debian Italian and English sets, the GDS Way
// (English) and the AgID guidelines (Italian) of evalsets/, and the
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
		load("gds-way-en", "../evalsets/gds-way-en/docs", "../evalsets/gds-way-en/questions.jsonl"),
		load("linee-guida-it", "../evalsets/linee-guida-pa-it/docs", "../evalsets/linee-guida-pa-it/questions.jsonl"),
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

// TestDefaultRetriever measures, on the dev questions of every set, the
// default retriever with no embedding model configured beside each leg
// (BM25, TF-IDF, the built-in n-gram vectors) and the hybrid of BM25 and
// those vectors, and fails when the claims README.md and DESIGN.md make
// of it stop holding:
//   - the default is BM25 alone (its scores are BM25's, question by
//     question);
//   - averaged over the sets, the default's nDCG@10 is at least that of
//     every other retriever, hybrid included (a default that loses to one
//     of the alternatives on average is a defect);
//   - on no set does a single other leg (TF-IDF, vectors) beat it by more
//     than one question's worth.
//
// The test questions are not looked at: defaults are chosen on dev. The
// seeds' sets carry no split and count as dev.
func TestDefaultRetriever(t *testing.T) {
	ctx := context.Background()
	modes := []retrieve.Mode{"", retrieve.BM25, retrieve.TFIDF, retrieve.Dense, retrieve.Hybrid}
	name := func(m retrieve.Mode) string {
		if m == "" {
			return "default"
		}
		return string(m)
	}
	mean := map[retrieve.Mode]float64{}
	pooled := map[string][2][]float64{} // per language: answerable, unanswerable relevances
	sets := defaultSets(t)
	for _, set := range sets {
		dev := devQuestions(set.questions)
		e, err := Open(ctx, Settings{Store: t.TempDir()}, OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Index(ctx, set.docs, nil); err != nil {
			t.Fatalf("%s: %v", set.name, err)
		}
		scores := map[retrieve.Mode]*EvalResult{}
		for _, m := range modes {
			r, err := e.EvalQuestions(ctx, dev, EvalOptions{Mode: m})
			if err != nil {
				t.Fatalf("%s %s: %v", set.name, name(m), err)
			}
			scores[m] = r
			mean[m] += r.Report.Retrieval.NDCG10 / float64(len(sets))
			if m == "" {
				for lang, g := range checkAbstention(t, set.name, r.Questions, e.floorFor) {
					p := pooled[lang]
					pooled[lang] = [2][]float64{append(p[0], g[0]...), append(p[1], g[1]...)}
				}
			}
		}
		e.Close()
		def := scores[""].Report.Retrieval
		line := fmt.Sprintf("%-15s %3d dev questions  nDCG@10", set.name, def.Queries)
		for _, m := range modes {
			line += fmt.Sprintf("  %s %.4f", name(m), scores[m].Report.Retrieval.NDCG10)
		}
		t.Log(line)
		if def.Queries == 0 {
			t.Errorf("%s: no answerable dev question was evaluated", set.name)
			continue
		}
		for i, q := range scores[""].Questions {
			if b := scores[retrieve.BM25].Questions[i]; q.GoldRank != b.GoldRank {
				t.Errorf("%s %s: the default ranks the gold at %d, BM25 at %d: the default is not BM25 alone", set.name, q.ID, q.GoldRank, b.GoldRank)
			}
		}
		// One question's worth: a gold moving from rank 1 to nowhere.
		slack := 1 / float64(def.Queries)
		for _, m := range []retrieve.Mode{retrieve.TFIDF, retrieve.Dense} {
			if got := scores[m].Report.Retrieval.NDCG10; got > def.NDCG10+slack {
				t.Errorf("%s: %s alone (nDCG@10 %.4f) beats the default (%.4f) by more than one question", set.name, name(m), got, def.NDCG10)
			}
		}
	}
	line := "mean over sets       nDCG@10"
	for _, m := range modes {
		line += fmt.Sprintf("  %s %.4f", name(m), mean[m])
	}
	t.Log(line)
	for _, m := range modes[1:] {
		if mean[m] > mean[""]+1e-9 {
			t.Errorf("averaged over the sets, %s (nDCG@10 %.4f) beats the default (%.4f)", name(m), mean[m], mean[""])
		}
	}
	// The floor's evidence, pooled over the sets per language (a set's
	// few unanswerable dev questions are too few to judge it alone):
	// relevance must separate answerable from unanswerable questions
	// better than AUC 0.6, or the floor would have nothing to stand on.
	for _, lang := range slices.Sorted(maps.Keys(pooled)) {
		ans, unans := pooled[lang][0], pooled[lang][1]
		auc := rocArea(ans, unans)
		t.Logf("pooled %-2s: %d answerable, %d unanswerable dev questions, relevance AUC %.2f", lang, len(ans), len(unans), auc)
		if len(ans) >= 10 && len(unans) >= 10 && auc < 0.6 {
			t.Errorf("%s: over every set, relevance separates answerable from unanswerable questions at AUC %.2f", lang, auc)
		}
	}
}

// devQuestions returns the questions of qs that are not in the test
// split (questions without a split count as dev).
func devQuestions(qs []eval.Question) []eval.Question {
	var out []eval.Question
	for _, q := range qs {
		if q.Split != "test" {
			out = append(out, q)
		}
	}
	return out
}

// checkAbstention logs, per language of a set, what the abstain floor in
// use lets through and blocks, the fewest answerable questions any floor
// blocks while letting at most a quarter of the unanswerable ones through
// (issue 11's target asks for at most a tenth), and how well relevance
// separates the two kinds (the area under the ROC curve). It returns the
// relevances per language (answerable, unanswerable) for the caller to
// pool.
func checkAbstention(t *testing.T, set string, qs []QuestionResult, floor func(string) float64) map[string][2][]float64 {
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
	}
	return by
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
