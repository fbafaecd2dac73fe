package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/disk"
)

// asCLIEnv, when set, makes the test binary behave as the fonte CLI with
// disk.PersistMinChunks set to its value: the crash trials re-execute the
// test binary this way so that a small corpus keeps its derived indexes in
// the store, and `fonte delete` compacts and rewrites them before purging
// (a path the real binary takes only from 20,000 chunks on). The name has
// no FONTE_ prefix so that baseEnv keeps it.
const asCLIEnv = "FONTETEST_AS_CLI_PERSIST_MIN_CHUNKS"

func init() {
	v := os.Getenv(asCLIEnv)
	if v == "" {
		return
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s=%q: not a number\n", asCLIEnv, v)
		os.Exit(2)
	}
	disk.PersistMinChunks = n
	main() // exits
}

// TestE2ECrashTrials kills -9 `fonte index`, `fonte delete` and the purge
// (with its derived-index compaction) that follows a delete, after random
// delays, over a random sequence of changes to a copy of the handbook:
// files edited, added and removed, documents deleted by ID and by glob.
// After every kill:
//
//   - the index opens and every file it names reads back with a valid
//     checksum (unreadable: 0);
//   - the index holds the previous generation or the killed run's, whole:
//     each document at one of its two versions, none lost that the killed
//     operation did not remove (lost: 0);
//   - no file of the index folder holds a marker of a document whose
//     `fonte delete` completed, at any point later (bytes back: 0);
//   - the killed command run again completes, and an index run after it
//     converges to the folder: its documents are the folder's files, each
//     with its current text.
//
// Trials alternate between two chains: the real binary (derived indexes in
// memory) and the test binary acting as the CLI with PersistMinChunks=1
// (derived indexes stored, compacted by delete). By default the test runs
// until 12 kills (6 under -race; about 15 s without); FONTE_CRASH_TRIALS=N
// runs until N kills, and FONTE_CRASH_SEED repeats a sequence. The full
// run and its result (December 2026, two runs):
//
//	FONTE_CRASH_TRIALS=60 go test ./cmd/fonte -run TestE2ECrashTrials -v
//	trials 148, kills 60: index 36 (before its commit 25, after 11), delete 17, purge 6 (after the purge 1), not killed 88;
//	unreadable 0, lost 0, mixed generations 0, deleted bytes back 0, not converged 0 (178 markers of deleted documents grepped)
//	trials 89, kills 60: index 39 (before its commit 37, after 2), delete 17, purge 1 (after the purge 3), not killed 29;
//	unreadable 0, lost 0, mixed generations 0, deleted bytes back 0, not converged 0 (98 markers grepped)
func TestE2ECrashTrials(t *testing.T) {
	t.Parallel()
	want := 12
	if raceEnabled {
		want = 6 // the race-instrumented CLI runs take seconds each
	}
	if v := os.Getenv("FONTE_CRASH_TRIALS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("FONTE_CRASH_TRIALS=%q: want a number of kills", v)
		}
		want = n
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("FONTE_CRASH_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	rng := rand.New(rand.NewPCG(seed, 11))
	t.Logf("seed %d (FONTE_CRASH_SEED reruns it), %d kills wanted", seed, want)

	chains := []*trialChain{
		newTrialChain(t, "real binary", fonteBin, nil, rng),
		newTrialChain(t, "derived stored", self, []string{asCLIEnv + "=1"}, rng),
	}
	var tl trialTally
	missed := func() bool { return tl.deleteBefore+tl.purge+tl.deleteAfter == 0 || tl.indexBefore+tl.indexAfter == 0 }
	for i := 0; tl.kills() < want || missed(); i++ {
		if i >= 4*want {
			t.Fatalf("only %d kills in %d trials: the runs end before the kills", tl.kills(), i)
		}
		chains[i%2].trial(t, i+1, &tl)
		if t.Failed() {
			break
		}
	}
	t.Logf("trials %d, kills %d: index %d (before its commit %d, after %d), delete %d, purge %d (after the purge %d), not killed (ended first) %d; "+
		"unreadable %d, lost %d, mixed generations %d, deleted bytes back %d, not converged %d",
		tl.trials, tl.kills(), tl.indexBefore+tl.indexAfter, tl.indexBefore, tl.indexAfter, tl.deleteBefore, tl.purge, tl.deleteAfter, tl.ended,
		tl.unreadable, tl.lost, tl.mixed, tl.bytesBack, tl.diverged)
	for _, c := range chains {
		t.Logf("%s: %d documents, generation %d, %d markers of deleted documents checked", c.name, len(c.docs), c.gen, len(c.deletedMarkers))
	}
	if missed() {
		t.Errorf("the kills missed index or delete entirely")
	}
}

type trialTally struct {
	trials, ended                                int
	indexBefore, indexAfter                      int
	deleteBefore, purge, deleteAfter             int
	unreadable, lost, mixed, bytesBack, diverged int
}

func (tl *trialTally) kills() int {
	return tl.indexBefore + tl.indexAfter + tl.deleteBefore + tl.purge + tl.deleteAfter
}

// trialChain is one corpus folder and its index, changed trial after
// trial.
type trialChain struct {
	name     string
	bin      string
	env      []string
	rng      *rand.Rand
	work     string
	corpus   string
	idx      string
	files    map[string]string   // corpus file (slash path) → its current marker ("" for the PDF)
	versions map[string][]string // document → the markers of all its versions
	docs     map[string]string   // the index's documents → their content hash
	gen      uint64
	// deletedMarkers are the markers of documents whose delete completed.
	deletedMarkers []string
	added          int
	took           map[string]time.Duration // how long an uninterrupted run of each command takes
}

const markerLetters = "bcdfghjklmnpqrstvwxz"

// newMarker returns a word found nowhere else: "qxz" and ten letters.
func (c *trialChain) newMarker() string {
	b := []byte("qxz")
	for range 10 {
		b = append(b, markerLetters[c.rng.IntN(len(markerLetters))])
	}
	return string(b)
}

func newTrialChain(t *testing.T, name, bin string, env []string, rng *rand.Rand) *trialChain {
	t.Helper()
	work := t.TempDir()
	c := &trialChain{name: name, bin: bin, env: env, rng: rng, work: work,
		corpus: filepath.Join(work, "handbook"), idx: filepath.Join(work, "idx"),
		files: map[string]string{}, versions: map[string][]string{}, took: map[string]time.Duration{}}
	src := filepath.Join(examplesDir, "handbook")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		marker := ""
		if !strings.HasSuffix(rel, ".pdf") {
			marker = c.newMarker()
			data = withMarker(rel, data, marker)
			c.versions[rel] = append(c.versions[rel], marker)
		}
		c.files[rel] = marker
		writeFile(t, filepath.Join(c.corpus, filepath.FromSlash(rel)), data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	c.mustRun(t, "index", c.corpus, "--index", c.idx, "--json")
	c.took["index"] = time.Since(start)
	c.took["delete"] = c.took["index"]
	c.converged(t, nil)
	return c
}

// withMarker adds a paragraph carrying marker to a handbook file.
func withMarker(rel string, data []byte, marker string) []byte {
	para := fmt.Sprintf("Reference code %s, kept with this page.", marker)
	if strings.HasSuffix(rel, ".html") {
		return bytes.Replace(data, []byte("</main>"), []byte("<p>"+para+"</p>\n</main>"), 1)
	}
	return append(append(bytes.TrimRight(data, "\n"), "\n\n"...), para+"\n"...)
}

func (c *trialChain) command(args ...string) *exec.Cmd {
	cmd := exec.Command(c.bin, args...)
	cmd.Dir = c.work
	cmd.Env = append(baseEnv(), c.env...)
	return cmd
}

func (c *trialChain) mustRun(t *testing.T, args ...string) string {
	t.Helper()
	cmd := c.command(args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: fonte %s: %v\n%s%s", c.name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// markerFiles are the corpus files with a marker (all but the PDF).
func (c *trialChain) markerFiles() []string {
	var out []string
	for f, m := range c.files {
		if m != "" {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

// change applies one to three random edits to the folder.
func (c *trialChain) change(t *testing.T) []string {
	var did []string
	for range 1 + c.rng.IntN(3) {
		files := c.markerFiles()
		switch k := c.rng.IntN(10); {
		case k < 4 && len(files) > 0: // edit: a new marker, a new paragraph
			f := files[c.rng.IntN(len(files))]
			p := filepath.Join(c.corpus, filepath.FromSlash(f))
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			m := c.newMarker()
			data = bytes.ReplaceAll(data, []byte(c.files[f]), []byte(m))
			data = withMarker(f, data, m)
			writeFile(t, p, data)
			c.files[f] = m
			c.versions[f] = append(c.versions[f], m)
			did = append(did, "edit "+f)
		case k < 8 || len(files) < 12: // add
			c.added++
			f := fmt.Sprintf("added/%c/note-%03d.md", 'a'+rune(c.rng.IntN(3)), c.added)
			m := c.newMarker()
			var b strings.Builder
			fmt.Fprintf(&b, "# Note %d\n\nThis note was added by trial with code %s.\n\n", c.added, m)
			words := strings.Fields("invoice badge server release backup policy travel hotel laptop password leave office key approval")
			for range 2 + c.rng.IntN(6) {
				for w := range 40 {
					if w > 0 {
						b.WriteByte(' ')
					}
					b.WriteString(words[c.rng.IntN(len(words))])
				}
				b.WriteString(".\n\n")
			}
			writeFile(t, filepath.Join(c.corpus, filepath.FromSlash(f)), []byte(b.String()))
			c.files[f] = m
			c.versions[f] = append(c.versions[f], m)
			did = append(did, "add "+f)
		default: // remove
			f := files[c.rng.IntN(len(files))]
			if err := os.Remove(filepath.Join(c.corpus, filepath.FromSlash(f))); err != nil {
				t.Fatal(err)
			}
			delete(c.files, f)
			did = append(did, "remove "+f)
		}
	}
	return did
}

// deletion picks what to delete (an ID or a glob over marked files) and
// removes the matching files from the folder too, so that the next index
// run does not bring them back.
func (c *trialChain) deletion(t *testing.T) string {
	files := c.markerFiles()
	pattern := files[c.rng.IntN(len(files))]
	if c.rng.IntN(2) == 0 {
		dir := path.Dir(pattern)
		if dir == "." {
			pattern = "*.html"
		} else {
			pattern = dir + "/*" + path.Ext(pattern)
		}
	}
	for _, f := range files {
		if ok, _ := path.Match(pattern, f); ok {
			if err := os.Remove(filepath.Join(c.corpus, filepath.FromSlash(f))); err != nil {
				t.Fatal(err)
			}
			delete(c.files, f)
		}
	}
	return pattern
}

// trial changes the folder, runs index or delete, kills it, checks what it
// left, runs it again and checks that the index converges.
func (c *trialChain) trial(t *testing.T, n int, tl *trialTally) {
	t.Helper()
	tl.trials++
	op, what := "index", ""
	args := []string{"index", c.corpus, "--index", c.idx, "--json"}
	if c.rng.IntN(5) < 2 && len(c.markerFiles()) >= 10 {
		op = "delete"
		pattern := c.deletion(t)
		what = pattern
		args = []string{"delete", pattern, "--index", c.idx, "--json"}
	} else {
		what = strings.Join(c.change(t), ", ")
	}
	prev, prevGen := c.docs, c.gen

	// The kill: after 10% to 100% of what an uninterrupted run takes.
	delay := time.Duration(float64(c.took[op]) * (0.1 + 0.9*c.rng.Float64()))
	cmd := c.command(args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(delay)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	killed := !cmd.ProcessState.Exited()
	if !killed && cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("%s trial %d: fonte %s failed by itself: %s\n%s", c.name, n, op, cmd.ProcessState, out.String())
	}

	// What the kill left: readable, and one of the two generations.
	after, gen, unreferenced, err := readIndex(c.idx)
	if err != nil {
		tl.unreadable++
		t.Errorf("%s trial %d: killed %s (%s) after %v: the index cannot be read: %v", c.name, n, op, what, delay, err)
		return
	}
	c.checkBytesGone(t, n, "after the kill", tl)
	committed := gen != prevGen
	phase := ""
	switch {
	case !killed:
		tl.ended++
		phase = "ended before the kill"
		// Aim earlier next time, by half: an index run that parses a PDF
		// starts PDFium and takes seconds, and delete's first aim is that.
		c.took[op] /= 2
	case op == "index" && !committed:
		tl.indexBefore++
		phase = "before its commit"
	case op == "index":
		tl.indexAfter++
		phase = "after its commit"
	case !committed:
		tl.deleteBefore++
		phase = "before its commit"
	case unreferenced > 0 || c.env != nil && !hasDerived(c.idx):
		tl.purge++
		phase = "in the purge"
	default:
		tl.deleteAfter++
		phase = "after the purge"
	}
	t.Logf("%s trial %d: %s %s, killed after %v %s: generation %d → %d", c.name, n, op, what, delay.Round(time.Millisecond), phase, prevGen, gen)

	// The command again, uninterrupted, and an index run: the index must
	// reach the folder's state.
	start := time.Now()
	c.mustRun(t, args...)
	if !committed {
		c.took[op] = (c.took[op] + time.Since(start)) / 2
	}
	next, _, _, err := readIndex(c.idx)
	if err != nil {
		t.Fatalf("%s trial %d: after the rerun: %v", c.name, n, err)
	}
	if op == "delete" {
		for id := range prev {
			if _, ok := next[id]; !ok {
				c.deletedMarkers = append(c.deletedMarkers, c.versions[id]...)
			}
		}
	}

	// Every document at its previous or its new version; none lost.
	for id, h := range after {
		if h != prev[id] && h != next[id] {
			tl.lost++
			t.Errorf("%s trial %d: %s is at neither of its versions after the kill", c.name, n, id)
		}
	}
	for id := range next {
		if _, ok := after[id]; !ok && prev[id] != "" {
			tl.lost++
			t.Errorf("%s trial %d: %s, not removed by the killed %s, is gone", c.name, n, id, op)
		}
	}
	if !maps.Equal(after, prev) && !maps.Equal(after, next) {
		tl.mixed++
		t.Errorf("%s trial %d: the index holds neither the previous generation nor the killed run's", c.name, n)
	}
	c.checkBytesGone(t, n, "after the delete completed", tl)
	if !c.converged(t, tl) {
		t.Errorf("%s trial %d: the index did not converge to the folder", c.name, n)
	}
}

// converged runs an index and checks the index holds exactly the folder's
// files, each with its current marker.
func (c *trialChain) converged(t *testing.T, tl *trialTally) bool {
	t.Helper()
	c.mustRun(t, "index", c.corpus, "--index", c.idx, "--json")
	st, err := disk.Open(c.idx, disk.Config{}, disk.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	snap, err := st.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	ok := true
	var ids []string
	for _, d := range snap.Docs() {
		ids = append(ids, d.ID)
		m, inFolder := c.files[d.ID]
		rec, _ := snap.Doc(d.ID)
		if inFolder && m != "" && !strings.Contains(rec.Doc.Text, m) {
			ok = false
			t.Errorf("%s: %s is indexed without its current marker %s", c.name, d.ID, m)
		}
	}
	files := make([]string, 0, len(c.files))
	for f := range c.files {
		files = append(files, f)
	}
	slices.Sort(files)
	if !slices.Equal(ids, files) {
		ok = false
		t.Errorf("%s: the index holds %v, the folder %v", c.name, ids, files)
	}
	c.docs, c.gen, _, err = readIndex(c.idx)
	if err != nil {
		t.Fatal(err)
	}
	if !ok && tl != nil {
		tl.diverged++
	}
	return ok
}

// checkBytesGone greps every file of the index folder, and of its
// folders (a build's temporary files), for the markers of the documents
// whose delete completed.
func (c *trialChain) checkBytesGone(t *testing.T, n int, when string, tl *trialTally) {
	t.Helper()
	err := filepath.WalkDir(c.idx, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range c.deletedMarkers {
			if bytes.Contains(data, []byte(m)) {
				tl.bytesBack++
				t.Errorf("%s trial %d, %s: %s holds %s, the marker of a deleted document", c.name, n, when, path, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// readIndex opens the index read-only, reads every document and blob (so
// every checksum is verified) and returns each document's content hash
// (its text, chunks and their text hashes), the generation, and how many
// store files the manifest does not name as live.
func readIndex(dir string) (docs map[string]string, gen uint64, unreferenced int, err error) {
	st, err := disk.Open(dir, disk.Config{}, disk.Options{ReadOnly: true})
	if err != nil {
		return nil, 0, 0, err
	}
	defer st.Close()
	snap, err := st.Snapshot()
	if err != nil {
		return nil, 0, 0, err
	}
	for _, name := range snap.BlobNames() {
		if _, err := snap.ReadBlob(name); err != nil {
			return nil, 0, 0, err
		}
	}
	docs = map[string]string{}
	for _, d := range snap.Docs() {
		rec, _ := snap.Doc(d.ID)
		h := sha256.New()
		h.Write([]byte(rec.Doc.Text))
		for i, ch := range rec.Chunks {
			fmt.Fprintf(h, "\x00%s\x00%s", ch.Text, rec.TextHashes[i])
		}
		docs[d.ID] = hex.EncodeToString(h.Sum(nil))
	}
	raw, err := os.ReadFile(filepath.Join(dir, "manifest"))
	if err != nil {
		return nil, 0, 0, err
	}
	var m struct {
		Segments []struct{ File string } `json:"segments"`
		Blobs    []struct{ File string } `json:"blobs"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, 0, 0, err
	}
	live := map[string]bool{}
	for _, f := range m.Segments {
		live[f.File] = true
	}
	for _, f := range m.Blobs {
		live[f.File] = true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, 0, 0, err
	}
	for _, e := range entries {
		name := e.Name()
		if (strings.HasSuffix(name, ".fseg") || strings.HasSuffix(name, ".fblob")) && !live[name] {
			unreferenced++
		}
	}
	return docs, snap.Generation(), unreferenced, nil
}

// hasDerived reports whether the index keeps its lexical index as a blob.
func hasDerived(dir string) bool {
	st, err := disk.Open(dir, disk.Config{}, disk.Options{ReadOnly: true})
	if err != nil {
		return false
	}
	defer st.Close()
	snap, err := st.Snapshot()
	return err == nil && slices.Contains(snap.BlobNames(), disk.BlobLexical)
}
