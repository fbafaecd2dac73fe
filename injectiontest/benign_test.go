package injectiontest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/engine"
)

// TestBenignCorporaAreRarelyFlagged indexes real handbooks and manuals,
// in English and Italian, and bounds what guard flags there: a flag that
// fires on ordinary policy text would teach users to ignore it, and
// withholds a title or heading from the model. Measured when the
// dictated-answer patterns and the title and heading checks came in: the
// same flags as before them, none of the new kinds.
func TestBenignCorporaAreRarelyFlagged(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		dir        string
		maxChunks  int // flagged chunks allowed
		minIndexed int // documents that must be indexed, so a missing folder fails
	}{
		// The help desk page plants two injections in hidden elements,
		// dropped at parsing and flagged for the document (chunk -1).
		{"../examples/handbook", 0, 10},
		{"../evalsets/gds-way-en/docs", 1, 50}, // a JavaScript example's "user: B" line
		{"../evalsets/maint-guide-en/docs", 0, 10},
		{"../evalsets/debian-reference-it/docs", 1, 20}, // stampa "/dev/lp0", a shell example
		{"../evalsets/linee-guida-pa-it/docs", 0, 30},
		{"../../shared/data/handbook", 0, 200},
	} {
		e, err := engine.Open(ctx, engine.Settings{Store: filepath.Join(t.TempDir(), "idx")}, engine.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := e.Index(ctx, c.dir, nil)
		e.Close()
		if err != nil {
			t.Fatalf("%s: %v", c.dir, err)
		}
		if len(rep.Indexed) < c.minIndexed {
			t.Errorf("%s: %d documents indexed, want at least %d", c.dir, len(rep.Indexed), c.minIndexed)
		}
		if n := rep.FlaggedChunks(); n > c.maxChunks {
			t.Errorf("%s: %d of %d chunks flagged, want at most %d: %+v", c.dir, n, rep.Chunks, c.maxChunks, rep.Flagged)
		}
		for _, f := range rep.Flagged {
			if f.Kind == "dictated-answer" || f.Chunk >= 0 && (strings.HasPrefix(f.Text, "title: ") || strings.HasPrefix(f.Text, "heading: ")) {
				t.Errorf("%s: %s flagged %s %q", c.dir, f.Path, f.Kind, f.Text)
			}
		}
		t.Logf("%s: %d documents, %d chunks, %d flags on %d chunks", c.dir, len(rep.Indexed), rep.Chunks, len(rep.Flagged), rep.FlaggedChunks())
	}
}
