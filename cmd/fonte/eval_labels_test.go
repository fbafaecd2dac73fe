package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeLabels writes a small hand-labels file: two labels the judge agrees
// with, one it calls right that the person labelled misleading.
func writeLabels(t *testing.T, extra ...string) string {
	t.Helper()
	lines := []string{
		`{"id": "en-1", "lang": "en", "question": "How much can I spend per night on a hotel in London?", "reference": "250 euro per night in London.", "answer": "180 euro — Hotel: up to 180 euro per night, and up to 250 euro per night in London. [1]", "abstained": false, "verdict": "misleading", "source": "hand-variant"}`,
		`{"id": "it-1", "lang": "it", "question": "Quanto deve essere lunga la password?", "reference": "10 caratteri.", "answer": "La password deve avere almeno 10 caratteri. [1]", "abstained": false, "verdict": "right", "source": "hand-variant"}`,
		`{"id": "en-2", "lang": "en", "question": "How long is the notice?", "reference": "30 days.", "answer": "The notice is 30 days, or two weeks in probation.", "abstained": false, "verdict": "misleading", "source": "hand-variant", "note": "a disagreement the test needs"}`,
	}
	path := filepath.Join(t.TempDir(), "labels.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(append(lines, extra...), "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// agreementJSON is the judge_agreement block of eval --json.
type agreementJSON struct {
	Labels     int     `json:"labels"`
	Agreed     int     `json:"agreed"`
	Share      float64 `json:"share"`
	ByLanguage map[string]struct {
		Labels, Agreed int
	} `json:"by_language"`
	Confusion             map[string]map[string]int `json:"confusion"`
	MisleadingJudgedRight int                       `json:"misleading_judged_right"`
	FalseRight            int                       `json:"misleading_or_wrong_judged_right"`
	Disagreements         []struct {
		ID     string `json:"id"`
		Judged string `json:"judged"`
	} `json:"disagreements"`
}

func checkAgreement(t *testing.T, a agreementJSON) {
	t.Helper()
	if a.Labels != 3 || a.Agreed != 2 || a.ByLanguage["en"].Labels != 2 || a.ByLanguage["en"].Agreed != 1 || a.ByLanguage["it"].Agreed != 1 {
		t.Errorf("agreement %+v", a)
	}
	if a.Confusion["misleading"]["misleading"] != 1 || a.Confusion["misleading"]["right"] != 1 || a.Confusion["right"]["right"] != 1 {
		t.Errorf("confusion %v", a.Confusion)
	}
	if a.MisleadingJudgedRight != 1 || a.FalseRight != 1 || len(a.Disagreements) != 1 || a.Disagreements[0].ID != "en-2" || a.Disagreements[0].Judged != "right" {
		t.Errorf("misleading judged right %d, disagreements %+v", a.MisleadingJudgedRight, a.Disagreements)
	}
}

// eval --judge-labels: alone, as a table and as JSON; with --questions,
// beside the report; a bad labels file and --beir refused.
func TestE2EEvalJudgeLabels(t *testing.T) {
	t.Parallel()
	labels := writeLabels(t)

	out := mustOK(t, run{}, "eval", "--judge-labels", labels)
	for _, want := range []string{"judge agreement with hand labels", "all  ", "2/3  66.7%", "misleading judged right", "label \\ judge", "en-2", "misleading", "right"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval --judge-labels lacks %q:\n%s", want, out)
		}
	}
	var alone struct {
		Agreement agreementJSON `json:"judge_agreement"`
	}
	if err := json.Unmarshal([]byte(mustOK(t, run{}, "eval", "--judge-labels", labels, "--json")), &alone); err != nil {
		t.Fatal(err)
	}
	checkAgreement(t, alone.Agreement)

	_, idx := sharedIndex(t)
	questions := filepath.Join(examplesDir, "questions.jsonl")
	js := mustOK(t, run{}, "eval", "--questions", questions, "--index", idx, "--no-generation", "--judge-labels", labels, "--json")
	// The agreement is measured once, beside the splits' reports.
	top := requireKeys(t, "eval --json --judge-labels", js, "dev", "test", "judge_agreement")
	requireKeys(t, "eval --json --judge-labels: the dev report", string(top["dev"]), "retrieval")
	var with agreementJSON
	if err := json.Unmarshal(top["judge_agreement"], &with); err != nil {
		t.Fatal(err)
	}
	checkAgreement(t, with)
	text := mustOK(t, run{}, "eval", "--questions", questions, "--index", idx, "--no-generation", "--judge-labels", labels)
	if r, j := strings.LastIndex(text, "retrieval, "), strings.Index(text, "judge agreement with hand labels"); r < 0 || j < r || strings.Count(text, "judge agreement with hand labels") != 1 {
		t.Errorf("the reports and then the agreement, once, expected:\n%s", text)
	}

	bad := writeLabels(t, `{"id": "it-2", "lang": "it", "question": "Q?", "reference": "Sì.", "answer": "Sì.", "abstained": false, "verdict": "giusto"}`)
	if res := runFonte(t, "eval", "--judge-labels", bad); res.code == 0 || !strings.Contains(res.stderr, bad+":4: verdict:") {
		t.Errorf("a bad verdict: %s", res)
	}
	if res := runFonte(t, "eval", "--beir", t.TempDir(), "--judge-labels", labels); res.code != 2 || !strings.Contains(res.stderr, "--judge-labels") {
		t.Errorf("--beir with --judge-labels: %s", res)
	}
}
