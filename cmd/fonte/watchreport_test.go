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
)

// A watched run that refuses a file names it and says why, as a one-shot
// run does: "refused 1" alone leaves the operator to guess which file of
// the folder went bad.
func TestIndexWatchNamesRefusedFiles(t *testing.T) {
	docs, idx := t.TempDir(), filepath.Join(t.TempDir(), "idx")
	writeFile(t, filepath.Join(docs, "ferie.md"), []byte("# Ferie\n\nLe ferie si chiedono con dieci giorni di anticipo.\n"))
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- Main(ctx, []string{"index", "--watch", "--index", idx, docs}, out, io.Discard) }()
	waitFor := func(what string) { t.Helper(); waitForOutput(t, out, cancel, what, time.Minute) }
	waitFor("watching " + docs)
	writeFile(t, filepath.Join(docs, "spese.pdf"), []byte("%PDF-1.7\nnot a pdf at all\n"))
	waitFor("refused 1")
	waitFor("refused spese.pdf: unreadable")
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d: %s", code, out.String())
	}
}

// `fonte index --watch --json` keeps watching after the first run, one
// JSON object per re-index, as --watch does without --json.
func TestIndexWatchJSON(t *testing.T) {
	docs, idx := t.TempDir(), filepath.Join(t.TempDir(), "idx")
	writeFile(t, filepath.Join(docs, "a.md"), []byte("# A\n\nThe first note.\n"))
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"index", "--watch", "--json", "--index", idx, docs}, out, io.Discard)
	}()
	waitFor := func(what string) { t.Helper(); waitForOutput(t, out, cancel, what, time.Minute) }
	waitFor(`"indexed_paths"`)
	select {
	case code := <-done:
		t.Fatalf("fonte index --watch --json exited (%d) after the first run instead of watching: %s", code, out.String())
	case <-time.After(500 * time.Millisecond):
	}
	writeFile(t, filepath.Join(docs, "b.md"), []byte("# B\n\nThe second note.\n"))
	waitFor(`"generation":2`)
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d: %s", code, out.String())
	}
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
