package main

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// FuzzConfigFile loads arbitrary fonte.yaml files the way every command
// does (applyEnvAndFile under the real command tree), then reads the
// structured sections fonte serve reads and builds the engine settings:
// each step refuses the file with a usage error naming it, or yields
// settings whose keys are all known and whose floors are floors.
func FuzzConfigFile(f *testing.F) {
	for _, s := range []string{
		"chunker: window\ninclude: ['**/*.md']\ngenerator: extractive\naddr: 127.0.0.1:1\nk: 2\n" +
			"tokens:\n  - digest: abc\n    scope: read\nrate-limit: 60\ncors-origins: [https://example.org]\n",
		"chunker: window\nhosts: [rag.example.org]\naccess:\n  hr/: [hr]\n",
		"floors: {it: 0.2, en: 0.3}\nretriever: hybrid\nfloor: 0.25\ntimeout: 30s\n",
		"collections:\n  docs:\n    folder: ./docs\n    chunker: window\n    chunk-size: 100\n",
		"colour: blue\n",
		"k: [1, 2]\ntemperature: hot\n",
		"embedder: 'ollama:'\n",
		"tokens: {digest: 1}\nfloors: {it: 2}\n",
		"&a [*a, *a]\n",
		"- a\n- b\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		path := filepath.Join(t.TempDir(), "fonte.yaml")
		if err := os.WriteFile(path, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		o := newOptions()
		root := &cobra.Command{Use: "fonte"}
		addConfigFlag(root, o)
		serve := newServe(o)
		root.AddCommand(newReproduce(), newIndex(o), newSearch(o), newAsk(o), newChat(o), newDelete(o), newStatus(o), newEval(o),
			newDump(o), newRestore(o), newCopy(o), newMCP(o), serve)
		o.config = path
		usage := func(step string, err error) {
			t.Helper()
			var u usageError
			if !errors.As(err, &u) {
				t.Fatalf("%s: not a usage error: %v", step, err)
			}
			if !strings.Contains(err.Error(), path) && !strings.HasPrefix(err.Error(), "--") {
				t.Fatalf("%s: error names neither the file nor a flag: %v", step, err)
			}
		}
		if err := applyEnvAndFile(serve, o); err != nil {
			usage("applyEnvAndFile", err)
			return
		}
		known := knownSettings(root)
		for k := range o.file {
			if !known[k] {
				t.Fatalf("unknown setting %q accepted", k)
			}
		}
		if _, err := o.serveSections(); err != nil {
			usage("serveSections", err)
		}
		s, err := o.settings()
		if err != nil {
			usage("settings", err)
			return
		}
		for lang, fl := range s.Floors {
			if math.IsNaN(fl) || fl < 0 || fl > 1 {
				t.Fatalf("floors: %s: %v accepted; a floor is between 0 and 1", lang, fl)
			}
		}
	})
}
