package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
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

// TestTwoServersUploadToOneCollection runs two `fonte serve` on one
// collection of a native PostgreSQL (two stores with pools of their own,
// as two processes have) and sends each eight uploads of new documents
// from two clients at once: every upload commits (one sent back with 503
// uploads-busy is sent again, as the problem says), and both servers
// then list every document: no server's commit undid the other's.
func TestTwoServersUploadToOneCollection(t *testing.T) {
	primary, err := testserver.StartNativePostgres("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(primary.Stop)
	store := nativeStore(t, primary, "shared")
	mustOK(t, run{}, "index", copyHandbook(t), "--store", store)
	type srv struct{ url, token string }
	var servers []srv
	for range 2 {
		u, tok := serveProcess(t, true, "--store", store)
		servers = append(servers, srv{u, tok})
	}
	upload := func(s srv, name string) error {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		fw, err := mw.CreateFormFile("file", name)
		if err != nil {
			return err
		}
		fmt.Fprintf(fw, "# %s\n\nThe policy %s names its own approver.\n", name, name)
		if err := mw.Close(); err != nil {
			return err
		}
		for try := 0; ; try++ {
			req, err := http.NewRequest("POST", s.url+"/v1/documents", bytes.NewReader(body.Bytes()))
			if err != nil {
				return err
			}
			req.Header.Set("Authorization", "Bearer "+s.token)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			var out bytes.Buffer
			_, _ = out.ReadFrom(resp.Body)
			resp.Body.Close()
			switch {
			case resp.StatusCode == 200:
				return nil
			case resp.StatusCode == 503 && strings.Contains(out.String(), "uploads-busy") && try < 20:
				time.Sleep(500 * time.Millisecond)
			default:
				return fmt.Errorf("upload %s: %d %s", name, resp.StatusCode, out.String())
			}
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i, s := range servers {
		for c := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := range 4 {
					if err := upload(s, fmt.Sprintf("uploads/s%d-c%d-%d.md", i, c, n)); err != nil {
						errs <- err
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i, s := range servers {
		req, err := http.NewRequest("GET", s.url+"/v1/status", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+s.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Documents  int `json:"documents"`
			Generation int `json:"generation"`
		}
		err = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if st.Documents != 13+16 || st.Generation != 1+16 {
			t.Errorf("server %d after 16 uploads through two servers: %d documents at generation %d; want 29 at 17", i, st.Documents, st.Generation)
		}
	}
}
