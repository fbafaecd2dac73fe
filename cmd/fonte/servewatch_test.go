package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeWatchCatchesUpAtStart: `fonte serve --watch` brings each
// watched folder's index up to date when it starts, so what changed while
// the server was down (here: everything, a first start) is indexed
// without waiting for the next change in the folder, as `fonte index
// --watch` does.
func TestServeWatchCatchesUpAtStart(t *testing.T) {
	docs, dir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(docs, "canteen.md"), []byte("# Canteen\n\nThe zebracrossing lunch is served at noon.\n"))
	t.Setenv("FONTE_ADMIN_TOKEN", "the-admin")
	url, _ := serveProcess(t, false, "--index", filepath.Join(dir, "index"), "--docs", docs, "--watch", "--rate-limit", "0")
	search := func() string {
		t.Helper()
		req, _ := http.NewRequest("POST", url+"/v1/search", strings.NewReader(`{"query": "zebracrossing lunch"}`))
		req.Header.Set("Authorization", "Bearer the-admin")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return string(body)
	}
	deadline := time.Now().Add(15 * time.Second)
	for body := search(); !strings.Contains(body, "served at noon"); body = search() {
		if time.Now().After(deadline) {
			t.Fatalf("the folder was not indexed at start: %s", body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(dir, "index")); err != nil {
		t.Fatal(err)
	}
}
