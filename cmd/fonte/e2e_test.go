package main

// End-to-end tests: they build the real fonte binary once (TestMain) and run
// it as a user would, with os/exec, in temporary working folders, reading
// its exit code, stdout (JSON) and stderr. Model servers are httptest
// servers speaking the Ollama and OpenAI wire formats.

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fonteBin is the binary TestMain builds.
var fonteBin string

// examplesDir holds the handbook and its question set (made absolute by
// TestMain, since the binary runs in other folders).
var examplesDir = "../../examples"

// fixedMtime is the modification time the shared handbook copy carries, so
// citations can be checked for the date they report.
var fixedMtime = time.Date(2024, time.March, 15, 10, 30, 0, 0, time.UTC)

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "fonte-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	shared.root = dir
	if examplesDir, err = filepath.Abs(examplesDir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fonteBin = filepath.Join(dir, "fonte")
	build := exec.Command("go", "build", "-o", fonteBin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building fonte:", err)
		return 1
	}
	return m.Run()
}

// result is one run of the binary.
type result struct {
	code           int
	stdout, stderr string
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\n--- stdout ---\n%s\n--- stderr ---\n%s", r.code, clip(r.stdout, 4000), clip(r.stderr, 4000))
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// run describes how to start the binary.
type run struct {
	dir   string   // working folder; a fresh t.TempDir() when empty
	env   []string // extra KEY=VALUE pairs, on top of an environment without FONTE_*
	stdin string
}

// baseEnv is the test process's environment without any FONTE_ variable,
// so the user's settings cannot leak into the runs.
func baseEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FONTE_") {
			env = append(env, kv)
		}
	}
	return env
}

func (r run) exec(t *testing.T, args ...string) result {
	t.Helper()
	if r.dir == "" {
		r.dir = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, fonteBin, args...)
	cmd.Dir = r.dir
	cmd.Env = append(baseEnv(), r.env...)
	cmd.Stdin = strings.NewReader(r.stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	res := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.Exited():
		res.code = ee.ExitCode()
	default:
		t.Fatalf("fonte %s: %v\n%s", strings.Join(args, " "), err, res)
	}
	return res
}

// runFonte runs the binary in a fresh working folder.
func runFonte(t *testing.T, args ...string) result {
	t.Helper()
	return run{}.exec(t, args...)
}

// mustOK runs the binary and fails the test unless it exits 0.
func mustOK(t *testing.T, r run, args ...string) string {
	t.Helper()
	res := r.exec(t, args...)
	if res.code != 0 {
		t.Fatalf("fonte %s: %s", strings.Join(args, " "), res)
	}
	return res.stdout
}

// decode unmarshals JSON output into a T, failing the test on bad JSON.
func decode[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("output is not the JSON expected: %v\n%s", err, clip(s, 4000))
	}
	return v
}

// copyTree copies the regular files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// copyHandbook copies examples/handbook into a fresh folder and returns it.
func copyHandbook(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "handbook")
	copyTree(t, filepath.Join(examplesDir, "handbook"), dst)
	return dst
}

// shared is one indexed copy of the handbook, built on first use and then
// only read (searches, asks, evals), by tests that run in parallel.
var shared struct {
	root string
	once sync.Once
	docs string // the copied handbook, every file with mtime fixedMtime
	idx  string
	err  error
}

// sharedIndex returns the shared handbook copy and its index.
func sharedIndex(t *testing.T) (docs, idx string) {
	t.Helper()
	shared.once.Do(func() {
		shared.docs = filepath.Join(shared.root, "handbook")
		shared.idx = filepath.Join(shared.root, "handbook-index")
		shared.err = func() error {
			src := filepath.Join(examplesDir, "handbook")
			err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(src, p)
				target := filepath.Join(shared.docs, rel)
				if d.IsDir() {
					return os.MkdirAll(target, 0o755)
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				if err := os.WriteFile(target, b, 0o644); err != nil {
					return err
				}
				return os.Chtimes(target, fixedMtime, fixedMtime)
			})
			if err != nil {
				return err
			}
			cmd := exec.Command(fonteBin, "index", shared.docs, "--index", shared.idx, "--json")
			cmd.Env = baseEnv()
			cmd.Dir = shared.root
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("indexing the shared handbook: %v\n%s", err, out)
			}
			return nil
		}()
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.docs, shared.idx
}

// JSON shapes of the commands' output (decoding is case-insensitive, so
// exact key names are checked separately on generic maps).

type indexOut struct {
	Indexed        int                             `json:"indexed"`
	Unchanged      int                             `json:"unchanged"`
	Removed        int                             `json:"removed"`
	Refused        []struct{ Path, Reason string } `json:"refused"`
	Chunks         int                             `json:"chunks"`
	ChunksEmbedded int                             `json:"chunks_embedded"`
	Generation     uint64                          `json:"generation"`
	IndexedPaths   []string                        `json:"indexed_paths"`
	RemovedPaths   []string                        `json:"removed_paths"`
}

type legOut struct {
	Name  string  `json:"name"`
	Rank  int     `json:"rank"`
	Score float64 `json:"score"`
}

type hitOut struct {
	Doc     string   `json:"doc"`
	Chunk   string   `json:"chunk"`
	Score   float64  `json:"score"`
	Text    string   `json:"text"`
	Heading string   `json:"heading"`
	Page    int      `json:"page"`
	Legs    []legOut `json:"legs"`
}

type searchOut struct {
	Hits []hitOut `json:"hits"`
}

type citationOut struct {
	N       int       `json:"n"`
	Doc     string    `json:"doc"`
	Heading string    `json:"heading"`
	Quote   string    `json:"quote"`
	Page    int       `json:"page"`
	Updated time.Time `json:"updated"`
}

type answerOut struct {
	Question     string        `json:"question"`
	Query        string        `json:"query"`
	Answer       string        `json:"answer"`
	Abstained    bool          `json:"abstained"`
	Citations    []citationOut `json:"citations"`
	Unsupported  []string      `json:"unsupported"`
	BadCitations []int         `json:"bad_citations"`
	Model        string        `json:"model"`
}

type statusOut struct {
	Generation uint64 `json:"generation"`
	Documents  int    `json:"documents"`
	Chunks     int    `json:"chunks"`
	Dimension  int    `json:"dimension"`
	Docs       []struct {
		ID     string `json:"id"`
		Chunks int    `json:"chunks"`
	} `json:"docs"`
}

func (s statusOut) ids() []string {
	var out []string
	for _, d := range s.Docs {
		out = append(out, d.ID)
	}
	return out
}

// requireKeys checks that the JSON object s has each key, spelled exactly.
func requireKeys(t *testing.T, what, s string, keys ...string) map[string]json.RawMessage {
	t.Helper()
	m := decode[map[string]json.RawMessage](t, s)
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			got := make([]string, 0, len(m))
			for g := range m {
				got = append(got, g)
			}
			slices.Sort(got)
			t.Errorf("%s: no key %q (keys: %v)", what, k, got)
		}
	}
	return m
}

// requireArray checks that raw is a JSON array (not null, not an object).
func requireArray(t *testing.T, what string, raw json.RawMessage) {
	t.Helper()
	if b := bytes.TrimSpace(raw); len(b) == 0 || b[0] != '[' {
		t.Errorf("%s is %s, want a JSON list", what, raw)
	}
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// citedNumbers lists the [n] markers of an answer.
func citedNumbers(text string) []int {
	var out []int
	for _, m := range regexp.MustCompile(`\[(\d+)\]`).FindAllStringSubmatch(text, -1) {
		var n int
		fmt.Sscan(m[1], &n)
		out = append(out, n)
	}
	return out
}

func citation(a answerOut, n int) (citationOut, bool) {
	for _, c := range a.Citations {
		if c.N == n {
			return c, true
		}
	}
	return citationOut{}, false
}

// Indexing a folder, then again, after an edit and after a deletion.
func TestE2EIndexIncremental(t *testing.T) {
	t.Parallel()
	docs := copyHandbook(t)
	idx := filepath.Join(t.TempDir(), "idx")
	index := func() (indexOut, string) {
		t.Helper()
		out := mustOK(t, run{}, "index", docs, "--index", idx, "--json")
		return decode[indexOut](t, out), out
	}

	first, raw := index()
	m := requireKeys(t, "index --json", raw, "indexed", "unchanged", "removed", "refused", "chunks_embedded")
	requireArray(t, `"refused" with nothing refused`, m["refused"])
	if first.Indexed != 13 || first.Unchanged != 0 || first.Removed != 0 || len(first.Refused) != 0 {
		t.Fatalf("first run: indexed %d, unchanged %d, removed %d, refused %v; want 13, 0, 0, none", first.Indexed, first.Unchanged, first.Removed, first.Refused)
	}
	if first.ChunksEmbedded <= 0 || first.ChunksEmbedded > first.Chunks {
		t.Fatalf("first run embedded %d chunks of %d", first.ChunksEmbedded, first.Chunks)
	}

	second, _ := index()
	if second.Indexed != 0 || second.Unchanged != 13 || second.Removed != 0 || second.ChunksEmbedded != 0 {
		t.Fatalf("second run over an unchanged folder: indexed %d, unchanged %d, removed %d, embedded %d; want 0, 13, 0, 0",
			second.Indexed, second.Unchanged, second.Removed, second.ChunksEmbedded)
	}
	if second.Chunks != first.Chunks {
		t.Errorf("chunks went from %d to %d with nothing changed", first.Chunks, second.Chunks)
	}

	st := decode[statusOut](t, mustOK(t, run{}, "status", "--index", idx, "--json"))
	leaveChunks := 0
	for _, d := range st.Docs {
		if d.ID == "people/leave.md" {
			leaveChunks = d.Chunks
		}
	}
	if leaveChunks < 3 {
		t.Fatalf("status reports %d chunks for people/leave.md; want several", leaveChunks)
	}

	// Edit one paragraph of one file.
	leave := filepath.Join(docs, "people", "leave.md")
	b, err := os.ReadFile(leave)
	if err != nil {
		t.Fatal(err)
	}
	const oldSentence = "write to hr@ferrovetro.example before 9:30 on the first day of absence"
	const newSentence = "write to hr@ferrovetro.example before 10:15 on the first day of absence"
	if !bytes.Contains(b, []byte(oldSentence)) {
		t.Fatalf("people/leave.md no longer holds %q; update the test", oldSentence)
	}
	if err := os.WriteFile(leave, bytes.Replace(b, []byte(oldSentence), []byte(newSentence), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	third, _ := index()
	if !slices.Equal(third.IndexedPaths, []string{"people/leave.md"}) || third.Unchanged != 12 || third.Removed != 0 {
		t.Fatalf("after editing people/leave.md: indexed %v, unchanged %d, removed %d; want [people/leave.md], 12, 0",
			third.IndexedPaths, third.Unchanged, third.Removed)
	}
	if third.ChunksEmbedded < 1 || third.ChunksEmbedded >= leaveChunks {
		t.Fatalf("editing one paragraph embedded %d chunks; want at least 1 and fewer than the file's %d", third.ChunksEmbedded, leaveChunks)
	}
	if third.Chunks != first.Chunks {
		t.Errorf("the edit changed the chunk count from %d to %d", first.Chunks, third.Chunks)
	}
	hits := decode[searchOut](t, mustOK(t, run{}, "search", "sick leave: tell your manager before 10:15", "--index", idx,
		"--path", "people/leave.md", "--k", "50", "--json")).Hits
	found := false
	for _, h := range hits {
		if strings.Contains(h.Text, "9:30 on the first day") {
			t.Errorf("the old text is still searchable after the edit: %s", h.Chunk)
		}
		found = found || strings.Contains(h.Text, "10:15 on the first day")
	}
	if !found {
		t.Errorf("no chunk of people/leave.md holds the edited text; hits: %d", len(hits))
	}

	// Delete one file.
	query := "copia fuori sede data center secondario Padova"
	backupHits := func() int {
		n := 0
		for _, h := range decode[searchOut](t, mustOK(t, run{}, "search", query, "--index", idx, "--k", "20", "--json")).Hits {
			if h.Doc == "security/backup.md" {
				n++
			}
		}
		return n
	}
	if backupHits() == 0 {
		t.Fatalf("search %q finds nothing from security/backup.md before it is deleted", query)
	}
	if err := os.Remove(filepath.Join(docs, "security", "backup.md")); err != nil {
		t.Fatal(err)
	}
	fourth, _ := index()
	if fourth.Removed != 1 || !slices.Equal(fourth.RemovedPaths, []string{"security/backup.md"}) || fourth.Indexed != 0 || fourth.Unchanged != 12 {
		t.Fatalf("after deleting security/backup.md: removed %d %v, indexed %d, unchanged %d; want 1 [security/backup.md], 0, 12",
			fourth.Removed, fourth.RemovedPaths, fourth.Indexed, fourth.Unchanged)
	}
	if n := backupHits(); n != 0 {
		t.Errorf("search still returns %d chunks of the deleted security/backup.md", n)
	}
	st = decode[statusOut](t, mustOK(t, run{}, "status", "--index", idx, "--json"))
	if st.Documents != 12 || slices.Contains(st.ids(), "security/backup.md") {
		t.Errorf("status after the deletion: %d documents %v", st.Documents, st.ids())
	}
}

// Bad files are refused with a reason; bad calls exit 2.
func TestE2EIndexRefusesBadFiles(t *testing.T) {
	t.Parallel()
	docs := t.TempDir()
	copyFile := func(from, to string) {
		b, err := os.ReadFile(filepath.Join(examplesDir, "handbook", from))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(docs, to), b)
	}
	copyFile("people/leave.md", "leave.md")
	copyFile("finance/purchasing-approvals.md", "finance/purchasing-approvals.md")
	pdf, err := os.ReadFile(filepath.Join(examplesDir, "handbook", "finance", "travel-and-expenses-policy.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(docs, "finance", "broken.pdf"), pdf[:len(pdf)/3])
	blob := make([]byte, 4096)
	for i := range blob {
		blob[i] = byte(i * 7 % 256) // NUL bytes and control characters throughout
	}
	writeFile(t, filepath.Join(docs, "notes.txt"), append([]byte("\x89PNG\r\n\x1a\n"), blob...))
	writeFile(t, filepath.Join(docs, "empty.md"), nil)

	idx := filepath.Join(t.TempDir(), "idx")
	res := runFonte(t, "index", docs, "--index", idx, "--json")
	if res.code != 0 {
		t.Fatalf("bad files among good ones must not fail the run: %s", res)
	}
	rep := decode[indexOut](t, res.stdout)
	slices.Sort(rep.IndexedPaths)
	if want := []string{"finance/purchasing-approvals.md", "leave.md"}; !slices.Equal(rep.IndexedPaths, want) {
		t.Errorf("indexed %v; want %v", rep.IndexedPaths, want)
	}
	reasons := map[string]string{}
	for _, r := range rep.Refused {
		reasons[r.Path] = r.Reason
	}
	for path, word := range map[string]string{"finance/broken.pdf": "pdf", "notes.txt": "binary", "empty.md": "empty"} {
		reason, ok := reasons[path]
		switch {
		case !ok:
			t.Errorf("%s is not in refused %v", path, rep.Refused)
		case !strings.Contains(strings.ToLower(reason), word):
			t.Errorf("%s refused with reason %q, which does not name the problem (%q)", path, reason, word)
		}
	}
	if len(rep.Refused) != 3 {
		t.Errorf("refused %v; want exactly the three bad files", rep.Refused)
	}
	hits := decode[searchOut](t, mustOK(t, run{}, "search", "annual leave days per calendar year", "--index", idx, "--json")).Hits
	if len(hits) == 0 || hits[0].Doc != "leave.md" {
		t.Errorf("the good files are not searchable: %+v", hits)
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestE2EUsageErrors(t *testing.T) {
	t.Parallel()
	t.Run("missing folder", func(t *testing.T) {
		t.Parallel()
		work := t.TempDir()
		missing := filepath.Join(work, "no-such-folder")
		idx := filepath.Join(work, "idx")
		res := run{dir: work}.exec(t, "index", missing, "--index", idx)
		if res.code != 2 || !strings.Contains(res.stderr, missing) {
			t.Errorf("index of a missing folder: want exit 2 naming %s; got %s", missing, res)
		}
		if _, err := os.Stat(idx); err == nil {
			t.Errorf("a failed call created the index folder %s", idx)
		}
	})
	t.Run("bad memory budget", func(t *testing.T) {
		t.Parallel()
		work := t.TempDir()
		idx := filepath.Join(work, "idx")
		res := run{dir: work}.exec(t, "index", work, "--index", idx, "--memory", "lots")
		if res.code != 2 || !strings.Contains(res.stderr, "--memory") || !strings.Contains(res.stderr, `"lots"`) {
			t.Errorf("index --memory lots: want exit 2 naming --memory and the value; got %s", res)
		}
	})
	t.Run("unknown flag", func(t *testing.T) {
		t.Parallel()
		for _, args := range [][]string{
			{"search", "leave", "--no-such-flag"},
			{"index", ".", "--bogus=1"},
			{"--frobnicate", "status"},
		} {
			if res := runFonte(t, args...); res.code != 2 || !strings.Contains(res.stderr, "unknown flag") {
				t.Errorf("fonte %s: want exit 2 with an unknown-flag message; got %s", strings.Join(args, " "), res)
			}
		}
	})
	t.Run("bad questions file", func(t *testing.T) {
		t.Parallel()
		_, idx := sharedIndex(t)
		work := t.TempDir()
		lines, err := os.ReadFile(filepath.Join(examplesDir, "questions.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		good := strings.SplitN(string(lines), "\n", 4)
		bad := good[0] + "\n" + good[1] + "\n" + `{"id": "broken", "question": "Where is the` + "\n" + good[2] + "\n"
		path := filepath.Join(work, "broken-questions.jsonl")
		writeFile(t, path, []byte(bad))
		res := run{dir: work}.exec(t, "eval", "--questions", path, "--index", idx, "--json")
		if res.code == 0 {
			t.Fatalf("eval of a malformed questions file succeeded: %s", res)
		}
		if !strings.Contains(res.stderr, "broken-questions.jsonl") || !regexp.MustCompile(`(:3\b|line 3\b)`).MatchString(res.stderr) {
			t.Errorf("the error must name the file and line 3: %s", res)
		}
	})
}

// frontMatterTags reads `tags: [a, b]` from each Markdown file's front matter.
func frontMatterTags(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		parts := strings.SplitN(string(b), "---", 3)
		if len(parts) < 3 || strings.TrimSpace(parts[0]) != "" {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		for _, line := range strings.Split(parts[1], "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "tags:"); ok {
				v = strings.Trim(strings.TrimSpace(v), "[]")
				for _, tag := range strings.Split(v, ",") {
					out[filepath.ToSlash(rel)] = append(out[filepath.ToSlash(rel)], strings.TrimSpace(tag))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// search --json: the hit shape, legs, path and tag filters.
func TestE2ESearch(t *testing.T) {
	t.Parallel()
	docs, idx := sharedIndex(t)
	search := func(q string, extra ...string) (searchOut, string) {
		t.Helper()
		out := mustOK(t, run{}, append([]string{"search", q, "--index", idx, "--json"}, extra...)...)
		return decode[searchOut](t, out), out
	}

	// The default retriever with the built-in embedder is BM25 alone: its
	// hits have the one leg.
	if res, _ := search("How long must a password for an administrator account be?"); len(res.Hits) == 0 ||
		len(res.Hits[0].Legs) != 1 || res.Hits[0].Legs[0].Name != "bm25" {
		t.Fatalf("default search: %+v", res.Hits)
	}
	res, raw := search("How long must a password for an administrator account be?", "--retriever", "hybrid")
	if len(res.Hits) == 0 {
		t.Fatal("no hits")
	}
	generic := decode[struct {
		Hits []map[string]json.RawMessage `json:"hits"`
	}](t, raw)
	for _, k := range []string{"doc", "chunk", "score", "text", "heading", "legs"} {
		if _, ok := generic.Hits[0][k]; !ok {
			t.Errorf("hit has no key %q: %v", k, generic.Hits[0])
		}
	}
	var legs []map[string]json.RawMessage
	if err := json.Unmarshal(generic.Hits[0]["legs"], &legs); err != nil || len(legs) == 0 {
		t.Fatalf("legs: %v %s", err, generic.Hits[0]["legs"])
	}
	var missing []string
	for _, k := range []string{"name", "rank", "score"} {
		if _, ok := legs[0][k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		var compact bytes.Buffer
		_ = json.Compact(&compact, generic.Hits[0]["legs"])
		t.Errorf("a leg lacks the keys %q (JSON keys are lower case everywhere else): %s", missing, compact.String())
	}
	if res.Hits[0].Doc != "security/passwords-and-accounts.md" || !strings.Contains(res.Hits[0].Text, "20 characters") {
		t.Errorf("top hit %s (%q); want the admin-password rule of security/passwords-and-accounts.md", res.Hits[0].Chunk, clip(res.Hits[0].Text, 200))
	}
	both := false
	for i, h := range res.Hits {
		if h.Doc == "" || !strings.HasPrefix(h.Chunk, h.Doc) || h.Text == "" || h.Score <= 0 {
			t.Errorf("hit %d is incomplete: %+v", i, h)
		}
		if i > 0 && h.Score > res.Hits[i-1].Score {
			t.Errorf("hits out of score order at %d: %v > %v", i, h.Score, res.Hits[i-1].Score)
		}
		ranks := map[string]int{}
		for _, l := range h.Legs {
			ranks[l.Name] = l.Rank
		}
		if _, ok := ranks["bm25"]; !ok {
			t.Errorf("hybrid hit %s has no bm25 leg: %+v", h.Chunk, h.Legs)
		}
		if _, ok := ranks["vector"]; !ok {
			t.Errorf("hybrid hit %s has no vector leg: %+v", h.Chunk, h.Legs)
		}
		both = both || (ranks["bm25"] > 0 && ranks["vector"] > 0)
	}
	if !both {
		t.Errorf("no hybrid hit was found by both legs: %+v", res.Hits)
	}
	if h := res.Hits[0]; h.Heading == "" {
		t.Errorf("top hit %s has no heading", h.Chunk)
	}

	// --path keeps one prefix.
	q := "how do I request days off and what about my account password"
	all, _ := search(q, "--k", "20")
	if !slices.ContainsFunc(all.Hits, func(h hitOut) bool { return !strings.HasPrefix(h.Doc, "security/") }) {
		t.Fatalf("the unfiltered search returns only security/ documents, so the filter cannot be tested: %+v", all.Hits)
	}
	filtered, _ := search(q, "--k", "20", "--path", "security/")
	if len(filtered.Hits) == 0 {
		t.Error("--path security/ returns nothing")
	}
	for _, h := range filtered.Hits {
		if !strings.HasPrefix(h.Doc, "security/") {
			t.Errorf("--path security/ returned %s", h.Doc)
		}
	}

	// --tag keeps documents whose front matter carries the tag.
	tags := frontMatterTags(t, docs)
	var hr []string
	for doc, ts := range tags {
		if slices.Contains(ts, "hr") {
			hr = append(hr, doc)
		}
	}
	if len(hr) < 2 {
		t.Fatalf("expected several documents tagged hr, got %v", hr)
	}
	q = "password account lockout after failed sign-in attempts"
	all, _ = search(q, "--k", "20")
	if !slices.ContainsFunc(all.Hits, func(h hitOut) bool { return !slices.Contains(hr, h.Doc) }) {
		t.Fatalf("the unfiltered search returns only hr documents: %+v", all.Hits)
	}
	filtered, _ = search(q, "--k", "20", "--tag", "hr")
	if len(filtered.Hits) == 0 {
		t.Error("--tag hr returns nothing")
	}
	for _, h := range filtered.Hits {
		if !slices.Contains(hr, h.Doc) {
			t.Errorf("--tag hr returned %s, tagged %v", h.Doc, tags[h.Doc])
		}
	}
	filtered, _ = search("annual leave", "--tag", "hr", "--tag", "leave")
	for _, h := range filtered.Hits {
		if !slices.Contains(tags[h.Doc], "hr") || !slices.Contains(tags[h.Doc], "leave") {
			t.Errorf("--tag hr --tag leave returned %s, tagged %v", h.Doc, tags[h.Doc])
		}
	}
	if len(filtered.Hits) == 0 {
		t.Error("--tag hr --tag leave returns nothing")
	}
}

// ask --json: an answer with checked citations, an abstention, a PDF page.
func TestE2EAsk(t *testing.T) {
	t.Parallel()
	docs, idx := sharedIndex(t)
	ask := func(q string) (answerOut, string) {
		t.Helper()
		out := mustOK(t, run{}, "ask", q, "--index", idx, "--json")
		return decode[answerOut](t, out), out
	}

	a, raw := ask("How many vacation days do I get in a year if I work full time?")
	requireKeys(t, "ask --json", raw, "answer", "abstained", "citations", "unsupported")
	if a.Abstained || !strings.Contains(a.Answer, "26") {
		t.Fatalf("answerable question: abstained %v, answer %q; want the 26 days", a.Abstained, a.Answer)
	}
	rawCites := decode[struct {
		Citations []map[string]json.RawMessage `json:"citations"`
	}](t, raw)
	for _, k := range []string{"n", "doc", "heading", "quote", "page", "updated"} {
		if len(rawCites.Citations) > 0 {
			if _, ok := rawCites.Citations[0][k]; !ok {
				t.Errorf("citation has no key %q", k)
			}
		}
	}
	cited := citedNumbers(a.Answer)
	if len(cited) == 0 {
		t.Fatalf("the answer cites nothing: %q", a.Answer)
	}
	for _, n := range cited {
		c, ok := citation(a, n)
		if !ok {
			t.Errorf("the answer cites [%d], which is not among the citations", n)
			continue
		}
		src, err := os.ReadFile(filepath.Join(docs, filepath.FromSlash(c.Doc)))
		if err != nil {
			t.Errorf("citation [%d] names %q, not a file of the folder: %v", n, c.Doc, err)
			continue
		}
		if c.Quote == "" || !strings.Contains(collapse(string(src)), collapse(c.Quote)) {
			t.Errorf("citation [%d] quote %q is not in %s", n, c.Quote, c.Doc)
		}
		if !c.Updated.Equal(fixedMtime) {
			t.Errorf("citation [%d] updated %v; the file's mtime is %v", n, c.Updated, fixedMtime)
		}
		if c.Doc != "people/leave.md" {
			t.Errorf("citation [%d] is %s; want people/leave.md", n, c.Doc)
		}
	}
	if len(a.Unsupported) != 0 {
		t.Errorf("an extractive answer has unsupported sentences: %q", a.Unsupported)
	}

	a, _ = ask("What is on the canteen menu today?")
	if !a.Abstained || a.Answer != "I don't know." {
		t.Errorf("a question the documents do not cover: abstained %v, answer %q; want true, \"I don't know.\"", a.Abstained, a.Answer)
	}

	a, _ = ask("How much can I spend per night on a hotel in London?")
	if a.Abstained || !strings.Contains(a.Answer, "250") {
		t.Fatalf("the London hotel limit: abstained %v, answer %q", a.Abstained, a.Answer)
	}
	cited = citedNumbers(a.Answer)
	if len(cited) == 0 {
		t.Fatalf("the answer cites nothing: %q", a.Answer)
	}
	c, ok := citation(a, cited[0])
	if !ok || c.Doc != "finance/travel-and-expenses-policy.pdf" || c.Page <= 0 {
		t.Errorf("citation [%d] of the PDF answer: %+v; want the PDF with a page", cited[0], c)
	}
	if ok && !c.Updated.Equal(fixedMtime) {
		t.Errorf("PDF citation updated %v; want %v", c.Updated, fixedMtime)
	}
}

// Settings: flag over FONTE_* over fonte.yaml over the default.
func TestE2EConfigPrecedence(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	hits := func(r run, extra ...string) int {
		t.Helper()
		out := mustOK(t, r, append([]string{"search", "annual leave days", "--index", idx, "--json"}, extra...)...)
		return len(decode[searchOut](t, out).Hits)
	}
	plain := t.TempDir()
	withFile := t.TempDir()
	writeFile(t, filepath.Join(withFile, "fonte.yaml"), []byte("k: 2\n"))

	if n := hits(run{dir: plain}); n != 10 {
		t.Errorf("default: %d hits; want 10", n)
	}
	if n := hits(run{dir: plain, env: []string{"FONTE_K=3"}}); n != 3 {
		t.Errorf("FONTE_K=3: %d hits", n)
	}
	if n := hits(run{dir: withFile}); n != 2 {
		t.Errorf("fonte.yaml k: 2: %d hits", n)
	}
	if n := hits(run{dir: withFile, env: []string{"FONTE_K=3"}}); n != 3 {
		t.Errorf("FONTE_K=3 with fonte.yaml k: 2: %d hits; the environment should win", n)
	}
	if n := hits(run{dir: withFile, env: []string{"FONTE_K=3"}}, "--k", "4"); n != 4 {
		t.Errorf("--k 4 with FONTE_K=3 and fonte.yaml k: 2: %d hits; the flag should win", n)
	}

	bad := t.TempDir()
	writeFile(t, filepath.Join(bad, "fonte.yaml"), []byte("k: 2\ncolour: blue\n"))
	res := run{dir: bad}.exec(t, "search", "leave", "--index", idx, "--json")
	if res.code != 2 || !strings.Contains(res.stderr, "colour") {
		t.Errorf("an unknown key in fonte.yaml: want exit 2 naming it; got %s", res)
	}
}

// chat rewrites a follow-up into a standalone query: the follow-up's
// words take the place of the ones they replace.
func TestE2EChatRewritesFollowUp(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	const first = "How many working days before an international trip must I request a travel authorisation?"
	const second = "and for a domestic one?"
	out := mustOK(t, run{stdin: first + "\n" + second + "\n"}, "chat", "--index", idx, "--json")
	var answers []answerOut
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		answers = append(answers, decode[answerOut](t, line))
	}
	if len(answers) != 2 {
		t.Fatalf("%d JSON lines for two questions:\n%s", len(answers), out)
	}
	if answers[0].Abstained || !strings.Contains(answers[0].Answer, "15 working days") || answers[0].Query != first {
		t.Errorf("first answer: %+v", answers[0])
	}
	a := answers[1]
	if a.Question != second {
		t.Errorf("second question echoed as %q", a.Question)
	}
	query := strings.ToLower(a.Query)
	for _, w := range []string{"domestic", "travel", "authorisation"} {
		if !strings.Contains(query, w) {
			t.Errorf("rewritten query %q lacks %q", a.Query, w)
		}
	}
	if strings.Contains(query, "international") {
		t.Errorf("rewritten query %q keeps the word the follow-up replaced", a.Query)
	}
	if a.Abstained || !strings.Contains(a.Answer, "5 working days before a domestic trip") {
		t.Errorf("second answer: abstained %v, %q", a.Abstained, a.Answer)
	}
}

// chat prints the query it searched when it is not what was typed, and
// searches a question that stands on its own as it is.
func TestE2EChatShowsTheQuerySearched(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	questions := []string{
		"How much can I spend per night on a hotel in London?",
		"And for meals?",
		"Qual è il codice di abbigliamento per la festa di Natale?",
	}
	out := mustOK(t, run{stdin: strings.Join(questions, "\n") + "\n"}, "chat", "--index", idx)
	var searched []string
	for _, line := range strings.Split(out, "\n") {
		if q, ok := strings.CutPrefix(line, "Searched: "); ok {
			searched = append(searched, q)
		}
	}
	if len(searched) != 1 {
		t.Fatalf("want one Searched line, for the follow-up; got %q in:\n%s", searched, out)
	}
	if q := strings.ToLower(searched[0]); !strings.Contains(q, "meals") || !strings.Contains(q, "london") || strings.Contains(q, "hotel") {
		t.Errorf("the follow-up searched %q", searched[0])
	}
	_, afterMeals, _ := strings.Cut(out, "Searched: ")
	if !strings.Contains(afterMeals, "60 euro") {
		t.Errorf("the answer to the follow-up lacks the 60 euro meal limit:\n%s", afterMeals)
	}
}

// eval --questions: the report's shape and ranges, and the SVG charts, on
// the dev questions of the example set (test questions are not run).
func TestE2EEval(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	svg := filepath.Join(t.TempDir(), "charts")
	out := mustOK(t, run{}, "eval", "--questions", filepath.Join(examplesDir, "questions.jsonl"), "--split", "dev", "--index", idx, "--json", "--svg", svg)
	dev := requireKeys(t, "eval --split dev --json", out, "dev")["dev"]
	top := requireKeys(t, "eval --json", string(dev), "retrieval", "abstain", "generation")
	block := func(name string, keys ...string) map[string]float64 {
		m := requireKeys(t, name, string(top[name]), keys...)
		vals := map[string]float64{}
		for _, k := range keys {
			if raw, ok := m[k]; ok {
				var v float64
				if err := json.Unmarshal(raw, &v); err != nil {
					t.Errorf("%s.%s = %s is not a number", name, k, raw)
				}
				vals[k] = v
			}
		}
		return vals
	}
	ret := block("retrieval", "hit@1", "hit@3", "hit@5", "recall@10", "mrr", "ndcg@10")
	gen := block("generation", "given_gold", "end_to_end")
	for name, m := range map[string]map[string]float64{"retrieval": ret, "generation": gen} {
		for k, v := range m {
			if v < 0 || v > 1 {
				t.Errorf("%s.%s = %v, outside [0,1]", name, k, v)
			}
		}
	}
	if !(ret["hit@1"] <= ret["hit@3"] && ret["hit@3"] <= ret["hit@5"]) {
		t.Errorf("hit@k must grow with k: %v", ret)
	}
	if ret["hit@1"] > ret["mrr"] || ret["mrr"] > ret["hit@5"]+1e-9+(1-ret["hit@5"])/6 {
		t.Errorf("mrr %v is inconsistent with hit@1 %v and hit@5 %v", ret["mrr"], ret["hit@1"], ret["hit@5"])
	}
	if ret["hit@5"] == 0 || ret["mrr"] == 0 {
		t.Errorf("retrieval finds nothing on the handbook: %v", ret)
	}
	// The abstain block counts questions (documented in eval.Abstain): the
	// floor is a relevance in [0,1], the costs are counts out of at most
	// the set's 9 unanswerable and 40 answerable questions.
	ab := block("abstain", "floor", "unanswerable_let_through", "answerable_blocked")
	if ab["floor"] <= 0 || ab["floor"] > 1 {
		t.Errorf("abstain.floor = %v", ab["floor"])
	}
	if v := ab["unanswerable_let_through"]; v < 0 || v > 9 || v != float64(int(v)) {
		t.Errorf("abstain.unanswerable_let_through = %v; want a count in [0,9]", v)
	}
	if v := ab["answerable_blocked"]; v < 0 || v > 40 || v != float64(int(v)) {
		t.Errorf("abstain.answerable_blocked = %v; want a count in [0,40]", v)
	}

	for _, name := range []string{"floor.svg", "recall.svg"} {
		b, err := os.ReadFile(filepath.Join(svg, "dev", name))
		if err != nil {
			t.Errorf("--svg: %v", err)
			continue
		}
		d := xml.NewDecoder(bytes.NewReader(b))
		root, elems := "", 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("%s is not well-formed XML: %v", name, err)
				break
			}
			if se, ok := tok.(xml.StartElement); ok {
				if root == "" {
					root = se.Name.Local
				}
				elems++
			}
		}
		if root != "svg" || elems < 5 {
			t.Errorf("%s: root <%s> with %d elements; want an <svg> drawing", name, root, elems)
		}
	}
}

// filesHolding lists the files under dir whose bytes hold s, case aside.
func filesHolding(t *testing.T, dir, s string) []string {
	t.Helper()
	var where []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(bytes.ToLower(b), bytes.ToLower([]byte(s))) {
			where = append(where, filepath.Base(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return where
}

// A file removed from the folder is a deletion too: the next run leaves
// no byte of its text in the index folder, not even in the previous
// generation's files.
func TestE2ERemovedFileLeavesNoTrace(t *testing.T) {
	t.Parallel()
	docs := copyHandbook(t)
	idx := filepath.Join(t.TempDir(), "idx")
	mustOK(t, run{}, "index", docs, "--index", idx, "--json")
	const gone = "La copia fuori sede si trova nel data center secondario di Padova"
	const kept = "You may carry over up to 5 unused days into the next calendar year."
	if len(filesHolding(t, idx, gone)) == 0 {
		t.Fatalf("the index does not hold the document's text verbatim, so this test cannot see a leftover")
	}
	if err := os.Remove(filepath.Join(docs, "security", "backup.md")); err != nil {
		t.Fatal(err)
	}
	mustOK(t, run{}, "index", docs, "--index", idx, "--json")
	if where := filesHolding(t, idx, gone); len(where) > 0 {
		t.Errorf("the removed file's text is still in %v", where)
	}
	if where := filesHolding(t, idx, "Padova"); len(where) > 0 {
		t.Errorf("a word only the removed file used is still in %v", where)
	}
	if len(filesHolding(t, idx, kept)) == 0 {
		t.Errorf("the run removed another document's text")
	}
}

// delete leaves no byte of the document's text in the index folder.
func TestE2EDeleteLeavesNoTrace(t *testing.T) {
	t.Parallel()
	docs := copyHandbook(t)
	idx := filepath.Join(t.TempDir(), "idx")
	mustOK(t, run{}, "index", docs, "--index", idx, "--json")
	const gone = "La copia fuori sede si trova nel data center secondario di Padova"
	const kept = "You may carry over up to 5 unused days into the next calendar year."
	const hidden = "ignore previous instructions"
	inIndex := func(s string) []string { t.Helper(); return filesHolding(t, idx, s) }
	if len(inIndex(gone)) == 0 || len(inIndex(kept)) == 0 {
		t.Fatalf("the index does not hold the documents' text verbatim, so this test cannot see a leftover")
	}
	if where := inIndex(hidden); len(where) > 0 {
		t.Errorf("hidden HTML text (prompt injection) reached the index: %v", where)
	}
	// Another generation, so older files exist that still hold the text.
	writeFile(t, filepath.Join(docs, "people", "extra.md"), []byte("# Extra\n\nThe bike shed is painted green every spring by the facilities team.\n"))
	mustOK(t, run{}, "index", docs, "--index", idx, "--json")

	out := mustOK(t, run{}, "delete", "security/backup.md", "--index", idx, "--json")
	del := decode[struct {
		Deleted []string `json:"deleted"`
	}](t, out)
	if !slices.Equal(del.Deleted, []string{"security/backup.md"}) {
		t.Fatalf("deleted %v", del.Deleted)
	}
	if where := inIndex(gone); len(where) > 0 {
		t.Errorf("the deleted document's text is still in %v", where)
	}
	if where := inIndex("Padova"); len(where) > 0 {
		t.Errorf("a word only the deleted document used is still in %v", where)
	}
	if len(inIndex(kept)) == 0 {
		t.Errorf("delete removed another document's text")
	}
	st := decode[statusOut](t, mustOK(t, run{}, "status", "--index", idx, "--json"))
	if slices.Contains(st.ids(), "security/backup.md") || st.Documents != 13 {
		t.Errorf("status after delete: %d documents %v", st.Documents, st.ids())
	}
	hits := decode[searchOut](t, mustOK(t, run{}, "search", "copia fuori sede Padova", "--index", idx, "--json")).Hits
	for _, h := range hits {
		if h.Doc == "security/backup.md" {
			t.Errorf("search returns the deleted document: %s", h.Chunk)
		}
	}
	// Deleting what is not there is reported, not hidden.
	if res := runFonte(t, "delete", "security/backup.md", "--index", idx); res.code == 0 {
		t.Errorf("deleting a document that is not indexed succeeded: %s", res)
	}
}

// An Italian question is answered in Italian throughout: besides the
// answer and the heading of its sources, the query searched for a
// follow-up, a source's page and its date are labelled in Italian, as
// the web page labels them.
func TestE2EItalianLabels(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	questions := []string{
		"Quanti giorni di lavoro agile si possono fare a settimana?",
		"E dall'estero?",
		"Quanto costa un albergo a Londra per notte?",
	}
	out := mustOK(t, run{stdin: strings.Join(questions, "\n") + "\n"}, "chat", "--index", idx)
	for _, en := range []string{"Searched: ", ", page ", ", updated "} {
		if strings.Contains(out, en) {
			t.Errorf("the Italian conversation says %q in English:\n%s", en, out)
		}
	}
	for _, it := range []string{"Cercato: ", ", pagina 2", ", aggiornato il 20"} {
		if !strings.Contains(out, it) {
			t.Errorf("the Italian conversation lacks %q:\n%s", it, out)
		}
	}
}
