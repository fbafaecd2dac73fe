package readme

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// notRun are README's commands this test does not run, each with the
// reason; a command README no longer shows fails the test, so the list
// stays true.
var notRun = map[string]string{
	"scripts/test": "runs every test of the repository, this one included, after installing packages",
	"fonte eval --beir ../shared/data/scifact --index /tmp/scifact --retriever bm25":                                      "indexes SciFact's 5,183 abstracts into /tmp/scifact, outside the copy: minutes on a shared machine",
	"fonte index examples/handbook --store 'postgres://fonte@db:5432/rag?collection=handbook'":                            "needs a PostgreSQL server named db",
	"fonte ask \"…\"     --store 'postgres://fonte@db:5432/rag?collection=handbook'":                                      "needs a PostgreSQL server named db",
	"fonte index examples/handbook --store 'redis://cache:6379?collection=handbook'":                                      "needs a Redis server named cache",
	"fonte index examples/handbook --store 'redis://n1:7001?addr=n2:7002&addr=n3:7003&collection=handbook'   # a cluster": "needs a Redis cluster on n1, n2 and n3",
	"fonte restore handbook.fdump --store 'postgres://…'  # no parsing or embedding again":                                "needs a PostgreSQL server (the URL is elided)",
	"fonte copy --from .fonte --to 'redis://cache:6379?collection=handbook'":                                              "needs a Redis server named cache",
	"fonte index examples/handbook --embedder ollama:nomic-embed-text --rebuild":                                          "needs an Ollama server with nomic-embed-text",
	"fonte ask \"…\" --embedder ollama:nomic-embed-text --generator ollama:llama3.2":                                      "needs an Ollama server with the two models",
	"fonte ask \"…\" --generator openai:gpt-4o-mini --generate-url https://api.openai.com   # FONTE_API_KEY=…":            "needs an OpenAI key and the Internet",
	"TOKEN=fonte_…": "a placeholder for the token serve prints: the test sets TOKEN to the one it printed",
	"podman build --format docker -t fonte .        # docker build -t fonte . works too":                                                            "builds from the official Go image, which no registry here serves: internal/deploytest builds the same Containerfile around a binary built on the host",
	`podman run -d --name fonte -p 127.0.0.1:7700:7700 -v fonte-data:/data -v "$PWD/examples/handbook:/docs:ro" -e FONTE_ADMIN_TOKEN=fonte_… fonte`: "runs the image the build above makes; internal/deploytest runs it",
	`curl -sN -X POST -H "Authorization: Bearer fonte_…" http://127.0.0.1:7700/v1/index   # index /docs`:                                            "asks the container above; internal/deploytest does it",
}

// outputs are what a command must print, where README says what it
// prints.
var outputs = map[string]string{
	`go run ./cmd/fonte index examples/handbook && go run ./cmd/fonte ask "How much can I spend per night on a hotel in London?"`: "250 euro",
}

// commands are README's shell commands in order: the lines of its sh
// blocks, continuations joined, comments and blank lines left out. Each
// command's block is its index in the list of blocks.
func commands(t *testing.T, readme string) (cmds []string, block []int) {
	t.Helper()
	in, n := false, -1
	var cont strings.Builder
	for _, line := range strings.Split(readme, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case !in && trimmed == "```sh":
			in, n = true, n+1
			continue
		case in && trimmed == "```":
			in = false
			continue
		case !in || (cont.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "#"))):
			continue
		}
		if strings.HasSuffix(trimmed, `\`) {
			cont.WriteString(strings.TrimSuffix(trimmed, `\`))
			continue
		}
		cont.WriteString(trimmed)
		cmds, block = append(cmds, cont.String()), append(block, n)
		cont.Reset()
	}
	if len(cmds) == 0 {
		t.Fatal("README.md shows no sh block")
	}
	return cmds, block
}

// copyRepo copies the repository's tracked files, as they are in the
// work tree, to dir: a fresh clone of what is being tested.
func copyRepo(t *testing.T, root, dir string) {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src, dst := filepath.Join(root, name), filepath.Join(dir, name)
		info, err := os.Lstat(src)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the work tree, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if info.Mode()&os.ModeSymlink != 0 {
			target, err := os.Readlink(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, dst); err != nil {
				t.Fatal(err)
			}
			continue
		}
		raw, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, raw, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// shell runs command lines with bash in a copy of the repository, with
// README's ./fonte on the PATH and TOKEN set once serve printed one.
type shell struct {
	t     *testing.T
	dir   string
	env   []string
	token string
}

func (sh *shell) cmd(ctx context.Context, line string) *exec.Cmd {
	c := exec.CommandContext(ctx, "bash", "-c", line)
	c.Dir = sh.dir
	c.Env = append(sh.env, "TOKEN="+sh.token)
	c.WaitDelay = 5 * time.Second
	return c
}

// run runs one command to its end and fails the test unless it exits 0
// (printing what README says it prints).
func (sh *shell) run(line string) {
	sh.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	start := time.Now()
	out, err := sh.cmd(ctx, line).CombinedOutput()
	if err != nil {
		sh.t.Errorf("README's %q: %v\n%s", line, err, out)
		return
	}
	if want := outputs[line]; want != "" && !strings.Contains(string(out), want) {
		sh.t.Errorf("README's %q prints no %q:\n%s", line, want, out)
	}
	sh.t.Logf("ran %q (%s)", line, time.Since(start).Round(time.Millisecond))
}

// lockedBuffer collects a process's output while it runs.
type lockedBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// background starts a command that runs until stopped (serve, --watch)
// and waits until its output matches ready; it returns the output so
// far and a stop that interrupts it and fails the test unless it ends
// cleanly.
func (sh *shell) background(line string, ready *regexp.Regexp) (string, func()) {
	sh.t.Helper()
	var out lockedBuffer
	c := sh.cmd(context.Background(), "exec "+line)
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		sh.t.Fatalf("README's %q: %v", line, err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	// A test that stops early leaves no server behind (after Wait, Kill
	// only reports that the process has finished).
	sh.t.Cleanup(func() { _ = c.Process.Kill() })
	deadline := time.After(3 * time.Minute)
	for !ready.MatchString(out.String()) {
		select {
		case err := <-done:
			sh.t.Fatalf("README's %q ended before it was ready: %v\n%s", line, err, out.String())
		case <-deadline:
			_ = c.Process.Kill()
			sh.t.Fatalf("README's %q not ready after 3 minutes:\n%s", line, out.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	sh.t.Logf("started %q", line)
	return out.String(), func() {
		sh.t.Helper()
		select {
		case err := <-done:
			sh.t.Errorf("README's %q stopped on its own: %v\n%s", line, err, out.String())
			return
		default:
		}
		_ = c.Process.Signal(syscall.SIGINT)
		select {
		case err := <-done:
			if err != nil {
				sh.t.Errorf("README's %q, interrupted: %v\n%s", line, err, out.String())
			}
		case <-time.After(30 * time.Second):
			_ = c.Process.Kill()
			sh.t.Errorf("README's %q did not stop within 30 s of an interrupt", line)
		}
	}
}

var (
	// serveReady waits for the admin token too: serve prints it just
	// after the listening line, and waiting for that line alone raced it.
	serveReady = regexp.MustCompile(`(?s)listening on http://127\.0\.0\.1:7700\n.*admin token[^:]*: fonte_[A-Za-z0-9_-]+\n`)
	adminToken = regexp.MustCompile(`admin token[^:]*: (fonte_[A-Za-z0-9_-]+)`)
	watching   = regexp.MustCompile(`(?i)watch`)
)

// TestReadmeCommands runs every command README.md shows, as written, in
// a copy of the repository beside ../shared, in README's order: one-off
// commands to exit 0, servers and watchers until they answer, then
// interrupted (each of serve's curl lines runs while it serves, with the
// token it printed). The commands it cannot run here are in notRun with
// the reason.
func TestReadmeCommands(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmds, blocks := commands(t, string(readme))
	shown := map[string]bool{}
	for _, c := range cmds {
		shown[c] = true
	}
	for c := range notRun {
		if !shown[c] {
			t.Errorf("notRun lists %q, which README.md no longer shows", c)
		}
	}
	for c := range outputs {
		if !shown[c] {
			t.Errorf("outputs lists %q, which README.md no longer shows", c)
		}
	}

	// The copy sits beside a link to ../shared, as a clone beside it does.
	shared, err := filepath.Abs(filepath.Join(root, "..", "shared"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(shared); err != nil {
		t.Fatalf("README's commands read ../shared: %v", err)
	}
	top := t.TempDir()
	dir := filepath.Join(top, "fonte")
	copyRepo(t, root, dir)
	if err := os.Symlink(shared, filepath.Join(top, "shared")); err != nil {
		t.Fatal(err)
	}
	if ln, err := net.Listen("tcp", "127.0.0.1:7700"); err != nil {
		t.Fatalf("README's serve listens on 127.0.0.1:7700, which is taken: %v", err)
	} else {
		ln.Close()
	}
	// The Go caches stay the user's, so go run builds from the cache.
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FONTE_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", v).Output()
		if err != nil {
			t.Fatal(err)
		}
		env = append(env, v+"="+strings.TrimSpace(string(out)))
	}
	home := filepath.Join(top, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	env = append(env, "HOME="+home, "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	sh := &shell{t: t, dir: dir, env: env}

	var stop func()
	for i, line := range cmds {
		if i > 0 && blocks[i] != blocks[i-1] && stop != nil {
			stop() // a server serves the rest of its own block only
			stop = nil
		}
		switch {
		case notRun[line] != "":
			t.Logf("not run: %q: %s", line, notRun[line])
		case strings.HasPrefix(line, "fonte serve"):
			out, s := sh.background(line, serveReady)
			if m := adminToken.FindStringSubmatch(out); m != nil {
				sh.token = m[1]
			} else {
				t.Errorf("README's %q printed no admin token:\n%s", line, out)
			}
			if resp, err := http.Get("http://127.0.0.1:7700/"); err != nil {
				t.Errorf("the page: %v", err)
			} else {
				page, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || !strings.Contains(string(page), "<title>fonte</title>") {
					t.Errorf("the page: %d %.200s", resp.StatusCode, page)
				}
			}
			stop = s
		case strings.Contains(line, "--watch"):
			_, s := sh.background(line, watching)
			time.Sleep(time.Second)
			s()
		case strings.HasPrefix(line, "curl "):
			sh.curl(line)
		default:
			sh.run(line)
		}
	}
	if stop != nil {
		stop()
	}
}

// curl runs one of serve's curl lines: it must exit 0 and the server
// must not answer with a problem (RFC 9457 JSON, or an SSE error event).
func (sh *shell) curl(line string) {
	sh.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The status goes first among the options: a line may end in a comment.
	out, err := sh.cmd(ctx, `curl -w '\nHTTP %{http_code}\n' `+strings.TrimPrefix(line, "curl ")).CombinedOutput()
	if err != nil {
		sh.t.Errorf("README's %q: %v\n%s", line, err, out)
		return
	}
	status := ""
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if s, ok := strings.CutPrefix(sc.Text(), "HTTP "); ok {
			status = s
		}
	}
	if status != "200" || strings.Contains(string(out), "event: error") {
		sh.t.Errorf("README's %q answered %s:\n%.600s", line, status, out)
		return
	}
	sh.t.Logf("ran %q (HTTP %s)", line, status)
}
