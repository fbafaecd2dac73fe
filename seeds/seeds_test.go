package seeds

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// dir is where CI and developers keep the shared fixtures, beside the repo.
var dir = filepath.Join("..", "..", "shared", "fixtures", "seeds")

func reproduce(t *testing.T) *Report {
	t.Helper()
	f, err := Load(dir)
	if err != nil {
		t.Fatalf("the conformance fixtures are required: %v", err)
	}
	r, err := Reproduce(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestConformance asserts every figure of EXPECTED.md.
func TestConformance(t *testing.T) {
	r := reproduce(t)
	checks := Checks(r)
	if len(checks) < 60 {
		t.Fatalf("only %d checks: the comparison lost figures", len(checks))
	}
	for _, c := range checks {
		if !c.OK {
			t.Errorf("seed %s, %s:\n  want %s\n  got  %s", c.Seed, c.Figure, c.Want, c.Got)
		}
	}
}

// TestChecksCatchMismatches proves the comparison can fail: altering any
// one figure of a good report must produce a failing check.
func TestChecksCatchMismatches(t *testing.T) {
	good := reproduce(t)
	mutations := map[string]func(r *Report){
		"rank":    func(r *Report) { r.Seed000.TFIDF.Ranks[1] = 3 },
		"mrr":     func(r *Report) { r.Seed000.TFIDF.MRR += 0.001 },
		"lsa":     func(r *Report) { r.Seed000.LSA[0].Hit3++ },
		"ivf":     func(r *Report) { r.Seed000.IVF[6].Recall = 0.999 },
		"ivfrise": func(r *Report) { r.Seed000.IVF[3].Recall = r.Seed000.IVF[2].Recall - 0.01 },
		"prompt":  func(r *Report) { r.Seed000.Prompt += " " },
		"rrf":     func(r *Report) { r.Seed001.Queries[0].RRF[1], r.Seed001.Queries[0].RRF[2] = "SOP-019", "SOP-007" },
		"recall":  func(r *Report) { r.Seed002.Recall["3"] = 0.85 },
		"floor":   func(r *Report) { r.Seed002.Floor[2].Blocked = 1 },
		"fit":     func(r *Report) { r.Seed002.Fit[1].GoldKept = 8 },
		"grid":    func(r *Report) { r.Seed002.Grid.RightSupported = 1 },
	}
	for name, mutate := range mutations {
		raw, _ := json.Marshal(good)
		var r Report
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		mutate(&r)
		failed := 0
		for _, c := range Checks(&r) {
			if !c.OK {
				failed++
			}
		}
		if failed == 0 {
			t.Errorf("mutation %q went unnoticed", name)
		}
	}
}

// TestJSONKeys pins the keys `fonte reproduce --json` promises.
func TestJSONKeys(t *testing.T) {
	raw, err := json.Marshal(reproduce(t))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	tfidf := m["seed000"]["tfidf"].(map[string]any)
	if len(tfidf["ranks"].([]any)) != 15 || tfidf["mrr"] == nil {
		t.Errorf("seed000.tfidf: %v", tfidf)
	}
	for _, key := range []string{"k", "hit1", "hit3", "mrr"} {
		if _, ok := m["seed000"]["lsa"].([]any)[0].(map[string]any)[key]; !ok {
			t.Errorf("seed000.lsa lacks %q", key)
		}
	}
	for _, key := range []string{"n_probe", "recall"} {
		if _, ok := m["seed000"]["ivf"].([]any)[0].(map[string]any)[key]; !ok {
			t.Errorf("seed000.ivf lacks %q", key)
		}
	}
	for _, key := range []string{"query", "bm25", "vector", "rrf"} {
		if _, ok := m["seed001"]["queries"].([]any)[0].(map[string]any)[key]; !ok {
			t.Errorf("seed001.queries lacks %q", key)
		}
	}
	for _, key := range []string{"1", "3", "5"} {
		if _, ok := m["seed002"]["recall"].(map[string]any)[key]; !ok {
			t.Errorf("seed002.recall lacks %q", key)
		}
	}
	for _, key := range []string{"given_gold", "end_to_end", "floor", "fit"} {
		if _, ok := m["seed002"][key]; !ok {
			t.Errorf("seed002 lacks %q", key)
		}
	}
	for _, key := range []string{"floor", "let_through", "blocked"} {
		if _, ok := m["seed002"]["floor"].([]any)[0].(map[string]any)[key]; !ok {
			t.Errorf("seed002.floor lacks %q", key)
		}
	}
	for _, key := range []string{"label", "gold_kept", "right"} {
		if _, ok := m["seed002"]["fit"].([]any)[0].(map[string]any)[key]; !ok {
			t.Errorf("seed002.fit lacks %q", key)
		}
	}
}

func TestLoadMissingFixtureFails(t *testing.T) {
	empty := t.TempDir()
	if _, err := Load(empty); err == nil {
		t.Fatal("Load succeeded without fixtures")
	}
	if err := os.WriteFile(filepath.Join(empty, Seed000File), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(empty); err == nil {
		t.Fatal("Load accepted a malformed fixture")
	}
}

// TestItalianAnalysisImproves is issue 4's Italian check: fonte's default
// Italian analysis must beat the seed's plain TF-IDF on seed 000.
func TestItalianAnalysisImproves(t *testing.T) {
	f, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	rows := Seed000Analysis(f.S000)
	if len(rows) != 3 || rows[0].Hit1 != 10 || fmt.Sprintf("%.3f", rows[0].MRR) != "0.786" {
		t.Fatalf("baseline row %+v", rows[0])
	}
	for _, r := range rows[1:] {
		if r.Hit1 <= rows[0].Hit1 || r.MRR <= rows[0].MRR {
			t.Errorf("%s: hit@1 %d MRR %.3f does not improve on the seed's 10, 0.786", r.Retriever, r.Hit1, r.MRR)
		}
	}
}
