package server_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
)

// waitGen is a generator that answers only when its context ends: the
// client has gone away by then.
type waitGen struct{ started chan struct{} }

func (g waitGen) Generate(ctx context.Context, _ []fonte.Message, _ func(string)) (string, error) {
	close(g.started)
	<-ctx.Done()
	return "", ctx.Err()
}

func (waitGen) Model() string { return "fake/wait" }

// TestClientGoneIsNotAnError: a client that leaves while its answer is
// generated (JSON or streamed) is logged at INFO, not ERROR.
func TestClientGoneIsNotAnError(t *testing.T) {
	for _, accept := range []string{"application/json", "text/event-stream"} {
		t.Run(accept, func(t *testing.T) {
			logs := &lockedBuffer{}
			gen := waitGen{started: make(chan struct{})}
			ts := start(t, config{gen: gen, logs: logs, noErrors: true})
			ctx, cancel := context.WithCancel(t.Context())
			req, _ := http.NewRequestWithContext(ctx, "POST", ts.url+"/v1/ask",
				strings.NewReader(`{"question": "How many days of annual leave do full-time employees accrue?"}`))
			req.Header.Set("Authorization", "Bearer "+readToken)
			req.Header.Set("Accept", accept)
			go func() {
				<-gen.started
				cancel()
			}()
			if resp, err := http.DefaultClient.Do(req); err == nil {
				// A stream's headers come first; leaving is closing it.
				<-gen.started
				cancel()
				resp.Body.Close()
			}
			for deadline := time.Now().Add(10 * time.Second); !strings.Contains(logs.String(), "client went away"); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("no log line for the client that left: %s", logs.String())
				}
			}
			if out := logs.String(); !strings.Contains(out, "level=INFO msg=\"request canceled: the client went away\"") {
				t.Fatalf("logs: %s", out)
			}
		})
	}
}

// TestFullDiskIs507: an upload into a collection whose disk is full (a
// tmpfs filled up) is a 507 problem naming the collection, and the
// documents it held are all still there. The tmpfs needs root on Linux,
// as the tests run here; without it the test fails.
func TestFullDiskIs507(t *testing.T) {
	mnt := filepath.Join(t.TempDir(), "small")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=4m"); err != nil {
		t.Fatalf("cannot mount a 4 MiB tmpfs at %s (%v): this test needs root on Linux", mnt, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(mnt, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmounting %s: %v", mnt, err)
		}
	})
	logs := &lockedBuffer{}
	ts := start(t, config{dataDir: mnt, logs: logs})
	upload := func(name, text string) (int, []byte) {
		body := "--XYZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + name + "\"\r\n" +
			"Content-Type: text/markdown\r\n\r\n" + text + "\r\n--XYZ--\r\n"
		status, raw, _ := ts.call(t, "POST", "/v1/collections/small/documents", adminToken, body, multipartHeader...)
		return status, raw
	}
	if status, raw := upload("first.md", "# First\n\nThe canteen opens at noon."); status >= 300 {
		t.Fatalf("first upload: %d %s", status, raw)
	}
	filler, err := os.Create(filepath.Join(mnt, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	for {
		if _, err := filler.Write(chunk); err != nil {
			break
		}
	}
	filler.Close()
	status, raw := upload("second.md", "# Second\n\n"+strings.Repeat("The library lends books for three weeks. ", 2000))
	p := problemOf(t, raw)
	if status != http.StatusInsufficientStorage || !strings.HasSuffix(p.Type, "#insufficient-storage") || !strings.Contains(p.Detail, `collection "small"`) {
		t.Fatalf("upload on a full disk: %d %s", status, raw)
	}
	if strings.Contains(p.Detail, mnt) {
		t.Fatalf("the problem shows a server path: %s", raw)
	}
	if err := os.Remove(filepath.Join(mnt, "filler")); err != nil {
		t.Fatal(err)
	}
	status, raw, _ = ts.call(t, "GET", "/v1/collections/small/documents", adminToken, nil)
	if status != 200 || !strings.Contains(string(raw), "first.md") || strings.Contains(string(raw), "second.md") {
		t.Fatalf("after the full disk: %d %s", status, raw)
	}
}
