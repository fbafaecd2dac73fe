package answer

import (
	"strings"
	"sync"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/lexical/wordnet"
)

// The synonym study (lexical/wordnet/README.md): when synonymShare is
// above 0, which only a build with the tag fontesynonyms makes it
// (synonyms_on.go), ExtractSpan counts a key of an English question as
// held, at synonymShare of its weight, by a sentence that holds a WordNet
// synonym of the question's word or collocation ("gather" for "collect",
// "turn off" for "switch off"), among synonymSenses first senses.
var (
	synonymShare  float64
	synonymSenses = 1
	synonymDir    = wordnet.DefaultDir
	stemAll       = analysis.NewEnglish(analysis.NewWordSet()) // English keys, function words kept
	surfaceWords  = &analysis.Chain{Lowercase: true, CharFilters: []analysis.CharFilter{analysis.Fold{}}, Tokenizer: analysis.IdentifierTokenizer{}}
	thesaurus     = sync.OnceValue(func() *wordnet.Thesaurus {
		t, err := wordnet.Load(synonymDir, synonymSenses)
		if err != nil {
			panic("answer: the synonym study needs WordNet: " + err.Error())
		}
		return t.Keyed(func(l string) string { return strings.Join(stemAll.Analyze(l), " ") })
	})
)

// synonyms maps the keyed synonyms of a question's words and collocations
// (up to three words) to the question's keys they stand for.
type synonyms map[string][]string

// synonymsOf returns the synonyms of question's words whose keys are in
// want; nil when the study is off or the question is not English.
func synonymsOf(question string, want map[string]bool) synonyms {
	if synonymShare <= 0 || analysis.QuestionLanguage(question) != "en" {
		return nil
	}
	words := surfaceWords.Analyze(question)
	syn := synonyms{}
	for i := range words {
		for j := i + 1; j <= min(i+3, len(words)); j++ {
			var ks []string
			for k := range ContentKeys(strings.Join(words[i:j], " ")) {
				if want[k] {
					ks = append(ks, k)
				}
			}
			if len(ks) == 0 {
				continue // a function word, or a question word the key set dropped
			}
			for _, s := range thesaurus().Synonyms(strings.Join(stemAll.Analyze(strings.Join(words[i:j], " ")), " ")) {
				syn[s] = append(syn[s], ks...)
			}
		}
	}
	return syn
}

// heldBy returns the question keys whose synonyms sentence s holds, as a
// word or as consecutive words.
func (syn synonyms) heldBy(s string) map[string]bool {
	if len(syn) == 0 {
		return nil
	}
	held := map[string]bool{}
	t := stemAll.Analyze(s)
	for i := range t {
		for j := i + 1; j <= min(i+3, len(t)); j++ {
			for _, k := range syn[strings.Join(t[i:j], " ")] {
				held[k] = true
			}
		}
	}
	return held
}
