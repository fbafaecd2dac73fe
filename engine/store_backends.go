package engine

import (
	"context"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/postgres"
	"github.com/fonte-rag/fonte/redis"
)

func openPostgres(ctx context.Context, location string, o fonte.StoreOptions) (fonte.Store, error) {
	st, err := postgres.Open(ctx, location, o)
	if err != nil {
		return nil, err
	}
	return st, nil
}

func openRedis(ctx context.Context, location string, o fonte.StoreOptions) (fonte.Store, error) {
	st, err := redis.Open(ctx, location, o)
	if err != nil {
		return nil, err
	}
	return st, nil
}
