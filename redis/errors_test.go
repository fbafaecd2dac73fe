package redis

import (
	"context"
	"errors"
	"strings"
	"testing"

	goredis "github.com/redis/go-redis/v9"
)

// TestExecAbortNamesTheRefusal has a real server refuse to queue one
// command of a MULTI: EXEC answers only EXECABORT, and execAbortCause
// must bring back the refusal that says why, so that a LOADING refusal
// after a restart reads as unavailable rather than as a fault.
func TestExecAbortNamesTheRefusal(t *testing.T) {
	t.Parallel()
	opt, err := goredis.ParseURL(singleURL)
	if err != nil {
		t.Fatal(err)
	}
	c := goredis.NewClient(opt)
	defer c.Close()
	ctx := context.Background()
	cmds, err := c.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Get(ctx, "fonte-test-execabort")
		p.Do(ctx, "SET", "fonte-test-execabort") // one argument short: refused when queued
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "EXECABORT") {
		t.Fatalf("TxPipelined: %v; want EXECABORT", err)
	}
	got := execAbortCause(cmds, err)
	if !strings.Contains(got.Error(), "wrong number of arguments") || !strings.Contains(got.Error(), "EXECABORT") {
		t.Fatalf("execAbortCause: %v; want both the EXECABORT and the refusal", got)
	}
	if isUnavailable(got) {
		t.Fatalf("a refused command is a fault, not unavailability: %v", got)
	}

	// Without EXECABORT the error passes through untouched.
	plain := errors.New("boom")
	if execAbortCause(cmds, plain) != plain || execAbortCause(cmds, nil) != nil {
		t.Fatal("execAbortCause changed an error that is not EXECABORT")
	}
}
