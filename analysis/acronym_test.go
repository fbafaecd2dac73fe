package analysis

import (
	"slices"
	"testing"
)

func TestAcronymPlurals(t *testing.T) {
	for in, want := range map[string]string{
		"Define your SLIs and SLOs.":        "Define your SLI and SLO.",
		"PDFs, KPIs (and CLIs)":             "PDF, KPI (and CLI)",
		"the 3 IPv4s and 2 MP3s":            "the 3 IPv4s and 2 MP3",
		"Sis, Its, ABCs-like, iPhones":      "Sis, Its, ABC-like, iPhones",
		"USBs? ok":                          "USB? ok",
		"nothing here":                      "nothing here",
		"SLIsx is a word, AWS is no plural": "SLIsx is a word, AWS is no plural",
		"èPDFs stays":                       "èPDFs stays",
		"s":                                 "s",
	} {
		if got := (AcronymPlurals{}).Map(in); got != want {
			t.Errorf("AcronymPlurals(%q) = %q, want %q", in, got, want)
		}
	}
	// The plural and the singular are one term in both languages.
	for _, an := range []Analyzer{English(), Italian()} {
		if p, s := an.Analyze("SLIs"), an.Analyze("SLI"); !slices.Equal(p, s) {
			t.Errorf("SLIs analyses as %q, SLI as %q", p, s)
		}
	}
}

func TestEnglishOrdinals(t *testing.T) {
	got := English().Analyze("1st line, first line, 3rd party, 10th, 11th, 1st-line")
	want := []string{"first", "line", "first", "line", "third", "parti", "tenth", "11th", "1st-line", "first", "line"}
	if !slices.Equal(got, want) {
		t.Errorf("English(ordinals) = %q, want %q", got, want)
	}
	// "first" is a function word to the content analysis: so is "1st".
	if got := NewEnglish(ContentStopWords).Analyze("1st first"); len(got) != 0 {
		t.Errorf("content analysis keeps %q", got)
	}
}
