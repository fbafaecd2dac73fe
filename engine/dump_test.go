package engine

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/disk"
	"github.com/fonte-rag/fonte/retrieve"
)

// TestDumpRefusesADamagedIndex: a dump of an index folder whose segment
// has a flipped byte among its vectors fails naming the file, rather than
// writing the damaged vector into a dump whose own checksums then vouch
// for it (the embedded store checks its vectors in the background, after
// a small dump has long finished).
func TestDumpRefusesADamagedIndex(t *testing.T) {
	ctx := context.Background()
	dir, e := indexedOne(t, "open.md", "# Canteen\n\nLunch is served at noon.\n")
	e.Close()
	seg := damageSegment(t, dir, func(b []byte) {
		b[len(b)-20] ^= 0xff // a vector's byte: the vectors end just before the file's CRC
	})
	st, err := OpenStore(ctx, dir, fonte.StoreOptions{ReadOnly: true}, StoreTuning{Analyzers: retrieve.DefaultAnalyzers()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out bytes.Buffer
	_, err = Dump(ctx, st, dir, &out)
	if !errors.Is(err, disk.ErrCorrupt) || !strings.Contains(err.Error(), filepath.Base(seg)) {
		t.Errorf("dump of a damaged index: %v, want ErrCorrupt naming %s (%d bytes written)", err, seg, out.Len())
	}
}

// TestFailedRestoreLeavesNoIndex: a restore of a damaged dump into a
// folder that did not exist fails and leaves no folder (it left an empty
// index there, with the dump's settings, that a later index run would
// take); into a folder that held an empty index, it fails and leaves
// that index as it was. The whole dump then restores into the new folder.
func TestFailedRestoreLeavesNoIndex(t *testing.T) {
	ctx := context.Background()
	dir, e := indexedOne(t, "open.md", "# Canteen\n\nLunch is served at noon.\n")
	var dump bytes.Buffer
	dumped, err := Dump(ctx, e.Store(), dir, &dump)
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	damaged := bytes.Clone(dump.Bytes())
	damaged[len(damaged)/2] ^= 0xff

	fresh := filepath.Join(t.TempDir(), "restored")
	if _, err := Restore(ctx, bytes.NewReader(damaged), "damaged.dump", fresh, false); err == nil {
		t.Fatal("a damaged dump restored")
	}
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after the failed restore, %s: %v; want it absent", fresh, err)
	}

	empty := t.TempDir()
	st, err := OpenStore(ctx, empty, fonte.StoreOptions{Settings: dumped.Settings}, StoreTuning{Analyzers: retrieve.DefaultAnalyzers()})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	before, err := os.ReadDir(empty)
	if err != nil || len(before) == 0 {
		t.Fatalf("the empty index: %v, %v", before, err)
	}
	if _, err := Restore(ctx, bytes.NewReader(damaged), "damaged.dump", empty, false); err == nil {
		t.Fatal("a damaged dump restored")
	}
	after, err := os.ReadDir(empty)
	if err != nil || len(after) != len(before) {
		t.Errorf("the folder that held an empty index: %d entries before, %d after (%v)", len(before), len(after), err)
	}

	stats, err := Restore(ctx, bytes.NewReader(dump.Bytes()), "whole.dump", fresh, false)
	if err != nil || stats.Documents != 1 {
		t.Errorf("the whole dump: %+v, %v", stats, err)
	}
}
