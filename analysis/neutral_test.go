package analysis

import (
	"slices"
	"testing"
)

func TestNeutral(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"情報検索", []string{"情報", "報検", "検索"}},
		{"東", []string{"東"}},
		{"한국어 분석", []string{"한국", "국어", "분석"}},
		{"ภาษาไทย", []string{"ภา", "าษ", "ษา", "าไ", "ไท", "ทย"}},
		{"ไม่", []string{"ไม่"}}, // a letter keeps its vowel and tone marks
		{"Ｄｏｃｋｅｒ容器 SOP-014", []string{"docker", "容器", "sop-014", "sop", "014"}},
		{"ﾃﾞｰﾀ", []string{"デー", "ータ"}},
		{"Die Straße, l'homme, ΟΔΥΣΣΕΥΣ", []string{"die", "strasse", "homme", "οδυσσευσ"}},
		{"Привет, МИР", []string{"привет", "мир"}},
		{"नमस्ते", []string{"नमस्ते"}}, // marks stay inside the word
		{"ﬁnal café", []string{"final", "café"}},
	} {
		if got := Neutral().Analyze(c.text); !slices.Equal(got, c.want) {
			t.Errorf("Neutral(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
