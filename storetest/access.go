package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/retrieve"
)

// A reader learns nothing from documents it may not read: for a reader
// R, a corpus C and documents H that R may not read, every response R
// gets over C ∪ H (hits, scores, relevance, the abstain decision, the
// answer, the trace but its timings) is the one it gets over C alone.
// The corpora, the label assignments, the readers and the questions are
// random (seeded): BM25's and TF-IDF's statistics, MaxScore, the
// relevance, the coverage of the question's words and the languages a
// query is analysed in must all count only what R may read.

// accessFolders are the folders of a random corpus and the labels an
// access rule gives each.
var accessFolders = map[string][]string{
	"open/": nil, "hr/": {"hr"}, "fin/": {"fin"}, "legal/": {"legal"}, "board/": {"hr", "fin"},
}

// accessWords are the words random documents are written with: shared
// ones, so that hidden and visible documents hold the same words.
var accessWords = strings.Fields(`hotel travel refund salary budget contract office badge laptop
	meeting review payroll invoice supplier holiday training policy approval manager
	deadline expense account password backup incident release version printer parking`)

// randomDoc writes a document of n sentences of the shared words, plus
// the extra words given (a hidden document's secrets).
func randomDoc(rng *rand.Rand, n int, extra ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# The %s %s\n\n", accessWords[rng.IntN(len(accessWords))], accessWords[rng.IntN(len(accessWords))])
	for i := range n {
		w := func() string { return accessWords[rng.IntN(len(accessWords))] }
		fmt.Fprintf(&b, "The %s of the %s is %s for the %s and the %s.", w(), w(), w(), w(), w())
		if i < len(extra) {
			fmt.Fprintf(&b, " The %s figure is %s.", w(), extra[i])
		}
		b.WriteString(" ")
		if i%3 == 2 {
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

// hiddenCorpus is one random case: a folder holding C, the files of H
// to add to it, the reader, and the questions.
type hiddenCorpus struct {
	dir       string
	hidden    map[string]string // name → text
	reader    fonte.Filter
	questions []string
}

// graphFiller is how many long public documents a graph case adds to C
// (about 65 chunks each): enough that a reader sees more chunks than an
// HNSW graph scans exactly under a filter (32 × its candidate list of
// 64), so that on a graph the filtered walk itself is what is tested.
const graphFiller = 40

// newHiddenCorpus makes random case seed; with graph, C also holds
// filler long public documents and one the reader may not read, so that
// the reader sees part of C on either side.
func newHiddenCorpus(t *testing.T, seed uint64, graph bool, filler int) hiddenCorpus {
	rng := rand.New(rand.NewPCG(seed, 2121))
	labels := []string{"hr", "fin", "legal"}
	var reader []string
	for _, l := range labels {
		if rng.IntN(3) == 0 {
			reader = append(reader, l)
		}
	}
	f := fonte.Filter{Restricted: true, Labels: reader}
	folders := slices.Sorted(func(yield func(string) bool) {
		for k := range accessFolders {
			if !yield(k) {
				return
			}
		}
	})
	var hiddenFolders []string
	for _, dir := range folders {
		if !f.Readable(accessTags(accessFolders[dir])) {
			hiddenFolders = append(hiddenFolders, dir)
		}
	}
	if len(hiddenFolders) == 0 { // a reader of every label: make it one of none
		f.Labels = nil
		hiddenFolders = []string{"hr/", "fin/", "legal/", "board/"}
	}
	hc := hiddenCorpus{dir: filepath.Join(t.TempDir(), "docs"), hidden: map[string]string{}, reader: f}
	for i := range 6 + rng.IntN(8) {
		dir := folders[rng.IntN(len(folders))]
		if i == 0 {
			dir = "open/" // C holds something every reader may read
		}
		if i == 1 && graph {
			dir = hiddenFolders[0]
		}
		text := randomDoc(rng, 2+rng.IntN(10))
		name := fmt.Sprintf("%sdoc%02d.md", dir, i)
		writeFile(t, hc.dir, name, text)
	}
	if graph {
		for i := range filler {
			writeFile(t, hc.dir, fmt.Sprintf("open/long%02d.md", i), randomDoc(rng, 900))
		}
	}
	// H: documents only in C ∪ H, in folders the reader may not read,
	// holding secret figures, words of their own, and one in Italian
	// (a language C may not have).
	var secrets []string
	for i := range 1 + rng.IntN(5) {
		dir := hiddenFolders[rng.IntN(len(hiddenFolders))]
		secret := fmt.Sprint(100000 + rng.IntN(900000))
		secrets = append(secrets, secret, "zanzibar"+fmt.Sprint(i))
		text := randomDoc(rng, 1+rng.IntN(12), secret, "zanzibar"+fmt.Sprint(i))
		if i == 1 {
			text = "# Stipendi\n\nLo stipendio del direttore è di " + secret + " euro lordi all'anno, pagato in tredici mensilità.\n"
		}
		hc.hidden[fmt.Sprintf("%shidden%02d.md", dir, i)] = text
	}
	for range 8 {
		var q []string
		for range 1 + rng.IntN(4) {
			q = append(q, accessWords[rng.IntN(len(accessWords))])
		}
		if rng.IntN(2) == 0 {
			q = append(q, secrets[rng.IntN(len(secrets))])
		}
		hc.questions = append(hc.questions, strings.Join(q, " "))
	}
	hc.questions = append(hc.questions, "what is the salary figure?", "qual è lo stipendio del direttore?")
	return hc
}

func writeFile(t *testing.T, root, name, text string) {
	t.Helper()
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func accessTags(labels []string) []string {
	var out []string
	for _, l := range labels {
		out = append(out, fonte.AccessTag(l))
	}
	return out
}

// response is what a reader is shown for one request, as JSON, with the
// trace's timings removed.
func response(t *testing.T, e *engine.Engine, q string, mode retrieve.Mode, f fonte.Filter, ask bool) string {
	t.Helper()
	ctx := context.Background()
	var tr engine.Trace
	var out any
	var err error
	if ask {
		out, err = e.Ask(ctx, q, engine.AskOptions{SearchOptions: engine.SearchOptions{K: 5, Mode: mode, Filter: f, Trace: &tr}})
	} else {
		out, err = e.Search(ctx, q, engine.SearchOptions{K: 8, Mode: mode, Filter: f, Trace: &tr})
	}
	if err != nil {
		return "error: " + err.Error()
	}
	for i := range tr.Stages {
		tr.Stages[i].MS = 0
	}
	b, err := json.MarshalIndent(map[string]any{"response": out, "trace": tr}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// testHiddenMovesNothingGraph is testHiddenMovesNothing with the dense
// leg an HNSW graph on every store (see graphLocation), over corpora
// whose readers see more chunks than a graph scans exactly: a graph's
// links are shaped by hidden chunks too, so a restricted reader's dense
// leg must not walk it.
func testHiddenMovesNothingGraph(t *testing.T, b Backend) {
	hiddenMovesNothing(t, b, 1, true)
}

// graphLocation is location with the store's dense index an HNSW graph
// whatever the corpus's size: PostgreSQL's HNSW index from no chunks on,
// Redis's from one; the embedded store's is chosen by the settings'
// DenseIndex.
func graphLocation(location string) string {
	sep := "?"
	if strings.Contains(location, "?") {
		sep = "&"
	}
	switch {
	case strings.HasPrefix(location, "postgres://"), strings.HasPrefix(location, "postgresql://"):
		return location + sep + "exact_below=0"
	case strings.HasPrefix(location, "redis://"), strings.HasPrefix(location, "rediss://"):
		return location + sep + "hnsw_above=1"
	}
	return location
}

func testHiddenMovesNothing(t *testing.T, b Backend, seeds int) {
	hiddenMovesNothing(t, b, seeds, false)
}

func hiddenMovesNothing(t *testing.T, b Backend, seeds int, graph bool) {
	// The labelled folders' rules (open/ has none), as rules that need
	// not match a file: C alone may have nothing under some of them.
	rules := map[string][]string{}
	for dir, labels := range accessFolders {
		if len(labels) > 0 {
			rules[dir] = labels
		}
	}
	access := engine.Settings{InheritedAccess: rules}
	modes := []retrieve.Mode{retrieve.Hybrid, retrieve.BM25, retrieve.Dense, retrieve.TFIDF}
	location := b.New
	if graph {
		access.DenseIndex = retrieve.DenseHNSW
		modes = []retrieve.Mode{retrieve.Hybrid, retrieve.Dense}
		location = func(t *testing.T) string { return graphLocation(b.New(t)) }
	}
	// Only the embedded store needs the filler to walk its graph under a
	// filter; PostgreSQL and Redis use theirs from the first chunk (see
	// graphLocation), and their exact restricted paths are checked by
	// the stores' own tests (EXPLAIN, FT.PROFILE). The filler would cost
	// minutes there.
	filler := 0
	if graph && b.Name == "disk" {
		filler = graphFiller
		// The filler's public class (about 2,600 chunks) gets a class
		// graph of its own, which the reader then walks: what a class
		// graph reaches must not depend on the hidden chunks either.
		defer func(old int) { retrieve.ClassGraphMinChunks = old }(retrieve.ClassGraphMinChunks)
		retrieve.ClassGraphMinChunks = 1000
	}
	for seed := range uint64(seeds) {
		hc := newHiddenCorpus(t, seed, graph, filler)
		// One folder, so that the documents C and C ∪ H share have the
		// same source: C indexed, then H added and C ∪ H indexed.
		c := open(t, location(t), access, engine.OpenOptions{})
		index(t, c, hc.dir)
		for name, text := range hc.hidden {
			writeFile(t, hc.dir, name, text)
		}
		ch := open(t, location(t), access, engine.OpenOptions{})
		index(t, ch, hc.dir)
		for _, q := range hc.questions {
			for _, mode := range modes {
				for _, ask := range []bool{false, true} {
					got, want := response(t, ch, q, mode, hc.reader, ask), response(t, c, q, mode, hc.reader, ask)
					if got != want {
						t.Fatalf("seed %d, reader %v, %s, ask %v, %q: the response over C ∪ H differs from the one over C\n%s",
							seed, hc.reader.Labels, mode, ask, q, firstDiff(got, want))
					}
				}
			}
		}
	}
}

// firstDiff shows the first lines where two responses differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			lo := max(0, i-3)
			return fmt.Sprintf("over C ∪ H:\n%s\nover C:\n%s", strings.Join(g[lo:min(len(g), i+3)], "\n"), strings.Join(w[lo:min(len(w), i+3)], "\n"))
		}
	}
	return fmt.Sprintf("%d lines against %d", len(g), len(w))
}
