package judge

import (
	"regexp"
	"strings"
	"unicode"
)

// Codes that a word-by-word reading takes for something else: an IPv4
// address read as a number in Italian thousands ("239.255.255.250") or
// as a telephone number; a key combination ("Ctrl-A", written "Control-A",
// "^A" or "Ctrl+A") that is no word at all; a setting written
// "urgency=low"; and a plain word offered as the equal of a code
// ("exim4-daemon-light o postfix"), which names a thing of the same kind.

var (
	// ipv4RE matches an IPv4 address.
	ipv4RE = regexp.MustCompile(`(?:^|[^\d.])((?:25[0-5]|2[0-4]\d|1\d\d|\d{1,2})(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|\d{1,2})){3})(?:$|[^\d.]|\.(?:\s|$))`)
	// keyComboRE matches a key combination: a modifier and a key joined
	// by "-" or "+", or a caret and a letter.
	keyComboRE = regexp.MustCompile(`(?i)^(?:(ctrl|control|ctl|alt|shift|meta|cmd|command|super|win)[-+](\S+)|\^([a-z@\[\\\]^_]))$`)
	// settingRE matches a setting and its value: "urgency=low",
	// "AllowTcpForwarding=yes".
	settingRE = regexp.MustCompile(`^[\p{L}_][\p{L}\d_.-]*=[^=\s]+$`)
)

// modifierNames folds the names of a modifier key.
var modifierNames = map[string]string{"ctrl": "ctrl", "control": "ctrl", "ctl": "ctrl", "alt": "alt", "shift": "shift", "meta": "meta", "cmd": "cmd", "command": "cmd", "super": "super", "win": "super"}

// keyCombo returns the compared form of a key combination ("ctrl-a" for
// "Control-A", "^A" and "Ctrl+A").
func keyCombo(w string) (string, bool) {
	m := keyComboRE.FindStringSubmatch(w)
	if m == nil {
		return "", false
	}
	if m[3] != "" {
		return "ctrl-" + strings.ToLower(m[3]), true
	}
	return modifierNames[strings.ToLower(m[1])] + "-" + strings.ToLower(m[2]), true
}

// ipFacts returns the IPv4 addresses of text as codes, and text with
// them blanked, so that no number or telephone is read from them.
func ipFacts(text string) ([]fact, string) {
	var out []fact
	for {
		m := ipv4RE.FindStringSubmatchIndex(text)
		if m == nil {
			return out, text
		}
		ip := text[m[2]:m[3]]
		out = append(out, fact{kind: codeFact, class: "ip", text: ip, key: ip})
		text = text[:m[2]] + strings.Repeat(" ", len(ip)) + text[m[3]:]
	}
}

// alternativeCodes adds, beside each code of words joined by "or", "o"
// or "oppure" to a plain word, that word as a code of the same class:
// "exim4-daemon-light o postfix" offers two packages.
func alternativeCodes(toks []token, lower []string, words []fact) []fact {
	isCode := map[int]bool{}
	for _, f := range words {
		if f.kind == codeFact && f.class == "code" {
			isCode[f.pos] = true
		}
	}
	taken := map[int]bool{}
	for _, f := range words {
		taken[f.pos] = true
	}
	out := words
	for i := range toks {
		if !isCode[i] {
			continue
		}
		for _, j := range []int{i + 2, i - 2} {
			k := (i + j) / 2 // the word between them
			if j < 0 || j >= len(toks) || taken[j] || toks[j].sentStart && j > i || !orWords[lower[k]] {
				continue
			}
			// The word is the whole alternative: "o postfix," ends a
			// clause, where "oppure lancia lo script" goes on; "postfix
			// o exim4" opens one, where "spelling, or" closes another.
			if j > i && !toks[j].closes || j < i && (toks[j].closes || j > 0 && !toks[j-1].closes && !toks[j].sentStart) {
				continue
			}
			if w := toks[j].text; isLetters(w) && w == strings.ToLower(w) && len(w) > 2 && !stopwords[lower[j]] {
				if _, isNumber := wordNumber(lower[j]); !isNumber {
					out = append(out, fact{kind: codeFact, class: "code", text: w, key: w, pos: j})
					taken[j] = true
				}
			}
		}
	}
	return out
}

// orWords join alternatives.
var orWords = setOf("or o oppure")

// aliasRE matches a short parenthesised aside right after a word: the
// other name of what the words before it name ("Media (medium)", "l'OR
// logico (-o)", "FTBFS (Fails To Build From Source)" read the other way).
var aliasRE = regexp.MustCompile(`((?:\S+\s+){0,2}\S+)\s+\(([^()]{1,40})\)`)

// aliasStated reports whether the answer names fact f by the other name
// the reference gives it in parentheses right after it: "urgency=medium"
// states "Media (medium)", "-o" states "l'OR logico (-o)".
func aliasStated(f fact, reference string, a answerText) bool {
	for _, m := range aliasRE.FindAllStringSubmatch(reference, -1) {
		alias := strings.TrimSpace(m[2])
		if len(strings.Fields(alias)) > 3 || !containsBounded(fold(m[1]), fold(dropElision(f.text))) {
			continue
		}
		if containsBounded(a.folded, fold(alias)) || containsBounded(a.lower, strings.ToLower(alias)) {
			return true
		}
	}
	for _, m := range acronymAfterRE.FindAllStringSubmatchIndex(reference, -1) {
		acronym := reference[m[2]:m[3]]
		spelled := spelledOut(reference[:m[0]], acronym)
		if spelled != "" && containsBounded(fold(spelled), fold(dropElision(f.text))) && containsBounded(a.lower, strings.ToLower(acronym)) {
			return true
		}
	}
	return false
}

// acronymAfterRE matches an acronym in parentheses: "(TCO)".
var acronymAfterRE = regexp.MustCompile(`\(\s*(\p{Lu}{2,8})\s*\)`)

// spelledOut returns the words at the end of text whose initials, past
// the function words between them, spell acronym ("Total Cost of
// Ownership" before "(TCO)"), or "": the acronym names what they name,
// however many words they are.
func spelledOut(text, acronym string) string {
	words := strings.Fields(text)
	letters := []rune(strings.ToLower(acronym))
	k := len(letters) - 1
	for i := len(words) - 1; i >= 0 && k >= 0; i-- {
		w := strings.Trim(words[i], ",;:\"'«»“”")
		if w == "" {
			return ""
		}
		first := []rune(strings.ToLower(dropElision(w)))[0]
		switch {
		case first == letters[k]:
			k--
			if k < 0 {
				return strings.Join(words[i:], " ")
			}
		case stopwords[fold(w)]:
		default:
			return ""
		}
	}
	return ""
}

// unrelatedWordPairs reports whether two codes are words joined by a
// slash that share no word: "review/processing" is no other path than
// "mass/public", where "debian/rules" is another file than debian/watch.
func unrelatedWordPairs(f, g fact) bool {
	if !wordPairRE.MatchString(f.text) || !wordPairRE.MatchString(g.text) {
		return false
	}
	for _, a := range strings.Split(f.key, "/") {
		for _, b := range strings.Split(g.key, "/") {
			if a == b {
				return false
			}
		}
	}
	return true
}

// manSectionRE matches a manual page's section after its name:
// "pbuilder(8)".
var manSectionRE = regexp.MustCompile(`^(.+)\(\d\w*\)$`)

// namesQuestionCode reports whether code g is the question's own: a
// manual page of a command the question names ("pbuilder(8)" to "what
// does pbuilder …"), or a path to a file it names
// ("/etc/ssh/sshd_config" to "… in sshd_config").
func namesQuestionCode(g fact, question string) bool {
	if m := manSectionRE.FindStringSubmatch(g.key); m != nil && containsBounded(question, m[1]) {
		return true
	}
	if i := strings.LastIndexByte(g.key, '/'); i >= 0 && i+1 < len(g.key) {
		return len(g.key[i+1:]) > 3 && containsBounded(question, g.key[i+1:])
	}
	return false
}

// seeAlsoRE matches a parenthesised pointer to other documentation:
// "(see pbuilder(8) and pdebuild(1))", "(vedere fakeroot(1).)".
var seeAlsoRE = regexp.MustCompile(`(?i)\((?:see|see also|vedere|vedi|cf\.|cfr\.)\s(?:[^()]|\([^()]*\))*\)`)

// withoutSeeAlso blanks the pointers to other documentation in text: the
// pages they name are where to read more, not what the text answers.
func withoutSeeAlso(text string) string { return seeAlsoRE.ReplaceAllString(text, " ") }

// alternativesRE matches two words of lower-case letters alone joined by
// a slash: one thing named two ways ("software libero/open source",
// "mass/public transit"), or a folder and a file named by its own word
// ("debian/watch", the watch file). One of the words states the pair;
// a path with a dot, a digit or a capital is compared whole.
var alternativesRE = regexp.MustCompile(`^\p{Ll}+/\p{Ll}+$`)

// codePairRE matches two codes joined by a slash, one of them with a
// digit: "SHA1/SHA256", "IPv4/IPv6", not a path.
var codePairRE = regexp.MustCompile(`^[\p{L}\d][\p{L}\d+-]*/[\p{L}\d][\p{L}\d+-]*$`)

// codePairStated reports whether text states both codes of a pair joined
// by a slash, written apart ("SHA1 e SHA256" for SHA1/SHA256).
func codePairStated(code, text string) bool {
	if !codePairRE.MatchString(code) || !hasDigit(code) {
		return false
	}
	for _, part := range strings.Split(strings.ToLower(code), "/") {
		if !containsBounded(text, part) {
			return false
		}
	}
	return true
}

// domainRE matches a web address without a scheme or a path:
// "designers.italia.it".
var domainRE = regexp.MustCompile(`^(?:[a-z0-9-]+\.)+[a-z]{2,}$`)

// siteNamed reports whether a folded answer names the site at address
// key by its name, the words of the address before its last part in
// order: "Designers Italia" for designers.italia.it. One word is too
// common a word to stand for an address.
func siteNamed(key, folded string) bool {
	if !domainRE.MatchString(key) {
		return false
	}
	labels := strings.Split(strings.TrimPrefix(key, "www."), ".")
	labels = labels[:len(labels)-1]
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if !isLetters(l) {
			return false
		}
	}
	return containsBounded(folded, strings.Join(labels, " "))
}

// acronymSpelledOut reports whether an answer writes acronym by the
// words its capitals stand for, the function words between them
// skipped: "Agenzia per l'Italia Digitale" for AgID, "General Services
// Administration" for GSA.
func acronymSpelledOut(acronym, answer string) bool {
	acronym = dropElision(acronym) // "L'AgID"
	var letters []rune
	for _, r := range acronym {
		if unicode.IsUpper(r) {
			letters = append(letters, unicode.ToLower(r))
		}
	}
	if len(letters) < 2 || !isLetters(acronym) {
		return false
	}
	words := strings.Fields(answer)
	for i := range words {
		k := 0
		for j := i; j < len(words) && k < len(letters); j++ {
			w := dropElision(strings.Trim(words[j], ",;:.\"'«»“”()"))
			if w == "" {
				break
			}
			r := []rune(w)
			if unicode.IsUpper(r[0]) && unicode.ToLower(r[0]) == letters[k] {
				k++
				continue
			}
			if !stopwords[fold(w)] || k == 0 {
				break
			}
		}
		if k == len(letters) {
			return true
		}
	}
	return false
}
