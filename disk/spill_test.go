package disk

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestSpill: a transaction larger than Options.TxMemory writes segment
// files before its commit, and commits exactly what the same change
// commits in memory, superseded puts and deletes included; one that
// fails leaves none of its files.
func TestSpill(t *testing.T) {
	change := func(check func(*Tx)) func(tx *Tx) error {
		return func(tx *Tx) error {
			for i := range 40 {
				if err := tx.Put(makeRecord(fmt.Sprintf("doc%02d", i), 1, 3, 8)); err != nil {
					return err
				}
			}
			if check != nil {
				check(tx)
			}
			// Replace and delete documents that were spilled.
			for i := 0; i < 40; i += 7 {
				if err := tx.Put(makeRecord(fmt.Sprintf("doc%02d", i), 2, 2, 8)); err != nil {
					return err
				}
			}
			for i := 3; i < 40; i += 11 {
				tx.Delete(fmt.Sprintf("doc%02d", i))
			}
			tx.Delete("doc07") // replaced above, then deleted
			return tx.Put(makeRecord("doc03", 3, 1, 8))
		}
	}
	seed := func(s *Store) { putAll(t, s, makeRecord("base1", 1, 2, 8), makeRecord("doc05", 1, 2, 8)) }

	ref := mustOpen(t, t.TempDir(), testCfg, Options{})
	seed(ref)
	tx(t, ref, change(nil))
	want := fingerprint(mustSnapshot(t, ref))

	dir := t.TempDir()
	opts := Options{SegmentBytes: 4 * (makeRecordSize() + 10), TxMemory: 1}
	s := mustOpen(t, dir, testCfg, opts)
	seed(s)
	gen := mustSnapshot(t, s).Generation() + 1
	var spilledFiles []string
	tx(t, s, change(func(tx *Tx) {
		for _, name := range listFiles(t, dir) {
			if strings.HasPrefix(name, fmt.Sprintf("seg-%d-", gen)) {
				spilledFiles = append(spilledFiles, name)
			}
		}
	}))
	if len(spilledFiles) < 5 {
		t.Fatalf("%d segment files written before the commit, want the 40 puts spilled: %v", len(spilledFiles), spilledFiles)
	}
	snap := mustSnapshot(t, s)
	if got := fingerprint(snap); got != want {
		t.Fatalf("spilled commit differs from the in-memory one:\n%s\nwant\n%s", got, want)
	}
	if err := snap.Verify(); err != nil {
		t.Fatal(err)
	}
	checkNoStrays(t, dir)
	// Reopened from disk, the same.
	if got := fingerprint(mustSnapshot(t, mustOpen(t, dir, testCfg, Options{ReadOnly: true}))); got != want {
		t.Fatal("the spilled commit reads back differently")
	}

	// A transaction that fails after spilling removes its files.
	before := listFiles(t, dir)
	boom := errors.New("boom")
	err := s.Write(context.Background(), func(tx *Tx) error {
		if err := change(nil)(tx); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write = %v", err)
	}
	if after := listFiles(t, dir); !slices.Equal(after, before) {
		t.Fatalf("a failed transaction left files: %v, before %v", after, before)
	}
	if fingerprint(mustSnapshot(t, s)) != want {
		t.Fatal("a failed transaction changed the store")
	}
}
