package testserver

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Environment variables the Redis helpers read.
const (
	// EnvRedisURL names a running Redis with the Query Engine to use
	// instead of starting one.
	EnvRedisURL = "FONTE_TEST_REDIS_URL"
	// EnvRedisClusterURL names a running cluster (go-redis's cluster URL
	// form) to use instead of starting one.
	EnvRedisClusterURL = "FONTE_TEST_REDIS_CLUSTER_URL"
	// EnvRedisQEDir overrides where the Query Engine build and its start
	// scripts are (by default ../shared/redis beside the module root).
	EnvRedisQEDir = "FONTE_REDIS_QE_DIR"
)

const redisInstallHint = "apt-get install -y redis-server redis-tools"

// StartRedis starts a single Redis server with the Query Engine on a free
// loopback port (start-redis-qe.sh) and returns its URL and a function
// that stops it and removes its files. When FONTE_TEST_REDIS_URL is set,
// it returns that and a stop that does nothing.
func StartRedis() (url string, stop func(), err error) {
	if u := os.Getenv(EnvRedisURL); u != "" {
		return u, func() {}, nil
	}
	dir, err := redisQEDir()
	if err != nil {
		return "", nil, err
	}
	for attempt := 0; ; attempt++ {
		port, err := freePort(false)
		if err != nil {
			return "", nil, err
		}
		run, err := os.MkdirTemp("", "fonte-redis-")
		if err != nil {
			return "", nil, err
		}
		out, err := runScript(filepath.Join(dir, "start-redis-qe.sh"), nil,
			"PORT="+strconv.Itoa(port), "RUN_DIR="+run)
		if err != nil {
			os.RemoveAll(run)
			if attempt < 2 && strings.Contains(err.Error(), "Address already in use") {
				continue // the port was taken between the probe and the start
			}
			return "", nil, fmt.Errorf("testserver: starting Redis with the Query Engine: %w (is it installed? %s)", err, redisInstallHint)
		}
		pids, err := parsePids(out)
		if err != nil || len(pids) != 1 {
			os.RemoveAll(run)
			return "", nil, fmt.Errorf("testserver: start-redis-qe.sh printed %q, not a pid", out)
		}
		return fmt.Sprintf("redis://127.0.0.1:%d", port), cleanup(pids, run), nil
	}
}

// StartRedisCluster starts a Redis Cluster of three masters with the
// Query Engine and its coordinator (start_redis_qe_cluster.sh) on free
// loopback ports and returns go-redis's cluster URL for it
// (redis://host:port1?addr=host:port2&addr=host:port3) and a function that
// stops every node and removes their files. When
// FONTE_TEST_REDIS_CLUSTER_URL is set, it returns that and a stop that
// does nothing.
func StartRedisCluster() (url string, stop func(), err error) {
	if u := os.Getenv(EnvRedisClusterURL); u != "" {
		return u, func() {}, nil
	}
	dir, err := redisQEDir()
	if err != nil {
		return "", nil, err
	}
	for attempt := 0; ; attempt++ {
		var ports []string
		for len(ports) < 3 {
			p, err := freePort(true)
			if err != nil {
				return "", nil, err
			}
			if s := strconv.Itoa(p); !slices.Contains(ports, s) {
				ports = append(ports, s)
			}
		}
		run, err := os.MkdirTemp("", "fonte-redis-cluster-")
		if err != nil {
			return "", nil, err
		}
		out, err := runScript(filepath.Join(dir, "start_redis_qe_cluster.sh"), ports, "RUN_DIR="+run)
		if err != nil {
			// The script names the pids it started when it fails late.
			killAll(pidsOfRun(run))
			os.RemoveAll(run)
			if attempt < 2 && (strings.Contains(err.Error(), "already answers") || strings.Contains(err.Error(), "did not start")) {
				continue
			}
			return "", nil, fmt.Errorf("testserver: starting a Redis Cluster with the Query Engine: %w (is it installed? %s)", err, redisInstallHint)
		}
		pids, err := parsePids(out)
		if err != nil || len(pids) != 3 {
			killAll(pidsOfRun(run))
			os.RemoveAll(run)
			return "", nil, fmt.Errorf("testserver: start_redis_qe_cluster.sh printed %q, not three pids", out)
		}
		u := fmt.Sprintf("redis://127.0.0.1:%s?addr=127.0.0.1:%s&addr=127.0.0.1:%s", ports[0], ports[1], ports[2])
		return u, cleanup(pids, run), nil
	}
}

// redisQEDir finds ../shared/redis beside the repository root: the
// nearest folder above the working directory that holds go.mod and has
// ../shared/redis beside it (a nested module such as bench/ has its own
// go.mod, so the first go.mod found is not always the root).
func redisQEDir() (string, error) {
	if d := os.Getenv(EnvRedisQEDir); d != "" {
		if _, err := os.Stat(filepath.Join(d, "start-redis-qe.sh")); err != nil {
			return "", fmt.Errorf("testserver: %s=%s holds no start-redis-qe.sh: %w", EnvRedisQEDir, d, err)
		}
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	var tried []string
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			qe := filepath.Join(d, "..", "shared", "redis")
			if _, err := os.Stat(filepath.Join(qe, "start-redis-qe.sh")); err == nil {
				return filepath.Clean(qe), nil
			}
			tried = append(tried, filepath.Clean(qe))
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("testserver: no Redis Query Engine build beside the module root (looked in %s; set %s to the folder holding start-redis-qe.sh)",
				strings.Join(tried, ", "), EnvRedisQEDir)
		}
	}
}

// runScript runs a start script and returns its standard output; its
// standard error goes into the error.
func runScript(path string, args []string, env ...string) (string, error) {
	cmd := exec.Command("bash", append([]string{path}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s: %w: %s", filepath.Base(path), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

func parsePids(out string) ([]int, error) {
	var pids []int
	for _, f := range strings.Fields(out) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			return nil, err
		}
		pids = append(pids, pid)
	}
	return pids, nil
}

// pidsOfRun reads the pid files a start script left under run.
func pidsOfRun(run string) []int {
	files, _ := filepath.Glob(filepath.Join(run, "*", "redis.pid"))
	single, _ := filepath.Glob(filepath.Join(run, "redis.pid"))
	var pids []int
	for _, f := range append(files, single...) {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// cleanup returns the stop function of servers started in run, and starts
// a watchdog that does the same if this process dies without calling it
// (a test binary killed by a time-out or a signal): the servers are
// daemons, so nothing else would stop them.
func cleanup(pids []int, run string) func() {
	var list []string
	for _, pid := range pids {
		list = append(list, strconv.Itoa(pid))
	}
	script := fmt.Sprintf(`while kill -0 %d 2>/dev/null; do sleep 1; done; kill %[2]s 2>/dev/null; sleep 3; kill -9 %[2]s 2>/dev/null; rm -rf %[3]q`,
		os.Getpid(), strings.Join(list, " "), run)
	dog := exec.Command("bash", "-c", script)
	dog.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // outlives a signal to the test's process group
	started := dog.Start() == nil
	return func() {
		if started {
			dog.Process.Kill()
			dog.Wait()
		}
		killAll(pids)
		os.RemoveAll(run)
	}
}

// killAll stops the servers (daemons, so not our children): SIGTERM,
// then SIGKILL for any still alive after five seconds.
func killAll(pids []int) {
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGTERM)
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				syscall.Kill(pid, syscall.SIGKILL)
				time.Sleep(50 * time.Millisecond)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// freePort returns a loopback port nothing listens on; for a cluster
// node, its bus port (port + 10000) must be free too.
func freePort(bus bool) (int, error) {
	for range 50 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, fmt.Errorf("testserver: finding a free port: %w", err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		if !bus {
			l.Close()
			return port, nil
		}
		if port+10000 > 65535 {
			l.Close()
			continue
		}
		b, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+10000))
		l.Close()
		if err == nil {
			b.Close()
			return port, nil
		}
	}
	return 0, errors.New("testserver: no free port pair for a cluster node")
}
