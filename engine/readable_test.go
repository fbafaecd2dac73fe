package engine

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fonte-rag/fonte"
)

// loadCounter is a store that counts the documents loaded whole.
type loadCounter struct {
	fonte.Store
	loads atomic.Int64
}

func (c *loadCounter) Document(ctx context.Context, id string) (fonte.Record, error) {
	c.loads.Add(1)
	return c.Store.Document(ctx, id)
}

// labelledIndex is an embedded index of an open document (open.md) and
// one labelled hr (hr/pay.md), closed when the test ends.
func labelledIndex(t *testing.T) *Engine {
	t.Helper()
	docs := t.TempDir()
	write(t, docs, "open.md", "# Canteen\n\nLunch is served at noon.\n")
	write(t, docs, "hr/pay.md", "---\naccess: [hr]\n---\n# Pay\n\nBand three earns 61,500 euros.\n")
	e, err := Open(context.Background(), Settings{Store: t.TempDir()}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if _, err := e.Index(context.Background(), docs, nil); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestReadableDocumentNeverLoadsHidden: for a restricted reader, a
// document it may not read is refused from its tags, before the store
// loads it, with the error a missing id gets; through the embedded
// store's snapshot and through the list every store has.
func TestReadableDocumentNeverLoadsHidden(t *testing.T) {
	ctx := context.Background()
	e := labelledIndex(t)
	store, local := e.store, e.local
	defer func() { e.store, e.local = store, local }()
	for _, generic := range []bool{false, true} {
		counter := &loadCounter{Store: store}
		e.store, e.local = counter, local
		if generic {
			e.local = nil // as for PostgreSQL and Redis
		}
		reader := fonte.Filter{Restricted: true}
		_, hiddenErr := e.ReadableDocument(ctx, "hr/pay.md", reader)
		_, missingErr := e.ReadableDocument(ctx, "hr/none.md", reader)
		if !errors.Is(hiddenErr, fonte.ErrNotFound) || !errors.Is(missingErr, fonte.ErrNotFound) {
			t.Fatalf("generic %v: hidden %v, missing %v; want both not found", generic, hiddenErr, missingErr)
		}
		if strings.ReplaceAll(hiddenErr.Error(), "pay.md", "none.md") != missingErr.Error() {
			t.Errorf("generic %v: the hidden document's error differs from a missing one's: %q, %q", generic, hiddenErr, missingErr)
		}
		if n := counter.loads.Load(); n != 0 {
			t.Errorf("generic %v: the store loaded %d documents for a hidden and a missing id", generic, n)
		}
		if r, err := e.ReadableDocument(ctx, "open.md", reader); err != nil || r.Doc.ID != "open.md" {
			t.Errorf("generic %v: the open document: %v", generic, err)
		}
		if r, err := e.ReadableDocument(ctx, "hr/pay.md", fonte.Filter{Restricted: true, Labels: []string{"hr"}}); err != nil || !strings.Contains(r.Doc.Text, "61,500") {
			t.Errorf("generic %v: a reader with the label: %v", generic, err)
		}
		if r, err := e.ReadableDocument(ctx, "hr/pay.md", fonte.Filter{}); err != nil || r.Doc.ID != "hr/pay.md" {
			t.Errorf("generic %v: an unrestricted reader: %v", generic, err)
		}
		if n := counter.loads.Load(); n != 3 {
			t.Errorf("generic %v: %d loads for three readable documents", generic, n)
		}
	}
}

// TestDumpHeaderHoldsNoPassword: the source a dump records is masked like
// any location fonte shows.
func TestDumpHeaderHoldsNoPassword(t *testing.T) {
	ctx := context.Background()
	e := labelledIndex(t)
	const pw = "Dump-Pw-never-stored"
	var out bytes.Buffer
	if _, err := Dump(ctx, e.Store(), "postgres://fonte:"+pw+"@db/x?sslpassword="+pw, &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), pw) || !strings.Contains(out.String(), "postgres://fonte:xxxxx@db/x?sslpassword=xxxxx") {
		t.Errorf("the dump's header: %.300q", out.String())
	}
}
