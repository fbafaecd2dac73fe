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

// statusOf returns the index's generation and document count.
func statusOf(t *testing.T, idx string) (uint64, int) {
	t.Helper()
	code, out, stderr := runCLI(t, "status", "--index", idx, "--json")
	if code != exitOK {
		t.Fatalf("status: exit %d: %s", code, stderr)
	}
	var st struct {
		Generation uint64 `json:"generation"`
		Documents  int    `json:"documents"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("status: %v\n%s", err, out)
	}
	return st.Generation, st.Documents
}

// `fonte index` refuses a run over its limits whatever sets them (flag,
// FONTE_*, fonte.yaml): exit 1, the limit named, the index as it was.
func TestIndexRefusesARunOverItsLimits(t *testing.T) {
	docs, idx := t.TempDir(), filepath.Join(t.TempDir(), "idx")
	writeFile(t, filepath.Join(docs, "ferie.md"), []byte("# Ferie\n\nLe ferie si chiedono con dieci giorni di anticipo.\n"))
	if code, _, stderr := runCLI(t, "index", docs, "--index", idx); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	gen, n := statusOf(t, idx)
	writeFile(t, filepath.Join(docs, "spese.docx"), bombdoc.DOCX(1500, 0))
	config := filepath.Join(t.TempDir(), "fonte.yaml")
	writeFile(t, config, []byte("max-chunks: 1000\n"))
	for _, c := range []struct {
		how  string
		args []string
		env  string
	}{
		{"flag", []string{"--max-chunks", "1000"}, ""},
		{"environment", nil, "1000"},
		{"config file", []string{"--config", config}, ""},
	} {
		if c.env != "" {
			t.Setenv("FONTE_MAX_CHUNKS", c.env)
		}
		code, _, stderr := runCLI(t, append([]string{"index", docs, "--index", idx}, c.args...)...)
		os.Unsetenv("FONTE_MAX_CHUNKS")
		if code != exitFailure || !strings.Contains(stderr, "max-chunks 1000") || !strings.Contains(stderr, "spese.docx") {
			t.Errorf("by %s: exit %d, stderr %q; want 1 naming max-chunks 1000 and spese.docx", c.how, code, stderr)
		}
		if g, m := statusOf(t, idx); g != gen || m != n {
			t.Errorf("by %s: the index changed: generation %d→%d, documents %d→%d", c.how, gen, g, n, m)
		}
	}
	// The default limits take the file (1,501 chunks).
	if code, _, stderr := runCLI(t, "index", docs, "--index", idx); code != exitOK {
		t.Fatalf("index under the default limits: exit %d: %s", code, stderr)
	}
	if _, m := statusOf(t, idx); m != n+1 {
		t.Errorf("%d documents after indexing the file, want %d", m, n+1)
	}
}

// The limits are flags of index and serve, with their defaults in the
// help; bad values are usage errors.
func TestLimitFlags(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want []string
	}{
		{"index", []string{"max-expanded-bytes", "max-pages", "max-chunks"}},
		{"serve", []string{"max-expanded-bytes", "max-pages", "max-chunks", "max-uploads"}},
	} {
		_, out, _ := runCLI(t, c.cmd, "--help")
		for _, f := range c.want {
			if !hasFlag(out, f) {
				t.Errorf("fonte %s --help does not list --%s", c.cmd, f)
			}
		}
		if !strings.Contains(out, `"256MiB"`) || !strings.Contains(out, "(default 20000)") {
			t.Errorf("fonte %s --help does not show the limits' defaults:\n%s", c.cmd, out)
		}
	}
	docs := t.TempDir()
	for _, bad := range [][]string{{"--max-expanded-bytes", "lots"}, {"--max-chunks", "-1"}} {
		code, _, stderr := runCLI(t, append([]string{"index", docs, "--index", filepath.Join(t.TempDir(), "idx")}, bad...)...)
		if code != exitUsage || !strings.Contains(stderr, strings.TrimPrefix(bad[0], "--")) {
			t.Errorf("%v: exit %d, %s", bad, code, stderr)
		}
	}
	if code, _, stderr := runCLI(t, "serve", "--max-uploads", "0", "--index", filepath.Join(t.TempDir(), "idx")); code != exitUsage || !strings.Contains(stderr, "max-uploads") {
		t.Errorf("--max-uploads 0: exit %d, %s", code, stderr)
	}
}

// `fonte index --watch` holds each re-index to the same limits: a file
// dropped in the folder that takes the run over one is reported with the
// limit, the index stays as it was, and the watch goes on.
func TestIndexWatchRefusesARunOverItsLimits(t *testing.T) {
	docs, idx := t.TempDir(), filepath.Join(t.TempDir(), "idx")
	writeFile(t, filepath.Join(docs, "ferie.md"), []byte("# Ferie\n\nLe ferie si chiedono con dieci giorni di anticipo.\n"))
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"index", "--watch", "--max-chunks", "1000", "--index", idx, docs}, out, io.Discard)
	}()
	waitFor := func(what string) { t.Helper(); waitForOutput(t, out, cancel, what, time.Minute) }
	waitFor("watching " + docs)
	writeFile(t, filepath.Join(docs, "spese.docx"), bombdoc.DOCX(1500, 0))
	waitFor("re-index failed: the run is over its limit of 1000 chunks (max-chunks 1000), reached at spese.docx")
	writeFile(t, filepath.Join(docs, "orari.md"), []byte("# Orari\n\nL'ufficio apre alle nove.\n"))
	if err := os.Remove(filepath.Join(docs, "spese.docx")); err != nil {
		t.Fatal(err)
	}
	waitFor("re-indexed: indexed 1, removed 0")
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	if _, n := statusOf(t, idx); n != 2 {
		t.Errorf("%d documents after the watch, want 2 (ferie.md, orari.md)", n)
	}
}
