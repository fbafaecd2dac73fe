package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gopkg.in/yaml.v3"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/embed"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/generate"
	"github.com/fonte-rag/fonte/rerank"
	"github.com/fonte-rag/fonte/retrieve"
)

// options are the settings every command shares. Each comes, in order of
// precedence, from its flag, from the environment variable FONTE_<FLAG>
// (upper case, dashes as underscores: --embed-url is FONTE_EMBED_URL), from
// the config file (YAML, keys named like the flags: `embed-url: …`), or
// from its default.
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
	timeout    time.Duration
	temp       float64
	keepAlive  string
	lexWeight  float64
	denseWeigh float64
	denseIndex string
	store      string
}

func addCommonFlags(cmd *cobra.Command, o *options) {
	f := cmd.PersistentFlags()
	f.StringVar(&o.store, "store", "", "where the index lives: a folder (default ./.fonte), postgres://… or redis://…")
	f.StringVar(&o.index, "index", engine.DefaultIndexDir, "index folder (an alias of --store for a folder)")
	f.StringVar(&o.config, "config", "", "config file (YAML; default ./fonte.yaml when present)")
	f.BoolVar(&o.asJSON, "json", false, "print JSON instead of text")
	f.StringVar(&o.embedder, "embedder", "builtin", "embedding model: builtin, ollama:MODEL or openai:MODEL")
	f.StringVar(&o.embedURL, "embed-url", "", "base URL of the embedding server (default: the provider's)")
	f.StringVar(&o.generator, "generator", "extractive", "answer model: extractive (offline), ollama:MODEL or openai:MODEL")
	f.StringVar(&o.genURL, "generate-url", "", "base URL of the chat server (default: the provider's)")
	f.StringVar(&o.apiKey, "api-key", "", "API key for OpenAI-compatible and rerank servers (prefer FONTE_API_KEY)")
	f.StringVar(&o.reranker, "reranker", "", "cross-encoder: tei:MODEL, cohere:MODEL or jina:MODEL (default none)")
	f.StringVar(&o.rerankURL, "rerank-url", "", "base URL of the rerank server")
	f.StringVar(&o.retriever, "retriever", "hybrid", "hybrid, bm25 or vector")
	f.IntVar(&o.k, "k", 10, "number of chunks to retrieve")
	f.Float64Var(&o.floor, "floor", 0, "abstain below this relevance (0: the default floor, negative: never abstain)")
	f.IntVar(&o.budget, "budget", 0, "context budget in tokens (0: the default)")
	f.StringVar(&o.chunker, "chunker", "structure", "structure (by headings) or window (word windows)")
	f.IntVar(&o.chunkSize, "chunk-size", 0, "chunk size in words (0: the chunker's default)")
	f.IntVar(&o.overlap, "overlap", 0, "overlap in words (0: the chunker's default)")
	f.StringSliceVar(&o.include, "include", nil, "only index files matching these globs (e.g. '**/*.md')")
	f.StringSliceVar(&o.exclude, "exclude", nil, "skip files and folders matching these globs")
	f.DurationVar(&o.timeout, "timeout", 0, "per-request timeout for model servers (0: the client's default)")
	f.Float64Var(&o.temp, "temperature", 0, "sampling temperature for the answer model")
	f.StringVar(&o.keepAlive, "keep-alive", "", "Ollama keep_alive for loaded models (e.g. 5m)")
	f.Float64Var(&o.lexWeight, "lexical-weight", 0, "weight of the BM25 leg in the fusion (0 with --dense-weight 0: defaults, 1 and 1, or 0.5 for the built-in embedder)")
	f.Float64Var(&o.denseWeigh, "dense-weight", 0, "weight of the dense leg in the fusion")
	f.StringVar(&o.denseIndex, "dense-index", "auto", "dense leg's index: auto (exact below 50,000 chunks, HNSW above), exact or hnsw")
}

// applyEnvAndFile fills every flag the user did not set from FONTE_* and
// then from the config file.
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
	known := map[string]bool{}
	var ferr error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		known[f.Name] = true
		if ferr != nil || f.Changed {
			return
		}
		env := "FONTE_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v, ok := os.LookupEnv(env); ok {
			if err := f.Value.Set(v); err != nil {
				ferr = usageError{fmt.Errorf("%s=%q: %w", env, v, err)}
			}
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
		}
	})
	if ferr != nil {
		return ferr
	}
	for k := range file {
		if !known[k] {
			return usageError{fmt.Errorf("config file %s: unknown setting %q", path, k)}
		}
	}
	return nil
}

// settings turns options into engine settings, building the model clients.
func (o *options) settings() (engine.Settings, error) {
	if o.store != "" && o.index != engine.DefaultIndexDir && o.index != o.store {
		return engine.Settings{}, usageError{fmt.Errorf("--store %q and --index %q name two different stores: give one", o.store, o.index)}
	}
	s := engine.Settings{Store: o.store, IndexDir: o.index, Chunker: o.chunker, ChunkSize: o.chunkSize, Overlap: o.overlap,
		K: o.k, Floor: o.floor, Budget: o.budget, Include: o.include, Exclude: o.exclude,
		LexicalWeight: o.lexWeight, DenseWeight: o.denseWeigh}
	mode, err := retrieve.ParseMode(o.retriever)
	if err != nil {
		return s, usageError{fmt.Errorf("--retriever: %w", err)}
	}
	s.Mode = mode
	if s.DenseIndex, err = retrieve.ParseDenseKind(o.denseIndex); err != nil {
		return s, usageError{fmt.Errorf("--dense-index: %w", err)}
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

func splitModel(flag, v string) (provider, model string, err error) {
	provider, model, ok := strings.Cut(v, ":")
	if !ok || model == "" {
		return "", "", usageError{fmt.Errorf("--%s %q: want PROVIDER:MODEL, e.g. ollama:nomic-embed-text", flag, v)}
	}
	return provider, model, nil
}

func (o *options) embedderClient(h embed.HTTPOptions) (fonte.Embedder, error) {
	if o.embedder == "" || o.embedder == "builtin" {
		return engine.DefaultEmbedder(), nil
	}
	provider, model, err := splitModel("embedder", o.embedder)
	if err != nil {
		return nil, err
	}
	switch provider {
	case "ollama":
		return embed.NewOllama(model, embed.OllamaOptions{BaseURL: o.embedURL, KeepAlive: o.keepAlive, HTTP: h})
	case "openai":
		return embed.NewOpenAI(model, embed.OpenAIOptions{BaseURL: o.embedURL, HTTP: h})
	}
	return nil, usageError{fmt.Errorf("--embedder: unknown provider %q (want builtin, ollama or openai)", provider)}
}

func (o *options) generatorClient(h embed.HTTPOptions) (fonte.Generator, error) {
	if o.generator == "" || o.generator == "extractive" {
		return nil, nil
	}
	provider, model, err := splitModel("generator", o.generator)
	if err != nil {
		return nil, err
	}
	temp := o.temp
	switch provider {
	case "ollama":
		return generate.NewOllama(model, generate.OllamaOptions{BaseURL: o.genURL, Temperature: &temp, KeepAlive: o.keepAlive, HTTP: h})
	case "openai":
		return generate.NewOpenAI(model, generate.OpenAIOptions{BaseURL: o.genURL, Temperature: &temp, HTTP: h})
	}
	return nil, usageError{fmt.Errorf("--generator: unknown provider %q (want extractive, ollama or openai)", provider)}
}

func (o *options) rerankerClient(h embed.HTTPOptions) (fonte.Reranker, error) {
	if o.reranker == "" || o.reranker == "none" {
		return nil, nil
	}
	provider, model, err := splitModel("reranker", o.reranker)
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
	return nil, usageError{fmt.Errorf("--reranker: unknown provider %q (want tei, cohere or jina)", provider)}
}
