package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestIndexFailsOnLabelMistakes: `fonte index` exits non-zero when it
// refuses a file whose access labels cannot be read (naming the file and
// field), indexes the rest, and `fonte status` then lists each label with
// its count; a folder rule that matches nothing, or has no labels, fails
// naming the rule. All of these used to exit 0 with the documents public.
func TestIndexFailsOnLabelMistakes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	docs, idx, cfg := filepath.Join(dir, "docs"), filepath.Join(dir, "index"), filepath.Join(dir, "fonte.yaml")
	writeFile(t, filepath.Join(docs, "Secret", "plan.md"), []byte("# Plan\n\nThe plan is kept secret.\n"))
	writeFile(t, filepath.Join(docs, "pay.md"), []byte("---\naccess: [42]\n---\n# Pay\n\nThe director earns 987654 euros.\n"))
	writeFile(t, filepath.Join(docs, "leave.md"), []byte("---\naccess: hr\n---\n# Leave\n\nTwenty days of leave a year.\n"))
	writeFile(t, cfg, []byte("access:\n  ./secret/: [board]\n"))

	code, out, stderr := runCLI(t, "index", "--config", cfg, "--index", idx, docs)
	if code != exitFailure || !strings.Contains(out, "refused pay.md: access:") || !strings.Contains(stderr, "pay.md (access)") {
		t.Fatalf("index: exit %d\n%s\n%s\nwant exit %d refusing pay.md for its access field", code, out, stderr, exitFailure)
	}
	code, out, stderr = runCLI(t, "status", "--config", cfg, "--index", idx)
	if code != exitOK || !strings.Contains(out, "labels    board (1 document), hr (1 document)\n") || !strings.Contains(out, "Secret/plan.md") || strings.Contains(out, "pay.md") {
		t.Fatalf("status: exit %d\n%s\n%s", code, out, stderr)
	}
	code, out, _ = runCLI(t, "status", "--config", cfg, "--index", idx, "--json")
	var st struct{ Labels map[string]int }
	if err := json.Unmarshal([]byte(out), &st); code != exitOK || err != nil || st.Labels["board"] != 1 || st.Labels["hr"] != 1 {
		t.Fatalf("status --json: exit %d, labels %v (%v)", code, st.Labels, err)
	}

	writeFile(t, cfg, []byte("access:\n  docs/secret/: [board]\n"))
	code, _, stderr = runCLI(t, "index", "--config", cfg, "--index", idx, docs)
	if code != exitFailure || !strings.Contains(stderr, `access rule "docs/secret/" matches no file`) || !strings.Contains(stderr, `did you mean "secret/"`) {
		t.Fatalf("rule matching nothing: exit %d, %s", code, stderr)
	}
	writeFile(t, cfg, []byte("access:\n  secret/: []\n"))
	code, _, stderr = runCLI(t, "index", "--config", cfg, "--index", idx, docs)
	if code != exitUsage || !strings.Contains(stderr, cfg) || !strings.Contains(stderr, `access rule "secret/" has no labels`) {
		t.Fatalf("rule without labels: exit %d, %s", code, stderr)
	}
}

// TestServeRefusesCollectionRuleWithoutLabels: a collection's access rule
// without labels in the config file makes the built fonte serve exit 2
// naming the file and the collection, before anything is served.
func TestServeRefusesCollectionRuleWithoutLabels(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "fonte.yaml")
	writeFile(t, cfg, []byte("collections:\n  team:\n    folder: /srv/team\n    access:\n      hr/: []\n"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	serve := exec.CommandContext(ctx, fonteBin, "serve", "--config", cfg, "--addr", "127.0.0.1:0",
		"--index", filepath.Join(dir, "index"), "--data", filepath.Join(dir, "data"))
	serve.Stderr = &stderr
	err := serve.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitUsage || !strings.Contains(stderr.String(), cfg) ||
		!strings.Contains(stderr.String(), `team: access: access rule "hr/" has no labels`) {
		t.Fatalf("fonte serve: %v, %s; want exit %d naming %s, the collection and the rule", err, stderr.String(), exitUsage, cfg)
	}
}
