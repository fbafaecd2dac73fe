package parse

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Limits bound the work of one run: an upload with all its files, or one
// index run over a folder. The per-file limits (WalkOptions.MaxSize, the
// office package limits, the PDF page and time limits) keep one file
// reasonable; these keep a run of many small files reasonable too, since
// a 40 KB Word file can expand to fifteen thousand chunks. A zero field
// means no limit. Each limit is named in errors by its setting, as the
// fonte command spells it (see LimitError).
type Limits struct {
	// ExpandedBytes bounds what the run's files expand to: the bytes
	// inflated from office packages (.docx, .odt, .pptx), and the text
	// extracted from every other format.
	ExpandedBytes int64
	// Pages bounds the pages of PDFs and the slides of presentations.
	Pages int
	// Chunks bounds the chunks the run makes (and so embeds and stores).
	Chunks int
}

// The settings that name each limit (flags, FONTE_* variables, fonte.yaml
// keys of the fonte command).
const (
	LimitExpandedBytes = "max-expanded-bytes"
	LimitPages         = "max-pages"
	LimitChunks        = "max-chunks"
)

// LimitError is the error of a run that went over one of its Limits.
// Nothing of the run is committed.
type LimitError struct {
	Limit string // LimitExpandedBytes, LimitPages or LimitChunks
	Max   int64  // the limit's value
	Path  string // the file being read when the run crossed it
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("the run is over its limit of %s (%s %d), reached at %s: nothing of it was indexed; split the files over several runs or raise %s (0: no limit)",
		e.Amount(), e.Limit, e.Max, e.Path, e.Limit)
}

// Amount says the limit in words: "20000 chunks".
func (e *LimitError) Amount() string {
	unit := map[string]string{LimitExpandedBytes: "bytes expanded (text extracted, packages inflated)", LimitPages: "pages", LimitChunks: "chunks"}[e.Limit]
	return fmt.Sprintf("%d %s", e.Max, unit)
}

// Budget accounts one run's work against its Limits and stops it when
// its context ends (a client that went away, a server shutting down).
// Methods are safe for concurrent use; a nil *Budget charges nothing and
// never stops.
type Budget struct {
	ctx    context.Context
	limits Limits

	mu                     sync.Mutex
	expanded, pages, chunk int64
}

// NewBudget returns the budget of a run that ends with ctx.
func NewBudget(ctx context.Context, l Limits) *Budget {
	return &Budget{ctx: ctx, limits: l}
}

// Usage is what a run has been charged so far.
type Usage struct {
	ExpandedBytes int64
	Pages, Chunks int
}

// Used returns what the budget has been charged.
func (b *Budget) Used() Usage {
	if b == nil {
		return Usage{}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return Usage{ExpandedBytes: b.expanded, Pages: int(b.pages), Chunks: int(b.chunk)}
}

// Err is the run's context error, once the context has ended.
func (b *Budget) Err() error {
	if b == nil {
		return nil
	}
	return b.ctx.Err()
}

// Expand charges n expanded bytes of file p.
func (b *Budget) Expand(p string, n int64) error {
	if b == nil {
		return nil
	}
	return b.charge(&b.expanded, b.limits.ExpandedBytes, LimitExpandedBytes, p, n)
}

// AddPages charges n pages of file p.
func (b *Budget) AddPages(p string, n int) error {
	if b == nil {
		return nil
	}
	return b.charge(&b.pages, int64(b.limits.Pages), LimitPages, p, int64(n))
}

// AddChunks charges n chunks of document p.
func (b *Budget) AddChunks(p string, n int) error {
	if b == nil {
		return nil
	}
	return b.charge(&b.chunk, int64(b.limits.Chunks), LimitChunks, p, int64(n))
}

func (b *Budget) charge(used *int64, ceiling int64, limit, p string, n int64) error {
	if err := b.ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	*used += n
	if ceiling > 0 && *used > ceiling {
		return &LimitError{Limit: limit, Max: ceiling, Path: p}
	}
	return nil
}

// Stops reports whether err ends a run rather than refusing one file: a
// limit of the run crossed, or its context ended.
func Stops(err error) bool {
	var le *LimitError
	return errors.As(err, &le) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// Reader charges the bytes read through r to the budget as expanded bytes
// of file p, so an office package stops inflating as soon as the run is
// over its limit or its context ends.
func (b *Budget) Reader(p string, r io.Reader) io.Reader {
	if b == nil {
		return r
	}
	return &chargedReader{b: b, path: p, r: r}
}

type chargedReader struct {
	b    *Budget
	path string
	r    io.Reader
}

func (c *chargedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if cerr := c.b.Expand(c.path, int64(n)); cerr != nil {
		return n, cerr
	}
	return n, err
}
