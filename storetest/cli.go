package storetest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// binary builds the fonte command once per test process.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := osMkdirTemp()
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "fonte")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/fonte")
		cmd.Dir = Root(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = &buildError{out: string(out), err: err}
		}
	})
	if buildErr != nil {
		t.Fatalf("building fonte: %v", buildErr)
	}
	return binPath
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }

// runFonte runs the binary and returns its standard output, failing the test
// on a non-zero exit.
func runFonte(t *testing.T, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Dir = t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("fonte %v: %v\n%s", args, err, stderr.String())
	}
	return stdout.Bytes()
}

type cliCitation struct {
	N       int       `json:"n"`
	Doc     string    `json:"doc"`
	Heading string    `json:"heading"`
	Quote   string    `json:"quote"`
	Page    int       `json:"page"`
	Updated time.Time `json:"updated"`
}

type cliAnswer struct {
	Answer    string        `json:"answer"`
	Abstained bool          `json:"abstained"`
	Citations []cliCitation `json:"citations"`
}

// testCLI is the user's path: `fonte index DIR --store LOC` then
// `fonte ask … --store LOC --json`, run by the real binary, answers with
// the citations the same commands give on the embedded store.
func testCLI(t *testing.T, b Backend) {
	dir := corpus(t)
	loc := b.New(t)
	folder := filepath.Join(t.TempDir(), "reference")
	runFonte(t, "index", dir, "--store", loc, "--json")
	runFonte(t, "index", dir, "--store", folder, "--json")
	for _, q := range []string{
		"How much can I spend per night on a hotel in London?",
		"Entro quando va presentata la nota spese?",
		"Who approves a purchase over the threshold?",
		"What is the canteen menu on Fridays?",
	} {
		var got, want cliAnswer
		if err := json.Unmarshal(runFonte(t, "ask", q, "--store", loc, "--json"), &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(runFonte(t, "ask", q, "--store", folder, "--json"), &want); err != nil {
			t.Fatal(err)
		}
		if got.Abstained != want.Abstained || got.Answer != want.Answer || len(got.Citations) != len(want.Citations) {
			t.Errorf("fonte ask %q on %s: abstained %v, %d citations, %q; on a folder: %v, %d, %q",
				q, b.Name, got.Abstained, len(got.Citations), got.Answer, want.Abstained, len(want.Citations), want.Answer)
			continue
		}
		for i := range want.Citations {
			g, w := got.Citations[i], want.Citations[i]
			if g.N != w.N || g.Doc != w.Doc || g.Heading != w.Heading || g.Quote != w.Quote || !g.Updated.Equal(w.Updated) {
				t.Errorf("fonte ask %q on %s: citation %+v, on a folder %+v", q, b.Name, g, w)
			}
		}
	}
}

func osMkdirTemp() (string, error) { return os.MkdirTemp("", "fonte-storetest-") }
