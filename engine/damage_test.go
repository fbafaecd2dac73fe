package engine

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/fonte-rag/fonte/disk"
)

// TestSearchRefusesDamagedText: a byte of a chunk's text flipped on disk
// passes the checks made when the index is opened, which cover a
// segment's header and directory; a search (and so an answer) right
// after opening, as a one-shot command makes before the background check
// has run, fails naming the file rather than sending the altered text.
func TestSearchRefusesDamagedText(t *testing.T) {
	ctx := context.Background()
	dir, e := indexedOne(t, "canteen.md", "# Canteen\n\nLunch is served at noon in the zebrahall.\n")
	e.Close()
	damageSegment(t, dir, func(b []byte) {
		at := bytes.Index(b, []byte("served at noon"))
		if at < 0 {
			t.Fatal("the chunk's text is not in the segment as written")
		}
		b[at] = 'S' // "Served at noon": the text, not its length or its place
	})
	e, err := Open(ctx, Settings{Store: dir}, OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	hits, err := e.Search(ctx, "zebrahall lunch", SearchOptions{})
	if !errors.Is(err, disk.ErrCorrupt) {
		t.Errorf("search over a damaged chunk: %v (%d hits), want an error wrapping disk.ErrCorrupt", err, len(hits))
	}
}

// indexedOne indexes one document, the file name holding text, into a
// new index folder with the default settings; it returns the folder and
// the engine, still open.
func indexedOne(t *testing.T, name, text string) (string, *Engine) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	e, err := Open(ctx, Settings{Store: dir}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	docs := t.TempDir()
	write(t, docs, name, text)
	if _, err := e.Index(ctx, docs, nil); err != nil {
		e.Close()
		t.Fatal(err)
	}
	return dir, e
}

// damageSegment changes the bytes of the index's only segment file with
// damage, writes them back and returns the file's path.
func damageSegment(t *testing.T, dir string, damage func(b []byte)) string {
	t.Helper()
	segs, err := filepath.Glob(filepath.Join(dir, "seg-*.fseg"))
	if err != nil || len(segs) != 1 {
		t.Fatalf("segments %v, %v", segs, err)
	}
	b, err := os.ReadFile(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	damage(b)
	if err := os.WriteFile(segs[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	return segs[0]
}
