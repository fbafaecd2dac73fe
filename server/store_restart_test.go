package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/internal/testserver"
)

// TestStoreDownIs503 serves the handbook from a Redis store, kills the
// Redis server (SIGKILL) and starts it again: meanwhile a search is a 503
// store-unavailable problem that does not show the store's address, and
// afterwards the same server answers again by itself.
func TestStoreDownIs503(t *testing.T) {
	node, stop, err := testserver.StartRedisPersistent()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ts := start(t, config{store: "redis://" + node.Addr + "?collection=handbook"})
	search := func() (int, []byte) {
		status, raw, _ := ts.call(t, "POST", "/v1/search", readToken, map[string]any{"query": "annual leave days"})
		return status, raw
	}
	if status, raw := search(); status != http.StatusOK {
		t.Fatalf("search: %d %s", status, raw)
	}
	if err := node.Kill(); err != nil {
		t.Fatal(err)
	}
	status, raw := search()
	p := problemOf(t, raw)
	if status != http.StatusServiceUnavailable || !strings.HasSuffix(p.Type, "#store-unavailable") || strings.Contains(string(raw), node.Addr) {
		t.Fatalf("search with the store down: %d %s", status, raw)
	}
	t.Logf("while down: %d %s", status, raw)
	if err := node.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		status, raw = search()
		if status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("search after the restart: %d %s", status, raw)
		}
	}
}
