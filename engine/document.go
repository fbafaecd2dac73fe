package engine

import (
	"context"

	"github.com/fonte-rag/fonte"
)

// Document returns one indexed document with its chunks in order, so a
// caller holding a hit can read the passages around it. The error wraps
// fonte.ErrNotFound when the index does not hold id.
func (e *Engine) Document(ctx context.Context, id string) (fonte.Record, error) {
	return e.store.Document(ctx, id)
}
