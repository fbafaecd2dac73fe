// Package guard recognises retrieved text that reads as an instruction
// to a model rather than as material about the world: imperatives
// addressed to an assistant ("ignore the previous instructions", "ignora
// le istruzioni precedenti"), statements that dictate the answer to any
// question ("the answer to any question about X is Y", "rispondi sempre
// …"), chat role markers and fake system prompts,
// hidden or zero-width characters, and forged citation markers. Ingest
// records what it finds in each chunk, title and heading; the answer
// stage never quotes a flagged sentence as an answer, never shows a model
// a flagged title or heading, and a model sees every passage fenced as
// material whatever this package finds (detection is a second line, not
// the defence).
package guard

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind names what a finding is.
type Kind string

// The kinds of finding.
const (
	// Imperative: an order addressed to an assistant or model.
	Imperative Kind = "imperative"
	// RoleMarker: a chat template's role or control token, or a fake
	// "system prompt" heading.
	RoleMarker Kind = "role-marker"
	// Hidden: characters a reader does not see (zero-width, bidirectional
	// overrides, Unicode tags).
	Hidden Kind = "hidden-text"
	// CitationMarker: a forged source marker such as "[source 3]" or
	// "【1】", which could pass for one of fonte's citations.
	CitationMarker Kind = "citation-marker"
	// Dictation: a statement that fixes the answer to every question,
	// whatever is asked ("the answer to any question about X is Y",
	// "rispondi sempre Y"): no imperative to an assistant, but written to
	// be obeyed by one.
	Dictation Kind = "dictated-answer"
)

// Finding is one place where text reads as an instruction.
type Finding struct {
	Kind  Kind   `json:"kind"`
	Start int    `json:"start"` // byte offsets into the text
	End   int    `json:"end"`
	Text  string `json:"text"` // the matched text, hidden characters shown as \u escapes
}

// rule is one pattern of a kind, and the words one of which every match
// contains (folded as the pattern's (?i) folds case): a chunk holding none
// of them is not run through the pattern. At a million chunks the patterns
// were half the time of an indexing run.
type rule struct {
	kind     Kind
	re       *regexp.Regexp
	triggers []string
}

// triggers folds a rule's words for the prefilter.
func triggers(words ...string) []string {
	for i, w := range words {
		words[i] = fold(w)
	}
	return words
}

// fold maps every rune to the smallest of its simple case folding orbit,
// the equivalence (?i) matches by (so "ſ" and "S" fold alike, as the
// patterns treat them), keeping the runes in order: a pattern's match
// that contains a word contains it folded in the folded text.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			r -= 'a' - 'A'
		case r >= utf8.RuneSelf:
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				r = min(r, f)
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mayMatch reports whether folded holds one of r's words.
func (r rule) mayMatch(folded string) bool {
	for _, w := range r.triggers {
		if strings.Contains(folded, w) {
			return true
		}
	}
	return false
}

// Each pattern targets an order to the model itself: the words that
// address it ("assistant", "AI", "model", "you are now") or the phrases
// injection corpora use to override a prompt. Ordinary procedures
// ("ignore the warning and press OK") do not address a model and do not
// match.
var orderRules = []rule{
	// English overrides.
	{Imperative, regexp.MustCompile(`(?i)\b(?:ignore|disregard|forget|override|bypass|skip)\b[^.!?\n]{0,40}\b(?:previous|prior|above|earlier|preceding|all|any|your|the system|these)\b[^.!?\n]{0,30}\b(?:instructions?|prompts?|rules|directions|guidelines|messages?|context)\b`), triggers("ignore", "disregard", "forget", "override", "bypass", "skip")},
	{Imperative, regexp.MustCompile(`(?i)\b(?:new|updated|real|actual|true)\s+(?:instructions?|system prompt|directives?)\s*[:：]`), triggers("instruction", "prompt", "directive")},
	{Imperative, regexp.MustCompile(`(?i)\byou\s+are\s+now\s+(?:DAN\b|an?\s+(?:unrestricted|unfiltered|jailbroken|different|evil|new)\s+(?:ai|assistant|model|persona|character|chatbot)\b|no\s+longer\s+(?:an?\s+)?(?:ai|assistant|bound)\b)|\bfrom\s+now\s+on,?\s+(?:you|the assistant)\s+(?:will|must|should|answer|respond|reply|ignore|say|only)\b|\b(?:act|behave)\s+as\s+(?:an?\s+)?(?:unrestricted|jailbroken|unfiltered|different)\s+(?:ai|assistant|model|chatbot)\b`), triggers("now", "act", "behave")},
	{Imperative, regexp.MustCompile(`(?i)\b(?:as|to)\s+(?:an?\s+)?(?:ai|assistant|language model|llm|chatbot|model)\b[^.!?\n]{0,40}\b(?:you\s+must|you\s+should|must|always|never|respond|reply|answer|say|output|print|write)\b`), triggers("ai", "assistant", "llm", "chatbot", "model")},
	{Imperative, regexp.MustCompile(`(?i)\b(?:assistant|ai|chatbot|model|llm|gpt|claude|copilot)\s*[,:]\s*(?:please\s+)?(?:ignore|say|respond|reply|answer|output|print|write|tell|reveal|repeat|translate|include)\b`), triggers("assistant", "ai", "chatbot", "model", "llm", "gpt", "claude", "copilot")},
	{Imperative, regexp.MustCompile(`(?i)\b(?:respond|reply|answer)\s+(?:only\s+)?(?:with|by saying)\s+["'“‘]`), triggers("respond", "reply", "answer")},
	{Imperative, regexp.MustCompile(`(?i)\b(?:say|print|output|write|respond with|reply with)\s+["'“‘][^"'”’]{1,60}["'”’]\s*(?:instead|and nothing else|only|to the user|in your answer)`), triggers("say", "print", "output", "write", "respond", "reply")},
	{Imperative, regexp.MustCompile(`(?i)\b(?:reveal|print|repeat|show|leak)\s+(?:your|the)\s+(?:system\s+)?(?:prompt|instructions|hidden rules)\b`), triggers("reveal", "print", "repeat", "show", "leak")},
	{Imperative, regexp.MustCompile(`(?i)\bdo\s+not\s+(?:cite|mention|reveal|tell\s+the\s+user)\b[^.!?\n]{0,40}\b(?:sources?|citations?|documents?|this)\b`), triggers("not")},
	// Italian overrides.
	{Imperative, regexp.MustCompile(`(?i)\b(?:ignora|ignorate|dimentica|dimenticate|trascura|tralascia|non\s+considerare)\b[^.!?\n]{0,40}\b(?:istruzion[ei]|indicazion[ei]|regole|prompt|messaggi?|direttive)\b[^.!?\n]{0,30}\b(?:precedent[ei]|sopra|prima|tutte|tue|di sistema)\b`), triggers("ignora", "dimentica", "trascura", "tralascia", "considerare")},
	{Imperative, regexp.MustCompile(`(?i)\b(?:ignora|ignorate|dimentica|dimenticate)\s+(?:tutte\s+)?(?:le\s+)?(?:istruzioni|indicazioni|regole)\b`), triggers("ignora", "dimentica")},
	{Imperative, regexp.MustCompile(`(?i)\b(?:nuove|vere)\s+istruzioni\s*[:：]|\bda\s+(?:ora|adesso)\s+in\s+poi,?\s+(?:tu|sei|devi|l'assistente)\b|\b(?:ora|adesso)\s+sei\s+(?:un|una)\b`), triggers("istruzioni", "poi", "sei")},
	{Imperative, regexp.MustCompile(`(?i)\b(?:in\s+quanto|come)\s+(?:assistente|intelligenza artificiale|ia|modello(?: linguistico)?)\b[^.!?\n]{0,40}\b(?:devi|dovresti|rispondi|di'|scrivi|stampa)\b`), triggers("assistente", "intelligenza", "ia", "modello")},
	{Imperative, regexp.MustCompile(`(?i)\b(?:assistente|modello|ia)\s*[,:]\s*(?:per favore\s+)?(?:ignora|di'|dì|rispondi|scrivi|stampa|rivela|ripeti)\b`), triggers("assistente", "modello", "ia")},
	{Imperative, regexp.MustCompile(`(?i)\b(?:rispondi|scrivi|di'|dì|stampa)\s+(?:solo\s+|soltanto\s+)?["'“‘«][^"'”’»]{1,60}["'”’»]`), triggers("rispondi", "scrivi", "di'", "dì", "stampa")},
	{Imperative, regexp.MustCompile(`(?i)\b(?:rivela|mostra|ripeti|stampa)\s+(?:il\s+tuo|le\s+tue|il)\s+(?:prompt|istruzioni)(?:\s+di\s+sistema)?\b`), triggers("rivela", "mostra", "ripeti", "stampa")},
	// Role markers and fake system prompts.
	{RoleMarker, regexp.MustCompile(`(?im)^\s*(?:#{1,6}\s*)?(?:system|assistant|user|developer|sistema|assistente|utente)\s*(?:prompt|message|messaggio)?\s*[:：]\s*\S`), triggers("system", "assistant", "user", "developer", "sistema", "assistente", "utente")},
	{RoleMarker, regexp.MustCompile(`<\|(?:im_start|im_end|system|user|assistant|endoftext|begin_of_text|start_header_id|end_header_id|eot_id)\|>|\[/?INST\]|<<\/?SYS>>|</?(?:system|instructions?|assistant)>`), triggers("<|", "inst]", "sys>>", "system>", "instruction", "assistant>")},
	{RoleMarker, regexp.MustCompile(`(?im)^\s*#{1,6}\s*(?:instruction|instructions|system prompt|response|istruzioni|prompt di sistema)\s*:?\s*$`), triggers("instruction", "prompt", "response", "istruzioni")},
	// A fake system-prompt heading anywhere, mid-paragraph too: the
	// parsers drop the hashes of real headings, so these are literal.
	{RoleMarker, regexp.MustCompile(`(?i)#{1,6}\s*(?:system prompt|system instructions|prompt di sistema|istruzioni di sistema)\b`), triggers("#")},
	{RoleMarker, regexp.MustCompile(`(?i)\b(?:begin|end|start)\s+(?:of\s+)?(?:system\s+prompt|instructions|new instructions)\b`), triggers("prompt", "instruction")},
	// Forged source markers in fonte's or other engines' styles.
	{CitationMarker, regexp.MustCompile(`\[\s*(?:source|fonte|doc|document|documento|passage|passaggio)\s*[#:]?\s*\d+\s*\]|【\d+(?:†[^】]*)?】`), triggers("source", "fonte", "doc", "passag", "【")},
}

// rules are every pattern Check runs: orders to a model, role and
// citation markers, and the statements that dictate an answer
// (dictation.go).
var rules = slices.Concat(orderRules, dictationRules)

// hidden reports whether r is invisible to a reader: zero-width and
// joiner characters, bidirectional controls, word joiners, the
// byte-order mark inside text, and Unicode tag characters (used to
// smuggle ASCII past a reader).
func hidden(r rune) bool {
	switch {
	case r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E, r >= 0x2060 && r <= 0x2064, r >= 0x2066 && r <= 0x2069,
		r == 0xFEFF, r >= 0xE0000 && r <= 0xE007F, r == 0x180E:
		return true
	}
	return false
}

// smuggling reports whether r is hidden and never an artefact of
// ordinary text: Unicode tags and the bidirectional overrides that
// reverse what is shown.
func smuggling(r rune) bool {
	return r >= 0xE0000 && r <= 0xE007F || r == 0x202D || r == 0x202E
}

// hiddenRunMin is the shortest run of other hidden characters that is a
// finding: one or two zero-width spaces or direction marks are common
// artefacts of copying text from web pages and word processors.
const hiddenRunMin = 3

// Check returns what in text reads as an instruction to a model, in
// order of position. It is linear in the length of text (Go's regexp
// runs in linear time).
func Check(text string) []Finding { return check(text, true) }

// check is Check, with or without the prefilter (the tests compare both).
func check(text string, prefilter bool) []Finding {
	var out []Finding
	folded := fold(text)
	for _, r := range rules {
		if prefilter && !r.mayMatch(folded) {
			continue
		}
		for _, m := range r.re.FindAllStringIndex(text, -1) {
			out = append(out, Finding{Kind: r.kind, Start: m[0], End: m[1], Text: text[m[0]:m[1]]})
		}
	}
	out = append(out, hiddenRuns(text)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// hiddenRuns finds the runs of hidden characters that carry something:
// any run with a Unicode tag or a direction override, and runs of at
// least hiddenRunMin other hidden characters.
func hiddenRuns(text string) []Finding {
	var out []Finding
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !hidden(r) {
			i += n
			continue
		}
		start, count, smuggled := i, 0, false
		for i < len(text) {
			r, n := utf8.DecodeRuneInString(text[i:])
			if !hidden(r) {
				break
			}
			smuggled = smuggled || smuggling(r)
			count++
			i += n
		}
		if smuggled || count >= hiddenRunMin {
			out = append(out, Finding{Kind: Hidden, Start: start, End: i, Text: escapeHidden(text[start:i])})
		}
	}
	return out
}

func escapeHidden(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04X`, r)
	}
	return b.String()
}

// Kinds returns the distinct kinds of findings, in the order they first
// occur.
func Kinds(fs []Finding) []Kind {
	var out []Kind
	for _, f := range fs {
		if !slices.Contains(out, f.Kind) {
			out = append(out, f.Kind)
		}
	}
	return out
}

// Suspicious reports whether text has any finding: the test the answer
// stage applies to a sentence before quoting it.
func Suspicious(text string) bool {
	folded := fold(text)
	for _, r := range rules {
		if r.mayMatch(folded) && r.re.MatchString(text) {
			return true
		}
	}
	return len(hiddenRuns(text)) > 0
}

// Visible returns text without its hidden characters (keeping single
// joiners between letters), so what is indexed and quoted is what a
// reader sees.
func Visible(text string) string {
	if !strings.ContainsFunc(text, hidden) {
		return text
	}
	var b strings.Builder
	rs := []rune(text)
	for i, r := range rs {
		if hidden(r) {
			if (r == 0x200C || r == 0x200D) && i > 0 && i+1 < len(rs) && !hidden(rs[i-1]) && !hidden(rs[i+1]) &&
				(unicode.IsLetter(rs[i-1]) || unicode.Is(unicode.So, rs[i-1])) {
				b.WriteRune(r)
			}
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
