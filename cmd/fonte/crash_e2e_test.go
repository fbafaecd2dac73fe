package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeCorpus replaces dir's contents with n Markdown files of a few
// paragraphs each. Every file carries the word marker, so a search for it
// tells which generation of the corpus the index holds.
func writeCorpus(t *testing.T, dir string, n int, marker string, seed uint64) {
	t.Helper()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	words := strings.Fields("alpha beta gamma delta river mountain ledger invoice badge server release backup policy travel " +
		"hotel window garden copper silver lantern harbor meadow quartz timber signal orbit falcon pepper marble canyon")
	rng := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for i := range n {
		b.Reset()
		fmt.Fprintf(&b, "---\ntitle: Note %d\n---\n\n# Note %d\n\nThis note is part of batch %s.\n\n", i, i, marker)
		for s := range 3 {
			fmt.Fprintf(&b, "## Part %d\n\n", s)
			for range 3 {
				for w := range 50 {
					if w > 0 {
						b.WriteByte(' ')
					}
					fmt.Fprintf(&b, "%s%d", words[rng.IntN(len(words))], rng.IntN(500))
				}
				b.WriteString(".\n\n")
			}
		}
		writeFile(t, filepath.Join(dir, fmt.Sprintf("d%02d", i%16), fmt.Sprintf("note-%03d.md", i)), []byte(b.String()))
	}
}

// SIGKILL during `fonte index` never leaves an index that cannot be read.
func TestE2ECrashSafety(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	corpus := filepath.Join(work, "corpus")
	idx := filepath.Join(work, "idx")
	status := func() statusOut {
		t.Helper()
		return decode[statusOut](t, mustOK(t, run{dir: work}, "status", "--index", idx, "--json"))
	}
	// markerHits counts the chunks a BM25 search for marker returns.
	markerHits := func(marker string) int {
		t.Helper()
		out := mustOK(t, run{dir: work}, "search", marker, "--index", idx, "--retriever", "bm25", "--k", "5", "--json")
		hits := decode[searchOut](t, out).Hits
		for _, h := range hits {
			if !strings.Contains(h.Text, marker) {
				t.Errorf("search %q returned a chunk without it: %s", marker, h.Chunk)
			}
		}
		return len(hits)
	}

	// The first generation, timed: the kills below are spread over a run
	// of the same size.
	writeCorpus(t, corpus, 400, "zephyrgen", 1)
	start := time.Now()
	mustOK(t, run{dir: work}, "index", corpus, "--index", idx, "--json")
	full := time.Since(start)
	prev := status()
	if prev.Documents != 400 {
		t.Fatalf("first generation: %d documents", prev.Documents)
	}
	prevMarker := "zephyrgen"

	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("a full index run takes %v; kill delays drawn with seed %d", full, seed)
	sizes := []int{300, 400, 350, 400, 320}
	killed := 0
	for i, n := range sizes {
		// Every file changes (new marker) and the document count changes,
		// so each run has a whole generation to embed and commit.
		marker := fmt.Sprintf("zephyrrun%c", 'a'+i)
		writeCorpus(t, corpus, n, marker, uint64(100+i))
		// The first kills land well inside the run; the later ones may
		// land in the commit or after it.
		lo, span := 0.1, 0.7
		if i >= 3 {
			lo, span = 0.5, 0.8
		}
		delay := time.Duration(float64(full) * (lo + span*rng.Float64()))
		cmd := exec.Command(fonteBin, "index", corpus, "--index", idx, "--json")
		cmd.Dir = work
		cmd.Env = baseEnv()
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		_ = cmd.Process.Kill() // fails only if the process was reaped already
		err := cmd.Wait()
		if ps := cmd.ProcessState; ps != nil && !ps.Exited() {
			killed++
		} else if ps != nil && ps.ExitCode() != 0 {
			t.Fatalf("run %d failed by itself: %v\n%s", i+1, err, out.String())
		}

		st := status()
		committed := st.Generation != prev.Generation
		t.Logf("kill %d after %v (%v): generation %d → %d, %d documents", i+1, delay, err, prev.Generation, st.Generation, st.Documents)
		switch {
		case !committed && st.Documents != prev.Documents:
			t.Fatalf("kill %d: generation %d unchanged but %d documents instead of %d", i+1, st.Generation, st.Documents, prev.Documents)
		case committed && (st.Generation != prev.Generation+1 || st.Documents != n):
			t.Fatalf("kill %d: generation %d → %d with %d documents; want %d → %d with %d", i+1, prev.Generation, st.Generation,
				st.Documents, prev.Generation, prev.Generation+1, n)
		}
		if committed {
			if markerHits(marker) == 0 {
				t.Errorf("kill %d: the committed generation does not find its own text %q", i+1, marker)
			}
			prev, prevMarker = st, marker
		} else {
			if markerHits(prevMarker) == 0 {
				t.Errorf("kill %d: the previous generation's text %q is no longer found", i+1, prevMarker)
			}
			if markerHits(marker) != 0 {
				t.Errorf("kill %d: the killed run's text %q is searchable though nothing was committed", i+1, marker)
			}
		}
	}
	if killed == 0 {
		t.Errorf("no run was still alive to be killed")
	}

	// A normal run then completes from whatever the kills left.
	last := sizes[len(sizes)-1]
	rep := decode[indexOut](t, mustOK(t, run{dir: work}, "index", corpus, "--index", idx, "--json"))
	st := status()
	if st.Documents != last || rep.Indexed+rep.Unchanged != last {
		t.Errorf("the run after the kills: %d documents (indexed %d, unchanged %d); want %d", st.Documents, rep.Indexed, rep.Unchanged, last)
	}
	if markerHits(fmt.Sprintf("zephyrrun%c", 'a'+len(sizes)-1)) == 0 {
		t.Errorf("the last corpus's text is not searchable after a normal run")
	}

	// What killed runs wrote is tidied by the next writer: every data file
	// left is one the manifest names (live or retained for readers).
	raw, err := os.ReadFile(filepath.Join(idx, "manifest"))
	if err != nil {
		t.Fatal(err)
	}
	m := decode[struct {
		Segments []struct{ File string } `json:"segments"`
		Blobs    []struct{ File string } `json:"blobs"`
		Retained []string                `json:"retained"`
	}](t, string(raw))
	named := map[string]bool{"manifest": true, "lock": true}
	for _, f := range m.Segments {
		named[f.File] = true
	}
	for _, f := range m.Blobs {
		named[f.File] = true
	}
	for _, f := range m.Retained {
		named[f] = true
	}
	entries, err := os.ReadDir(idx)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !named[e.Name()] {
			t.Errorf("%s is left in the index folder by a killed run", e.Name())
		}
	}
}
