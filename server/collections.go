package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
)

// DefaultCollection is the collection the routes without
// /collections/{name} act on.
const DefaultCollection = "default"

// CollectionConfig is how one collection is set up: in fonte.yaml
// (`collections:`), or by POST /v1/collections, which records it in the
// server's data folder.
type CollectionConfig struct {
	// Store is where its index lives: a folder, postgres://… or
	// redis://… (default: a folder named after it under the data folder).
	Store string `json:"store,omitempty" yaml:"store"`
	// Folder is the documents folder POST …/index (and --watch)
	// re-indexes; empty when the collection takes uploads only.
	Folder string `json:"folder,omitempty" yaml:"folder"`
	// Chunker, ChunkSize and Overlap are recorded by the index as every
	// index records them; zero values take the server's.
	Chunker   string `json:"chunker,omitempty" yaml:"chunker"`
	ChunkSize int    `json:"chunk_size,omitempty" yaml:"chunk-size"`
	Overlap   int    `json:"overlap,omitempty" yaml:"overlap"`
	// Access gives the documents under a folder prefix access labels.
	Access map[string][]string `json:"access,omitempty" yaml:"access"`
	// Embedder is the collection's embedding model ("builtin",
	// "ollama:MODEL", "openai:MODEL"; empty: the server's), and EmbedURL
	// its server (fonte.yaml only: the API never points the server at a
	// URL a client chose).
	Embedder string `json:"embedder,omitempty" yaml:"embedder"`
	EmbedURL string `json:"-" yaml:"embed-url"`
}

// Collection is one open collection.
type Collection struct {
	Name   string
	Engine *engine.Engine
	Config CollectionConfig
	// write serialises the collection's writes (uploads, re-index,
	// deletes): each is one commit, and two at once would only wait on
	// the store's writer lock while holding their parsed documents.
	write sync.Mutex
	owned bool // opened by the registry, which closes it
	// watch reports the folder watcher's last run, when one watches it.
	watch func() any
}

// SetWatch makes GET …/status show report() (the last run of the
// collection's folder watcher).
func (s *Server) SetWatch(collection string, report func() any) error {
	c, err := s.reg.get(context.Background(), collection)
	if err != nil {
		return err
	}
	s.reg.mu.Lock()
	c.watch = report
	s.reg.mu.Unlock()
	return nil
}

var collectionNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// ValidCollectionName checks a collection name: lower-case letters,
// digits, '-' and '_', up to 64, starting with a letter or digit (it
// names a folder, a PostgreSQL schema and Redis keys alike).
func ValidCollectionName(name string) error {
	if !collectionNameRE.MatchString(name) {
		return fmt.Errorf("collection name %q: want 1-64 lower-case letters, digits, '-' or '_', starting with a letter or digit", name)
	}
	return nil
}

// ErrNoCollection is returned for a collection that was never created.
var ErrNoCollection = errors.New("no such collection")

// catalogueFile lists the collections POST /v1/collections made, in the
// data folder.
const catalogueFile = "collections.json"

// registry opens collections on first use and keeps them open.
type registry struct {
	dataDir    string
	template   engine.Settings // settings of collections other than the default
	embedders  func(spec, url string) (fonte.Embedder, error)
	configured map[string]CollectionConfig

	mu      sync.Mutex
	open    map[string]*Collection
	created map[string]CollectionConfig // from the catalogue
}

func newRegistry(def *engine.Engine, defCfg CollectionConfig, o Options) (*registry, error) {
	g := &registry{dataDir: o.DataDir, template: o.Template, embedders: o.Embedders, configured: map[string]CollectionConfig{},
		open: map[string]*Collection{}, created: map[string]CollectionConfig{}}
	for name, c := range o.Collections {
		if err := ValidCollectionName(name); err != nil {
			return nil, fmt.Errorf("collections: %w", err)
		}
		g.configured[name] = c
	}
	if def != nil {
		g.open[DefaultCollection] = &Collection{Name: DefaultCollection, Engine: def, Config: defCfg}
	}
	if g.dataDir != "" {
		raw, err := os.ReadFile(filepath.Join(g.dataDir, catalogueFile))
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			if err := json.Unmarshal(raw, &g.created); err != nil {
				return nil, fmt.Errorf("%s: %w", filepath.Join(g.dataDir, catalogueFile), err)
			}
		}
	}
	return g, nil
}

// config returns the configuration of a known collection.
func (g *registry) config(name string) (CollectionConfig, bool) {
	if c, ok := g.configured[name]; ok {
		return c, true
	}
	c, ok := g.created[name]
	return c, ok
}

// names lists every known collection, sorted.
func (g *registry) names() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	set := map[string]bool{}
	for n := range g.open {
		set[n] = true
	}
	for n := range g.configured {
		set[n] = true
	}
	for n := range g.created {
		set[n] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// get opens (once) the collection name; ErrNoCollection when it was
// never configured nor created.
func (g *registry) get(ctx context.Context, name string) (*Collection, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c := g.open[name]; c != nil {
		return c, nil
	}
	cfg, ok := g.config(name)
	if !ok {
		return nil, ErrNoCollection
	}
	return g.openLocked(ctx, name, cfg)
}

// create makes a new collection with cfg and records it in the
// catalogue; it fails when the name is taken.
func (g *registry) create(ctx context.Context, name string, cfg CollectionConfig) (*Collection, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.open[name]; ok {
		return nil, errCollectionExists
	}
	if _, ok := g.config(name); ok {
		return nil, errCollectionExists
	}
	if g.dataDir == "" {
		return nil, errors.New("the server has no data folder to create collections in (fonte serve has one unless its store is a database: give it --data DIR)")
	}
	c, err := g.openLocked(ctx, name, cfg)
	if err != nil {
		return nil, err
	}
	next := maps.Clone(g.created)
	next[name] = cfg
	if err := writeCatalogue(g.dataDir, next); err != nil {
		delete(g.open, name)
		c.Engine.Close()
		return nil, err
	}
	g.created = next
	return c, nil
}

var errCollectionExists = errors.New("the collection exists")

// errEmbedder marks a collection's embedder that cannot be made.
var errEmbedder = errors.New("bad embedder")

func (g *registry) openLocked(ctx context.Context, name string, cfg CollectionConfig) (*Collection, error) {
	s := g.template
	s.Store, s.IndexDir = cfg.Store, ""
	if s.Store == "" {
		if g.dataDir == "" {
			return nil, fmt.Errorf("collection %q has no store and the server no data folder", name)
		}
		s.Store = filepath.Join(g.dataDir, name)
	}
	if cfg.Chunker != "" {
		s.Chunker = cfg.Chunker
	}
	if cfg.ChunkSize != 0 {
		s.ChunkSize = cfg.ChunkSize
	}
	if cfg.Overlap != 0 {
		s.Overlap = cfg.Overlap
	}
	if cfg.Access != nil {
		s.Access = cfg.Access
	} else {
		// The server's rules, written for several folders: applied, but
		// one need not match a file of this collection's.
		s.Access, s.InheritedAccess = nil, s.Access
	}
	if cfg.Embedder != "" {
		if g.embedders == nil {
			return nil, fmt.Errorf("%w: collection %q names embedder %q, but this server cannot make embedders", errEmbedder, name, cfg.Embedder)
		}
		emb, err := g.embedders(cfg.Embedder, cfg.EmbedURL)
		if err != nil {
			return nil, fmt.Errorf("%w: collection %q: %v", errEmbedder, name, err)
		}
		s.Embedder = emb
	}
	e, err := engine.Open(ctx, s, engine.OpenOptions{})
	if err != nil {
		return nil, fmt.Errorf("opening collection %q: %w", name, err)
	}
	c := &Collection{Name: name, Engine: e, Config: cfg, owned: true}
	g.open[name] = c
	return c, nil
}

// writeCatalogue replaces the catalogue atomically: a crash leaves the
// old one or the new one.
func writeCatalogue(dir string, cat map[string]CollectionConfig) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	raw, err := json.MarshalIndent(cat, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, catalogueFile+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(raw); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, catalogueFile))
}

// opened lists the open collections.
func (g *registry) opened() []*Collection {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Collect(maps.Values(g.open))
}

// close closes the collections the registry opened.
func (g *registry) close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	var errs []error
	for _, c := range g.open {
		if c.owned {
			errs = append(errs, c.Engine.Close())
		}
	}
	return errors.Join(errs...)
}

// collectionName is the collection a request names: the {collection}
// path segment, or the default one.
func collectionName(r *http.Request) string {
	if n := r.PathValue("collection"); n != "" {
		return n
	}
	return DefaultCollection
}

// collection resolves the request's collection, answering the problem
// itself when there is none.
func (s *Server) collection(w http.ResponseWriter, r *http.Request) (*Collection, bool) {
	return s.openCollection(w, r, false)
}

// openCollection resolves the request's collection; with create, one that
// does not exist yet is made with the server's settings (uploads do so).
func (s *Server) openCollection(w http.ResponseWriter, r *http.Request, create bool) (*Collection, bool) {
	name := collectionName(r)
	if err := ValidCollectionName(name); err != nil {
		writeProblem(w, newProblem(http.StatusBadRequest, "invalid-field", err.Error(), "collection"))
		return nil, false
	}
	c, err := s.reg.get(r.Context(), name)
	if errors.Is(err, ErrNoCollection) && create {
		c, err = s.reg.create(r.Context(), name, CollectionConfig{})
		if errors.Is(err, errCollectionExists) {
			c, err = s.reg.get(r.Context(), name) // made by a request just before
		}
	}
	if errors.Is(err, ErrNoCollection) {
		writeProblem(w, newProblem(http.StatusNotFound, "unknown-collection",
			fmt.Sprintf("there is no collection %q; create it with POST /v1/collections or by uploading to it", name), "collection"))
		return nil, false
	}
	if err != nil {
		s.internal(w, r, err)
		return nil, false
	}
	return c, true
}

// CollectionInfo describes a collection in GET /v1/collections. Store,
// Folder and Committed are shown to admin tokens only; the counts are of
// the documents the token may read.
type CollectionInfo struct {
	Name      string `json:"name"`
	Store     string `json:"store,omitempty"`
	Folder    string `json:"folder,omitempty"`
	Documents int    `json:"documents"`
	Chunks    int    `json:"chunks"`
	Chunker   string `json:"chunker"`
	Embedder  string `json:"embedder"`
	// Retriever is the collection's default retriever (bm25 with the
	// built-in embedder, hybrid with an embedding model).
	Retriever string    `json:"retriever"`
	Committed time.Time `json:"committed,omitzero"`
}
