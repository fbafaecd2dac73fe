package engine

import (
	"context"
	"fmt"

	"github.com/fonte-rag/fonte"
)

// openPostgres and openRedis are filled in as the backends land.
func openPostgres(ctx context.Context, location string, o fonte.StoreOptions) (fonte.Store, error) {
	return nil, fmt.Errorf("store %s: the PostgreSQL backend is not built in yet", RedactURL(location))
}

func openRedis(ctx context.Context, location string, o fonte.StoreOptions) (fonte.Store, error) {
	return nil, fmt.Errorf("store %s: the Redis backend is not built in yet", RedactURL(location))
}
