package main

import (
	"fmt"
	"maps"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/embed"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/generate"
	"github.com/fonte-rag/fonte/ingest"
	"github.com/fonte-rag/fonte/rerank"
	"github.com/fonte-rag/fonte/retrieve"
	"github.com/fonte-rag/fonte/server"
)

// options are the settings the commands share. Each comes, in order of
// precedence, from its flag, from the environment variable FONTE_<FLAG>
// (upper case, dashes as underscores: --embed-url is FONTE_EMBED_URL), from
// the config file (YAML, keys named like the flags: `embed-url: …`), or
// from its default. A command has only the flags of the groups it uses
// (see the add…Flags functions); the fields of the others keep their
// defaults.
type options struct {
	index      string
	config     string
	asJSON     bool
	embedder   string
	embedURL   string
	generator  string
	genURL     string
	apiKey     string
	reranker   string
	rerankURL  string
	retriever  string
	k          int
	floor      float64
	budget     int
	chunker    string
	chunkSize  int
	overlap    int
	include    []string
	exclude    []string
	followLink bool
	timeout    time.Duration
	temp       float64
	tempSet    bool // --temperature came from the command line, FONTE_TEMPERATURE or the config file
	maxTokens  int
	keepAlive  string
	lexWeight  float64
	denseWeigh float64
	proximity  bool
	denseIndex string
	store      string

	// file is the parsed config file (nil without one) and filePath its
	// path, kept so that commands can read its structured sections (see
	// fileSections), which are not flags.
	file     map[string]any
	filePath string
	// from names where each flag not given on the command line took its
	// value (FONTE_FLOOR, or the config file's key), so that a refused
	// value is reported under the name the user wrote it with.
	from   map[string]string
	floors map[string]string // --floor-by-language
	// memory is --memory, for the commands that index; hasMemory tells
	// that the command has the flag (and so sets the GC's limit).
	memory    string
	hasMemory bool
	// The per-run limits (--max-expanded-bytes, --max-pages,
	// --max-chunks), for the commands that index (hasLimits); the others
	// set none.
	maxExpanded string
	limits      ingest.Limits
	hasLimits   bool
}

// Defaults of the flags whose zero value is not their default, shared by
// newOptions and the flags' help.
const (
	defaultEmbedder   = "builtin"
	defaultGenerator  = "extractive"
	defaultRetriever  = "auto"
	defaultK          = 10
	defaultChunker    = "structure"
	defaultDenseIndex = "auto"
)

// newOptions returns options holding every default, so that a command
// lacking a flag group still builds valid settings.
func newOptions() *options {
	return &options{index: engine.DefaultIndexDir, embedder: defaultEmbedder, generator: defaultGenerator,
		retriever: defaultRetriever, k: defaultK, chunker: defaultChunker, denseIndex: defaultDenseIndex}
}

// fileSections are the config file's structured top-level keys: they are
// not flags, so applyEnvAndFile accepts them and leaves them to the
// commands that read them (fonte serve) through options.file.
var fileSections = []string{"tokens", "collections", "access", "hosts", "cors-origins", "floors"}

// flagGroupKey is the flag annotation naming a flag's group; the usage
// template prints each group under its own heading.
const flagGroupKey = "fonte_group"

// Flag groups, in the order --help prints them after the command's own
// flags.
const (
	groupStore     = "Store"
	groupOutput    = "Output"
	groupModels    = "Model"
	groupRetrieval = "Retrieval"
	groupAnswer    = "Answer"
	groupIndexing  = "Indexing"
)

var flagGroups = []string{groupStore, groupOutput, groupModels, groupRetrieval, groupAnswer, groupIndexing}

// inGroup annotates the named flags of cmd with group, for the help.
func inGroup(cmd *cobra.Command, group string, names ...string) {
	for _, n := range names {
		// The flags were just defined, so the name is always found.
		_ = cmd.Flags().SetAnnotation(n, flagGroupKey, []string{group})
	}
}

// addStoreFlags adds --store and --index, for commands that open an index.
func addStoreFlags(cmd *cobra.Command, o *options) {
	f := cmd.Flags()
	f.StringVar(&o.store, "store", "", "where the index lives: a folder (default ./.fonte), postgres://… or redis://…")
	f.StringVar(&o.index, "index", engine.DefaultIndexDir, "index folder (an alias of --store for a folder)")
	inGroup(cmd, groupStore, "store", "index")
}

// addOutputFlags adds --json, for commands that print results.
func addOutputFlags(cmd *cobra.Command, o *options) {
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print JSON instead of text")
	inGroup(cmd, groupOutput, "json")
}

// modelUse says which models a command runs, so it gets only their flags.
type modelUse uint8

const (
	useEmbedder modelUse = 1 << iota
	useGenerator
	useReranker
	useAllModels = useEmbedder | useGenerator | useReranker
)

// addModelFlags adds the flags of the models in use, plus the connection
// settings they share (--api-key, --timeout, and --keep-alive for the
// Ollama embedder and generator).
func addModelFlags(cmd *cobra.Command, o *options, use modelUse) {
	f := cmd.Flags()
	var names []string
	if use&useEmbedder != 0 {
		f.StringVar(&o.embedder, "embedder", defaultEmbedder, "embedding model: builtin, ollama:MODEL or openai:MODEL")
		f.StringVar(&o.embedURL, "embed-url", "", "base URL of the embedding server (default: the provider's)")
		names = append(names, "embedder", "embed-url")
	}
	if use&useGenerator != 0 {
		f.StringVar(&o.generator, "generator", defaultGenerator, "answer model: extractive (offline), ollama:MODEL or openai:MODEL")
		f.StringVar(&o.genURL, "generate-url", "", "base URL of the chat server (default: the provider's)")
		// Unset, no temperature is sent and the model's own default
		// applies; applyEnvAndFile sets values without marking the flag
		// Changed, so the flag's value records that it was set.
		f.Var(&setFloat{v: &o.temp, set: &o.tempSet}, "temperature", "sampling temperature for the answer model (default: the model's)")
		f.IntVar(&o.maxTokens, "max-tokens", 0, "cap on the answer's tokens (0: the server's default)")
		names = append(names, "generator", "generate-url", "temperature", "max-tokens")
	}
	if use&useReranker != 0 {
		f.StringVar(&o.reranker, "reranker", "", "cross-encoder: tei:MODEL, cohere:MODEL or jina:MODEL (default none)")
		f.StringVar(&o.rerankURL, "rerank-url", "", "base URL of the rerank server")
		names = append(names, "reranker", "rerank-url")
	}
	if use != 0 {
		f.StringVar(&o.apiKey, "api-key", "", "API key for OpenAI-compatible and rerank servers (prefer FONTE_API_KEY)")
		f.DurationVar(&o.timeout, "timeout", 0, "per-request timeout for model servers (0: the client's default)")
		names = append(names, "api-key", "timeout")
	}
	if use&(useEmbedder|useGenerator) != 0 {
		f.StringVar(&o.keepAlive, "keep-alive", "", "Ollama keep_alive for loaded models (e.g. 5m)")
		names = append(names, "keep-alive")
	}
	inGroup(cmd, groupModels, names...)
}

// setFloat is a float64 flag value that records whether it was ever set,
// whether by the command line, the environment or the config file.
type setFloat struct {
	v   *float64
	set *bool
}

func (f *setFloat) String() string {
	if f.v == nil || f.set == nil || !*f.set {
		return ""
	}
	return strconv.FormatFloat(*f.v, 'g', -1, 64)
}

func (f *setFloat) Set(s string) error {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return err
	}
	*f.v, *f.set = x, true
	return nil
}

func (f *setFloat) Type() string { return "float" }

// addRetrievalFlags adds the flags that shape a search, for commands that
// run queries.
func addRetrievalFlags(cmd *cobra.Command, o *options) {
	f := cmd.Flags()
	f.StringVar(&o.retriever, "retriever", defaultRetriever, "auto (bm25 with the built-in embedder, hybrid with an embedding model), hybrid, bm25, tfidf or vector")
	f.IntVar(&o.k, "k", defaultK, "number of chunks to retrieve")
	f.Float64Var(&o.lexWeight, "lexical-weight", 0, "weight of the BM25 leg in the fusion (0 with --dense-weight 0: defaults, 1 and 1, or 0.5 for the built-in embedder)")
	f.Float64Var(&o.denseWeigh, "dense-weight", 0, "weight of the dense leg in the fusion")
	f.BoolVar(&o.proximity, "proximity", false, "re-rank BM25's first 100 candidates by how near the question's words lie in each (BM25TP; off by default: see DESIGN.md)")
	inGroup(cmd, groupRetrieval, "retriever", "k", "lexical-weight", "dense-weight", "proximity")
	addDenseIndexFlag(cmd, o)
}

// addDenseIndexFlag adds --dense-index alone, for commands that run no
// query but build or describe the dense index (index, delete, status).
func addDenseIndexFlag(cmd *cobra.Command, o *options) {
	cmd.Flags().StringVar(&o.denseIndex, "dense-index", defaultDenseIndex, "dense leg's index: auto (exact below 50,000 chunks, HNSW above), exact or hnsw")
	inGroup(cmd, groupRetrieval, "dense-index")
}

// addAnswerFlags adds the flags of answering, for commands that answer.
func addAnswerFlags(cmd *cobra.Command, o *options) {
	f := cmd.Flags()
	f.Float64Var(&o.floor, "floor", 0, "abstain below this relevance (0: the default floor, negative: never abstain)")
	f.StringToStringVar(&o.floors, "floor-by-language", nil, "a floor per question language, e.g. it=0.2,en=0.3 (fonte.yaml: floors: {it: 0.2}); others take --floor")
	f.IntVar(&o.budget, "budget", 0, "context budget in tokens (0: the default)")
	inGroup(cmd, groupAnswer, "floor", "floor-by-language", "budget")
}

// addIndexingFlags adds the flags of indexing a folder: the chunking ones
// and which files to take.
func addIndexingFlags(cmd *cobra.Command, o *options) {
	addChunkingFlags(cmd, o)
	f := cmd.Flags()
	f.StringSliceVar(&o.include, "include", nil, "only index files matching these globs (e.g. '**/*.md')")
	f.StringSliceVar(&o.exclude, "exclude", nil, "skip files and folders matching these globs")
	f.BoolVar(&o.followLink, "follow-symlinks", false, "follow symbolic links to files and folders outside the indexed folder (refused by default)")
	f.StringVar(&o.memory, "memory", "", "memory budget of indexing, e.g. 6GiB (default: a quarter of this machine's memory): documents are written out, and BM25's postings spilled as sorted runs, past a thirty-second of it, and the garbage collector works to stay under it")
	o.hasMemory = true
	inGroup(cmd, groupIndexing, "include", "exclude", "follow-symlinks")
}

// addLimitFlags adds the limits of one run's work (an upload with all its
// files, an index run over a folder), for the commands that take
// documents from others: index (a shared folder, --watch) and serve.
func addLimitFlags(cmd *cobra.Command, o *options) {
	f := cmd.Flags()
	d := ingest.DefaultLimits
	f.StringVar(&o.maxExpanded, ingest.LimitExpandedBytes, fmt.Sprintf("%dMiB", d.ExpandedBytes>>20), "most bytes one upload or index run may expand to: text extracted, and office packages inflated (0: no limit)")
	f.IntVar(&o.limits.Pages, ingest.LimitPages, d.Pages, "most PDF pages and slides one upload or index run may read (0: no limit)")
	f.IntVar(&o.limits.Chunks, ingest.LimitChunks, d.Chunks, "most chunks one upload or index run may make; a run over any limit is refused whole (0: no limit)")
	o.hasLimits = true
	inGroup(cmd, groupIndexing, ingest.LimitExpandedBytes, ingest.LimitPages, ingest.LimitChunks)
}

// runLimits returns the per-run limits the flags set.
func (o *options) runLimits() (ingest.Limits, error) {
	l := o.limits
	if l.Pages < 0 || l.Chunks < 0 {
		return l, usageError{fmt.Errorf("%s %d, %s %d: want 0 (no limit) or more", o.named(ingest.LimitPages), l.Pages, o.named(ingest.LimitChunks), l.Chunks)}
	}
	if strings.TrimSpace(o.maxExpanded) == "0" {
		return l, nil
	}
	n, err := engine.ParseBytes(o.maxExpanded)
	if err != nil {
		return l, usageError{fmt.Errorf("%s: %w (0: no limit)", o.named(ingest.LimitExpandedBytes), err)}
	}
	l.ExpandedBytes = n
	return l, nil
}

// addChunkingFlags adds the chunking flags alone, for commands that write
// to an index without walking a folder (delete): a writable open must name
// the chunker the index was built with.
func addChunkingFlags(cmd *cobra.Command, o *options) {
	f := cmd.Flags()
	f.StringVar(&o.chunker, "chunker", defaultChunker, "structure (by headings) or window (word windows)")
	f.IntVar(&o.chunkSize, "chunk-size", 0, "chunk size in words (0: the chunker's default)")
	f.IntVar(&o.overlap, "overlap", 0, "overlap in words (0: the chunker's default)")
	inGroup(cmd, groupIndexing, "chunker", "chunk-size", "overlap")
}

// flagSections renders flags for the help: the command's own flags under
// "Flags:", then each group under its own heading.
func flagSections(flags *pflag.FlagSet) string {
	sets := map[string]*pflag.FlagSet{}
	flags.VisitAll(func(f *pflag.Flag) {
		group := ""
		if g := f.Annotations[flagGroupKey]; len(g) > 0 {
			group = g[0]
		}
		if sets[group] == nil {
			sets[group] = pflag.NewFlagSet(group, pflag.ContinueOnError)
		}
		sets[group].AddFlag(f)
	})
	var sections []string
	for _, g := range append([]string{""}, flagGroups...) {
		fs := sets[g]
		if fs == nil {
			continue
		}
		title := "Flags:"
		if g != "" {
			title = g + " flags:"
		}
		sections = append(sections, title+"\n"+strings.TrimRight(fs.FlagUsages(), " \t\n"))
	}
	return strings.Join(sections, "\n\n")
}

// usageTemplate is cobra's usage template with the local flags printed by
// group (flagSections); should cobra's template change shape, it is used
// as it is.
func usageTemplate(def string) string {
	const plain = "Flags:\n{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}"
	return strings.Replace(def, plain, "{{flagSections .LocalFlags}}", 1)
}

// The template function is registered once, at start-up: cobra keeps
// template functions in a package-level map.
func init() { cobra.AddTemplateFunc("flagSections", flagSections) }

// addConfigFlag adds --config, the one flag every command has.
func addConfigFlag(cmd *cobra.Command, o *options) {
	cmd.PersistentFlags().StringVar(&o.config, "config", "", "config file (YAML; default ./fonte.yaml when present)")
}

// knownSettings are the names the config file may use: every flag of
// every fonte command (the file is shared, and a key belongs to the
// commands that have its flag) and the structured sections.
func knownSettings(root *cobra.Command) map[string]bool {
	known := map[string]bool{}
	for _, s := range fileSections {
		known[s] = true
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		add := func(f *pflag.Flag) { known[f.Name] = true }
		c.Flags().VisitAll(add)
		c.PersistentFlags().VisitAll(add)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	delete(known, "help") // cobra's, not a setting
	return known
}

// applyEnvAndFile fills every flag of cmd the user did not set from FONTE_*
// and then from the config file, whose keys must each be a setting some
// command knows.
func applyEnvAndFile(cmd *cobra.Command, o *options) error {
	var file map[string]any
	path := o.config
	if path == "" {
		if v := os.Getenv("FONTE_CONFIG"); v != "" {
			path = v
		} else if _, err := os.Stat("fonte.yaml"); err == nil {
			path = "fonte.yaml"
		}
	}
	if path != "" {
		raw, err := os.ReadFile(path)
		if err != nil {
			return usageError{fmt.Errorf("config file: %w", err)}
		}
		if err := yaml.Unmarshal(raw, &file); err != nil {
			return usageError{fmt.Errorf("config file %s: %w", path, err)}
		}
	}
	known := knownSettings(cmd.Root())
	for _, k := range slices.Sorted(maps.Keys(file)) {
		if !known[k] {
			return usageError{fmt.Errorf("config file %s: unknown setting %q", path, k)}
		}
	}
	o.file, o.filePath = file, path
	o.from = map[string]string{}
	var ferr error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if ferr != nil || f.Changed || f.Name == "help" {
			return
		}
		env := "FONTE_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v, ok := os.LookupEnv(env); ok {
			if err := f.Value.Set(v); err != nil {
				ferr = usageError{fmt.Errorf("%s=%q: %w", env, v, err)}
			}
			o.from[f.Name] = env
			return
		}
		if v, ok := file[f.Name]; ok {
			s := fmt.Sprint(v)
			if list, isList := v.([]any); isList {
				parts := make([]string, len(list))
				for i, x := range list {
					parts[i] = fmt.Sprint(x)
				}
				s = strings.Join(parts, ",")
			}
			if err := f.Value.Set(s); err != nil {
				ferr = usageError{fmt.Errorf("config file %s: %s: %w", path, f.Name, err)}
			}
			o.from[f.Name] = fmt.Sprintf("config file %s: %s", path, f.Name)
		}
	})
	return ferr
}

// named is how an error names the setting flag: --flag when given on the
// command line (or left at its default), else the environment variable or
// config file key its value came from.
func (o *options) named(flag string) string {
	if n, ok := o.from[flag]; ok {
		return n
	}
	return "--" + flag
}

// settings turns options into engine settings, building the model clients.
func (o *options) settings() (engine.Settings, error) {
	if o.store != "" && o.index != engine.DefaultIndexDir && o.index != o.store {
		return engine.Settings{}, usageError{fmt.Errorf("%s %q and %s %q name two different stores: give one", o.named("store"), o.store, o.named("index"), o.index)}
	}
	s := engine.Settings{Store: o.store, IndexDir: o.index, Chunker: o.chunker, ChunkSize: o.chunkSize, Overlap: o.overlap,
		K: o.k, Floor: o.floor, Budget: o.budget, Include: o.include, Exclude: o.exclude, FollowSymlinks: o.followLink,
		LexicalWeight: o.lexWeight, DenseWeight: o.denseWeigh, Proximity: o.proximity}
	if o.k < 1 || o.k > server.MaxK {
		return s, usageError{fmt.Errorf("%s %d: want 1 to %d chunks", o.named("k"), o.k, server.MaxK)}
	}
	if o.floor > 1 {
		// Relevance is a share in [0, 1]: a floor above it abstains on
		// every question, which is never what was meant.
		return s, usageError{fmt.Errorf("%s %g: want a relevance floor of at most 1 (0: the default floor, negative: never abstain)", o.named("floor"), o.floor)}
	}
	mode, err := retrieve.ParseMode(o.retriever)
	if err != nil {
		return s, usageError{fmt.Errorf("%s: %w", o.named("retriever"), err)}
	}
	if s.Access, err = o.accessRules(); err != nil {
		return s, err
	}
	if s.Floors, err = o.languageFloors(); err != nil {
		return s, err
	}
	s.Mode = mode
	if o.hasMemory {
		s.Memory = engine.DefaultMemory()
		if o.memory != "" {
			if s.Memory, err = engine.ParseBytes(o.memory); err != nil {
				return s, usageError{fmt.Errorf("%s: %w", o.named("memory"), err)}
			}
		}
		// A soft limit: the collector runs more often near it rather than
		// let garbage double the heap of a large build.
		debug.SetMemoryLimit(s.Memory)
	}
	if o.hasLimits {
		if s.Limits, err = o.runLimits(); err != nil {
			return s, err
		}
	}
	if s.DenseIndex, err = retrieve.ParseDenseKind(o.denseIndex); err != nil {
		return s, usageError{fmt.Errorf("%s: %w", o.named("dense-index"), err)}
	}
	apiKey := o.apiKey
	httpOpts := embed.HTTPOptions{Timeout: o.timeout, APIKey: apiKey}
	if s.Embedder, err = o.embedderClient(httpOpts); err != nil {
		return s, err
	}
	if s.Generator, err = o.generatorClient(httpOpts); err != nil {
		return s, err
	}
	if s.Reranker, err = o.rerankerClient(httpOpts); err != nil {
		return s, err
	}
	return s, nil
}

// modelFlags say, for each model flag, what it takes besides
// PROVIDER:MODEL, its providers and an example of its own kind of
// model, for the message refusing a value without a provider.
var modelFlags = map[string]struct{ alone, providers, example string }{
	"embedder":  {"builtin", "ollama or openai", "ollama:nomic-embed-text"},
	"generator": {"extractive", "ollama or openai", "ollama:llama3.2"},
	"reranker":  {"none", "tei, cohere or jina", "tei:BAAI/bge-reranker-base"},
}

func (o *options) splitModel(flag, v string) (provider, model string, err error) {
	provider, model, ok := strings.Cut(v, ":")
	if !ok || model == "" {
		f := modelFlags[flag]
		return "", "", usageError{fmt.Errorf("%s %q: want %s or PROVIDER:MODEL with provider %s, e.g. %s", o.named(flag), v, f.alone, f.providers, f.example)}
	}
	return provider, model, nil
}

func (o *options) embedderClient(h embed.HTTPOptions) (fonte.Embedder, error) {
	if o.embedder == "" || o.embedder == "builtin" {
		return engine.DefaultEmbedder(), nil
	}
	provider, model, err := o.splitModel("embedder", o.embedder)
	if err != nil {
		return nil, err
	}
	switch provider {
	case "ollama":
		return embed.NewOllama(model, embed.OllamaOptions{BaseURL: o.embedURL, KeepAlive: o.keepAlive, HTTP: h})
	case "openai":
		return embed.NewOpenAI(model, embed.OpenAIOptions{BaseURL: o.embedURL, HTTP: h})
	}
	return nil, usageError{fmt.Errorf("%s: unknown provider %q (want builtin, ollama or openai)", o.named("embedder"), provider)}
}

func (o *options) generatorClient(h embed.HTTPOptions) (fonte.Generator, error) {
	if o.generator == "" || o.generator == "extractive" {
		return nil, nil
	}
	provider, model, err := o.splitModel("generator", o.generator)
	if err != nil {
		return nil, err
	}
	// A temperature is sent only when the user gave one: sending the
	// flag's zero would override every model's own default.
	var temp *float64
	if o.tempSet {
		t := o.temp
		temp = &t
	}
	if o.maxTokens < 0 {
		return nil, usageError{fmt.Errorf("%s %d: want 0 (the server's default) or more", o.named("max-tokens"), o.maxTokens)}
	}
	switch provider {
	case "ollama":
		return generate.NewOllama(model, generate.OllamaOptions{BaseURL: o.genURL, Temperature: temp, MaxTokens: o.maxTokens, KeepAlive: o.keepAlive, HTTP: h})
	case "openai":
		return generate.NewOpenAI(model, generate.OpenAIOptions{BaseURL: o.genURL, Temperature: temp, MaxTokens: o.maxTokens, HTTP: h})
	}
	return nil, usageError{fmt.Errorf("%s: unknown provider %q (want extractive, ollama or openai)", o.named("generator"), provider)}
}

func (o *options) rerankerClient(h embed.HTTPOptions) (fonte.Reranker, error) {
	if o.reranker == "" || o.reranker == "none" {
		return nil, nil
	}
	provider, model, err := o.splitModel("reranker", o.reranker)
	if err != nil {
		return nil, err
	}
	switch provider {
	case "tei":
		return rerank.NewTEI(model, rerank.TEIOptions{BaseURL: o.rerankURL, HTTP: h})
	case "cohere":
		return rerank.NewCohere(model, rerank.CohereOptions{BaseURL: o.rerankURL, HTTP: h})
	case "jina":
		return rerank.NewJina(model, rerank.CohereOptions{BaseURL: o.rerankURL, HTTP: h})
	}
	return nil, usageError{fmt.Errorf("%s: unknown provider %q (want tei, cohere or jina)", o.named("reranker"), provider)}
}
