package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/ingest"
	"github.com/fonte-rag/fonte/internal/bombdoc"
)

// countingEmbedder is the built-in embedder counting the texts it was
// given; onCall, when set, runs first on every call. It embeds whatever
// the context, as a model server does with a batch it was sent: the
// engine, not the embedder, must stop asking.
type countingEmbedder struct {
	fonte.Embedder
	mu     sync.Mutex
	texts  int
	onCall func(ctx context.Context)
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if c.onCall != nil {
		c.onCall(ctx)
	}
	c.mu.Lock()
	c.texts += len(texts)
	c.mu.Unlock()
	return c.Embedder.Embed(context.WithoutCancel(ctx), texts)
}

func (c *countingEmbedder) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.texts
}

// limitedEngine is an engine over a fresh store holding the example
// handbook, with limits, and its status before any test step.
func limitedEngine(t *testing.T, l ingest.Limits, emb *countingEmbedder) (*Engine, *Status) {
	t.Helper()
	ctx := context.Background()
	emb.Embedder = DefaultEmbedder()
	e, err := Open(ctx, Settings{Store: t.TempDir(), Embedder: emb, Limits: l}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if _, err := e.Index(ctx, "../examples/handbook", nil); err != nil {
		t.Fatal(err)
	}
	st, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return e, st
}

// attack is issue 21's upload: ten Word files of about 40 KB, each a
// table of 15,000 rows, 150,010 chunks in all.
func attack() []Upload {
	files := make([]Upload, 10)
	for i := range files {
		files[i] = Upload{ID: fmt.Sprintf("spese-%02d.docx", i), Data: bombdoc.DOCX(15000, i)}
	}
	return files
}

// sameIndex fails unless the index is still the one before.
func sameIndex(t *testing.T, e *Engine, before *Status) {
	t.Helper()
	after, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if after.Generation != before.Generation || after.Documents != before.Documents || after.Chunks != before.Chunks {
		t.Errorf("the index changed: generation %d→%d, documents %d→%d, chunks %d→%d",
			before.Generation, after.Generation, before.Documents, after.Documents, before.Chunks, after.Chunks)
	}
}

// The upload attack is refused whole under the default limits before a
// single chunk is embedded, and the index is left as it was.
func TestAddRefusesARunOverItsLimits(t *testing.T) {
	emb := &countingEmbedder{}
	e, before := limitedEngine(t, ingest.DefaultLimits, emb)
	embedded := emb.count()
	_, err := e.Add(context.Background(), attack(), nil)
	var le *ingest.LimitError
	if !errors.As(err, &le) || le.Limit != ingest.LimitChunks || le.Max != int64(ingest.DefaultLimits.Chunks) || le.Path != "spese-01.docx" {
		t.Fatalf("the attack: %v, want a LimitError of %s at spese-01.docx", err, ingest.LimitChunks)
	}
	if n := emb.count() - embedded; n != 0 {
		t.Errorf("%d chunks of a refused upload were embedded", n)
	}
	sameIndex(t, e, before)

	// Within the limits an upload is indexed, and a later one gets a
	// budget of its own.
	e.settings.Limits = ingest.Limits{Chunks: 300}
	for i := range 2 {
		rep, err := e.Add(context.Background(), []Upload{{ID: fmt.Sprintf("small-%d.docx", i), Data: bombdoc.DOCX(200, i)}}, nil)
		if err != nil || len(rep.Indexed) != 1 {
			t.Fatalf("upload %d of 201 chunks under a limit of 300: %v", i, err)
		}
	}
}

// Expanded bytes are counted over the upload's files together.
func TestAddCountsExpandedBytesOverTheUpload(t *testing.T) {
	emb := &countingEmbedder{}
	e, before := limitedEngine(t, ingest.Limits{ExpandedBytes: 1 << 20}, emb)
	files := make([]Upload, 5)
	for i := range files {
		files[i] = Upload{ID: fmt.Sprintf("spese-%d.docx", i), Data: bombdoc.DOCX(2000, i)} // about 300 KB each
	}
	_, err := e.Add(context.Background(), files, nil)
	var le *ingest.LimitError
	if !errors.As(err, &le) || le.Limit != ingest.LimitExpandedBytes || le.Max != 1<<20 {
		t.Fatalf("five files of about 300 KB under 1 MiB of expanded bytes: %v", err)
	}
	sameIndex(t, e, before)
}

// An index run is refused whole when the new and changed documents of the
// folder go over a limit; unchanged documents cost a run nothing, so the
// same folder indexes again under a limit smaller than it.
func TestIndexRefusesAFolderOverItsLimits(t *testing.T) {
	emb := &countingEmbedder{}
	ctx := context.Background()
	dir := t.TempDir()
	for _, name := range []string{"people/leave.md", "finance/fatture.md"} {
		raw, err := os.ReadFile(filepath.Join("../examples/handbook", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	emb.Embedder = DefaultEmbedder()
	e, err := Open(ctx, Settings{Store: t.TempDir(), Embedder: emb, Limits: ingest.Limits{Chunks: 1000}}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Index(ctx, dir, nil); err != nil {
		t.Fatal(err)
	}
	before, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "spese.docx"), bombdoc.DOCX(1500, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	embedded := emb.count()
	_, err = e.Index(ctx, dir, nil)
	var le *ingest.LimitError
	if !errors.As(err, &le) || le.Limit != ingest.LimitChunks || le.Path != "spese.docx" {
		t.Fatalf("a folder with a 1,501-chunk file under a limit of 1000: %v", err)
	}
	if n := emb.count() - embedded; n != 0 {
		t.Errorf("%d chunks of a refused run were embedded", n)
	}
	sameIndex(t, e, before)

	// The same folder without the large file indexes, all unchanged,
	// under a limit smaller than the folder.
	if err := os.Remove(filepath.Join(dir, "spese.docx")); err != nil {
		t.Fatal(err)
	}
	e.settings.Limits = ingest.Limits{Chunks: 1, ExpandedBytes: 1, Pages: 1}
	rep, err := e.Index(ctx, dir, nil)
	if err != nil || rep.Unchanged != 2 {
		t.Fatalf("an unchanged folder under tiny limits: %v (%+v)", err, rep)
	}
}

// A caller that goes away stops the work: once the context ends during
// the embedding of a large document, no further batch is embedded and
// nothing is committed.
func TestAddStopsWhenTheCallerGoesAway(t *testing.T) {
	emb := &countingEmbedder{}
	e, before := limitedEngine(t, ingest.Limits{}, emb)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	calls, afterCancel := 0, 0
	emb.onCall = func(c context.Context) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if c.Err() != nil {
			afterCancel++
		}
		if calls == 2 {
			cancel() // the client leaves while the second batch is embedded
		}
	}
	_, err := e.Add(ctx, []Upload{{ID: "spese.docx", Data: bombdoc.DOCX(2000, 0)}}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("an upload whose caller went away: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if afterCancel != 0 || calls != 2 {
		t.Errorf("%d embedding calls, %d of them after the caller went away; want 2 and 0 (of %d batches)", calls, afterCancel, 2001/embedBatch+1)
	}
	sameIndex(t, e, before)
}
