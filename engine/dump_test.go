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
	dir := t.TempDir()
	e, err := Open(ctx, Settings{Store: dir}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	docs := t.TempDir()
	write(t, docs, "open.md", "# Canteen\n\nLunch is served at noon.\n")
	if _, err := e.Index(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	e.Close()
	segs, err := filepath.Glob(filepath.Join(dir, "seg-*.fseg"))
	if err != nil || len(segs) != 1 {
		t.Fatalf("segments %v, %v", segs, err)
	}
	b, err := os.ReadFile(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-20] ^= 0xff // a vector's byte: the vectors end just before the file's CRC
	if err := os.WriteFile(segs[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := OpenStore(ctx, dir, fonte.StoreOptions{ReadOnly: true}, StoreTuning{Analyzers: retrieve.DefaultAnalyzers()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out bytes.Buffer
	_, err = Dump(ctx, st, dir, &out)
	if !errors.Is(err, disk.ErrCorrupt) || !strings.Contains(err.Error(), filepath.Base(segs[0])) {
		t.Errorf("dump of a damaged index: %v, want ErrCorrupt naming %s (%d bytes written)", err, segs[0], out.Len())
	}
}
