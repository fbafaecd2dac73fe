package judge

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// labelsFile writes lines to a temporary labels file.
func labelsFile(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "labels.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const (
	labelLondon = `{"id": "en-1", "lang": "en", "question": "How much per night in London?", "reference": "250 euro per night in London.", "answer": "180 euro — Up to 180 euro per night, 250 euro in London. [1]", "abstained": false, "verdict": "misleading", "source": "hand-variant", "note": "the lead is the general cap"}`
	labelChars  = `{"id": "it-1", "lang": "it", "question": "Quanto deve essere lunga la password?", "reference": "10 caratteri.", "answer": "La password deve avere almeno 10 caratteri.", "abstained": false, "verdict": "right", "source": "hand-variant"}`
	labelNoIdea = `{"id": "it-2", "lang": "it", "question": "Chi è il direttore?", "reference": "Mario Rossi.", "answer": "", "abstained": true, "verdict": "abstained", "source": "fonte-extractive"}`
)

// TestLoadLabels reads a valid file, comments, blank lines and a BOM
// included.
func TestLoadLabels(t *testing.T) {
	path := labelsFile(t, "\ufeff# hand labels", labelLondon, "", "// more", labelChars, labelNoIdea)
	ls, err := LoadLabels(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 3 || ls[0].ID != "en-1" || ls[0].Verdict != Misleading || ls[0].Note != "the lead is the general cap" ||
		ls[1].Lang != "it" || ls[1].Verdict != Right || !ls[2].Abstained || ls[2].Answer != "" {
		t.Errorf("labels %+v", ls)
	}
}

// TestLoadLabelsErrors checks that each kind of bad line is refused with
// the file, the line and the field named.
func TestLoadLabelsErrors(t *testing.T) {
	good := labelChars
	for _, c := range []struct {
		name, line, field, msg string
	}{
		{"not json", `{"id": `, "", "not a JSON object"},
		{"unknown field", strings.Replace(good, `"source"`, `"sourse"`, 1), "sourse", "unknown field"},
		{"missing verdict", strings.Replace(good, `, "verdict": "right"`, "", 1), "verdict", "missing"},
		{"missing abstained", strings.Replace(good, `"abstained": false, `, "", 1), "abstained", "missing"},
		{"bad verdict", strings.Replace(good, `"verdict": "right"`, `"verdict": "correct"`, 1), "verdict", "unknown verdict"},
		{"bad lang", strings.Replace(good, `"lang": "it"`, `"lang": "fr"`, 1), "lang", "not en or it"},
		{"empty id", strings.Replace(good, `"id": "it-1"`, `"id": " "`, 1), "id", "empty"},
		{"empty reference", strings.Replace(good, `"reference": "10 caratteri."`, `"reference": ""`, 1), "reference", "empty"},
		{"number as string", strings.Replace(good, `"question": "Quanto deve essere lunga la password?"`, `"question": 3`, 1), "question", "not a string"},
		{"abstained as string", strings.Replace(good, `"abstained": false`, `"abstained": "no"`, 1), "abstained", "not true or false"},
		{"empty answer", strings.Replace(good, `"answer": "La password deve avere almeno 10 caratteri."`, `"answer": ""`, 1), "answer", "empty"},
		{"duplicate id", labelChars, "id", `duplicate id "it-1", first on line 2`},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := labelsFile(t, labelLondon, labelChars, c.line)
			_, err := LoadLabels(path)
			var le *LabelError
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a LabelError", err)
			}
			if le.File != path || le.Line != 3 || le.Field != c.field || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err = %v (line %d, field %q), want line 3, field %q, %q", err, le.Line, le.Field, c.field, c.msg)
			}
			if !strings.HasPrefix(err.Error(), path+":3:") {
				t.Errorf("err %q does not start with the file and line", err)
			}
		})
	}
	if _, err := LoadLabels(labelsFile(t, "# nothing", "")); err == nil || !strings.Contains(err.Error(), "no labels") {
		t.Errorf("a file without labels: %v", err)
	}
	if _, err := LoadLabels(filepath.Join(t.TempDir(), "absent.jsonl")); err == nil {
		t.Error("a missing file loads")
	}
}

// TestAgree measures a small label set where the judge agrees on some and
// not on others, and counts misleading answers judged right.
func TestAgree(t *testing.T) {
	ls := []Label{
		{ID: "a", Lang: "en", Question: "How much per night in London?", Reference: "250 euro per night in London.",
			Answer: "180 euro — Up to 180 euro per night, 250 euro in London. [1]", Verdict: Misleading},
		{ID: "b", Lang: "en", Question: "How much per night in London?", Reference: "250 euro per night in London.",
			Answer: "250 euro — Up to 250 euro per night in London. [1]", Verdict: Right},
		// A label the judge differs on: the person read the answer as
		// misleading, the judge finds the figure and calls it right.
		{ID: "c", Lang: "en", Question: "How long is the notice?", Reference: "30 days.",
			Answer: "The notice is 30 days, or two weeks in probation.", Verdict: Misleading},
		{ID: "d", Lang: "it", Question: "Quanto deve essere lunga la password?", Reference: "10 caratteri.",
			Answer: "8 caratteri — La password deve avere almeno 8 caratteri. [1]", Verdict: Misleading},
		{ID: "e", Lang: "it", Question: "Chi è il direttore?", Reference: "Mario Rossi.", Abstained: true, Verdict: Abstained},
		{ID: "f", Lang: "it", Question: "Posso portare il cane?", Reference: "No.", Answer: "Non è consentito portare animali.", Verdict: Wrong},
	}
	a := Agree(ls)
	if a.Labels != 6 || a.Agreed != 4 || a.Share != 4.0/6 {
		t.Errorf("agreement %d/%d = %v", a.Agreed, a.Labels, a.Share)
	}
	if en, it := a.ByLanguage["en"], a.ByLanguage["it"]; en != (Tally{Labels: 3, Agreed: 2, Share: 2.0 / 3}) || it != (Tally{Labels: 3, Agreed: 2, Share: 2.0 / 3}) {
		t.Errorf("by language %+v", a.ByLanguage)
	}
	if a.Confusion[Misleading][Misleading] != 2 || a.Confusion[Misleading][Right] != 1 || a.Confusion[Right][Right] != 1 ||
		a.Confusion[Abstained][Abstained] != 1 || a.Confusion[Wrong][Right] != 1 {
		t.Errorf("confusion %v", a.Confusion)
	}
	if a.MisleadingJudgedRight != 1 || a.FalseRight != 2 {
		t.Errorf("misleading judged right %d, misleading or wrong judged right %d", a.MisleadingJudgedRight, a.FalseRight)
	}
	if len(a.Disagreements) != 2 || a.Disagreements[0].ID != "c" || a.Disagreements[0].Judged != Right || a.Disagreements[1].ID != "f" || a.Disagreements[0].Why == "" {
		t.Errorf("disagreements %+v", a.Disagreements)
	}

	var b strings.Builder
	if err := WriteAgreement(&b, a); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"  all                               4/6  66.7%\n", "  en                                2/3  66.7%\n",
		"  misleading judged right           1", "  misleading or wrong judged right  2",
		"    label \\ judge  right  misleading  partial  wrong  abstained\n", "    misleading         1           2        0      0          0\n",
		"  c   misleading  right  the answer states every key fact"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestAgreementOnDevLabels keeps the judge's agreement with the ten
// development label files (evalsets/judge-labels/dev.jsonl to
// dev10.jsonl) from falling back. All ten are in-sample: the
// judge's rules were written after reading their disagreements, so the
// floors guard against regressions and say nothing of how the judge does
// on answers nobody tuned it on. The held-out labels.jsonl is not read
// by any test.
func TestAgreementOnDevLabels(t *testing.T) {
	for _, c := range []struct {
		file                 string
		floor                float64 // below the share measured at the last change
		maxMisleadingAsRight int
	}{
		{"dev.jsonl", 0.97, 0},  // measured 244/249 = 98.0%, none
		{"dev2.jsonl", 0.91, 0}, // measured 213/233 = 91.4%, none
		{"dev3.jsonl", 0.93, 0}, // measured 127/136 = 93.4%, none
		{"dev4.jsonl", 0.91, 0}, // measured 107/117 = 91.5%, none (98/117 = 83.8% at its first run)
		{"dev5.jsonl", 0.92, 0}, // measured 184/200 = 92.0%, none (155/200 = 77.5%, 11, at its first run)
		{"dev6.jsonl", 0.92, 0}, // measured 418/453 = 92.3%, none (380/453 = 83.9%, 5, at its first run)
		{"dev7.jsonl", 0.94, 0}, // measured 247/262 = 94.3%, none (223/262 = 85.1%, 4, at its first run)
		{"dev8.jsonl", 0.91, 2}, // measured 248/270 = 91.9%, 2 (234/270 = 86.7%, 9, at its first run)
		{"dev9.jsonl", 0.90, 0}, // measured 313/344 = 91.0%, none (274/344 = 79.7%, 3, at its first run)
		// dev10 was out of sample to session 36 (249/298 at its first
		// run and after session 36's rules); session 37's rules were
		// read from its disagreements, so it is in sample now.
		{"dev10.jsonl", 0.88, 0}, // measured 263/298 = 88.3%, none (249/298 = 83.6%, 3, at its first run)
	} {
		ls, err := LoadLabels(filepath.Join("..", "evalsets", "judge-labels", c.file))
		if err != nil {
			t.Fatal(err)
		}
		a := Agree(ls)
		if a.Share < c.floor || a.MisleadingJudgedRight > c.maxMisleadingAsRight {
			t.Errorf("%s: agreement %d/%d = %.1f%% (floor %.0f%%), misleading judged right %d (at most %d)",
				c.file, a.Agreed, a.Labels, 100*a.Share, 100*c.floor, a.MisleadingJudgedRight, c.maxMisleadingAsRight)
		}
	}
}
