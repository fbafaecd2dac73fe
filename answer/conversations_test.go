package answer_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
)

// conversationsFile is the hand-written conversation set (see its README).
const conversationsFile = "../evalsets/conversations/conversations.jsonl"

// convTurn is one line of the conversation set.
type convTurn struct {
	Conversation string   `json:"conversation"`
	Split        string   `json:"split"`
	Lang         string   `json:"lang"`
	Corpus       string   `json:"corpus"`
	Turn         int      `json:"turn"`
	Question     string   `json:"question"`
	Kind         string   `json:"kind"`
	Expected     string   `json:"expected"`
	Must         []string `json:"must"`
	Replaced     []string `json:"replaced"`
}

// loadConversations reads the set, grouped by conversation in file order,
// and checks that it is well formed.
func loadConversations(t *testing.T) [][]convTurn {
	t.Helper()
	f, err := os.Open(conversationsFile)
	if err != nil {
		t.Fatalf("the conversation set is missing: %v", err)
	}
	defer f.Close()
	var convs [][]convTurn
	in := bufio.NewScanner(f)
	for line := 1; in.Scan(); line++ {
		var c convTurn
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			t.Fatalf("%s:%d: %v", conversationsFile, line, err)
		}
		if c.Split != "dev" && c.Split != "test" || c.Lang != "en" && c.Lang != "it" || c.Question == "" ||
			(c.Kind == "elliptical") == (len(c.Must) == 0) || c.Kind != "elliptical" && c.Kind != "standalone" {
			t.Fatalf("%s:%d: malformed turn %+v", conversationsFile, line, c)
		}
		if n := len(convs); n == 0 || convs[n-1][0].Conversation != c.Conversation {
			if c.Turn != 1 {
				t.Fatalf("%s:%d: conversation %s does not start at turn 1", conversationsFile, line, c.Conversation)
			}
			convs = append(convs, nil)
		} else if prev := convs[n-1][len(convs[n-1])-1]; c.Turn != prev.Turn+1 || c.Split != prev.Split {
			t.Fatalf("%s:%d: turn %d of %s follows turn %d (split %s after %s)", conversationsFile, line, c.Turn, c.Conversation, prev.Turn, c.Split, prev.Split)
		}
		convs[len(convs)-1] = append(convs[len(convs)-1], c)
	}
	if err := in.Err(); err != nil {
		t.Fatal(err)
	}
	return convs
}

// hasTerm reports whether text holds term as whole words, case-insensitive;
// a term ending in "*" matches any ending of its last word.
func hasTerm(text, term string) bool {
	text, term = strings.ToLower(text), strings.ToLower(term)
	prefix := strings.HasSuffix(term, "*")
	term = strings.TrimSuffix(term, "*")
	wordRune := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i := 0; ; {
		j := strings.Index(text[i:], term)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(term)
		before := start == 0 || !wordRune(lastRune(text[:start]))
		after := end == len(text) || prefix || !wordRune(firstRune(text[end:]))
		if before && after {
			return true
		}
		i = start + 1
	}
}

func lastRune(s string) rune {
	r := []rune(s)
	return r[len(r)-1]
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

// rewriteMatches is the set's definition of a right rewrite: a standalone
// turn is searched unchanged; an elliptical one holds every required word
// and none of the words its new ones replace.
func rewriteMatches(c convTurn, got string) bool {
	if c.Kind == "standalone" {
		return got == strings.TrimSpace(c.Question)
	}
	for _, w := range c.Must {
		if !hasTerm(got, w) {
			return false
		}
	}
	for _, w := range c.Replaced {
		if hasTerm(got, w) {
			return false
		}
	}
	return true
}

// rewriteConversation runs RewriteHeuristic turn by turn, with the
// history `fonte chat` and /v1/chat keep: each user turn is the query
// searched for it.
func rewriteConversation(conv []convTurn) []string {
	var history []fonte.Message
	out := make([]string, len(conv))
	for i, c := range conv {
		out[i] = answer.RewriteHeuristic(history, c.Question)
		history = append(history, fonte.Message{Role: "user", Content: out[i]}, fonte.Message{Role: "assistant", Content: ""})
	}
	return out
}

// tally counts right rewrites per split, language and kind.
type tally map[[3]string][2]int

func (t tally) add(c convTurn, ok bool) {
	k := [3]string{c.Split, c.Lang, c.Kind}
	v := t[k]
	v[1]++
	if ok {
		v[0]++
	}
	t[k] = v
}

// share is the right share of the turns of split (all languages and kinds
// when lang or kind is "").
func (t tally) share(split, lang, kind string) (right, total int) {
	for k, v := range t {
		if k[0] == split && (lang == "" || k[1] == lang) && (kind == "" || k[2] == kind) {
			right, total = right+v[0], total+v[1]
		}
	}
	return right, total
}

// devFloor is the share of dev turns the heuristic must rewrite right. It
// was chosen from the dev figure (in-sample), a few turns under it.
const devFloor = 0.93

// TestConversationSet measures RewriteHeuristic on the conversation set.
// It asserts a floor on dev turns and prints test turns' figures apart,
// without their details: rules are tuned on dev only.
func TestConversationSet(t *testing.T) {
	convs := loadConversations(t)
	counts := tally{}
	turns := map[string]int{}
	for _, conv := range convs {
		got := rewriteConversation(conv)
		for i, c := range conv {
			ok := rewriteMatches(c, got[i])
			counts.add(c, ok)
			turns[c.Lang]++
			if c.Split == "dev" && c.Turn > 1 && testing.Verbose() {
				t.Logf("dev %s#%d %v %q -> %q", c.Conversation, c.Turn, ok, c.Question, got[i])
			}
			if !ok && c.Split == "dev" {
				t.Logf("dev miss %s#%d %s %q -> %q (expected %q)", c.Conversation, c.Turn, c.Kind, c.Question, got[i], c.Expected)
			}
		}
	}
	if turns["en"] < 40 || turns["it"] < 40 {
		t.Fatalf("the set has %d English and %d Italian turns, want at least 40 of each", turns["en"], turns["it"])
	}
	for _, split := range []string{"dev", "test"} {
		for _, lang := range []string{"en", "it", ""} {
			r, n := counts.share(split, lang, "")
			rs, ns := counts.share(split, lang, "standalone")
			re, ne := counts.share(split, lang, "elliptical")
			name := lang
			if name == "" {
				name = "all"
			}
			t.Logf("%s %s: %d/%d right (standalone %d/%d, elliptical %d/%d)", split, name, r, n, rs, ns, re, ne)
		}
	}
	if r, n := counts.share("dev", "", ""); float64(r) < devFloor*float64(n) {
		t.Errorf("dev: %d of %d turns rewritten right, under the floor %.2f", r, n, devFloor)
	}
}

func TestRewriteMatchDefinition(t *testing.T) {
	ell := convTurn{Kind: "elliptical", Must: []string{"meals", "London", "forward*"}, Replaced: []string{"hotel"}}
	for got, want := range map[string]bool{
		"How much can I spend on meals in London if forwarded?":           true,
		"How much can I spend on meals in London? forward":                true,
		"How much can I spend on a hotel and meals in London forwarding?": false, // holds the replaced word
		"How much for mealsx in London, forwarded?":                       false, // meals is not a whole word
		"How much for meals in london (forwarded)":                        true,  // case-insensitive
		"How much for meals, forwarded?":                                  false,
	} {
		if rewriteMatches(ell, got) != want {
			t.Errorf("elliptical %q: match %v, want %v", got, !want, want)
		}
	}
	std := convTurn{Kind: "standalone", Question: " Who approves timecards? "}
	if !rewriteMatches(std, "Who approves timecards?") || rewriteMatches(std, "Who approves timecards? (and for meals?)") {
		t.Error("a standalone turn matches only when unchanged")
	}
}
