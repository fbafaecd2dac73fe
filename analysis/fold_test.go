package analysis

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestFold(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"plain ascii, 1-2/3.", "plain ascii, 1-2/3."},
		{"naïve café Ångström Łódź Œuvre straße", "naive cafe Angstrom Lodz OEuvre strasse"},
		{"cafe\u0301", "cafe"}, // decomposed accent
		{"TNF-α and IL-1β", "TNF-alpha and IL-1beta"},
		{"αvβ8 Aβ42 γδ", "alphavbeta8 Abeta42 gammadelta"},
		{"ΑΒΓ", "ΑΒΓ"}, // three Greek letters: a word, kept
		{"Δ-9 ω-3", "delta-9 omega-3"},
		{"the οδος road", "the οδος road"},
		{"5 µg and 5 μg", "5 mug and 5 mug"},
		{"ϐ ϑ ϕ ϖ ϰ ϱ ϵ ά ώ", "beta theta phi pi kappa rho epsilon alpha omega"},
		{"IL\u20106 IL\u20116", "IL-6 IL-6"},
		{"dose–response −5", "dose–response −5"}, // en dash and minus kept
		{"ﬁnal ﬂow", "final flow"},
		{"×÷", "×÷"},
		{"\xffé\xfe", "\xffe\xfe"},
		{"日本語", "日本語"},
	} {
		if got := (Fold{}).Map(c.in); got != c.want {
			t.Errorf("Fold(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(10, func() { Fold{}.Map("an ascii text with no letters to fold") }); n != 0 {
		t.Errorf("Fold of ASCII allocates %v times", n)
	}
	if n := testing.AllocsPerRun(10, func() { Fold{}.Map("città? no: 日本語 only") }); n != 1 {
		t.Errorf("Fold of text with one accent allocates %v times, want 1", n)
	}
}

// TestFoldTables checks the tables: every Latin-1 and Latin Extended-A
// letter folds to ASCII letters, every rune isGreek accepts has a name,
// and the Greek small and capital letters agree.
func TestFoldTables(t *testing.T) {
	for r := rune(0xc0); r <= 0x17f; r++ {
		s, ok := foldRune(r)
		if r == '×' || r == '÷' {
			if ok {
				t.Errorf("%q folds to %q", r, s)
			}
			continue
		}
		if !ok || s == "" || strings.IndexFunc(s, func(c rune) bool { return c > 'z' || !unicode.IsLetter(c) }) >= 0 {
			t.Errorf("%q (%U) folds to %q", r, r, s)
		}
		if unicode.IsUpper(r) != unicode.IsUpper(rune(s[0])) && r != 'ĸ' && r != 'ŉ' {
			t.Errorf("%q (%U) folds to %q: case differs", r, r, s)
		}
	}
	for r := rune(0x370); r <= 0x3ff; r++ {
		if isGreek(r) != (greekName(r) != "") {
			t.Errorf("%q (%U): isGreek %v, name %q", r, r, isGreek(r), greekName(r))
		}
		if isGreek(r) && !unicode.Is(unicode.Greek, r) {
			t.Errorf("%q (%U) is not a Greek letter", r, r)
		}
	}
	for r := 'α'; r <= 'ω'; r++ {
		if up := unicode.ToUpper(r); r != 'ς' && greekName(up) != greekName(r) {
			t.Errorf("%q %q: %q vs %q", r, up, greekName(r), greekName(up))
		}
	}
}

func TestEnglishFoldsAndSpells(t *testing.T) {
	en := English()
	for _, pair := range [][2]string{
		{"TNF-α inhibits the tumour", "TNF-alpha inhibits the tumor"},
		{"Haemoglobin in anaemia was randomised", "hemoglobin in anemia was randomized"},
		{"naïve café behaviour", "naive cafe behavior"},
		{"IL‐6 (typographic hyphen)", "IL-6 (typographic hyphen)"},
		{"centres of excellence analysed", "centers of excellence analyzed"},
		{"gastro-oesophageal reflux", "gastro-esophageal reflux"},
	} {
		a, b := en.Analyze(pair[0]), en.Analyze(pair[1])
		if !slices.Equal(a, b) {
			t.Errorf("%q → %q but %q → %q", pair[0], a, pair[1], b)
		}
	}
	// NewEnglish with another stop list gives English's terms for the
	// words both keep.
	content := NewEnglish(ContentStopWords)
	for _, tok := range content.Analyze("How many tumours did the haematology centre see?") {
		if !slices.Contains(en.Analyze("How many tumours did the haematology centre see?"), tok) {
			t.Errorf("content term %q not among English's", tok)
		}
	}
}

// FuzzFold checks that Fold never panics, keeps ASCII as it is, keeps
// valid UTF-8 valid, and is idempotent on valid UTF-8 (on invalid input,
// dropping a combining mark can join two stray bytes into a rune).
func FuzzFold(f *testing.F) {
	for _, s := range []string{"", "abc", "naïve", "TNF-α", "οδος", "α\u0301βγ", "\xff", "İ", "ﬃ", "µ‐"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once := Fold{}.Map(s)
		if twice := (Fold{}).Map(once); utf8.ValidString(s) && twice != once {
			t.Fatalf("Fold not idempotent on %q: %q then %q", s, once, twice)
		}
		if utf8.ValidString(s) && !utf8.ValidString(once) {
			t.Fatalf("Fold(%q) = %q is not valid UTF-8", s, once)
		}
		ascii := true
		for i := 0; i < len(s); i++ {
			ascii = ascii && s[i] < utf8.RuneSelf
		}
		if ascii && once != s {
			t.Fatalf("Fold changed ASCII %q to %q", s, once)
		}
	})
}
