package deploytest

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/wire"
)

// repoRoot is where the Containerfile and cmd/fonte are, from this
// package's folder.
const repoRoot = "../.."

// containerUID is the user the image runs as (the Containerfile's USER).
const containerUID = "65532"

// podman runs podman with runc and no default rlimits (this machine
// refuses crun and the default ones), failing the test when it fails.
type podman struct {
	t    *testing.T
	conf string // CONTAINERS_CONF
}

func newPodman(t *testing.T) *podman {
	t.Helper()
	for _, bin := range []string{"podman", "runc"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s is not installed (apt-get install -y podman runc; scripts/test installs them): %v", bin, err)
		}
	}
	conf := filepath.Join(t.TempDir(), "containers.conf")
	if err := os.WriteFile(conf, []byte("[containers]\ndefault_ulimits = []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return &podman{t: t, conf: conf}
}

// try runs podman args and returns its output and error.
func (p *podman) try(args ...string) (string, error) {
	cmd := exec.Command("podman", append([]string{"--runtime", "runc"}, args...)...)
	cmd.Env = append(os.Environ(), "CONTAINERS_CONF="+p.conf)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return strings.TrimSpace(out.String()), err
}

func (p *podman) run(args ...string) string {
	p.t.Helper()
	out, err := p.try(args...)
	if err != nil {
		p.t.Fatalf("podman %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// removeImages removes the image and then the stages' images its build
// left behind, each named on a "--> ID" line of the build's output.
func (p *podman) removeImages(image, buildOutput string) {
	_, _ = p.try("rmi", "-f", image)
	for _, line := range strings.Split(buildOutput, "\n") {
		if id, ok := strings.CutPrefix(strings.TrimSpace(line), "--> "); ok && !strings.Contains(id, " ") {
			_, _ = p.try("rmi", id)
		}
	}
}

// TestContainer builds the image from the repository's Containerfile
// around a fonte built here (BINARY=context: no registry is reachable),
// runs it as a user would (the handbook mounted read-only at /docs, a
// named volume at /data), waits for its HEALTHCHECK to pass, indexes and
// asks over HTTP on the loopback, stops it, and opens the index left on
// the volume with the same binary outside the container.
func TestContainer(t *testing.T) {
	p := newPodman(t)
	suffix := randomHex(t, 6)
	image, volume, name := "localhost/fonte-test:"+suffix, "fonte-test-"+suffix, "fonte-test-"+suffix

	bin := buildContext(t)
	containerfile, err := filepath.Abs(filepath.Join(repoRoot, "Containerfile"))
	if err != nil {
		t.Fatal(err)
	}
	// --format docker: the OCI image format has no HEALTHCHECK. OCR=0 is
	// the default, given anyway: podman before 4.4 skips the stage a FROM
	// names through an ARG's default value (buildah #4366).
	built, err := p.try("build", "--format", "docker", "--build-arg", "BINARY=context", "--build-arg", "OCR=0", "-f", containerfile, "-t", image, filepath.Dir(filepath.Dir(bin)))
	t.Cleanup(func() { p.removeImages(image, built) })
	if err != nil {
		t.Fatalf("podman build: %v\n%s", err, built)
	}

	var imgs []struct {
		Config struct {
			User       string
			Entrypoint []string
			Volumes    map[string]any
		}
		Healthcheck struct{ Test []string }
	}
	if err := json.Unmarshal([]byte(p.run("image", "inspect", image)), &imgs); err != nil || len(imgs) != 1 {
		t.Fatalf("podman image inspect: %d images, %v", len(imgs), err)
	}
	img := imgs[0]
	if cfg := img.Config; !strings.HasPrefix(cfg.User, containerUID) || strings.Join(cfg.Entrypoint, " ") != "/usr/local/bin/fonte serve" ||
		cfg.Volumes["/data"] == nil || strings.Join(img.Healthcheck.Test, " ") != "CMD /usr/local/bin/fonte healthcheck" {
		t.Errorf("image config: user %q, entrypoint %q, volumes %v, healthcheck %q", cfg.User, cfg.Entrypoint, cfg.Volumes, img.Healthcheck.Test)
	}

	docs := copyHandbook(t)
	p.run("volume", "create", volume)
	t.Cleanup(func() { _, _ = p.try("volume", "rm", "-f", volume) })
	addr := freeLoopback(t)
	token := randomHex(t, 24)
	p.run("run", "-d", "--name", name, "--ulimit", "host", "--network", "host",
		"-e", "FONTE_ADDR="+addr, "-e", "FONTE_ADMIN_TOKEN="+token,
		"-v", volume+":/data", "-v", docs+":/docs:ro", image)
	t.Cleanup(func() { _, _ = p.try("rm", "-f", "-t", "0", name) })

	// The image's own health check, run by podman inside the container.
	deadline := time.Now().Add(60 * time.Second)
	for {
		out, err := p.try("healthcheck", "run", name)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			logs, _ := p.try("logs", name)
			t.Fatalf("the container never became healthy: %v %s\nlogs:\n%s", err, out, logs)
		}
		time.Sleep(500 * time.Millisecond)
	}
	pid := p.run("inspect", "--format", "{{.State.Pid}}", name)
	if uid := processUID(t, pid); uid != containerUID {
		t.Errorf("fonte serve runs as uid %s in the container, want %s", uid, containerUID)
	}

	base := "http://" + addr
	// The image adds localhost to the names serve answers for, and only it.
	_, port, _ := net.SplitHostPort(addr)
	for host, want := range map[string]int{"localhost:" + port: http.StatusOK, "rebound.example:" + port: http.StatusMisdirectedRequest} {
		if got := statusWithHost(t, base+"/healthz", host); got != want {
			t.Errorf("GET /healthz with Host %s: %d, want %d", host, got, want)
		}
	}
	done := indexOverHTTP(t, base, token)
	if len(done.Indexed) < 10 || len(done.Refused) != 0 {
		t.Errorf("index of the mounted handbook: indexed %v, refused %v", done.Indexed, done.Refused)
	}
	ans := askOverHTTP(t, base, token, "How much can I spend per night on a hotel in London?")
	if ans.Abstained || !strings.Contains(ans.Answer, "250") || len(ans.Citations) == 0 ||
		ans.Citations[0].Doc != "finance/travel-and-expenses-policy.pdf" {
		t.Errorf("answer from the container: %+v", ans)
	}

	// SIGTERM: serve shuts down gracefully and exits 0.
	p.run("stop", "-t", "20", name)
	if code := p.run("inspect", "--format", "{{.State.ExitCode}}", name); code != "0" {
		logs, _ := p.try("logs", name)
		t.Errorf("the container exited %s after stop\nlogs:\n%s", code, logs)
	}

	// The index outlives the container: the same binary reads it from the
	// volume, with nothing but the volume.
	mount := p.run("volume", "inspect", "--format", "{{.Mountpoint}}", volume)
	search := exec.Command(bin, "search", "--json", "--store", filepath.Join(mount, "index"), "hotel London per night")
	out, err := search.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "travel-and-expenses-policy.pdf") {
		t.Errorf("search of the index on the volume: %v\n%s", err, out)
	}
	// PDFium's compiled engine was cached on the volume, so the next
	// container does not compile it again.
	if _, err := os.Stat(filepath.Join(mount, "cache")); err != nil {
		t.Errorf("no cache on the volume: %v", err)
	}
}

// buildContext lays out a build context as the Containerfile's
// BINARY=context stage expects, around the fonte built for these tests,
// and returns the binary's path in it.
func buildContext(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	for _, d := range []string{"data", "docs", "tmp"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(out, "fonte")
	copyFile(t, fonteBin, bin, 0o755)
	// The image's CA certificates come from this machine's.
	copyFile(t, "/etc/ssl/certs/ca-certificates.crt", filepath.Join(out, "ca-certificates.crt"), 0o644)
	return bin
}

func copyFile(t *testing.T, src, dst string, mode os.FileMode) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, mode); err != nil {
		t.Fatal(err)
	}
}

// copyHandbook copies the example handbook to a folder the container's
// user may read (a test's temporary folders are its owner's only).
func copyHandbook(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "handbook")
	if err := os.CopyFS(dst, os.DirFS(filepath.Join(repoRoot, "examples", "handbook"))); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(dst, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(path, mode)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// indexOverHTTP re-indexes the default collection's folder through
// POST /v1/index, reading its event stream to the end.
func indexOverHTTP(t *testing.T, base, token string) indexDone {
	t.Helper()
	req, err := http.NewRequest("POST", base+"/v1/index", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "text/event-stream")
	client := &http.Client{Timeout: 3 * time.Minute}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST /v1/index: %s: %s", resp.Status, body)
	}
	var event string
	lines := bufio.NewScanner(resp.Body)
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		line := lines.Text()
		if e, ok := strings.CutPrefix(line, "event: "); ok {
			event = e
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		switch event {
		case "done":
			var d indexDone
			if err := json.Unmarshal([]byte(data), &d); err != nil {
				t.Fatalf("index done event %q: %v", data, err)
			}
			return d
		case "error":
			t.Fatalf("index failed: %s", data)
		}
	}
	t.Fatalf("the index stream ended without done: %v", lines.Err())
	return indexDone{}
}

// indexDone is the part of the index's done event the test reads.
type indexDone struct {
	Indexed []string `json:"indexed"`
	Refused []any    `json:"refused"`
}

// askOverHTTP asks the default collection through POST /v1/ask.
func askOverHTTP(t *testing.T, base, token, question string) wire.Answer {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"question": question})
	req, err := http.NewRequest("POST", base+"/v1/ask", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	client := &http.Client{Timeout: time.Minute}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /v1/ask: %s: %s", resp.Status, raw)
	}
	var ans wire.Answer
	if err := json.Unmarshal(raw, &ans); err != nil {
		t.Fatalf("POST /v1/ask answered %q: %v", raw, err)
	}
	return ans
}

// statusWithHost is the status of a GET of url sent with that Host header.
func statusWithHost(t *testing.T, url, host string) int {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// freeLoopback is a loopback address no one listens on now.
func freeLoopback(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// processUID is the real uid of a process on this machine.
func processUID(t *testing.T, pid string) string {
	t.Helper()
	status, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "Uid:"); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				return f[0]
			}
		}
	}
	t.Fatalf("no Uid line in /proc/%s/status", pid)
	return ""
}

func randomHex(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
