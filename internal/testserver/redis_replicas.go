package testserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// RedisNode is one redis-server with the Query Engine that a fault test
// kills (SIGKILL, as a crash would) and starts again on the same port
// with the same data folder.
type RedisNode struct {
	// Addr is host:port on loopback.
	Addr string
	// Dir holds the node's data (AOF, RDB, nodes.conf), log and pid file.
	Dir  string
	port int
	args []string
}

// pidFile is where the daemonized server writes its pid.
func (n *RedisNode) pidFile() string { return filepath.Join(n.Dir, "redis.pid") }

// Pid is the running server's pid, 0 when it is not running.
func (n *RedisNode) Pid() int {
	b, err := os.ReadFile(n.pidFile())
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if pid == 0 || !alive(pid) {
		return 0
	}
	return pid
}

// Kill stops the server with SIGKILL (no chance to save or to close its
// connections cleanly) and returns once the process is gone.
func (n *RedisNode) Kill() error {
	pid := n.Pid()
	if pid == 0 {
		return fmt.Errorf("testserver: redis %s is not running", n.Addr)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		return fmt.Errorf("testserver: killing redis %s (pid %d): %w", n.Addr, pid, err)
	}
	for deadline := time.Now().Add(10 * time.Second); alive(pid); {
		if time.Now().After(deadline) {
			return fmt.Errorf("testserver: redis %s (pid %d) still alive after SIGKILL", n.Addr, pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// A stale pid file could name a process that reuses the pid.
	os.Remove(n.pidFile())
	return nil
}

// Start starts the server again with the arguments and data folder it
// had, and returns once it answers PING (after loading its data).
func (n *RedisNode) Start() error {
	if pid := n.Pid(); pid != 0 {
		return fmt.Errorf("testserver: redis %s already runs (pid %d)", n.Addr, pid)
	}
	os.Remove(n.pidFile())
	cmd := exec.Command("redis-server", n.args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("testserver: starting redis %s: %w: %s", n.Addr, err, strings.TrimSpace(string(out)))
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		reply, _ := redisCLI(n.port, "PING")
		if reply == "PONG" && n.Pid() != 0 {
			return nil
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(n.Dir, "redis.log"))
			return fmt.Errorf("testserver: redis %s did not answer PING (last reply %q); log ends: %s", n.Addr, reply, tail(string(log), 5))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Pause stops the server (SIGSTOP) without closing its connections: a
// replica paused falls behind its master.
func (n *RedisNode) Pause() error { return n.signal(syscall.SIGSTOP) }

// Resume continues a paused server (SIGCONT).
func (n *RedisNode) Resume() error { return n.signal(syscall.SIGCONT) }

func (n *RedisNode) signal(sig syscall.Signal) error {
	pid := n.Pid()
	if pid == 0 {
		return fmt.Errorf("testserver: redis %s is not running", n.Addr)
	}
	return syscall.Kill(pid, sig)
}

// CLI runs one command on the node with redis-cli and returns its reply
// as redis-cli prints it (raw).
func (n *RedisNode) CLI(args ...string) (string, error) { return redisCLI(n.port, args...) }

func redisCLI(port int, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a paused node never answers
	defer cancel()
	cmd := exec.CommandContext(ctx, "redis-cli", append([]string{"-h", "127.0.0.1", "-p", strconv.Itoa(port)}, args...)...)
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// newRedisNode prepares a node on a free port with its own folder under
// run; extra gives its arguments beyond address and files (it gets the
// folder), module is the module's path and arguments, which come last.
func newRedisNode(run string, bus bool, extra func(dir string) []string, module ...string) (*RedisNode, error) {
	port, err := freePort(bus)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(run, strconv.Itoa(port))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	n := &RedisNode{Addr: fmt.Sprintf("127.0.0.1:%d", port), Dir: dir, port: port}
	n.args = append([]string{"--bind", "127.0.0.1", "--port", strconv.Itoa(port), "--protected-mode", "yes",
		"--dir", dir, "--daemonize", "yes", "--pidfile", n.pidFile(), "--logfile", filepath.Join(dir, "redis.log")},
		extra(dir)...)
	n.args = append(append(n.args, "--loadmodule"), module...)
	return n, nil
}

// persistence is what the fault tests run with: every write reaches the
// append-only file before the client gets its reply, so a SIGKILL loses
// nothing that was acknowledged.
func persistence(string) []string {
	return []string{"--appendonly", "yes", "--appendfsync", "always", "--save", ""}
}

// StartRedisPersistent starts a single Redis server with the Query Engine
// on a free loopback port, with the append-only file on and fsynced on
// every write (start-redis-qe.sh runs without persistence), and returns
// it and a function that stops it and removes its files. The node can
// be killed and started again (RedisNode.Kill, RedisNode.Start).
func StartRedisPersistent() (*RedisNode, func(), error) {
	dir, err := redisQEDir()
	if err != nil {
		return nil, nil, err
	}
	run, err := os.MkdirTemp("", "fonte-redis-aof-")
	if err != nil {
		return nil, nil, err
	}
	stop := cleanupRun(run)
	for attempt := 0; ; attempt++ {
		n, err := newRedisNode(run, false, persistence, filepath.Join(dir, "redisearch.so"))
		if err == nil {
			err = n.Start()
		}
		if err == nil {
			return n, stop, nil
		}
		if attempt == 2 || !strings.Contains(err.Error(), "Address already in use") {
			stop()
			return nil, nil, fmt.Errorf("%w (is redis-server installed? %s)", err, redisInstallHint)
		}
	}
}

// RedisCluster is a Redis Cluster with the Query Engine's coordinator on
// every node, three masters with one replica each.
type RedisCluster struct {
	// URL is go-redis's cluster URL naming the three masters as created.
	URL string
	// Nodes are the masters as created, then their replicas.
	Nodes []*RedisNode
}

// NodeTimeout is the cluster-node-timeout of StartRedisClusterReplicas: a
// master silent this long is failing, and its replica takes over about
// one to two seconds later.
const NodeTimeout = 2 * time.Second

// StartRedisClusterReplicas starts a Redis Cluster of three masters, each
// with one replica (redis-cli --cluster create --cluster-replicas 1), on
// free loopback ports, every node loading the Query Engine with its
// coordinator, and returns once every master's coordinator sees three
// shards and every replica is in sync. Stop kills every node and removes
// their files.
func StartRedisClusterReplicas() (*RedisCluster, func(), error) {
	dir, err := redisQEDir()
	if err != nil {
		return nil, nil, err
	}
	run, err := os.MkdirTemp("", "fonte-redis-replicas-")
	if err != nil {
		return nil, nil, err
	}
	stop := cleanupRun(run)
	c, err := startReplicaCluster(run, filepath.Join(dir, "module-oss.so"))
	if err != nil {
		stop()
		return nil, nil, fmt.Errorf("%w (is it installed? %s)", err, redisInstallHint)
	}
	return c, stop, nil
}

// clusterNodeArgs makes a node a cluster member that fails over after
// NodeTimeout; no persistence, since a replica holds the copy.
func clusterNodeArgs(dir string) []string {
	return []string{"--cluster-enabled", "yes", "--cluster-config-file", filepath.Join(dir, "nodes.conf"),
		"--cluster-node-timeout", strconv.Itoa(int(NodeTimeout.Milliseconds())),
		"--cluster-announce-ip", "127.0.0.1", "--appendonly", "no", "--save", ""}
}

func startReplicaCluster(run, module string) (*RedisCluster, error) {
	c := &RedisCluster{}
	used := map[string]bool{}
	for len(c.Nodes) < 6 {
		n, err := newRedisNode(run, true, clusterNodeArgs, module, "PARTITIONS", "AUTO")
		if err != nil {
			return nil, err
		}
		if used[n.Addr] {
			continue
		}
		used[n.Addr] = true
		if err := n.Start(); err != nil {
			return nil, err
		}
		c.Nodes = append(c.Nodes, n)
	}
	args := []string{"--cluster", "create"}
	for _, n := range c.Nodes {
		args = append(args, n.Addr)
	}
	args = append(args, "--cluster-replicas", "1", "--cluster-yes")
	if out, err := exec.Command("redis-cli", args...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("testserver: redis-cli --cluster create: %w: %s", err, tail(string(out), 5))
	}
	c.URL = fmt.Sprintf("redis://%s?addr=%s&addr=%s", c.Nodes[0].Addr, c.Nodes[1].Addr, c.Nodes[2].Addr)
	return c, c.WaitReady(60 * time.Second)
}

// ReplicaOf returns the running node that replicates the master at addr.
func (c *RedisCluster) ReplicaOf(addr string) (*RedisNode, error) {
	for _, n := range c.Nodes {
		if n.Pid() == 0 {
			continue
		}
		// A replica's ROLE: slave, its master's host and port, …
		role, _ := n.CLI("ROLE")
		f := strings.Fields(role)
		if len(f) >= 3 && f[0] == "slave" && f[1]+":"+f[2] == addr {
			return n, nil
		}
	}
	return nil, fmt.Errorf("testserver: no replica of %s", addr)
}

// Role is "master" or "slave" as the node says (ROLE), "" when it does
// not answer.
func (n *RedisNode) Role() string {
	role, err := n.CLI("ROLE")
	if err != nil {
		return ""
	}
	return firstLine(role)
}

// WaitReady waits until every running node says cluster_state:ok, every
// running master's coordinator reaches three shards, and every running
// replica's link to its master is up.
func (c *RedisCluster) WaitReady(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for _, n := range c.Nodes {
		if n.Pid() == 0 {
			continue
		}
		for {
			err := nodeReady(n)
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("testserver: cluster node %s not ready after %v: %w", n.Addr, timeout, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return nil
}

func nodeReady(n *RedisNode) error {
	info, err := n.CLI("CLUSTER", "INFO")
	if err != nil || !strings.Contains(info, "cluster_state:ok") {
		return fmt.Errorf("cluster state: %s %v", firstLine(info), err)
	}
	role, _ := n.CLI("ROLE")
	if strings.HasPrefix(role, "slave") {
		repl, _ := n.CLI("INFO", "replication")
		if !strings.Contains(repl, "master_link_status:up") {
			return errors.New("replica not in sync with its master")
		}
		return nil
	}
	n.CLI("SEARCH.CLUSTERREFRESH")
	parts, _ := n.CLI("SEARCH.CLUSTERINFO")
	if !strings.Contains(parts, "num_partitions\n3") {
		return fmt.Errorf("coordinator: %s", firstLine(parts))
	}
	// A search on a missing index fans out to every shard.
	probe, _ := n.CLI("FT.SEARCH", "__qe_probe__", "*")
	if !strings.Contains(probe, "no such index") && !strings.Contains(probe, "Unknown Index") {
		return fmt.Errorf("coordinator probe: %s", firstLine(probe))
	}
	return nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// cleanupRun returns the stop function for the servers whose pid files
// are under run, and starts a watchdog that does the same if this process
// dies first. It reads the pid files when it runs, since a node killed
// and started again has a new pid.
func cleanupRun(run string) func() {
	script := fmt.Sprintf(`while kill -0 %d 2>/dev/null; do sleep 1; done; kill -9 $(cat %[2]q/*/redis.pid 2>/dev/null) 2>/dev/null; rm -rf %[2]q`,
		os.Getpid(), run)
	dog := exec.Command("bash", "-c", script)
	dog.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	started := dog.Start() == nil
	return func() {
		if started {
			dog.Process.Kill()
			dog.Wait()
		}
		killAll(pidsOfRun(run))
		os.RemoveAll(run)
	}
}
