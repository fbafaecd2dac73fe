package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	goredis "github.com/redis/go-redis/v9"

	"github.com/fonte-rag/fonte/internal/testserver"
)

// runTool runs the test binary as fonte-scale with args and returns its
// stdout, stderr and error.
func runTool(t *testing.T, args ...string) ([]byte, string, error) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), runAsTool+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	return out, stderr.String(), err
}

// TestStores runs the store phase at 300 chunks on the native PostgreSQL
// and a Redis Query Engine node the tool starts itself: each store gets
// the labelled corpus and every reader, and since both stores answer a
// restricted reader's dense leg exactly (and below their HNSW thresholds
// an unrestricted one too), every reader's recall against the embedded
// index's exact leg is 1.
func TestStores(t *testing.T) {
	t.Setenv("FONTE_TEST_POSTGRES_URL", "")
	t.Setenv("FONTE_TEST_REDIS_URL", "")
	out, stderr, err := runTool(t, "-sizes", "300", "-queries", "5", "-concurrency", "", "-filters", "10,1",
		"-filter-queries", "5", "-stores", "postgres,redis", "-store-queries", "4", "-work", t.TempDir())
	if err != nil {
		t.Fatalf("fonte-scale: %v\n%s", err, stderr)
	}
	var r sizeResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "{") {
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(r.Stores) != 2 {
		t.Fatalf("%d stores in the JSON line, want 2:\n%s", len(r.Stores), out)
	}
	for i, want := range []string{"PostgreSQL (native)", "Redis Query Engine (one node)"} {
		s := r.Stores[i]
		if s.Store != want || s.Chunks != 300 || s.BuildS <= 0 || s.Lexical == "" || s.Dense == "" {
			t.Errorf("store %d: %q, %d chunks in %.2f s, lexical %q, dense %q; want %q with 300 chunks", i, s.Store, s.Chunks, s.BuildS, s.Lexical, s.Dense, want)
		}
		f := s.Filtered
		if f.Queries != 4 || len(f.Readers) != 5 || f.PeakRSSMiB <= 0 {
			t.Fatalf("%s: %d queries, %d readers, peak %.1f MiB; want 4 queries and 5 readers", want, f.Queries, len(f.Readers), f.PeakRSSMiB)
		}
		for j, x := range f.Readers {
			if wantLabel := []string{"", "random-10", "folder-10", "random-1", "folder-1"}[j]; x.Label != wantLabel {
				t.Errorf("%s reader %d is %q, want %q", want, j, x.Label, wantLabel)
			}
			for _, m := range []string{"hybrid", "bm25", "vector"} {
				if p50, p99 := x.P50ms[m], x.P99ms[m]; p50 <= 0 || p99 < p50 {
					t.Errorf("%s reader %q %s: p50 %v ms, p99 %v ms", want, x.Label, m, p50, p99)
				}
			}
			if x.DenseRecall != 1 {
				t.Errorf("%s reader %q: dense recall %v against the exact leg, want 1", want, x.Label, x.DenseRecall)
			}
		}
		if !bytes.Contains(out, []byte("Restricted readers at 300 chunks on "+want)) {
			t.Errorf("the output lacks the table of %s:\n%s", want, out)
		}
	}
	if _, ok := r.Load["store-postgres"]; !ok {
		t.Errorf("no load average around the PostgreSQL phase: %v", r.Load)
	}
}

// TestStoresFlags: a store the tool does not know, or stores without
// restricted readers to measure, stop it before anything is built.
func TestStoresFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-stores", "mysql"}, `-stores "mysql": want postgres or redis`},
		{[]string{"-stores", "redis", "-filters", ""}, "-stores needs -filters"},
	} {
		work := t.TempDir()
		_, stderr, err := runTool(t, append([]string{"-sizes", "300", "-work", work}, c.args...)...)
		if err == nil || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: error %v, stderr %q; want an exit with %q", c.args, err, stderr, c.want)
		}
		if entries, _ := os.ReadDir(work); len(entries) != 0 {
			t.Errorf("%v: the work folder holds %d entries, want none", c.args, len(entries))
		}
	}
}

// TestStoresEmptiesAServerOfOnesOwn: on a server named by
// FONTE_TEST_REDIS_URL, which the tool did not start and will not remove,
// the store phase deletes the documents it indexed once it has measured.
func TestStoresEmptiesAServerOfOnesOwn(t *testing.T) {
	u, stop, err := testserver.StartRedis()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	t.Setenv(testserver.EnvRedisURL, u)
	out, stderr, err := runTool(t, "-sizes", "200", "-queries", "5", "-concurrency", "", "-filters", "10",
		"-filter-queries", "3", "-stores", "redis", "-store-queries", "3", "-work", t.TempDir())
	if err != nil {
		t.Fatalf("fonte-scale: %v\n%s", err, stderr)
	}
	if !bytes.Contains(out, []byte("Restricted readers at 200 chunks on Redis")) {
		t.Fatalf("no Redis table in the output:\n%s", out)
	}
	opt, err := goredis.ParseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	c := goredis.NewClient(opt)
	defer c.Close()
	// Purge leaves a collection's few bookkeeping keys; 200 documents
	// would leave hundreds.
	if n, err := c.DBSize(context.Background()).Result(); err != nil || n > 20 {
		t.Errorf("the server holds %d keys after the run (%v), want the collection emptied", n, err)
	}
}
