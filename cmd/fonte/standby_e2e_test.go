package main

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/internal/testserver"
)

// nativeStore is a native server's URL for collection.
func nativeStore(t *testing.T, pg *testserver.NativePostgres, collection string) string {
	t.Helper()
	u, err := url.Parse(pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("collection", collection)
	u.RawQuery = q.Encode()
	return u.String()
}

// TestE2EPostgresWritersStandbyAndCrash runs the binary as a team would
// on a native PostgreSQL with a hot standby: three `fonte index`
// processes at once on one collection of the primary while `fonte ask`
// processes read the standby (every run succeeds, the collection ends
// whole); `fonte status` on the standby says it is a replica and how far
// behind; `fonte index` on the standby fails with a sentence saying the
// server is a read-only hot standby; and with the primary killed,
// `fonte status` fails with a sentence naming the server, then succeeds
// once it is restarted.
func TestE2EPostgresWritersStandbyAndCrash(t *testing.T) {
	primary, err := testserver.StartNativePostgres("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(primary.Stop)
	standby, err := primary.StartStandby("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(standby.Stop)
	docs := copyHandbook(t)
	onPrimary, onStandby := nativeStore(t, primary, "team"), nativeStore(t, standby, "team")
	mustOK(t, run{}, "index", docs, "--store", onPrimary)
	deadline := time.Now().Add(30 * time.Second)
	for runFonte(t, "status", "--store", onStandby).code != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the collection never reached the standby")
		}
		time.Sleep(100 * time.Millisecond)
	}

	const question = "How many days of annual leave do full-time employees accrue?"
	var wg sync.WaitGroup
	results := make([]result, 6)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i < 3 {
				results[i] = runFonte(t, "index", docs, "--store", onPrimary, "--rebuild")
			} else {
				results[i] = runFonte(t, "ask", question, "--store", onStandby)
			}
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Errorf("run %d of three indexers and three askers at once: %s", i, r)
		}
	}
	primaryStatus := mustOK(t, run{}, "status", "--store", onPrimary)
	if !strings.Contains(primaryStatus, "contents  13 documents") || strings.Contains(primaryStatus, "replica") {
		t.Errorf("the primary's status after three concurrent rebuilds:\n%s", primaryStatus)
	}

	deadline = time.Now().Add(30 * time.Second)
	for {
		out := mustOK(t, run{}, "status", "--store", onStandby)
		if strings.Contains(out, "replica   hot standby (read-only): has replayed all it received") && strings.Contains(out, "contents  13 documents") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the standby's status:\n%s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	res := runFonte(t, "index", docs, "--store", onStandby)
	standbyAddr := fmt.Sprintf("127.0.0.1:%d", standby.Port)
	for _, want := range []string{standbyAddr, "read-only", "hot standby", "primary"} {
		if res.code == 0 || !strings.Contains(res.stderr, want) {
			t.Errorf("fonte index on the standby does not fail saying %q: %s", want, res)
		}
	}

	if err := primary.Kill(); err != nil {
		t.Fatal(err)
	}
	res = runFonte(t, "status", "--store", onPrimary)
	primaryAddr := fmt.Sprintf("127.0.0.1:%d", primary.Port)
	if res.code == 0 || !strings.Contains(res.stderr, "the server at "+primaryAddr+" is unavailable") {
		t.Errorf("fonte status with the primary down: %s", res)
	}
	if err := primary.Restart(); err != nil {
		t.Fatal(err)
	}
	if out := mustOK(t, run{}, "status", "--store", onPrimary); !strings.Contains(out, "contents  13 documents") {
		t.Errorf("after the restart:\n%s", out)
	}
}
