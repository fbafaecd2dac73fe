package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runAsTool makes the test binary act as fonte-scale (parent and child
// phases alike: children inherit the variable), so the end-to-end test
// runs the real tool, under -race too.
const runAsTool = "FONTE_SCALE_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runAsTool) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestEndToEnd runs every phase at 300 chunks on a real index in a
// temporary folder and checks the JSON line, the -json file and the
// tables. The size is small because the race detector slows the build
// tenfold.
func TestEndToEnd(t *testing.T) {
	began := float64(time.Now().UnixNano()) / 1e9
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	jsonFile := filepath.Join(work, "scale.jsonl")
	cmd := exec.Command(self, "-sizes", "300", "-queries", "30", "-concurrency", "1,2",
		"-duration", "100ms", "-slice", "20ms", "-work", work, "-json", jsonFile)
	cmd.Env = append(os.Environ(), runAsTool+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fonte-scale: %v\n%s", err, stderr.String())
	}

	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "{") {
			lines = append(lines, sc.Text())
		}
	}
	if len(lines) != 1 {
		t.Fatalf("want 1 JSON line on stdout, got %d:\n%s", len(lines), out)
	}
	file, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(file)); got != lines[0] {
		t.Errorf("-json file holds %q, stdout %q", got, lines[0])
	}

	// Every field is present under its name.
	var raw map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &raw); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"n", "cores", "gomaxprocs", "build.chunks", "build.build_s", "build.peak_rss_mib", "build.disk_bytes",
		"query.open_s", "query.open_rss_mib", "query.warm_s", "query.peak_rss_mib", "query.p50_ms.hybrid", "query.p99_ms.bm25", "query.p99_ms.vector",
		"concurrency.writer_s", "concurrency.writer_start_unix", "concurrency.runtime.steal_s", "concurrency.added", "concurrency.chunks_after", "concurrency.cells",
		"load.build", "load.query", "load.concurrency", "load.filtered", "build.labelled", "filtered.readers", "filtered.peak_rss_mib"} {
		var v any = raw
		for _, k := range strings.Split(path, ".") {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		if v == nil {
			t.Errorf("the JSON line has no %s: %s", path, lines[0])
		}
	}

	var r sizeResult
	if err := json.Unmarshal([]byte(lines[0]), &r); err != nil {
		t.Fatal(err)
	}
	if r.N != 300 || r.Build.Chunks != 300 || r.Build.DenseIndex != "exact" {
		t.Errorf("n %d, %d chunks, dense %q; want 300, 300, exact", r.N, r.Build.Chunks, r.Build.DenseIndex)
	}
	if r.Build.BuildS <= 0 || r.Build.DiskBytes <= 0 || r.Build.PeakRSSMiB <= 0 {
		t.Errorf("build: %+v", r.Build)
	}
	q := r.Query
	if q.OpenS <= 0 || q.WarmS <= 0 || q.Queries != 30 {
		t.Errorf("query: open %v s, warm-up %v s, %d queries", q.OpenS, q.WarmS, q.Queries)
	}
	// The open RSS is read inside the process, the peak by the parent
	// from the child's rusage: the peak cannot be below it.
	if q.OpenRSSMiB < 10 || q.OpenRSSMiB > q.PeakRSSMiB+1 {
		t.Errorf("open RSS %.1f MiB, peak %.1f MiB", q.OpenRSSMiB, q.PeakRSSMiB)
	}
	for _, m := range []string{"hybrid", "bm25", "vector"} {
		if p50, p99 := q.P50ms[m], q.P99ms[m]; p50 <= 0 || p99 < p50 {
			t.Errorf("%s: p50 %v ms, p99 %v ms", m, p50, p99)
		}
	}

	// The filtered phase: the unrestricted reader, then a reader per
	// scheme and share, each labelled share the size asked for, and the
	// dense leg exact for every reader of an exact index.
	f := r.Filtered
	if f == nil || f.Queries != 200 || len(f.Readers) != 9 {
		t.Fatalf("filtered: %+v, want 200 queries and 9 readers", f)
	}
	for i, x := range f.Readers {
		want := ""
		if i > 0 {
			want = shareLabel(schemes[(i-1)%2], []float64{50, 10, 1, 0.1}[(i-1)/2])
		}
		if x.Label != want {
			t.Errorf("reader %d is %q, want %q", i, x.Label, want)
		}
		for _, m := range []string{"hybrid", "bm25", "vector"} {
			if p50, p99 := x.P50ms[m], x.P99ms[m]; p50 <= 0 || p99 < p50 {
				t.Errorf("reader %q %s: p50 %v ms, p99 %v ms", x.Label, m, p50, p99)
			}
		}
		if x.DenseRecall != 1 {
			t.Errorf("reader %q: dense recall %v on an exact index, want 1", x.Label, x.DenseRecall)
		}
	}
	for label, want := range map[string]int{"random-50": 150, "folder-50": 150, "random-10": 30, "folder-1": 3, "random-0_1": 1} {
		if got := r.Build.Labelled[label]; got != want {
			t.Errorf("%s labels %d documents, want %d", label, got, want)
		}
	}

	c := r.Concurrency
	if c == nil {
		t.Fatal("no concurrency result")
	}
	if c.Added != 3 || c.ChunksAfter != 303 || c.WriterS <= 0 || c.PeakRSSMiB <= 0 {
		t.Errorf("writer: added %d, %d chunks after, %.3f s, peak %.1f MiB; want 3 added, 303 after", c.Added, c.ChunksAfter, c.WriterS, c.PeakRSSMiB)
	}
	if now := float64(time.Now().UnixNano()) / 1e9; c.WriterStart < began || c.WriterStart > now {
		t.Errorf("the writer began at %.3f, outside the test's run (%.3f to %.3f)", c.WriterStart, began, now)
	}
	if len(c.Cells) != 6 {
		t.Fatalf("%d cells, want 3 modes × 2 goroutine counts", len(c.Cells))
	}
	for i, x := range c.Cells {
		if want := []string{"hybrid", "bm25", "vector"}[i/2]; x.Mode != want || x.Goroutines != 1+i%2 {
			t.Errorf("cell %d is %s × %d, want %s × %d", i, x.Mode, x.Goroutines, want, 1+i%2)
		}
		if x.IdleQueries == 0 || x.IdleQPS <= 0 || x.IdleP99ms <= 0 || x.IdleMaxms < x.IdleP99ms {
			t.Errorf("%s × %d idle: %d queries, %.0f QPS, p99 %.2f ms, max %.2f ms", x.Mode, x.Goroutines, x.IdleQueries, x.IdleQPS, x.IdleP99ms, x.IdleMaxms)
		}
		if x.WriteTurns > 0 && (x.WriteQueries == 0 || x.WriteMaxms < x.WriteP99ms) {
			t.Errorf("%s × %d during the write: %d turns, %d queries, p99 %.2f ms, max %.2f ms", x.Mode, x.Goroutines, x.WriteTurns, x.WriteQueries, x.WriteP99ms, x.WriteMaxms)
		}
		// The slowest query began after the writer started, and at the
		// latest one turn (and a query) after it finished.
		if x.WriteQueries > 0 && (x.WriteMaxAtS < 0 || x.WriteMaxAtS > c.WriterS+1) {
			t.Errorf("%s × %d: the slowest query during the write began %.3f s into a %.3f s write", x.Mode, x.Goroutines, x.WriteMaxAtS, c.WriterS)
		}
	}
	// The first turn starts while the writer runs.
	if c.Cells[0].WriteTurns == 0 {
		t.Errorf("no turn during the write")
	}

	for _, want := range []string{"| chunks | dense | build s | build peak RSS MiB | disk MiB | open s | open RSS MiB | query peak RSS MiB | hybrid p50 ms",
		"load average (1, 5, 15 min)", "Concurrent queries at 300 chunks", "Restricted readers at 300 chunks", "| folder-0_1 | 1 |", "| vector | 2 |", "Longest query during the write: "} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}

// TestPhaseRunDirectlyReportsItsPeak runs the build and query phases as a
// user runs them on a kept index (-phase, no parent): each reports its own
// peak resident memory, which only the parent run used to fill in.
func TestPhaseRunDirectlyReportsItsPeak(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "index")
	for _, args := range [][]string{
		{"-phase", "build", "-n", "300", "-dir", dir, "-filters", ""},
		{"-phase", "query", "-dir", dir, "-queries", "10"},
	} {
		cmd := exec.Command(self, args...)
		cmd.Env = append(os.Environ(), runAsTool+"=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("fonte-scale %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		var r struct {
			PeakRSSMiB float64 `json:"peak_rss_mib"`
		}
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("fonte-scale %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if r.PeakRSSMiB < 1 {
			t.Errorf("fonte-scale %s: peak_rss_mib %v, want the process's peak", strings.Join(args, " "), r.PeakRSSMiB)
		}
	}
}

// TestFilteredNeedsALabelledIndex: the filtered phase on an index built
// without access labels fails and says so, instead of timing every
// "restricted" reader over all the documents.
func TestFilteredNeedsALabelledIndex(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "index")
	run := func(args ...string) (string, error) {
		cmd := exec.Command(self, args...)
		cmd.Env = append(os.Environ(), runAsTool+"=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		_, err := cmd.Output()
		return stderr.String(), err
	}
	if msg, err := run("-phase", "build", "-n", "300", "-dir", dir, "-filters", ""); err != nil {
		t.Fatalf("build: %v\n%s", err, msg)
	}
	msg, err := run("-phase", "filtered", "-dir", dir, "-filters", "50", "-filter-queries", "5")
	if err == nil {
		t.Fatalf("the filtered phase on an unlabelled index succeeded; want an error")
	}
	if !strings.Contains(msg, "without access labels") {
		t.Errorf("the error does not say the index lacks labels:\n%s", msg)
	}
}
