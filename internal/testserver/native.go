package testserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// PostgresHomeEnv names the environment variable that points the tests at
// a native PostgreSQL tree (bin/, lib/, share/ and the start scripts) other
// than ../shared/postgres beside the repository.
const PostgresHomeEnv = "FONTE_TEST_POSTGRES_HOME"

// NativePostgres is one native PostgreSQL server (a primary or a hot
// standby) started from the tree in ../shared/postgres on a loopback port,
// with its cluster in a folder of its own. Kill and Restart let a test take
// it through a crash; Stop ends it for good and removes its files.
type NativePostgres struct {
	// URL is the server's connection URL (superuser postgres, no password).
	URL string
	// Port is the loopback TCP port it listens on.
	Port int
	// RunDir holds the cluster (RunDir/data), the socket and the log.
	RunDir string

	home    string // the PostgreSQL tree the scripts run from
	script  string // start-postgres.sh or start-postgres-replica.sh
	env     []string
	mu      sync.Mutex
	pid     int
	stopped bool
}

// StartNativePostgres starts a native PostgreSQL 18 primary (pgvector and
// pg_textsearch installed, pg_textsearch preloaded) on a free loopback
// port. The server stops by itself when the test process exits, even by
// SIGKILL; call Stop to end it sooner. extraOptions go to the server as
// in PG_OPTS, e.g. "-c max_connections=200".
func StartNativePostgres(extraOptions string) (*NativePostgres, error) {
	home, err := nativePostgresHome()
	if err != nil {
		return nil, err
	}
	return startNative(home, "start-postgres.sh", extraOptions, nil)
}

// StartStandby starts a hot standby streaming from primary, on a port of
// its own: read-only, asynchronous, caught up to the primary's WAL when
// this returns (the script waits until it streams).
func (primary *NativePostgres) StartStandby(extraOptions string) (*NativePostgres, error) {
	return startNative(primary.home, "start-postgres-replica.sh", extraOptions,
		[]string{"PRIMARY_PORT=" + strconv.Itoa(primary.Port)})
}

func startNative(home, script, extraOptions string, env []string) (*NativePostgres, error) {
	port, err := pgFreePort()
	if err != nil {
		return nil, err
	}
	// The socket path must stay under 90 characters: a short folder
	// under the system's temporary folder, not t.TempDir().
	run, err := os.MkdirTemp("", "fontepg")
	if err != nil {
		return nil, fmt.Errorf("testserver: making a folder for PostgreSQL: %w", err)
	}
	env = append(env, "PORT="+strconv.Itoa(port), "RUN_DIR="+run,
		"PG_WATCH_PID="+strconv.Itoa(os.Getpid()), "PG_OPTS="+extraOptions)
	s := &NativePostgres{
		URL:    fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port),
		Port:   port,
		RunDir: run,
		home:   home,
		script: script,
		env:    env,
	}
	if err := s.start(); err != nil {
		os.RemoveAll(run)
		return nil, err
	}
	return s, nil
}

// start runs the start script, which makes the cluster on first use and
// starts it as it is afterwards, and records the postmaster's pid.
func (s *NativePostgres) start() error {
	cmd := exec.Command(filepath.Join(s.home, s.script))
	cmd.Env = append(os.Environ(), s.env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("testserver: %s (port %d, folder %s) failed: %v; its output:\n%s", s.script, s.Port, s.RunDir, err, stderr.String())
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return fmt.Errorf("testserver: %s printed %q, not a pid", s.script, out)
	}
	s.mu.Lock()
	s.pid = pid
	s.mu.Unlock()
	return nil
}

// Pid is the running postmaster's process id.
func (s *NativePostgres) Pid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pid
}

// Kill ends the postmaster with SIGKILL, as a crash would, and waits until
// it and its backends are gone (each backend exits when it notices its
// postmaster died). The cluster stays on disk for Restart.
func (s *NativePostgres) Kill() error {
	pid := s.Pid()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("testserver: killing PostgreSQL (pid %d): %w", pid, err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if syscall.Kill(pid, 0) != nil && !s.backendsAlive() {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("testserver: PostgreSQL (pid %d) or its backends still run 30s after SIGKILL", pid)
}

// backendsAlive reports whether a process still runs from this cluster's
// data folder (a backend whose postmaster was killed lingers briefly, and
// a new postmaster refuses to start while one holds the shared memory).
func (s *NativePostgres) backendsAlive() bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	data := filepath.Join(s.RunDir, "data")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		environ, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		// Every backend inherits PGDATA from pg_ctl.
		if bytes.Contains(environ, []byte("PGDATA="+data+"\x00")) {
			return true
		}
	}
	return false
}

// Restart starts the server again on the same port from the same cluster,
// after Kill (crash recovery replays its WAL) or a stop.
func (s *NativePostgres) Restart() error {
	s.mu.Lock()
	stopped := s.stopped
	s.mu.Unlock()
	if stopped {
		return errors.New("testserver: Restart after Stop (the cluster was removed)")
	}
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = s.start(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Stop ends the server with a fast shutdown (clients disconnected), waits
// until it has gone and removes its folder. It is safe to call twice.
func (s *NativePostgres) Stop() {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return
	}
	s.stopped = true
	pid := s.pid
	s.mu.Unlock()
	if syscall.Kill(pid, syscall.SIGINT) == nil {
		deadline := time.Now().Add(30 * time.Second)
		for syscall.Kill(pid, 0) == nil && time.Now().Before(deadline) {
			if _, err := os.Stat(filepath.Join(s.RunDir, "data", "postmaster.pid")); err != nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	os.RemoveAll(s.RunDir)
}

// nativePostgresHome finds the PostgreSQL tree: FONTE_TEST_POSTGRES_HOME,
// or ../shared/postgres beside the repository. A tree whose library
// symlinks were flattened into small text files naming their target (as a
// copy through a tool that does not keep links leaves them) cannot start;
// it is copied once into the system's temporary folder with the links made
// again, and the copy is used.
func nativePostgresHome() (string, error) {
	home := os.Getenv(PostgresHomeEnv)
	if home == "" {
		dir, err := pgliteDir()
		if err != nil {
			return "", err
		}
		home = filepath.Join(dir, "..", "..", "..", "..", "shared", "postgres")
	}
	home, err := filepath.Abs(home)
	if err != nil {
		return "", fmt.Errorf("testserver: PostgreSQL folder %s: %w", home, err)
	}
	if _, err := os.Stat(filepath.Join(home, "start-postgres.sh")); err != nil {
		return "", fmt.Errorf("testserver: no native PostgreSQL at %s (start-postgres.sh is missing): put ../shared/postgres beside the repository or set %s", home, PostgresHomeEnv)
	}
	flattened, err := flattenedLinks(filepath.Join(home, "lib"))
	if err != nil {
		return "", err
	}
	if len(flattened) == 0 {
		return home, nil
	}
	return repairedCopy(home, flattened)
}

// flattenedLinks lists the files in lib that should be symlinks but hold
// only the name of another file in lib.
func flattenedLinks(lib string) (map[string]string, error) {
	entries, err := os.ReadDir(lib)
	if err != nil {
		return nil, fmt.Errorf("testserver: reading %s: %w", lib, err)
	}
	links := map[string]string{}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.Contains(e.Name(), ".so") {
			continue
		}
		info, err := e.Info()
		if err != nil || info.Size() > 255 {
			continue
		}
		body, err := os.ReadFile(filepath.Join(lib, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("testserver: reading %s: %w", filepath.Join(lib, e.Name()), err)
		}
		target := strings.TrimSpace(string(body))
		if target == "" || strings.ContainsAny(target, "/\x00\n") {
			continue
		}
		if _, err := os.Stat(filepath.Join(lib, target)); err == nil {
			links[e.Name()] = target
		}
	}
	return links, nil
}

// repairedCopyMu serialises the copy within one process; across processes
// the copy is made in a private folder and renamed into place.
var repairedCopyMu sync.Mutex

// repairedCopy copies the tree to a folder named by what it is a copy of,
// with the flattened links made links again, once per machine.
func repairedCopy(home string, links map[string]string) (string, error) {
	repairedCopyMu.Lock()
	defer repairedCopyMu.Unlock()
	info, err := os.Stat(filepath.Join(home, "bin", "postgres"))
	if err != nil {
		return "", fmt.Errorf("testserver: %s: %w", home, err)
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s|%d|%d", home, info.Size(), info.ModTime().UnixNano())))
	dest := filepath.Join(os.TempDir(), "fonte-postgres-"+hex.EncodeToString(sum[:6]))
	if _, err := os.Stat(filepath.Join(dest, "start-postgres.sh")); err == nil {
		return dest, nil
	}
	tmp, err := os.MkdirTemp(os.TempDir(), "fonte-postgres-copy")
	if err != nil {
		return "", fmt.Errorf("testserver: copying %s: %w", home, err)
	}
	if err := copyTree(home, tmp); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("testserver: copying %s to %s: %w", home, tmp, err)
	}
	for name, target := range links {
		p := filepath.Join(tmp, "lib", name)
		if err := os.Remove(p); err != nil {
			os.RemoveAll(tmp)
			return "", fmt.Errorf("testserver: repairing %s: %w", p, err)
		}
		if err := os.Symlink(target, p); err != nil {
			os.RemoveAll(tmp)
			return "", fmt.Errorf("testserver: repairing %s: %w", p, err)
		}
	}
	// The server runs as an unprivileged user when the tests run as
	// root: it must be able to read and run the copy.
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, dest); err != nil {
		os.RemoveAll(tmp)
		if _, serr := os.Stat(filepath.Join(dest, "start-postgres.sh")); serr == nil {
			return dest, nil // another process made it first
		}
		return "", fmt.Errorf("testserver: placing the PostgreSQL copy at %s: %w", dest, err)
	}
	return dest, nil
}

// copyTree copies files, folders and symlinks, keeping modes, readable
// and runnable by everyone.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(out, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, out)
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		f, err := os.OpenFile(out, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, info.Mode().Perm()|0o644)
		if err != nil {
			return err
		}
		if _, err := io.Copy(f, in); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	})
}
