package testserver

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"time"
)

// PostgresURLEnv names the environment variable that points the tests at a
// PostgreSQL server of your own (with pgvector, and pg_textsearch if you
// want the BM25 leg) instead of starting the native one (StartPostgres).
const PostgresURLEnv = "FONTE_TEST_POSTGRES_URL"

// PostgresKindEnv names the environment variable that picks the server
// StartPostgres starts: native (the default) or pglite.
const PostgresKindEnv = "FONTE_TEST_POSTGRES"

// pgliteExtensions are the extensions pglite-server loads: pgvector and
// pg_textsearch, as package:export pairs.
const pgliteExtensions = "@electric-sql/pglite-pgvector:vector,@electric-sql/pglite-pg_textsearch:pg_textsearch"

// pgliteStartTimeout bounds the wait for the server to listen; loading the
// WebAssembly build takes a few seconds, more on a busy machine.
const pgliteStartTimeout = 60 * time.Second

// exitWithParent is a module node imports before pglite-server: it exits
// when its standard input ends, which happens when the process holding
// the other end (the tests) dies, even by SIGKILL or a test time-out
// that skips every stop function.
const exitWithParent = `data:text/javascript,process.stdin.on("end",()=>process.exit(0));process.stdin.resume()`

// pgliteStdins keeps each server's standard input open until it is
// stopped: a pipe the garbage collector closed would stop the server.
var pgliteStdins sync.Map

// StartPostgres starts the native PostgreSQL 18 of ../shared/postgres
// (pgvector and pg_textsearch, one backend process per connection; see
// StartNativePostgres) on a free loopback port and returns its URL and a
// function that stops it and removes its files. When
// FONTE_TEST_POSTGRES_URL is set it returns that URL instead and stop does
// nothing. With FONTE_TEST_POSTGRES=pglite it starts PGlite (StartPGlite)
// and its URL asks for the simple protocol, which a test's own
// connections beside the store's need on PGlite's one session.
func StartPostgres() (url string, stop func(), err error) {
	if u := os.Getenv(PostgresURLEnv); u != "" {
		return u, func() {}, nil
	}
	switch kind := os.Getenv(PostgresKindEnv); kind {
	case "", "native":
	case "pglite":
		u, stop, err := StartPGlite()
		if err != nil {
			return "", nil, err
		}
		return u + "&default_query_exec_mode=simple_protocol", stop, nil
	default:
		return "", nil, fmt.Errorf("testserver: %s is %q; want native or pglite", PostgresKindEnv, kind)
	}
	s, err := StartNativePostgres("")
	if err != nil {
		return "", nil, err
	}
	return s.URL, s.Stop, nil
}

// StartPGlite starts PGlite (PostgreSQL 18 compiled to WebAssembly, with
// pgvector and pg_textsearch) through pglite-server on a free loopback
// port, as PGlite's README starts it (-m 8: up to eight connections),
// waits until it accepts a connection, and returns its URL and a function
// that stops it. The server keeps its data in memory and exits with the
// process that started it. It is the PostgreSQL a developer runs without
// root or a native build, and a second PostgreSQL target of the store
// tests.
//
// PGlite runs one backend: every connection shares its session and runs
// one query at a time. The URL carries no default_query_exec_mode: the
// postgres store notices the shared session and switches to the simple
// protocol by itself; a client of its own (pgx.Connect) must ask for it.
func StartPGlite() (url string, stop func(), err error) {
	dir, err := pgliteDir()
	if err != nil {
		return "", nil, err
	}
	bin := filepath.Join(dir, "node_modules", ".bin", "pglite-server")
	if _, err := os.Stat(bin); err != nil {
		return "", nil, fmt.Errorf("testserver: PGlite is not installed (%s is missing): run `npm ci` in %s (with Node.js; the tests run on Node.js 20)", bin, dir)
	}
	if _, err := exec.LookPath("node"); err != nil {
		return "", nil, errors.New("testserver: pglite-server needs Node.js (node is not on PATH): install Node.js (the tests run on version 20)")
	}
	port, err := pgFreePort()
	if err != nil {
		return "", nil, err
	}
	out := &pgOutput{}
	cmd := exec.Command("node", "--import", exitWithParent, bin, "-p", strconv.Itoa(port), "-h", "127.0.0.1", "-m", "8", "-e", pgliteExtensions)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, fmt.Errorf("testserver: starting pglite-server: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("testserver: starting pglite-server: %w", err)
	}
	pgliteStdins.Store(cmd.Process.Pid, stdin)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			_ = cmd.Process.Kill()
			<-exited
			pgliteStdins.Delete(cmd.Process.Pid)
		})
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(pgliteStartTimeout)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			break
		}
		select {
		case werr := <-exited:
			exited <- werr // stop waits on it
			stop()
			return "", nil, fmt.Errorf("testserver: pglite-server exited before listening on %s (%v); its output:\n%s", addr, werr, out.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("testserver: pglite-server did not listen on %s within %s; its output:\n%s", addr, pgliteStartTimeout, out.String())
		}
	}
	url = fmt.Sprintf("postgres://postgres@%s/postgres?sslmode=disable", addr)
	return url, stop, nil
}

// pgliteDir is the folder with PGlite's package.json, beside this file.
func pgliteDir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("testserver: cannot locate the pglite folder (no caller information)")
	}
	return filepath.Join(filepath.Dir(file), "pglite"), nil
}

// pgFreePort asks the kernel for a free loopback port. Another process
// could take it before the server binds it; the start then fails with
// the server's own message.
func pgFreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("testserver: finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// pgOutput keeps the last few kilobytes a server printed, for errors.
type pgOutput struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *pgOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf.Write(p)
	if o.buf.Len() > 16<<10 {
		tail := append([]byte(nil), o.buf.Bytes()[o.buf.Len()-8<<10:]...)
		o.buf.Reset()
		o.buf.Write(tail)
	}
	return len(p), nil
}

func (o *pgOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}
