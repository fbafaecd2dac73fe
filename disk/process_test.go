package disk

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHelperProcess is not a test: the tests below run the test binary
// again with FONTE_DISK_HELPER set, to have a second process write the
// index.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv("FONTE_DISK_HELPER")
	if mode == "" {
		t.Skip("helper process for the multi-process tests")
	}
	dir := os.Getenv("FONTE_DISK_DIR")
	segBytes, _ := strconv.ParseInt(os.Getenv("FONTE_DISK_SEGBYTES"), 10, 64)
	exit := func(err error) {
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("done")
		os.Exit(0)
	}
	switch mode {
	case "hold":
		// Take the write lock and hold it until stdin closes.
		s, err := Open(dir, testCfg, Options{})
		if err != nil {
			exit(err)
		}
		exit(s.Write(context.Background(), func(tx *Tx) error {
			fmt.Println("locked")
			io.Copy(io.Discard, os.Stdin)
			return tx.Put(makeRecord("from-helper", 1, 1, 8))
		}))
	case "crash":
		// Run faultChange and stop dead before the N-th file-system
		// operation, for the parent to kill -9.
		at, _ := strconv.Atoi(os.Getenv("FONTE_DISK_CRASH_AT"))
		f := &faultFS{block: func(n int, op, path string) {
			if n == at {
				fmt.Println("at", opName(op, path))
				time.Sleep(time.Hour)
			}
		}}
		s, err := Open(dir, testCfg, Options{fs: f, SegmentBytes: segBytes})
		if err != nil {
			exit(err)
		}
		f.arm(0, false) // count, never fail
		exit(s.Write(context.Background(), faultChange))
	case "merge-crash":
		// Change a large store and stop dead in the writer's lexical
		// merge, its runs on disk, for the parent to kill -9.
		PersistMinChunks = 5
		lexicalAddedHook = func(reused int) {
			fmt.Println("merging", reused)
			time.Sleep(time.Hour)
		}
		s, err := Open(dir, testCfg, Options{TxMemory: 2 << 10, SegmentBytes: segBytes})
		if err == nil {
			_, err = s.ViewLatest()
		}
		if err == nil {
			err = s.Write(context.Background(), faultChange)
		}
		if err == nil {
			_, err = s.ViewLatest()
		}
		exit(err)
	}
	exit(fmt.Errorf("unknown helper mode %q", mode))
}

// helper starts the test binary as a helper process and returns it with
// its stdin and the first line it prints.
func helper(t *testing.T, mode, dir string, env ...string) (*exec.Cmd, io.WriteCloser, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.v=false")
	cmd.Env = append(os.Environ(), append([]string{"FONTE_DISK_HELPER=" + mode, "FONTE_DISK_DIR=" + dir}, env...)...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("helper %s: %v", mode, err)
	}
	return cmd, stdin, strings.TrimSpace(line)
}

func skipWithoutFlock(t *testing.T) {
	switch runtime.GOOS {
	case "linux", "darwin", "freebsd", "netbsd", "openbsd", "dragonfly":
	default:
		t.Skip("no cross-process lock on " + runtime.GOOS)
	}
}

func TestWriterLockAcrossProcesses(t *testing.T) {
	skipWithoutFlock(t)
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{LockTimeout: 300 * time.Millisecond})
	putAll(t, s, makeRecord("a", 1, 1, 8))

	cmd, stdin, line := helper(t, "hold", dir)
	if line != "locked" {
		t.Fatalf("helper says %q", line)
	}
	start := time.Now()
	err := s.Write(context.Background(), func(*Tx) error {
		t.Error("a second writer ran while another process holds the lock")
		return nil
	})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "being written by another process") {
		t.Errorf("err = %v", err)
	}
	if waited := time.Since(start); waited < 300*time.Millisecond {
		t.Errorf("gave up after %v, before the timeout", waited)
	}
	t.Log(err)
	// Readers are not held up by a writer.
	if snap := mustSnapshot(t, mustOpen(t, dir, testCfg, Options{ReadOnly: true})); snap.NumDocs() != 1 {
		t.Errorf("reader sees %d docs", snap.NumDocs())
	}

	// A writer with time to wait gets the lock when the helper commits,
	// and starts from the helper's generation.
	patient := mustOpen(t, dir, testCfg, Options{LockTimeout: 30 * time.Second})
	done := make(chan error, 1)
	go func() {
		done <- patient.Write(context.Background(), func(tx *Tx) error {
			if _, ok := tx.Base().Doc("from-helper"); !ok {
				return errors.New("the waiting writer started before the helper committed")
			}
			return tx.Put(makeRecord("b", 1, 1, 8))
		})
	}()
	time.Sleep(100 * time.Millisecond)
	stdin.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	var ids []string
	for _, d := range mustSnapshot(t, s).Docs() {
		ids = append(ids, d.ID)
	}
	if !slices.Equal(ids, []string{"a", "b", "from-helper"}) {
		t.Errorf("docs %v", ids)
	}
}

// TestKillDuringCommit kills -9 a writer process just before each
// file-system operation of a commit in turn. The previous generation (or,
// past the manifest's rename, the new one) must be intact, and the next
// writer must recover and leave no strays.
func TestKillDuringCommit(t *testing.T) {
	skipWithoutFlock(t)
	if testing.Short() {
		t.Skip("starts a process per write point")
	}
	pristine, opts := faultBase(t)
	before := fingerprint(mustSnapshot(t, mustOpen(t, pristine, testCfg, Options{ReadOnly: true})))

	// A dry run lists the operations, and gives the expected result.
	ref := copyDir(t, pristine)
	f := &faultFS{}
	o := opts
	o.fs = f
	rs := mustOpen(t, ref, testCfg, o)
	f.arm(0, false)
	tx(t, rs, faultChange)
	f.disarm()
	ops := f.ops
	after := fingerprint(mustSnapshot(t, rs))
	renamed := slices.Index(ops, "rename "+manifestTmp) + 1 // ops numbered from 1

	for n := 1; n <= len(ops); n++ {
		dir := copyDir(t, pristine)
		cmd, _, line := helper(t, "crash", dir, fmt.Sprintf("FONTE_DISK_CRASH_AT=%d", n), fmt.Sprintf("FONTE_DISK_SEGBYTES=%d", opts.SegmentBytes))
		if line != "at "+ops[n-1] {
			t.Fatalf("helper stopped %q, want at %q", line, ops[n-1])
		}
		cmd.Process.Kill() // SIGKILL: no deferred cleanup, no unlock
		cmd.Wait()

		want := before
		if n > renamed {
			want = after
		}
		if got := fingerprint(mustSnapshot(t, mustOpen(t, dir, testCfg, Options{ReadOnly: true}))); got != want {
			t.Fatalf("killed before %q: the store does not hold the expected generation", ops[n-1])
		}
		// The kernel released the dead writer's lock: no waiting.
		w := mustOpen(t, dir, testCfg, Options{LockTimeout: -1})
		if n > renamed {
			putAll(t, w, makeRecord("again", 1, 1, 8))
		} else {
			tx(t, w, faultChange)
			if fingerprint(mustSnapshot(t, w)) != after {
				t.Fatalf("killed before %q: the retry committed something else", ops[n-1])
			}
		}
		checkNoStrays(t, dir)
		w.Close()
	}
	t.Logf("killed at each of %d operations", len(ops))
}

// TestKillDuringLexicalMerge kills -9 a writer in the middle of the
// lexical merge that follows its commit: the commit and the lexical index
// persisted before it are intact, a new writer's index (built from every
// chunk, having no previous view) is the right one, and Purge removes the
// merge's leftover runs.
func TestKillDuringLexicalMerge(t *testing.T) {
	skipWithoutFlock(t)
	old := PersistMinChunks
	PersistMinChunks = 5
	t.Cleanup(func() { PersistMinChunks = old })
	dir, opts := faultBase(t)
	s := mustOpen(t, dir, testCfg, opts)
	if err := s.PersistDerived(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	persisted, ok := mustSnapshot(t, s).Blob(BlobLexical)
	if !ok {
		t.Fatal("no lexical blob persisted")
	}
	persisted = slices.Clone(persisted)
	s.Close()
	ref := copyDir(t, dir)
	tx(t, mustOpen(t, ref, testCfg, opts), faultChange)
	after := fingerprint(mustSnapshot(t, mustOpen(t, ref, testCfg, Options{ReadOnly: true})))

	cmd, _, line := helper(t, "merge-crash", dir, fmt.Sprintf("FONTE_DISK_SEGBYTES=%d", opts.SegmentBytes))
	if !strings.HasPrefix(line, "merging ") || line == "merging 0" {
		t.Fatalf("helper said %q, want it merging reused chunks", line)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if runs, _ := os.ReadDir(filepath.Join(dir, buildDirName)); len(runs) == 0 {
		t.Fatal("no run left in the build folder: the kill was not mid-merge")
	}

	w := mustOpen(t, dir, testCfg, opts)
	snap := mustSnapshot(t, w)
	if fingerprint(snap) != after {
		t.Fatal("the store does not hold the committed generation")
	}
	if b, ok := snap.Blob(BlobLexical); !ok || !bytes.Equal(b, persisted) {
		t.Fatal("the lexical blob persisted before the write changed")
	}
	v, err := w.ViewLatest()
	if err != nil {
		t.Fatal(err)
	}
	if v.lexical == nil || v.lexical.full == "" {
		t.Fatal("the new writer's lexical index was not built from every chunk")
	}
	if want := lexicalOfScratch(t, w, snap); !bytes.Equal(v.lexical.blob, want) {
		t.Fatal("the new writer's lexical index is not the one built from every chunk")
	}
	if err := w.Purge(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, buildDirName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the build folder outlived Purge: %v", err)
	}
}
