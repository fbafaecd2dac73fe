package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// exitCase is one run of the binary and the exit code README's table
// gives it.
type exitCase struct {
	args    []string // {w}: the case's own folder; {idx}: the shared handbook index
	want    int
	stdin   string
	prepare func(t *testing.T, w string) // before the run, in the case's folder
}

// indexInto builds a small index at w/idx from w/docs.
func indexInto(t *testing.T, w string) {
	t.Helper()
	mustOK(t, run{dir: w}, "index", filepath.Join(w, "docs"), "--index", filepath.Join(w, "idx"))
}

// TestExitCodes runs the binary over every command: a usage error (bad
// flags, arguments or settings) exits 2, a run that fails 1, a settings
// mismatch 4 and a success 0, as README's exit-code table says.
func TestExitCodes(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { busy.Close() }) // after the parallel subtests, unlike a defer
	questions, err := os.ReadFile(filepath.Join(examplesDir, "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	firstQuestion, _, _ := strings.Cut(string(questions), "\n")
	unreachable := "postgres://fonte@127.0.0.1:1/fonte" // nothing listens on port 1
	cases := map[string][]exitCase{
		"": {
			{args: []string{}, want: exitOK},
			{args: []string{"bogus"}, want: exitUsage},
			{args: []string{"serach", "leave"}, want: exitUsage},
			{args: []string{"--frobnicate"}, want: exitUsage},
			{args: []string{"--version"}, want: exitOK},
		},
		"version": {
			{args: []string{"version"}, want: exitOK},
			{args: []string{"version", "extra"}, want: exitUsage},
		},
		"help": {
			{args: []string{"help", "index"}, want: exitOK},
			{args: []string{"help", "bogus"}, want: exitUsage},
		},
		"completion": {
			{args: []string{"completion", "bash"}, want: exitOK},
			{args: []string{"completion", "tcsh"}, want: exitUsage},
		},
		"index": {
			{args: []string{"index", "{w}/docs", "--index", "{w}/idx"}, want: exitOK},
			{args: []string{"index"}, want: exitUsage},
			{args: []string{"index", "{w}/no-such-folder"}, want: exitUsage},
			{args: []string{"index", "{w}/docs", "--bogus"}, want: exitUsage},
			{args: []string{"index", "{w}/docs", "--memory", "lots"}, want: exitUsage},
			{args: []string{"index", "{w}/docs", "--store", unreachable}, want: exitFailure},
			{args: []string{"index", "{w}/docs", "--index", "{w}/idx", "--chunker", "window"}, want: exitMismatchCfg, prepare: indexInto},
		},
		"search": {
			{args: []string{"search", "annual leave", "--index", "{idx}"}, want: exitOK},
			{args: []string{"search"}, want: exitUsage},
			{args: []string{"search", "leave", "--k", "0"}, want: exitUsage},
			{args: []string{"search", "leave", "--retriever", "psychic"}, want: exitUsage},
			{args: []string{"search", "leave", "--index", "{w}/no-index"}, want: exitFailure},
			{args: []string{"search", "leave", "--store", unreachable}, want: exitFailure},
		},
		"ask": {
			{args: []string{"ask", "How many days of annual leave?", "--index", "{idx}"}, want: exitOK},
			{args: []string{"ask"}, want: exitUsage},
			{args: []string{"ask", "leave", "--generator", "bogus"}, want: exitUsage},
			{args: []string{"ask", "leave", "--index", "{w}/no-index"}, want: exitFailure},
		},
		"chat": {
			{args: []string{"chat", "--index", "{idx}"}, stdin: "How many days of annual leave?\n/quit\n", want: exitOK},
			{args: []string{"chat", "extra"}, want: exitUsage},
			{args: []string{"chat", "--index", "{w}/no-index"}, want: exitFailure},
		},
		"delete": {
			{args: []string{"delete", "leave.md", "--index", "{w}/idx"}, want: exitOK, prepare: indexInto},
			{args: []string{"delete"}, want: exitUsage},
			{args: []string{"delete", "no-such.md", "--index", "{w}/idx"}, want: exitFailure, prepare: indexInto},
		},
		"status": {
			{args: []string{"status", "--index", "{idx}"}, want: exitOK},
			{args: []string{"status", "extra"}, want: exitUsage},
			{args: []string{"status", "--index", "{w}/no-index"}, want: exitFailure},
		},
		"eval": {
			{args: []string{"eval", "--questions", "{w}/q.jsonl", "--index", "{idx}"}, want: exitOK},
			{args: []string{"eval"}, want: exitUsage},
			{args: []string{"eval", "--questions", "{w}/no-such.jsonl", "--index", "{idx}"}, want: exitFailure},
		},
		"dump": {
			{args: []string{"dump", "{w}/out.dump", "--index", "{idx}"}, want: exitOK},
			{args: []string{"dump"}, want: exitUsage},
			{args: []string{"dump", "{w}/out.dump", "--index", "{w}/no-index"}, want: exitFailure},
		},
		"restore": {
			{args: []string{"restore", "{w}/in.dump", "--index", "{w}/restored"}, want: exitOK, prepare: func(t *testing.T, w string) {
				mustOK(t, run{dir: w}, "dump", filepath.Join(w, "in.dump"), "--index", idx)
			}},
			{args: []string{"restore"}, want: exitUsage},
			{args: []string{"restore", "{w}/no-such.dump", "--index", "{w}/restored"}, want: exitFailure},
		},
		"copy": {
			{args: []string{"copy", "--from", "{idx}", "--to", "{w}/copy"}, want: exitOK},
			{args: []string{"copy"}, want: exitUsage},
			{args: []string{"copy", "--from", "{w}/no-index", "--to", "{w}/copy"}, want: exitFailure},
		},
		"inspect": {
			{args: []string{"inspect", "{w}/docs/leave.md"}, want: exitOK},
			{args: []string{"inspect"}, want: exitUsage},
			{args: []string{"inspect", "{w}/docs/no-such.md"}, want: exitFailure},
		},
		"reproduce": {
			{args: []string{"reproduce", "--seeds", "{seeds}"}, want: exitOK},
			{args: []string{"reproduce", "extra"}, want: exitUsage},
			{args: []string{"reproduce", "--seeds", "{w}/no-seeds"}, want: exitFailure},
		},
		"mcp": {
			{args: []string{"mcp", "--index", "{idx}"}, want: exitOK}, // stdin ends at once: the session ends
			{args: []string{"mcp", "extra"}, want: exitUsage},
			{args: []string{"mcp", "--index", "{w}/no-index"}, want: exitFailure},
		},
		// serve's success (exit 0 after SIGINT) is TestServeLogsAndKeepsItsState's.
		"serve": {
			{args: []string{"serve", "extra"}, want: exitUsage},
			{args: []string{"serve", "--addr", "no-port"}, want: exitUsage},
			{args: []string{"serve", "--token-digest", "no-scope"}, want: exitUsage},
			{args: []string{"serve", "--index", "{w}/idx", "--addr", busy.Addr().String()}, want: exitFailure},
		},
		"healthcheck": { // its success, against a running serve, is TestHealthcheck's
			{args: []string{"healthcheck", "extra"}, want: exitUsage},
			{args: []string{"healthcheck", "--addr", "no-port"}, want: exitUsage},
			{args: []string{"healthcheck", "--addr", "127.0.0.1:1"}, want: exitFailure},
		},
	}
	seeds, err := filepath.Abs(seedsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range newRoot(nil, nil).Commands() {
		if _, ok := cases[c.Name()]; !ok {
			t.Errorf("fonte %s has no exit-code cases", c.Name())
		}
	}
	for name, list := range cases {
		t.Run("fonte "+name, func(t *testing.T) {
			t.Parallel()
			for _, c := range list {
				w := t.TempDir()
				writeFile(t, filepath.Join(w, "docs", "leave.md"), []byte("# Leave\n\nAnnual leave is 26 working days a year.\n"))
				writeFile(t, filepath.Join(w, "q.jsonl"), []byte(firstQuestion+"\n"))
				if c.prepare != nil {
					c.prepare(t, w)
				}
				args := make([]string, len(c.args))
				for i, a := range c.args {
					args[i] = strings.NewReplacer("{w}", w, "{idx}", idx, "{seeds}", seeds).Replace(a)
				}
				res := run{dir: w, stdin: c.stdin}.exec(t, args...)
				if res.code != c.want {
					t.Errorf("fonte %s: want exit %d; got %s", strings.Join(c.args, " "), c.want, res)
				}
				if c.want != exitOK && !strings.Contains(res.stderr, "fonte: ") {
					t.Errorf("fonte %s: exit %d without a message on stderr; got %s", strings.Join(c.args, " "), res.code, res)
				}
			}
		})
	}
}

// TestVersion: `fonte --version` and `fonte version` print the same text,
// read from the build information the toolchain stamped into the binary.
func TestVersion(t *testing.T) {
	t.Parallel()
	flag := mustOK(t, run{}, "--version")
	cmd := mustOK(t, run{}, "version")
	if flag != cmd {
		t.Errorf("fonte --version and fonte version differ:\n%s\n---\n%s", flag, cmd)
	}
	stamped, err := exec.Command("go", "version", "-m", fonteBin).Output()
	if err != nil {
		t.Fatal(err)
	}
	// The first line is "PATH: goVERSION"; the mod line has the version.
	first, rest, _ := strings.Cut(string(stamped), "\n")
	_, goVersion, _ := strings.Cut(first, ": ")
	if !strings.Contains(cmd, "go      "+goVersion+" ") {
		t.Errorf("fonte version does not name the Go version %s the binary was built with:\n%s", goVersion, cmd)
	}
	for _, line := range strings.Split(rest, "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == "mod" && f[2] != "(devel)" && !strings.Contains(cmd, f[2]) {
			t.Errorf("fonte version does not name the module version %s:\n%s", f[2], cmd)
		}
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "build" && strings.HasPrefix(f[1], "vcs.revision=") &&
			!strings.Contains(cmd, strings.TrimPrefix(f[1], "vcs.revision=")) {
			t.Errorf("fonte version does not name the commit of %s:\n%s", f[1], cmd)
		}
	}
}
