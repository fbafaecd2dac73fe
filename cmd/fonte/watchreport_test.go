package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/internal/bombdoc"
)

// A watched run that refuses a file names it and says why, as a one-shot
// run does: "refused 1" alone leaves the operator to guess which file of
// the folder went bad.
func TestIndexWatchNamesRefusedFiles(t *testing.T) {
	docs, idx := t.TempDir(), filepath.Join(t.TempDir(), "idx")
	writeFile(t, filepath.Join(docs, "ferie.md"), []byte("# Ferie\n\nLe ferie si chiedono con dieci giorni di anticipo.\n"))
	w := startIndexWatch(t, "--index", idx, docs)
	w.waitFor(t, "watching "+docs)
	writeFile(t, filepath.Join(docs, "spese.pdf"), []byte("%PDF-1.7\nnot a pdf at all\n"))
	w.waitFor(t, "refused 1")
	w.waitFor(t, "refused spese.pdf: unreadable")
	w.stop(t)
}

// `fonte index --watch --json` keeps watching after the first run, one
// JSON object per re-index, as --watch does without --json.
func TestIndexWatchJSON(t *testing.T) {
	docs, idx := t.TempDir(), filepath.Join(t.TempDir(), "idx")
	writeFile(t, filepath.Join(docs, "a.md"), []byte("# A\n\nThe first note.\n"))
	w := startIndexWatch(t, "--json", "--index", idx, docs)
	w.waitFor(t, `"indexed_paths"`)
	select {
	case code := <-w.done:
		t.Fatalf("fonte index --watch --json exited (%d) after the first run instead of watching: %s", code, w.out.String())
	case <-time.After(500 * time.Millisecond):
	}
	writeFile(t, filepath.Join(docs, "b.md"), []byte("# B\n\nThe second note.\n"))
	w.waitFor(t, `"generation":2`)
	w.stop(t)
	out := w.out
	last := out.String()[strings.LastIndex(strings.TrimSpace(out.String()), "\n")+1:]
	var run struct {
		Indexed []string `json:"indexed"`
	}
	if err := json.Unmarshal([]byte(last), &run); err != nil || len(run.Indexed) != 1 || run.Indexed[0] != "b.md" {
		t.Errorf("last line %q (%v), want the re-index of b.md", last, err)
	}
	if _, err := os.Stat(idx); err != nil {
		t.Fatal(err)
	}
}

// `fonte index --watch --json` reports a failed re-index as a JSON object
// too (with the error, naming the limit), so that every line of its
// output parses.
func TestIndexWatchJSONFailure(t *testing.T) {
	docs, idx := t.TempDir(), filepath.Join(t.TempDir(), "idx")
	writeFile(t, filepath.Join(docs, "a.md"), []byte("# A\n\nThe first note.\n"))
	w := startIndexWatch(t, "--json", "--max-chunks", "1000", "--index", idx, docs)
	w.waitFor(t, `"indexed_paths"`)
	writeFile(t, filepath.Join(docs, "spese.docx"), bombdoc.DOCX(1500, 0))
	w.waitFor(t, "max-chunks 1000")
	w.stop(t)
	out := w.out
	first := strings.Index(out.String(), "\n}\n") + 3 // the first run's report, indented
	for _, line := range strings.Split(strings.TrimSpace(out.String()[first:]), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Errorf("a line that is not JSON: %q", line)
		} else if e, ok := v["error"].(string); ok && !strings.Contains(e, "max-chunks 1000") {
			t.Errorf("error %q does not name the limit", e)
		}
	}
}

// watchRun is a `fonte index --watch` running in the background.
type watchRun struct {
	out    *syncBuffer
	cancel context.CancelFunc
	done   chan int
}

// startIndexWatch runs `fonte index --watch ARGS…` in the background;
// stop ends it and returns its exit code.
func startIndexWatch(t *testing.T, args ...string) *watchRun {
	t.Helper()
	w := &watchRun{out: &syncBuffer{}, done: make(chan int, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	t.Cleanup(cancel)
	go func() { w.done <- Main(ctx, append([]string{"index", "--watch"}, args...), w.out, io.Discard) }()
	return w
}

// waitFor waits until the output holds what.
func (w *watchRun) waitFor(t *testing.T, what string) {
	t.Helper()
	waitForOutput(t, w.out, w.cancel, what, time.Minute)
}

// stop interrupts the watch and fails the test unless it exits 0.
func (w *watchRun) stop(t *testing.T) {
	t.Helper()
	w.cancel()
	if code := <-w.done; code != exitOK {
		t.Fatalf("exit %d: %s", code, w.out.String())
	}
}
