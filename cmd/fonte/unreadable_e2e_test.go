package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestIndexKeepsWhatAnUnreadableFolderHeld: a folder of the documents
// that the indexer may no longer list (its permissions changed, a mount
// not there yet) is refused with the system's reason, and the documents
// indexed from it before stay, as an unreadable file's do: a run must not
// take them out of the index. The binary runs as an unprivileged user
// (uid 65534 when the test runs as root, whom permissions do not stop).
func TestIndexKeepsWhatAnUnreadableFolderHeld(t *testing.T) {
	base, err := os.MkdirTemp("", "fonte-unreadable-")
	if err != nil {
		t.Fatal(err)
	}
	docs, idx, home := filepath.Join(base, "docs"), filepath.Join(base, "idx"), filepath.Join(base, "home")
	hr := filepath.Join(docs, "hr")
	t.Cleanup(func() {
		os.Chmod(hr, 0o755)
		os.RemoveAll(base)
	})
	writeFile(t, filepath.Join(docs, "canteen.md"), []byte("# Canteen\n\nLunch is served at noon.\n"))
	writeFile(t, filepath.Join(hr, "pay.md"), []byte("# Pay\n\nBand three earns 61,500 euros a year.\n"))
	writeFile(t, filepath.Join(hr, "leave.md"), []byte("# Leave\n\nEvery employee has 26 days of leave a year.\n"))
	for _, d := range []string{idx, home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
		for _, d := range []string{base, filepath.Dir(fonteBin)} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		err := filepath.Walk(base, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, 65534, 65534)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	index := func() (string, int) {
		cmd := exec.Command(fonteBin, "index", docs, "--index", idx)
		cmd.Env = append(baseEnv(), "HOME="+home, "XDG_CACHE_HOME="+home)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), code
	}
	if out, code := index(); code != 0 || !strings.Contains(out, "indexed 3 files") {
		t.Fatalf("first run: exit %d: %s", code, out)
	}
	if err := os.Chmod(hr, 0); err != nil {
		t.Fatal(err)
	}
	out, code := index()
	if code != 0 || !strings.Contains(out, "refused hr: unreadable: permission denied (the 2 documents indexed under it are kept)") {
		t.Errorf("run with hr unreadable: exit %d: %s", code, out)
	}
	if _, n := statusOf(t, idx); n != 3 {
		t.Errorf("%d documents after a run that could not read hr, want 3: %s", n, out)
	}
}
