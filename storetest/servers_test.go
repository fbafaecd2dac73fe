package storetest

import (
	"context"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	goredis "github.com/redis/go-redis/v9"

	"github.com/fonte-rag/fonte/internal/testserver"
)

// The servers every networked backend's run uses, started once for the
// package: a failure to start fails that backend's test, never skips it.
var servers struct {
	postgres, pglite, redis, cluster             string
	postgresErr, pgliteErr, redisErr, clusterErr error
}

func TestMain(m *testing.M) {
	var stops []func()
	var stop func()
	servers.postgres, stop, servers.postgresErr = testserver.StartPostgres()
	if stop != nil {
		stops = append(stops, stop)
	}
	servers.pglite, stop, servers.pgliteErr = testserver.StartPGlite()
	if stop != nil {
		stops = append(stops, stop)
	}
	servers.redis, stop, servers.redisErr = testserver.StartRedis()
	if stop != nil {
		stops = append(stops, stop)
	}
	servers.cluster, stop, servers.clusterErr = testserver.StartRedisCluster()
	if stop != nil {
		stops = append(stops, stop)
	}
	code := m.Run()
	for _, s := range stops {
		s()
	}
	os.Exit(code)
}

var collections atomic.Int64

// withCollection returns base with a new collection named after the test.
func withCollection(t *testing.T, base string) string {
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.ToLower(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(t.Name(), "_"))
	name = fmt.Sprintf("%s_%d", name[max(0, len(name)-28):], collections.Add(1))
	name = strings.TrimLeft(name, "_")
	q := u.Query()
	q.Set("collection", name)
	u.RawQuery = q.Encode()
	return u.String()
}

// deadURL is a URL of scheme on a loopback port nothing listens on.
func deadURL(t *testing.T, format string) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return fmt.Sprintf(format, port)
}

// markerForms are the forms a word can take in a store: as written, as
// its stem, and hex-encoded (as a database store may encode terms).
func markerForms(word string) []string {
	stem := word[:len(word)-1]
	return []string{word, stem, hex.EncodeToString([]byte(stem))}
}

// TestPostgres runs the suite on the native PostgreSQL server, a backend
// process per connection (or the server FONTE_TEST_POSTGRES_URL names).
func TestPostgres(t *testing.T) {
	if servers.postgresErr != nil {
		t.Fatalf("PostgreSQL did not start: %v", servers.postgresErr)
	}
	runPostgres(t, "postgres", servers.postgres)
}

// TestPGlite runs the suite on PGlite, whose connections share one
// session, with a URL that does not ask for the simple protocol: the
// store must notice by itself.
func TestPGlite(t *testing.T) {
	if servers.pgliteErr != nil {
		t.Fatalf("PGlite did not start: %v", servers.pgliteErr)
	}
	runPostgres(t, "pglite", servers.pglite)
}

func runPostgres(t *testing.T, name, base string) {
	Run(t, Backend{
		Name: name,
		New:  func(t *testing.T) string { return withCollection(t, base) },
		Holds: func(t *testing.T, location, word string) bool {
			return postgresHolds(t, location, word)
		},
		Dead: func(t *testing.T) string {
			return deadURL(t, "postgres://fonte@127.0.0.1:%d/postgres?sslmode=disable&collection=dead")
		},
		LexicalTolerance: os.Getenv("FONTE_TEST_POSTGRES_LEXICAL_TOLERANCE"),
	})
}

// postgresHolds looks for word in every row of every table of the
// database (outside the system catalogs), as text.
func postgresHolds(t *testing.T, location, word string) bool {
	ctx := context.Background()
	u, _ := url.Parse(location)
	q := u.Query()
	q.Del("collection")
	// The simple protocol prepares nothing, so on PGlite's shared session
	// the probe's statements cannot collide with another connection's.
	q.Set("default_query_exec_mode", "simple_protocol")
	u.RawQuery = q.Encode()
	conn, err := pgx.Connect(ctx, u.String())
	if err != nil {
		t.Fatalf("probe: connecting to PostgreSQL: %v", err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) FROM information_schema.tables
		WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`)
	if err != nil {
		t.Fatalf("probe: listing tables: %v", err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatalf("probe: listing tables: %v", err)
	}
	if len(tables) == 0 {
		t.Fatal("probe: no table at all")
	}
	for _, table := range tables {
		for _, form := range markerForms(word) {
			var n int
			if err := conn.QueryRow(ctx, fmt.Sprintf(`SELECT count(*) FROM %s t WHERE t::text LIKE '%%' || $1 || '%%'`, table), form).Scan(&n); err != nil {
				t.Fatalf("probe: %s: %v", table, err)
			}
			if n > 0 {
				t.Logf("%s: %d rows hold %q", table, n, form)
				return true
			}
		}
	}
	return false
}

func TestRedis(t *testing.T) {
	if servers.redisErr != nil {
		t.Fatalf("Redis with the Query Engine did not start: %v", servers.redisErr)
	}
	runRedis(t, "redis", servers.redis)
}

func TestRedisCluster(t *testing.T) {
	if servers.clusterErr != nil {
		t.Fatalf("the Redis cluster with the Query Engine did not start: %v", servers.clusterErr)
	}
	runRedis(t, "redis-cluster", servers.cluster)
}

func runRedis(t *testing.T, name, base string) {
	Run(t, Backend{
		Name:  name,
		New:   func(t *testing.T) string { return withCollection(t, base) },
		Holds: func(t *testing.T, location, word string) bool { return redisHolds(t, location, word) },
		Dead:  func(t *testing.T) string { return deadURL(t, "redis://127.0.0.1:%d?collection=dead") },
	})
}

// redisHolds looks for word in every key name and value of every master,
// and asks every Query Engine index for it.
func redisHolds(t *testing.T, location, word string) bool {
	ctx := context.Background()
	u, _ := url.Parse(location)
	q := u.Query()
	addrs := append([]string{u.Host}, q["addr"]...)
	found := false
	for _, addr := range addrs {
		c := goredis.NewClient(&goredis.Options{Addr: addr})
		defer c.Close()
		iter := c.Scan(ctx, 0, "*", 1000).Iterator()
		for iter.Next(ctx) {
			key := iter.Val()
			var vals []string
			switch typ, _ := c.Type(ctx, key).Result(); typ {
			case "hash":
				m, _ := c.HGetAll(ctx, key).Result()
				for k, v := range m {
					vals = append(vals, k, v)
				}
			case "string":
				v, _ := c.Get(ctx, key).Result()
				vals = append(vals, v)
			case "set":
				vals, _ = c.SMembers(ctx, key).Result()
			case "zset":
				vals, _ = c.ZRange(ctx, key, 0, -1).Result()
			case "list":
				vals, _ = c.LRange(ctx, key, 0, -1).Result()
			}
			vals = append(vals, key)
			for _, v := range vals {
				for _, form := range markerForms(word) {
					if strings.Contains(v, form) {
						t.Logf("%s: key %s holds %q", addr, key, form)
						found = true
					}
				}
			}
		}
		if err := iter.Err(); err != nil {
			t.Fatalf("probe: scanning %s: %v", addr, err)
		}
		// The Query Engine's own inverted index: no index finds the word.
		idx, err := c.Do(ctx, "FT._LIST").StringSlice()
		if err != nil {
			t.Fatalf("probe: FT._LIST on %s: %v", addr, err)
		}
		for _, name := range idx {
			res, err := c.Do(ctx, "FT.SEARCH", name, word, "LIMIT", 0, 0, "DIALECT", 2).Slice()
			if err == nil && len(res) > 0 {
				if n, ok := res[0].(int64); ok && n > 0 {
					t.Logf("%s: index %s finds %q in %d documents", addr, name, word, n)
					found = true
				}
			}
		}
	}
	return found
}
