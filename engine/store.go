package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/disk"
	"github.com/fonte-rag/fonte/internal/redact"
	"github.com/fonte-rag/fonte/retrieve"
)

// StoreTuning is what the embedded store needs beyond fonte.StoreOptions:
// it builds its search index in memory, with fonte's analysis.
type StoreTuning struct {
	Analyzers retrieve.Analyzers
	Dense     retrieve.DenseKind
	// TxMemory is disk.Options.TxMemory (its default when zero).
	TxMemory int64
}

// OpenStore opens the store that location names:
//
//   - a folder path (the embedded store, package disk);
//   - postgres://… or postgresql://… (PostgreSQL with pgvector, package
//     postgres; `?collection=NAME` picks the collection);
//   - redis://… or rediss://… (Redis with the Query Engine, package
//     redis; a cluster as redis://host1:port1?addr=host2:port2&addr=…).
func OpenStore(ctx context.Context, location string, o fonte.StoreOptions, t StoreTuning) (fonte.Store, error) {
	switch scheme(location) {
	case "":
		st, err := disk.Open(location, o.Settings, disk.Options{ReadOnly: o.ReadOnly, Rebuild: o.Rebuild, Analyzers: t.Analyzers, Dense: t.Dense, TxMemory: t.TxMemory})
		if err != nil {
			return nil, err
		}
		return st, nil
	case "postgres", "postgresql":
		return openPostgres(ctx, location, o)
	case "redis", "rediss":
		return openRedis(ctx, location, o)
	}
	return nil, fmt.Errorf("store %q: want a folder, postgres://… or redis://…", redact.Secrets(location))
}

// scheme returns the URL scheme of location, or "" for a folder path.
func scheme(location string) string {
	i := strings.Index(location, "://")
	if i <= 0 {
		return ""
	}
	s := strings.ToLower(location[:i])
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.') {
			return ""
		}
	}
	return s
}

// IsFolder reports whether location names the embedded store's folder
// rather than a server's URL.
func IsFolder(location string) bool { return scheme(location) == "" }
