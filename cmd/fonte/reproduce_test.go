package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

const seedsDir = "../../../shared/fixtures/seeds"

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestReproduceJSON(t *testing.T) {
	code, out, stderr := runCLI(t, "reproduce", "--seeds", seedsDir, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Seed000 struct {
			TFIDF struct {
				Ranks []int   `json:"ranks"`
				MRR   float64 `json:"mrr"`
			} `json:"tfidf"`
		} `json:"seed000"`
		Seed002 struct {
			Recall map[string]float64 `json:"recall"`
		} `json:"seed002"`
		Checks []struct{ OK bool } `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(got.Seed000.TFIDF.Ranks) != 15 || got.Seed000.TFIDF.Ranks[1] != 4 {
		t.Errorf("ranks %v", got.Seed000.TFIDF.Ranks)
	}
	if got.Seed002.Recall["1"] < 0.84 || got.Seed002.Recall["1"] > 0.85 {
		t.Errorf("recall@1 %v", got.Seed002.Recall["1"])
	}
	if len(got.Checks) < 60 {
		t.Errorf("%d checks", len(got.Checks))
	}
}

func TestReproduceTable(t *testing.T) {
	code, out, stderr := runCLI(t, "reproduce", "--seeds", seedsDir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Seed 000", "Seed 001", "Seed 002", "10/15 13/15 0.786", "figures equal the seeds'"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(out, "DIFF") {
		t.Errorf("a figure differs:\n%s", out)
	}
}

func TestReproduceErrors(t *testing.T) {
	if code, _, stderr := runCLI(t, "reproduce", "--seeds", t.TempDir()); code != exitFailure || !strings.Contains(stderr, "seed000-rulebook-it.json") {
		t.Errorf("missing fixtures: exit %d, stderr %q", code, stderr)
	}
	if code, _, _ := runCLI(t, "reproduce", "--no-such-flag"); code != exitUsage {
		t.Errorf("unknown flag: exit %d, want %d", code, exitUsage)
	}
	if code, _, _ := runCLI(t, "reproduce", "extra-arg"); code != exitUsage {
		t.Errorf("extra argument: exit %d, want %d", code, exitUsage)
	}
}
