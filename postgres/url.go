package postgres

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Defaults of the URL's query parameters.
const (
	// DefaultCollection is the collection a URL without one opens.
	DefaultCollection = "default"
	// DefaultHNSWM is the number of links per HNSW node (hnsw_m).
	DefaultHNSWM = 16
	// DefaultEfConstruction is the HNSW build's candidate list
	// (hnsw_ef_construction).
	DefaultEfConstruction = 200
	// DefaultExactBelow is the number of chunks from which the dense leg
	// searches an HNSW index; below it an exact scan is fast enough and
	// never misses.
	DefaultExactBelow = 10000
)

// Lexical modes the lexical URL parameter selects.
const (
	lexicalAuto = "auto"          // pg_textsearch where it can be created, else full-text search
	lexicalBM25 = "pg_textsearch" // pg_textsearch or fail
	lexicalFTS  = "fts"           // PostgreSQL's full-text search with ts_rank_cd
)

var collectionName = regexp.MustCompile(`^[a-z0-9_]{1,40}$`)

// config is what Open reads from the URL.
type config struct {
	connString string // the URL without fonte's parameters, for pgx
	location   string // the URL without its password, for Status and errors
	server     string // host:port (comma-separated when several), for errors
	password   string // redacted from every error message

	collection     string
	hnswM          int
	efConstruction int
	exactBelow     int
	lexical        string
	// execModeSet is true when the URL chooses pgx's query protocol
	// (default_query_exec_mode): Open then takes it as it is and does
	// not look for a shared session.
	execModeSet bool
}

// parseURL splits a postgres:// URL into pgx's connection string and
// fonte's own parameters: collection (default "default"), hnsw_m,
// hnsw_ef_construction, exact_below and lexical (auto, pg_textsearch or
// fts). Its errors never quote the URL, which may hold a password.
func parseURL(raw string) (config, error) {
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return config{}, fmt.Errorf("postgres: the store URL does not parse: %v", err)
	}
	if u.Scheme != "postgres" && u.Scheme != "postgresql" {
		return config{}, fmt.Errorf("postgres: the store URL must start with postgres:// or postgresql://, not %s://", u.Scheme)
	}
	c := config{
		collection:     DefaultCollection,
		hnswM:          DefaultHNSWM,
		efConstruction: DefaultEfConstruction,
		exactBelow:     DefaultExactBelow,
		lexical:        lexicalAuto,
	}
	if u.User != nil {
		c.password, _ = u.User.Password()
	}
	q := u.Query()
	if q.Has("password") {
		c.password = q.Get("password")
	}
	c.execModeSet = q.Has("default_query_exec_mode")
	intParam := func(name string, min, max int, dst *int) error {
		if !q.Has(name) {
			return nil
		}
		v, err := strconv.Atoi(q.Get(name))
		if err != nil || v < min || v > max {
			return fmt.Errorf("postgres: the URL parameter %s must be an integer from %d to %d, not %q", name, min, max, q.Get(name))
		}
		*dst = v
		q.Del(name)
		return nil
	}
	if q.Has("collection") {
		c.collection = q.Get("collection")
		q.Del("collection")
		if !collectionName.MatchString(c.collection) {
			return config{}, fmt.Errorf("postgres: the collection name %q must be 1 to 40 characters of a-z, 0-9 and _", c.collection)
		}
	}
	// pgvector bounds m to [2, 100] and ef_construction to [4, 1000].
	if err := intParam("hnsw_m", 2, 100, &c.hnswM); err != nil {
		return config{}, err
	}
	if err := intParam("hnsw_ef_construction", 4, 1000, &c.efConstruction); err != nil {
		return config{}, err
	}
	if c.efConstruction < 2*c.hnswM {
		return config{}, fmt.Errorf("postgres: hnsw_ef_construction (%d) must be at least twice hnsw_m (%d)", c.efConstruction, c.hnswM)
	}
	if err := intParam("exact_below", 0, 1<<31-1, &c.exactBelow); err != nil {
		return config{}, err
	}
	if q.Has("lexical") {
		c.lexical = q.Get("lexical")
		q.Del("lexical")
		switch c.lexical {
		case lexicalAuto, lexicalBM25, lexicalFTS:
		default:
			return config{}, fmt.Errorf("postgres: the URL parameter lexical must be auto, pg_textsearch or fts, not %q", c.lexical)
		}
	}
	u.RawQuery = q.Encode()
	c.connString = u.String()

	// The location keeps the user but neither the password nor any
	// password-like parameter.
	loc := *u
	if u.User != nil {
		loc.User = url.User(u.User.Username())
	}
	lq := loc.Query()
	for k := range lq {
		if strings.Contains(strings.ToLower(k), "password") {
			lq.Del(k)
		}
	}
	lq.Set("collection", c.collection)
	loc.RawQuery = lq.Encode()
	c.location = loc.String()

	c.server = u.Host
	if c.server == "" {
		c.server = "localhost:5432"
	} else if _, _, err := net.SplitHostPort(c.server); err != nil && !strings.Contains(c.server, ",") {
		c.server = net.JoinHostPort(strings.Trim(c.server, "[]"), "5432")
	}
	if h := q.Get("host"); h != "" && u.Host == "" {
		c.server = h
	}
	return c, nil
}

// redact removes the password from an error message.
func (c *config) redact(msg string) string {
	if len(c.password) < 3 {
		// A one- or two-character password cannot be told apart from
		// ordinary text; pgx never prints passwords anyway.
		return msg
	}
	return strings.ReplaceAll(msg, c.password, "xxxxx")
}
