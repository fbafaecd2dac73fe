package engine

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/generate"
)

// TestModelChecks measures fonte's checks of a model's answer (citations,
// support, injection) with fake model servers (fakemodel_test.go) over
// question sets: a faithful model's answers (the reference answers, human
// paraphrases, citing the gold source) must come out as the model said
// them, and an unfaithful model's (a wrong passage, a changed figure)
// must be caught. It runs fonte's real pipeline, end to end (engine.Ask)
// and given the gold passage (answer.Ask over the gold chunks followed by
// the retrieved others), over both wire formats, and prints per set,
// language and split the rates. On the dev split it asserts the targets.
//
//	go test ./engine -run TestModelChecks -v -args -modelcheck.split=test
//	go test ./engine -run TestModelChecks -v -args -modelcheck.sets='name=questions.jsonl@docs,...'
//
// The split and the sets can also come from FONTE_MODELCHECK_SPLIT and
// FONTE_MODELCHECK_SETS. Per-question failures are printed (with -v)
// only on the dev split.
func TestModelChecks(t *testing.T) {
	split := *modelcheckSplit
	if v := os.Getenv("FONTE_MODELCHECK_SPLIT"); v != "" {
		split = v
	}
	sets := *modelcheckSets
	if modelcheckRace && sets == modelcheckSetsDefault {
		// Under the race detector the four sets take many minutes on a
		// busy machine: the example handbook (English and Italian
		// questions) still runs every path concurrently.
		sets = modelcheckSetsUnderRace
	}
	if v := os.Getenv("FONTE_MODELCHECK_SETS"); v != "" {
		sets = v
	}
	if split == "" {
		t.Fatal("no split: give -modelcheck.split=dev (or test)")
	}
	ctx := context.Background()
	pooled := map[tallyKey]*checkTally{}
	for _, spec := range strings.Split(sets, ",") {
		name, paths, ok := strings.Cut(strings.TrimSpace(spec), "=")
		questions, docs, ok2 := strings.Cut(paths, "@")
		if !ok || !ok2 {
			t.Fatalf("set %q: want name=questions.jsonl@docs", spec)
		}
		t.Run(name, func(t *testing.T) {
			qs := splitQuestions(t, questions, split)
			e := indexedEngine(t, ctx, docs)
			tally := modelCheckSet(t, ctx, e, qs, split == "dev")
			for _, k := range sortedKeys(tally) {
				t.Logf("%s %s %s %s: %s", name, k.lang, split, k.mode, tally[k])
				if pooled[k] == nil {
					pooled[k] = &checkTally{}
				}
				pooled[k].add(tally[k])
			}
		})
	}
	checkTargets(t, pooled, split)
}

// checkTargets logs the rates of all sets by language and mode and, on
// dev, asserts the targets on them: at most 2% of the faithful answers
// replaced, rewritten or abstained, at least 80% of the unfaithful ones
// caught.
func checkTargets(t *testing.T, pooled map[tallyKey]*checkTally, split string) {
	for _, k := range sortedKeys(pooled) {
		c := pooled[k]
		t.Logf("all sets %s %s %s: %s", k.lang, split, k.mode, c)
		if split != "dev" {
			continue
		}
		if c.faithful == 0 || c.unfaithful() == 0 {
			t.Errorf("%s %s: nothing measured (%d faithful, %d unfaithful)", k.lang, k.mode, c.faithful, c.unfaithful())
			continue
		}
		if lost := c.faithful - c.kept; lost*50 > c.faithful {
			t.Errorf("%s %s: %d of %d faithful answers replaced, rewritten or abstained (target ≤ 2%%)", k.lang, k.mode, lost, c.faithful)
		}
		if caught := c.caughtWrong + c.caughtFigure; caught*5 < c.unfaithful()*4 {
			t.Errorf("%s %s: %d of %d unfaithful answers caught (target ≥ 80%%)", k.lang, k.mode, caught, c.unfaithful())
		}
	}
}

func sortedKeys(m map[tallyKey]*checkTally) []tallyKey {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b tallyKey) int { return strings.Compare(a.lang+a.mode, b.lang+b.mode) })
	return keys
}

func (c *checkTally) add(o *checkTally) {
	c.faithful += o.faithful
	c.kept += o.kept
	c.flagged += o.flagged
	c.goldMissing += o.goldMissing
	c.floorAbstained += o.floorAbstained
	c.wrong += o.wrong
	c.caughtWrong += o.caughtWrong
	c.figure += o.figure
	c.caughtFigure += o.caughtFigure
	for i := range c.howWrong {
		c.howWrong[i] += o.howWrong[i]
		c.howFigure[i] += o.howFigure[i]
	}
}

var (
	modelcheckSplit = flag.String("modelcheck.split", "dev", "TestModelChecks: the split of the questions to run (dev or test)")
	modelcheckSets  = flag.String("modelcheck.sets", modelcheckSetsDefault, "TestModelChecks: comma-separated name=questions.jsonl@docs-folder")
)

// The question sets TestModelChecks measures by default, and under -race.
const (
	modelcheckSetsDefault = modelcheckSetsUnderRace + "," +
		"18f=../examples/handbook-18f-questions.jsonl@../../shared/data/handbook," +
		"maint-guide-en=../evalsets/maint-guide-en/questions.jsonl@../evalsets/maint-guide-en/docs," +
		"debian-it=../evalsets/debian-reference-it/questions.jsonl@../evalsets/debian-reference-it/docs," +
		"gds-way-en=../evalsets/gds-way-en/questions.jsonl@../evalsets/gds-way-en/docs," +
		"linee-guida-it=../evalsets/linee-guida-pa-it/questions.jsonl@../evalsets/linee-guida-pa-it/docs," +
		"mojtg-en=../evalsets/mojtg-en/questions.jsonl@../evalsets/mojtg-en/docs," +
		"patrimonio-it=../evalsets/patrimonio-pubblico-it/questions.jsonl@../evalsets/patrimonio-pubblico-it/docs"
	modelcheckSetsUnderRace = "examples=../examples/questions.jsonl@../examples/handbook"
)

// Modes of a measurement.
const (
	modeGold     = "given-gold"
	modeEndToEnd = "end-to-end"
)

// splitQuestions loads the answerable questions of a set (those with a
// reference answer) whose "split" is split; the others are never read
// further.
func splitQuestions(t *testing.T, path, split string) []eval.Question {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	splits := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v struct{ ID, Split string }
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		splits[v.ID] = v.Split
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	all, _, err := eval.LoadQuestionsWarn(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []eval.Question
	for _, q := range all {
		if splits[q.ID] == split && !q.Unanswerable && q.Answer != "" {
			out = append(out, q)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no answerable question with split %q", path, split)
	}
	return out
}

// indexedEngine indexes docs into a temporary store and returns its
// folder.
func indexedEngine(t *testing.T, ctx context.Context, docs string) string {
	t.Helper()
	if _, err := os.Stat(docs); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	e, err := Open(ctx, Settings{Store: dir}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Index(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	return dir
}

type tallyKey struct{ lang, mode string }

// checkTally counts the outcomes of one language and mode.
type checkTally struct {
	// faithful counts faithful answers the model gave with the gold
	// source in its prompt; kept those fonte showed as said, citations
	// included; flagged those kept with a warning.
	faithful, kept, flagged int
	// goldMissing counts faithful answers given without the gold source
	// (retrieval missed it), floorAbstained questions fonte abstained on
	// without asking the model: both apart from the rates.
	goldMissing, floorAbstained int
	// wrong and figure count unfaithful answers of each kind, caught* those
	// fonte replaced, rewrote, flagged or abstained on.
	wrong, caughtWrong, figure, caughtFigure int
	// howWrong and howFigure count the caught unfaithful answers of each
	// kind by what fonte did: abstained, replaced, rewritten, flagged
	// (the first that applies).
	howWrong, howFigure [4]int
}

func (c *checkTally) unfaithful() int { return c.wrong + c.figure }

func (c *checkTally) String() string {
	pct := func(a, b int) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
	}
	how := func(h [4]int) string {
		return fmt.Sprintf("abstained %d, replaced %d, rewritten %d, flagged %d", h[0], h[1], h[2], h[3])
	}
	return fmt.Sprintf("faithful kept %d/%d (%s; %d of them with a warning); unfaithful caught %d/%d (%s): wrong passage %d/%d (%s), changed figure %d/%d (%s); "+
		"apart: gold not retrieved %d, floor abstained %d",
		c.kept, c.faithful, pct(c.kept, c.faithful), c.flagged,
		c.caughtWrong+c.caughtFigure, c.unfaithful(), pct(c.caughtWrong+c.caughtFigure, c.unfaithful()),
		c.caughtWrong, c.wrong, how(c.howWrong), c.caughtFigure, c.figure, how(c.howFigure), c.goldMissing, c.floorAbstained)
}

// modelCheckSet runs every question through both fake servers, every
// behaviour and both modes, and tallies the outcomes by language and
// mode; show logs each faithful answer lost and unfaithful one missed.
func modelCheckSet(t *testing.T, ctx context.Context, store string, qs []eval.Question, show bool) map[tallyKey]*checkTally {
	model := newFakeModel(qs)
	ollama, openai := model.ollamaServer(t), model.openAIServer(t)
	tally := map[tallyKey]*checkTally{}
	// Both wires must give the same outcome; the ollama run is tallied.
	seen := map[string]string{}
	for _, wire := range []string{"ollama", "openai"} {
		for _, behaviour := range []string{behaveFaithful, behaveWrongPassage, behaveChangedFigure} {
			var gen fonte.Generator
			var err error
			if wire == "ollama" {
				gen, err = generate.NewOllama(behaviour, generate.OllamaOptions{BaseURL: ollama.URL})
			} else {
				gen, err = generate.NewOpenAI(behaviour, generate.OpenAIOptions{BaseURL: openai.URL})
			}
			if err != nil {
				t.Fatal(err)
			}
			e, err := Open(ctx, Settings{Store: store, Generator: gen}, OpenOptions{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range qs {
				lang := questionLanguage(q, qs)
				for _, mode := range []string{modeGold, modeEndToEnd} {
					model.forget()
					var a *fonte.Answer
					if mode == modeGold {
						a, err = askGivenGold(ctx, e, q)
					} else {
						a, err = e.Ask(ctx, q.Question, AskOptions{})
					}
					if err != nil {
						e.Close()
						t.Fatalf("%s %s %s %s: %v", wire, behaviour, mode, q.ID, err)
					}
					outcome := fmt.Sprintf("%v %q %q %v", a.Abstained, a.Text, a.Unsupported, a.BadCitations)
					run := behaviour + "\x00" + mode + "\x00" + q.ID
					if wire != "ollama" {
						if seen[run] != outcome {
							t.Errorf("%s %s %s: over %s fonte answered %s, over ollama %s", behaviour, mode, q.ID, wire, outcome, seen[run])
						}
						continue
					}
					seen[run] = outcome
					k := tallyKey{lang, mode}
					if tally[k] == nil {
						tally[k] = &checkTally{}
					}
					if why := count(tally[k], behaviour, gen.Model(), a, model, q.Question); why != "" && show {
						t.Logf("%s %s %s %s: %s\n    model: %s\n    fonte: %s\n    unsupported: %q", wire, behaviour, mode, q.ID, why,
							replyText(model, behaviour, q.Question), a.Text, a.Unsupported)
					}
				}
			}
			e.Close()
		}
	}
	return tally
}

// questionLanguage is the language of q (of its question, else of its
// reference answer), else the language most questions of qs have.
func questionLanguage(q eval.Question, qs []eval.Question) string {
	if l := analysis.DetectLanguage(q.Question); l != "" {
		return l
	}
	if l := analysis.DetectLanguage(q.Question + " " + q.Answer); l != "" {
		return l
	}
	n := map[string]int{}
	for _, o := range qs {
		n[analysis.DetectLanguage(o.Question)]++
	}
	delete(n, "")
	best := "und"
	for l, c := range n {
		if c > n[best] || c == n[best] && l < best {
			best = l
		}
	}
	return best
}

func replyText(m *fakeModel, behaviour, question string) string {
	r, _ := m.reply(behaviour, question)
	return r.Text
}

// count adds one answer's outcome to c and returns why it missed its
// target ("" when it did not).
func count(c *checkTally, behaviour, modelName string, a *fonte.Answer, m *fakeModel, question string) string {
	r, asked := m.reply(behaviour, question)
	if !asked {
		if behaviour == behaveFaithful {
			c.floorAbstained++
		}
		return ""
	}
	if r.Inapplicable {
		return ""
	}
	abstained := a.Abstained
	replaced := !abstained && a.Model != modelName
	rewritten := !abstained && !replaced && strings.TrimSpace(a.Text) != strings.TrimSpace(r.Text)
	flagged := len(a.Unsupported) > 0 || len(a.BadCitations) > 0
	switch behaviour {
	case behaveFaithful:
		if r.GoldMissing {
			c.goldMissing++
			return ""
		}
		c.faithful++
		switch {
		case abstained:
			return "faithful answer abstained"
		case replaced:
			return "faithful answer replaced"
		case rewritten:
			return "faithful answer rewritten"
		case !citesSource(a, r.Cited):
			return "faithful answer lost its citation"
		}
		c.kept++
		if flagged {
			c.flagged++
			return "faithful answer kept with a warning"
		}
	case behaveWrongPassage, behaveChangedFigure:
		caught := abstained || replaced || rewritten || flagged
		how := &c.howWrong
		if behaviour == behaveChangedFigure {
			how = &c.howFigure
		}
		for i, did := range []bool{abstained, replaced, rewritten, flagged} {
			if did {
				how[i]++
				break
			}
		}
		if behaviour == behaveWrongPassage {
			c.wrong++
			if caught {
				c.caughtWrong++
			}
		} else {
			c.figure++
			if caught {
				c.caughtFigure++
			}
		}
		if !caught {
			return "unfaithful answer shown as said"
		}
	}
	return ""
}

// citesSource reports whether a lists source n among its citations, with
// a quote from its chunk.
func citesSource(a *fonte.Answer, n int) bool {
	for _, c := range a.Citations {
		if c.N == n && c.Quote != "" && c.DocID != "" {
			return true
		}
	}
	return false
}

// askGivenGold answers q with the gold chunks first (as the best hits)
// followed by the question's other retrieved hits up to the engine's K,
// so the model's prompt holds the gold passage and distractors.
func askGivenGold(ctx context.Context, e *Engine, q eval.Question) (*fonte.Answer, error) {
	gold, err := e.goldHits(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(gold) == 0 {
		return nil, errors.New("no chunk of the index holds a gold quote")
	}
	k := max(e.settings.K, 10)
	hits, err := e.Search(ctx, q.Question, SearchOptions{K: k})
	if err != nil {
		return nil, err
	}
	top := 1.0
	for _, h := range hits {
		top = max(top, h.Score)
	}
	for i := range gold {
		gold[i].Score = top + 1
	}
	for _, h := range hits {
		if len(gold) >= k {
			break
		}
		if !slices.ContainsFunc(gold, func(g fonte.Hit) bool { return g.Chunk.ID == h.Chunk.ID }) {
			gold = append(gold, h)
		}
	}
	v, err := e.view(ctx)
	if err != nil {
		return nil, err
	}
	a, err := answer.Ask(ctx, q.Question, gold, v.docsOf(gold), answer.Config{Budget: e.settings.Budget, Generator: e.settings.Generator})
	return a, err
}

// TestModelChecksServerErrors: a server's refusal (an unknown model) and
// an error inside the stream reach the caller of engine.Ask as errors
// naming the server's message, over both wires; nothing of the broken
// answer reaches the reader, and no answer is made up.
func TestModelChecksServerErrors(t *testing.T) {
	ctx := context.Background()
	qs := splitQuestions(t, "../examples/questions.jsonl", "dev")
	store := indexedEngine(t, ctx, "../examples/handbook")
	model := newFakeModel(qs)
	ollama, openai := model.ollamaServer(t), model.openAIServer(t)
	// The question must get past the floor for the model to be asked.
	var q eval.Question
	for _, c := range qs {
		e, err := Open(ctx, Settings{Store: store}, OpenOptions{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		a, err := e.Ask(ctx, c.Question, AskOptions{})
		e.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !a.Abstained && len(strings.Fields(c.Answer)) > 3 {
			q = c
			break
		}
	}
	if q.Question == "" {
		t.Fatal("no dev question of examples gets past the floor")
	}
	for _, tc := range []struct {
		wire, model, want string
	}{
		{"ollama", "no-such-model", `model "no-such-model" not found`},
		{"openai", "no-such-model", "The model `no-such-model` does not exist"},
		{"ollama", behaveFailMidStream, midStreamError},
		{"openai", behaveFailMidStream, midStreamError},
	} {
		var gen fonte.Generator
		var err error
		if tc.wire == "ollama" {
			gen, err = generate.NewOllama(tc.model, generate.OllamaOptions{BaseURL: ollama.URL, HTTP: generate.HTTPOptions{MaxAttempts: 1}})
		} else {
			gen, err = generate.NewOpenAI(tc.model, generate.OpenAIOptions{BaseURL: openai.URL, HTTP: generate.HTTPOptions{MaxAttempts: 1}})
		}
		if err != nil {
			t.Fatal(err)
		}
		e, err := Open(ctx, Settings{Store: store, Generator: gen}, OpenOptions{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		var streamed strings.Builder
		a, err := e.Ask(ctx, q.Question, AskOptions{OnDelta: func(s string) { streamed.WriteString(s) }})
		e.Close()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: answer %v, error %v; want an error saying %q", tc.wire, tc.model, a, err, tc.want)
		}
		var he *generate.HTTPError
		if !errors.As(err, &he) {
			t.Errorf("%s %s: error %v is not a generate.HTTPError", tc.wire, tc.model, err)
		}
		if streamed.Len() > 0 {
			t.Errorf("%s %s: the reader was shown %q of a broken answer", tc.wire, tc.model, streamed.String())
		}
	}
}
