package redis

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// The URL parameters fonte reads itself; go-redis refuses parameters it
// does not know, so these are removed before it parses the rest.
const (
	paramCollection   = "collection"
	paramHNSWAbove    = "hnsw_above"
	paramLockTimeout  = "lock_timeout"
	paramWaitReplicas = "wait_replicas"
	paramWaitTimeout  = "wait_timeout"
)

// Defaults for the URL parameters.
const (
	// DefaultCollection is the collection of a URL without ?collection=.
	DefaultCollection = "default"
	// DefaultHNSWAbove is the number of chunks from which a collection's
	// vector index is HNSW rather than FLAT (retrieve.HNSWMinChunks, the
	// embedded store's threshold).
	DefaultHNSWAbove = 50_000
	// DefaultLockTimeout is how long Update and Purge wait for another
	// writer of the collection.
	DefaultLockTimeout = 30 * time.Second
	// DefaultWaitTimeout is how long a commit waits for wait_replicas
	// replicas to acknowledge it.
	DefaultWaitTimeout = 5 * time.Second
)

// config is what Open reads from the URL.
type config struct {
	collection  string
	hnswAbove   int
	lockTimeout time.Duration
	// waitReplicas replicas of every master acknowledge a commit's
	// writes before it returns (0: no waiting), within waitTimeout.
	waitReplicas int
	waitTimeout  time.Duration
	cluster      bool   // named as a cluster (addr= parameters)
	rest         string // the URL for go-redis, without fonte's parameters
	location     string // the URL as given, password redacted
	addrs        []string
	// dialRetriesSet: the URL chose go-redis's dialer_retries itself.
	dialRetriesSet bool
}

// defaultDialerRetries replaces go-redis's five dial attempts per
// connection (each command is retried up to max_retries times on top),
// so a server that is down is reported in about a second, not many.
const defaultDialerRetries = 2

// parseURL splits rawURL into fonte's parameters and the URL go-redis
// parses. Errors never quote the URL, which may hold a password.
func parseURL(rawURL string) (config, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return config{}, fmt.Errorf("redis: invalid store URL (redacted): %v", redactErr(err, rawURL))
	}
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return config{}, fmt.Errorf("redis: store URL %s: want redis:// or rediss://", u.Redacted())
	}
	c := config{collection: DefaultCollection, hnswAbove: DefaultHNSWAbove, lockTimeout: DefaultLockTimeout,
		waitTimeout: DefaultWaitTimeout, location: u.Redacted()}
	q := u.Query()
	if v, ok := q[paramCollection]; ok {
		c.collection = v[len(v)-1]
		if !validCollection(c.collection) {
			return config{}, fmt.Errorf("redis: store URL %s: collection %q: use 1 to 64 letters, digits, '_' or '-'", c.location, c.collection)
		}
	}
	if v, ok := q[paramHNSWAbove]; ok {
		n, err := strconv.Atoi(v[len(v)-1])
		if err != nil || n < 1 {
			return config{}, fmt.Errorf("redis: store URL %s: %s=%q: want a positive number of chunks", c.location, paramHNSWAbove, v[len(v)-1])
		}
		c.hnswAbove = n
	}
	if v, ok := q[paramLockTimeout]; ok {
		d, err := time.ParseDuration(v[len(v)-1])
		if err != nil || d < 0 {
			return config{}, fmt.Errorf("redis: store URL %s: %s=%q: want a duration such as 30s", c.location, paramLockTimeout, v[len(v)-1])
		}
		c.lockTimeout = d
	}
	if v, ok := q[paramWaitReplicas]; ok {
		n, err := strconv.Atoi(v[len(v)-1])
		if err != nil || n < 0 {
			return config{}, fmt.Errorf("redis: store URL %s: %s=%q: want a number of replicas (0 for none)", c.location, paramWaitReplicas, v[len(v)-1])
		}
		c.waitReplicas = n
	}
	if v, ok := q[paramWaitTimeout]; ok {
		d, err := time.ParseDuration(v[len(v)-1])
		if err != nil || d <= 0 {
			return config{}, fmt.Errorf("redis: store URL %s: %s=%q: want a positive duration such as 5s", c.location, paramWaitTimeout, v[len(v)-1])
		}
		c.waitTimeout = d
	}
	for _, p := range []string{paramCollection, paramHNSWAbove, paramLockTimeout, paramWaitReplicas, paramWaitTimeout} {
		q.Del(p)
	}
	c.cluster = len(q["addr"]) > 0
	c.dialRetriesSet = q.Has("dialer_retries")
	host, port := u.Hostname(), u.Port()
	if host == "" {
		host = "localhost"
	}
	if port == "" {
		port = "6379"
	}
	c.addrs = append([]string{net.JoinHostPort(host, port)}, q["addr"]...)
	u.RawQuery = q.Encode()
	c.rest = u.String()
	return c, nil
}

// redactErr keeps a url.Parse error from echoing the URL.
func redactErr(err error, raw string) string {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err.Error()
	}
	return strings.ReplaceAll(err.Error(), raw, "…")
}

// connect opens the client the configuration names: a ClusterClient for a
// URL with addr= parameters or a server that reports cluster_enabled:1,
// a Client otherwise. Replies are read as RESP2 arrays, the shape every
// Query Engine version answers FT.SEARCH in.
func connect(ctx context.Context, c *config) (goredis.UniversalClient, error) {
	if c.cluster {
		return dialCluster(c)
	}
	opt, err := goredis.ParseURL(c.rest)
	if err != nil {
		return nil, fmt.Errorf("redis: store URL %s: %v", c.location, err)
	}
	opt.Protocol = 2
	if !c.dialRetriesSet {
		opt.DialerRetries = defaultDialerRetries
	}
	// Asked on database 0: a cluster node refuses SELECT.
	probeOpt := *opt
	probeOpt.DB = 0
	probe := goredis.NewClient(&probeOpt)
	info, err := probe.Info(ctx, "cluster").Result()
	probe.Close()
	if err != nil {
		if isUnavailable(err) {
			return nil, unavailable(c.where(), err)
		}
		return nil, fmt.Errorf("redis %s: %w", c.where(), err)
	}
	if !strings.Contains(info, "cluster_enabled:1") {
		return goredis.NewClient(opt), nil
	}
	if opt.DB != 0 {
		return nil, fmt.Errorf("redis: store URL %s: a cluster has database 0 only, the URL names %d", c.location, opt.DB)
	}
	c.cluster = true
	u, _ := url.Parse(c.rest)
	u.Path = ""
	c.rest = u.String()
	return dialCluster(c)
}

// clusterStateReload is how old the cluster client's map of slots to
// nodes may get before it is read again (go-redis's default is a minute).
// A master that dies answers nothing, not MOVED, so without a fresh map
// the client keeps sending its slots' commands to the dead address long
// after a replica took them over; the store also asks for a reload on
// every error that says a node is unreachable (see Store.wrapErr).
const clusterStateReload = 5 * time.Second

func dialCluster(c *config) (goredis.UniversalClient, error) {
	opt, err := goredis.ParseClusterURL(c.rest)
	if err != nil {
		return nil, fmt.Errorf("redis: store URL %s: %v", c.location, err)
	}
	opt.Protocol = 2
	opt.ClusterStateReloadInterval = clusterStateReload
	if !c.dialRetriesSet {
		opt.DialerRetries = defaultDialerRetries
	}
	return goredis.NewClusterClient(opt), nil
}

// where names the server in messages: its addresses and the collection,
// never the password.
func (c *config) where() string {
	return fmt.Sprintf("%s (collection %q)", strings.Join(c.addrs, ","), c.collection)
}
