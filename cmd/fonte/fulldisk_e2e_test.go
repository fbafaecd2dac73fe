//go:build linux

package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestE2EFullDisk indexes the handbook into a 2 MiB tmpfs, fills the
// tmpfs, and indexes a changed folder: the run must fail with a message
// naming the file it could not write and the full disk, leave nothing of
// its own behind, and the index must still answer at its previous
// generation; once space is freed the same run commits. The tmpfs needs
// Linux and root (or CAP_SYS_ADMIN), as the tests run here; without them
// the test fails rather than skip.
func TestE2EFullDisk(t *testing.T) {
	t.Parallel()
	mnt := filepath.Join(t.TempDir(), "small")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=2m"); err != nil {
		// A test whose environment is missing fails, it does not skip:
		// the tests run as root on Linux, where this mount works.
		t.Fatalf("cannot mount a 2 MiB tmpfs at %s (%v): this test needs root on Linux", mnt, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(mnt, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmounting %s: %v", mnt, err)
		}
	})
	work := t.TempDir()
	corpus := filepath.Join(work, "handbook")
	copyTree(t, filepath.Join(examplesDir, "handbook"), corpus)
	idx := filepath.Join(mnt, "idx")
	r := run{dir: work}
	first := decode[indexOut](t, mustOK(t, r, "index", corpus, "--index", idx, "--json"))
	status := func() statusOut {
		t.Helper()
		return decode[statusOut](t, mustOK(t, r, "status", "--index", idx, "--json"))
	}
	hits := func(q string) int {
		t.Helper()
		return len(decode[searchOut](t, mustOK(t, r, "search", q, "--index", idx, "--retriever", "bm25", "--json")).Hits)
	}
	before := status()
	if hits("password") == 0 {
		t.Fatal("the first generation finds nothing")
	}
	files := func() []string { t.Helper(); return entries(t, idx) }
	beforeFiles := files()

	// Fill the tmpfs.
	filler := filepath.Join(mnt, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for {
		if _, err = f.Write(chunk); err != nil {
			break
		}
	}
	f.Close()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("filling the tmpfs: %v", err)
	}
	for len(chunk) > 1 { // the last bytes too
		chunk = chunk[:len(chunk)/2]
		f, _ := os.OpenFile(filler, os.O_WRONLY|os.O_APPEND, 0)
		for f != nil {
			if _, err := f.Write(chunk); err != nil {
				break
			}
		}
		f.Close()
	}

	// A changed folder, indexed on the full disk.
	writeFile(t, filepath.Join(corpus, "people", "parking.md"),
		[]byte("# Parking\n\nThe garage opens at seven; quokkaparking permits are issued by facilities.\n"))
	res := r.exec(t, "index", corpus, "--index", idx, "--json")
	t.Logf("index on a full disk: exit %d: %s", res.code, strings.TrimSpace(res.stderr))
	if res.code == 0 {
		t.Fatalf("index on a full disk succeeded: %s", res)
	}
	if !strings.Contains(res.stderr, "no space left on device") || !strings.Contains(res.stderr, "the disk is full") ||
		!strings.Contains(res.stderr, idx+string(filepath.Separator)) {
		t.Errorf("the message does not name the file and the full disk: %s", res.stderr)
	}
	if got := files(); strings.Join(got, " ") != strings.Join(beforeFiles, " ") {
		t.Errorf("the failed run left files: %v, before %v", got, beforeFiles)
	}
	// The previous generation answers, whole.
	if st := status(); st.Generation != before.Generation || st.Documents != before.Documents || st.Chunks != before.Chunks {
		t.Errorf("after the failure: generation %d, %d documents, %d chunks; before: %d, %d, %d",
			st.Generation, st.Documents, st.Chunks, before.Generation, before.Documents, before.Chunks)
	}
	if hits("password") == 0 || hits("quokkaparking") != 0 {
		t.Error("the index does not answer at its previous generation")
	}

	// Space freed: the same run commits.
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	rep := decode[indexOut](t, mustOK(t, r, "index", corpus, "--index", idx, "--json"))
	if rep.Generation != first.Generation+1 || hits("quokkaparking") == 0 {
		t.Errorf("after freeing space: generation %d (want %d), the new page found: %v", rep.Generation, first.Generation+1, hits("quokkaparking") > 0)
	}
}
