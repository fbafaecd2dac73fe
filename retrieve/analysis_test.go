package retrieve

import (
	"slices"
	"strings"
	"testing"
)

func TestDefaultAnalyzersLanguages(t *testing.T) {
	a := DefaultAnalyzers()
	for lang, want := range map[string]string{"en": "en", "it": "it", "": "en", "zh": "cjk", "ja": "cjk",
		"ko": "cjk", "th": "cjk", "de": "neutral", "und": "neutral"} {
		if got := a.Analysis(lang); got != want {
			t.Errorf("Analysis(%q) = %q, want %q", lang, got, want)
		}
	}
	// A Chinese query is analysed into the bigrams a Chinese chunk is.
	if got := a.of("zh").Analyze("茶文化"); !slices.Equal(got, []string{"茶文", "文化"}) {
		t.Errorf("zh analysis: %q", got)
	}
	// German gets no English stemming, unknown text still does.
	if got := a.of("de").Analyze("Fahrräder"); !slices.Equal(got, []string{"fahrräder"}) {
		t.Errorf("de analysis: %q", got)
	}
	if got := a.of("").Analyze("refunds"); !slices.Equal(got, []string{"refund"}) {
		t.Errorf("unknown-language analysis: %q", got)
	}
	if n := a.Name(); !strings.HasPrefix(n, "fonte-analysis/v4 ") || !strings.HasSuffix(n, "+other") {
		t.Errorf("Name() = %q", n)
	}
}
