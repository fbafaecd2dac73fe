package judge

import (
	"strings"
	"unicode/utf8"
)

// inflection removes the inflectional ending of a folded word, so that
// the forms of one word meet before stem's six-letter cut, which keeps a
// short root's forms apart: English -ing and -ed ("closed" and "close",
// "costing" and "cost"), Italian -zione and -zioni with the verb's -are,
// -ere, -ire ("migrazione" and "migrare"), the action nouns in -aggio
// ("salvataggio" and "salvare"), and the nouns in -ura, -ure
// of a participle ("apertura" and "aperto", "closure" and "closed"). Only
// endings that leave a root of four letters or more go, so "speed",
// "king" and "misura" keep theirs. An adjective in -ly keeps it: "hourly
// backups" are no hour.
func inflection(w string) string {
	r := []rune(w)
	n := len(r)
	cut := func(suffix string) (string, bool) {
		k := utf8.RuneCountInString(suffix)
		if n-k < 4 || !strings.HasSuffix(w, suffix) {
			return w, false
		}
		return string(r[:n-k]), true
	}
	for _, suffix := range []string{"azione", "azioni", "izione", "izioni", "zione", "zioni"} {
		if root, ok := cut(suffix); ok {
			return root
		}
	}
	for _, suffix := range []string{"ataggio", "ataggi", "aggio", "aggi", "are", "ere", "ire", "ura", "ure", "ato", "ata", "ati", "ate", "ito", "ita", "iti", "ite", "uto", "uta", "uti", "ute"} {
		if root, ok := cut(suffix); ok {
			return root
		}
	}
	if root, ok := cut("ing"); ok {
		return undouble(root)
	}
	if root, ok := cut("ed"); ok && !strings.HasSuffix(root, "e") {
		return undouble(root)
	}
	return w
}

// undouble removes the consonant an English ending doubled: "stopped"
// and "running" have the roots "stop" and "run".
func undouble(root string) string {
	r := []rune(root)
	n := len(r)
	if n >= 4 && r[n-1] == r[n-2] && !strings.ContainsRune("aeiouls", r[n-1]) {
		return string(r[:n-1])
	}
	return root
}
