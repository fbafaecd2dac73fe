package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/server"
)

// hasFlag says whether help lists the flag --name on a line of its own, as
// a flag's definition rather than a mention in another flag's text.
func hasFlag(help, name string) bool {
	return regexp.MustCompile(`(?m)^\s+(-\w, )?--` + regexp.QuoteMeta(name) + `\b`).MatchString(help)
}

// Each command's --help lists the flags it uses, and none it ignores.
func TestFlagGroupsHelp(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cmd       string
		want, not []string
		sections  []string
	}{
		{"ask", []string{"floor", "generator", "store", "json", "k", "config"}, []string{"chunker", "include"},
			[]string{"Store flags:", "Output flags:", "Model flags:", "Retrieval flags:", "Answer flags:", "Global Flags:"}},
		{"serve", []string{"addr", "chunker", "include", "generator", "floor", "store"}, []string{"json"},
			[]string{"Indexing flags:"}},
		{"search", []string{"embedder", "reranker", "k", "json"}, []string{"generator", "temperature", "floor", "chunker"}, nil},
		{"mcp", []string{"generator", "floor", "store"}, []string{"json", "chunker", "include"}, nil},
		{"index", []string{"chunker", "include", "embedder", "dense-index", "json"}, []string{"generator", "floor", "k", "reranker"}, nil},
		{"delete", []string{"store", "dense-index", "json"}, []string{"chunker", "embedder", "include", "generator", "k"}, nil},
		{"copy", []string{"from", "to", "json"}, []string{"store", "embedder"}, nil},
		{"eval", []string{"chunker", "generator", "floor", "k", "json"}, nil, nil},
	} {
		code, out, stderr := runCLI(t, c.cmd, "--help")
		if code != exitOK {
			t.Errorf("fonte %s --help: exit %d: %s", c.cmd, code, stderr)
			continue
		}
		for _, f := range c.want {
			if !hasFlag(out, f) {
				t.Errorf("fonte %s --help does not list --%s:\n%s", c.cmd, f, out)
			}
		}
		for _, f := range c.not {
			if hasFlag(out, f) {
				t.Errorf("fonte %s --help lists --%s, which it does not use:\n%s", c.cmd, f, out)
			}
		}
		for _, s := range c.sections {
			if !strings.Contains(out, "\n"+s+"\n") {
				t.Errorf("fonte %s --help has no %q section:\n%s", c.cmd, s, out)
			}
		}
	}
}

// The config file is shared by all commands: a key some other command
// uses is ignored, a structured section is kept, a key no command knows is
// refused.
func TestConfigFileSharedKeys(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "fonte.yaml")
	writeFile(t, cfg, []byte("chunker: window\ninclude: ['**/*.md']\ngenerator: extractive\naddr: 127.0.0.1:1\nk: 2\n"+
		"tokens:\n  - digest: abc\n    scope: read\nrate-limit: 60\ncors-origins: [https://example.org]\n"))
	code, out, stderr := runCLI(t, "search", "annual leave days", "--config", cfg, "--index", idx, "--json")
	if code != exitOK {
		t.Fatalf("fonte search with index-only keys in fonte.yaml: exit %d: %s", code, stderr)
	}
	if n := len(decode[searchOut](t, out).Hits); n != 2 {
		t.Errorf("fonte.yaml k: 2: %d hits", n)
	}

	bad := filepath.Join(dir, "bad.yaml")
	writeFile(t, bad, []byte("chunker: window\ncolour: blue\n"))
	// index gets an index of its own, should it ever run.
	for _, cmd := range [][]string{{"search", "leave", "--index", idx}, {"index", dir, "--index", filepath.Join(dir, "idx")}, {"status", "--index", idx}} {
		code, _, stderr = runCLI(t, append(cmd, "--config", bad)...)
		if code != exitUsage || !strings.Contains(stderr, `unknown setting "colour"`) || !strings.Contains(stderr, bad) {
			t.Errorf("fonte %s with an unknown key: exit %d, %q; want exit 2 naming the key and the file", cmd[0], code, stderr)
		}
	}
}

// serve reads the structured sections itself: applyEnvAndFile keeps the
// parsed file and its path, and still applies the keys that are flags.
func TestConfigFileKept(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "fonte.yaml")
	writeFile(t, cfg, []byte("chunker: window\nhosts: [rag.example.org]\naccess:\n  hr/: [hr]\n"))
	o := newOptions()
	cmd := newServe(o)
	addConfigFlag(cmd, o)
	o.config = cfg
	if err := applyEnvAndFile(cmd, o); err != nil {
		t.Fatal(err)
	}
	if o.filePath != cfg || o.file["hosts"] == nil || o.file["access"] == nil {
		t.Errorf("options keep file %v from %q; want the parsed %s", o.file, o.filePath, cfg)
	}
	if o.chunker != "window" {
		t.Errorf("chunker %q; want window, from the file", o.chunker)
	}
}

// FONTE_<FLAG> still sets a flag of the command that runs. Not parallel:
// it sets the process environment, and Main runs in process.
func TestEnvSetsCommandFlag(t *testing.T) {
	_, idx := sharedIndex(t)
	t.Setenv("FONTE_K", "3")
	code, out, stderr := runCLI(t, "search", "annual leave days", "--index", idx, "--json")
	if code != exitOK {
		t.Fatalf("fonte search: exit %d: %s", code, stderr)
	}
	if n := len(decode[searchOut](t, out).Hits); n != 3 {
		t.Errorf("FONTE_K=3: %d hits", n)
	}
}

// TestTraceFlag: --trace adds the trace to search's and ask's JSON, and
// prints it after the answer in text.
func TestTraceFlag(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	code, out, stderr := runCLI(t, "search", "annual leave days", "--index", idx, "--json", "--trace")
	var sr struct {
		Hits  []struct{ Chunk string }
		Trace *engine.Trace
	}
	if err := json.Unmarshal([]byte(out), &sr); code != exitOK || err != nil || sr.Trace == nil || len(sr.Trace.Fused) == 0 ||
		sr.Trace.Fused[0].ChunkID != sr.Hits[0].Chunk {
		t.Fatalf("search --json --trace: exit %d, %v: %s %s", code, err, out, stderr)
	}
	code, out, stderr = runCLI(t, "ask", "How many days of annual leave do full-time employees get?", "--index", idx, "--trace")
	if code != exitOK || !strings.Contains(out, "--- trace ---") || !strings.Contains(out, "floor 0.25") || !strings.Contains(out, "bm25 leg") {
		t.Fatalf("ask --trace: exit %d: %s %s", code, out, stderr)
	}
	code, out, _ = runCLI(t, "ask", "How many days of annual leave do full-time employees get?", "--index", idx)
	if code != exitOK || strings.Contains(out, "--- trace ---") {
		t.Fatalf("ask without --trace prints a trace: %s", out)
	}
}

// TestFloorByLanguage: floors per language from the flag or fonte.yaml's
// floors: section reach the engine; a bad one is a usage error.
func TestFloorByLanguage(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	const q = "Quanti giorni di ferie maturano ogni anno i dipendenti a tempo pieno?"
	code, out, stderr := runCLI(t, "ask", q, "--index", idx, "--json", "--floor-by-language", "it=0.99")
	if code != exitOK || !strings.Contains(out, `"abstained": true`) {
		t.Fatalf("ask with an Italian floor of 0.99: exit %d: %s %s", code, out, stderr)
	}
	cfg := filepath.Join(t.TempDir(), "fonte.yaml")
	writeFile(t, cfg, []byte("floors:\n  it: 0.99\n"))
	if code, out, stderr = runCLI(t, "ask", q, "--index", idx, "--json", "--config", cfg); code != exitOK || !strings.Contains(out, `"abstained": true`) {
		t.Fatalf("ask with floors: in fonte.yaml: exit %d: %s %s", code, out, stderr)
	}
	if code, _, stderr = runCLI(t, "ask", q, "--index", idx, "--floor-by-language", "it=high"); code != exitUsage || !strings.Contains(stderr, "floor-by-language") {
		t.Fatalf("a bad floor: exit %d: %s", code, stderr)
	}
}

// TestFloorAboveOne: a relevance floor above 1 would abstain on every
// question; --floor refuses it as --floor-by-language and the HTTP API
// do, naming the flag, and 1 itself is allowed.
func TestFloorAboveOne(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	const q = "How many days of annual leave do full-time employees get?"
	if code, out, stderr := runCLI(t, "ask", q, "--index", idx, "--floor", "2"); code != exitUsage || !strings.Contains(stderr, "--floor 2") {
		t.Errorf("ask --floor 2: exit %d, stdout %q, stderr %q; want exit %d naming --floor", code, out, stderr, exitUsage)
	}
	if code, out, stderr := runCLI(t, "ask", q, "--index", idx, "--floor", "1"); code != exitOK || !strings.Contains(out, "I don't know") {
		t.Errorf("ask --floor 1: exit %d, %s %s; want an abstention", code, out, stderr)
	}
}

// TestRefusedValueNamesItsSource: a value refused after parsing is named
// by where it came from, the flag, FONTE_<FLAG> or the config file's key,
// so that the user finds what to change. Not parallel: it sets the
// process environment, and Main runs in process.
func TestRefusedValueNamesItsSource(t *testing.T) {
	_, idx := sharedIndex(t)
	const q = "How many days of annual leave do full-time employees get?"
	cfg := filepath.Join(t.TempDir(), "fonte.yaml")
	writeFile(t, cfg, []byte("k: 0\nretriever: magic\n"))
	if code, _, stderr := runCLI(t, "ask", q, "--index", idx, "--config", cfg); code != exitUsage || !strings.Contains(stderr, "config file "+cfg+": k 0: want 1 to") {
		t.Errorf("k: 0 in the config file: exit %d, stderr %q; want it named by the file and key", code, stderr)
	}
	if code, _, stderr := runCLI(t, "ask", q, "--index", idx, "--config", cfg, "--k", "5"); code != exitUsage || !strings.Contains(stderr, "config file "+cfg+": retriever: retriever \"magic\"") {
		t.Errorf("retriever: magic in the config file: exit %d, stderr %q; want it named by the file and key", code, stderr)
	}
	t.Setenv("FONTE_FLOOR", "3")
	if code, _, stderr := runCLI(t, "ask", q, "--index", idx); code != exitUsage || !strings.Contains(stderr, "FONTE_FLOOR 3: want") || strings.Contains(stderr, "--floor") {
		t.Errorf("FONTE_FLOOR=3: exit %d, stderr %q; want it named FONTE_FLOOR", code, stderr)
	}
	if code, _, stderr := runCLI(t, "ask", q, "--index", idx, "--floor", "2"); code != exitUsage || !strings.Contains(stderr, "--floor 2: want") {
		t.Errorf("--floor 2 over FONTE_FLOOR=3: exit %d, stderr %q; want the flag named", code, stderr)
	}
	t.Setenv("FONTE_MAX_UPLOADS", "0")
	if code, _, stderr := runCLI(t, "serve", "--index", idx, "--addr", "127.0.0.1:0"); code != exitUsage || !strings.Contains(stderr, "FONTE_MAX_UPLOADS 0: want 1 or more") {
		t.Errorf("FONTE_MAX_UPLOADS=0: exit %d, stderr %q; want it named FONTE_MAX_UPLOADS", code, stderr)
	}
}

// TestIndexHelpFormats: `fonte index --help` names every format an index
// run reads (those server.ReadableFormats lists and the page shows), with
// its extensions, and says which need OCR.
func TestIndexHelpFormats(t *testing.T) {
	_, out, _ := runCLI(t, "index", "--help")
	help := strings.Join(strings.Fields(out), " ")
	for _, f := range server.ReadableFormats {
		if !strings.Contains(help, f.Name) {
			t.Errorf("index --help does not name %s:\n%s", f.Name, out)
		}
		for _, ext := range f.Extensions {
			if !strings.Contains(help, ext) {
				t.Errorf("index --help does not name %s's extension %s:\n%s", f.Name, ext, out)
			}
		}
	}
	if !strings.Contains(help, "tesseract") {
		t.Errorf("index --help does not say which formats need tesseract:\n%s", out)
	}
}

// TestModelFlagWithoutProvider: a model flag's value without a provider
// is refused with what that flag takes: its offline value, its
// providers and an example of its own kind (a chat model for
// --generator, not an embedding model).
func TestModelFlagWithoutProvider(t *testing.T) {
	t.Parallel()
	idx := t.TempDir()
	for _, c := range []struct{ flag, value, want, notWant string }{
		{"--generator", "gpt4", "extractive", "nomic-embed-text"},
		{"--embedder", "nomic", "builtin", "llama3"},
		{"--reranker", "bge", "none", "nomic-embed-text"},
	} {
		code, _, stderr := runCLI(t, "ask", "hotel", "--index", idx, c.flag, c.value)
		if code != exitUsage || !strings.Contains(stderr, c.flag) || !strings.Contains(stderr, c.want) || strings.Contains(stderr, c.notWant) {
			t.Errorf("ask %s %s: exit %d, %q; want exit %d naming the flag and %q, not %q", c.flag, c.value, code, stderr, exitUsage, c.want, c.notWant)
		}
	}
}

// TestBlankQuestion: a blank question or query is a usage error naming
// it, as the HTTP API's 400 and the MCP tools' error are, not an "I
// don't know" or "no matches" that reads as if the documents were asked.
func TestBlankQuestion(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	for _, c := range []struct{ cmd, what string }{{"ask", "question"}, {"search", "query"}} {
		for _, blank := range []string{"", "   ", "\t\n"} {
			code, out, stderr := runCLI(t, c.cmd, blank, "--index", idx)
			if code != exitUsage || !strings.Contains(stderr, c.what) || out != "" {
				t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want exit %d naming the %s", c.cmd, blank, code, out, stderr, exitUsage, c.what)
			}
		}
	}
}
