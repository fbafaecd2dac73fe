package main

import (
	"encoding/json"
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
	search := func() string { return asAdmin(t, "POST", url+"/v1/search", `{"query": "zebracrossing lunch"}`) }
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

// TestServeWatchIgnoresEachCollectionsOwnIndex: a collection whose index
// lies inside its own watched folder (--data inside it) is not
// re-indexed by its own commits: the watcher ignored the default
// collection's index folder for every collection, so each commit of
// this one changed its folder and started another run.
func TestServeWatchIgnoresEachCollectionsOwnIndex(t *testing.T) {
	docs, dir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(docs, "canteen.md"), []byte("# Canteen\n\nThe zebracrossing lunch is served at noon.\n"))
	cfg := filepath.Join(dir, "fonte.yaml")
	writeFile(t, cfg, []byte("collections:\n  team:\n    folder: "+docs+"\nrate-limit: 0\n"))
	t.Setenv("FONTE_ADMIN_TOKEN", "the-admin")
	data := filepath.Join(docs, "fonte-data")
	url, _ := serveProcess(t, false, "--config", cfg, "--index", filepath.Join(dir, "index"), "--data", data, "--watch")
	status := func() string { return asAdmin(t, "GET", url+"/v1/collections/team/status", "") }
	deadline := time.Now().Add(15 * time.Second)
	for body := status(); !strings.Contains(body, `"finished"`); body = status() {
		if time.Now().After(deadline) {
			t.Fatalf("the folder was not indexed at start: %s", body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(data, "team")); err != nil {
		t.Fatalf("the collection's index is not inside its folder: %v", err)
	}
	// Six times the watcher's quiet time: a run the commit's own files
	// started would have finished.
	time.Sleep(3 * time.Second)
	var st struct {
		Watch struct {
			Trigger []string `json:"trigger"`
		} `json:"watch"`
	}
	body := status()
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	for _, p := range st.Watch.Trigger {
		if strings.Contains(p, "fonte-data") {
			t.Errorf("the collection's own index started a run (trigger %q): %s", st.Watch.Trigger, body)
			break
		}
	}
}

// asAdmin sends a request with the token "the-admin" and returns the
// response's body.
func asAdmin(t *testing.T, method, url, body string) string {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer the-admin")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return string(raw)
}
