package analysis

import (
	"sort"
	"strings"
)

// WordSet is an immutable set of words, such as a stop list. The zero value
// is the empty set. It is safe for concurrent use.
type WordSet struct {
	m map[string]struct{}
}

// NewWordSet returns the set of the given words.
func NewWordSet(words ...string) WordSet {
	m := make(map[string]struct{}, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return WordSet{m: m}
}

// Has reports whether w is in the set.
func (s WordSet) Has(w string) bool {
	_, ok := s.m[w]
	return ok
}

// Len is the number of words in the set.
func (s WordSet) Len() int { return len(s.m) }

// Words returns the words of the set, sorted.
func (s WordSet) Words() []string {
	words := make([]string, 0, len(s.m))
	for w := range s.m {
		words = append(words, w)
	}
	sort.Strings(words)
	return words
}

// Union returns a new set with the words of s and of the others.
func (s WordSet) Union(others ...WordSet) WordSet {
	u := NewWordSet(s.Words()...)
	for _, o := range others {
		for w := range o.m {
			u.m[w] = struct{}{}
		}
	}
	return u
}

// The stop lists. They are data, not configuration: build a new WordSet to
// change one.
var (
	// SklearnEnglishStopWords is scikit-learn's ENGLISH_STOP_WORDS, the 318
	// words of stop_words="english". It is aggressive: content words such
	// as "system", "call", "fire", "bill", "find", "show", "detail" and
	// "interest" are in it, which is why the product analyzer English uses
	// LuceneEnglishStopWords instead.
	SklearnEnglishStopWords = NewWordSet(strings.Fields(sklearnEnglish)...)

	// LuceneEnglishStopWords is the 33-word default of Lucene's
	// EnglishAnalyzer: articles, conjunctions, auxiliaries and prepositions
	// only.
	LuceneEnglishStopWords = NewWordSet(strings.Fields(luceneEnglish)...)

	// ItalianStopWords is the Snowball Italian stop list (279 words):
	// articles and articulated prepositions, including the elided forms
	// that end before an apostrophe ("dell", "all", "nell"), pronouns, and
	// the forms of avere, essere, fare and stare.
	ItalianStopWords = NewWordSet(strings.Fields(italianWords)...)

	// Seed001StopWords is the 30-word list of seed 001's BM25 and hash
	// surrogate tokens().
	Seed001StopWords = NewWordSet(strings.Fields(seed001)...)

	// Seed002StopWords is the 33-word list of seed 002's extractive stub
	// (its keys() function).
	Seed002StopWords = NewWordSet(strings.Fields(seed002)...)
)

const sklearnEnglish = `
a about above across after afterwards again against all almost alone along
already also although always am among amongst amoungst amount an and another
any anyhow anyone anything anyway anywhere are around as at back be became
because become becomes becoming been before beforehand behind being below
beside besides between beyond bill both bottom but by call can cannot cant
co con could couldnt cry de describe detail do done down due during each eg
eight either eleven else elsewhere empty enough etc even ever every everyone
everything everywhere except few fifteen fifty fill find fire first five for
former formerly forty found four from front full further get give go had has
hasnt have he hence her here hereafter hereby herein hereupon hers herself
him himself his how however hundred i ie if in inc indeed interest into is
it its itself keep last latter latterly least less ltd made many may me
meanwhile might mill mine more moreover most mostly move much must my myself
name namely neither never nevertheless next nine no nobody none noone nor
not nothing now nowhere of off often on once one only onto or other others
otherwise our ours ourselves out over own part per perhaps please put rather
re same see seem seemed seeming seems serious several she should show side
since sincere six sixty so some somehow someone something sometime sometimes
somewhere still such system take ten than that the their them themselves
then thence there thereafter thereby therefore therein thereupon these they
thick thin third this those though three through throughout thru thus to
together too top toward towards twelve twenty two un under until up upon us
very via was we well were what whatever when whence whenever where
whereafter whereas whereby wherein whereupon wherever whether which while
whither who whoever whole whom whose why will with within without would yet
you your yours yourself yourselves
`

const luceneEnglish = `
a an and are as at be but by for if in into is it no not of on or such that
the their then there these they this to was will with
`

const italianWords = `
ad al allo ai agli all agl alla alle con col coi da dal dallo dai dagli dall
dagl dalla dalle di del dello dei degli dell degl della delle in nel nello
nei negli nell negl nella nelle su sul sullo sui sugli sull sugl sulla sulle
per tra contro io tu lui lei noi voi loro mio mia miei mie tuo tua tuoi tue
suo sua suoi sue nostro nostra nostri nostre vostro vostra vostri vostre mi
ti ci vi lo la li le gli ne il un uno una ma ed se perché anche come dov
dove che chi cui non più quale quanto quanti quanta quante quello quelli
quella quelle questo questi questa queste si tutto tutti a c e i l o ho hai
ha abbiamo avete hanno abbia abbiate abbiano avrò avrai avrà avremo avrete
avranno avrei avresti avrebbe avremmo avreste avrebbero avevo avevi aveva
avevamo avevate avevano ebbi avesti ebbe avemmo aveste ebbero avessi avesse
avessimo avessero avendo avuto avuta avuti avute sono sei è siamo siete sia
siate siano sarò sarai sarà saremo sarete saranno sarei saresti sarebbe
saremmo sareste sarebbero ero eri era eravamo eravate erano fui fosti fu
fummo foste furono fossi fosse fossimo fossero essendo faccio fai facciamo
fanno faccia facciate facciano farò farai farà faremo farete faranno farei
faresti farebbe faremmo fareste farebbero facevo facevi faceva facevamo
facevate facevano feci facesti fece facemmo faceste fecero facessi facesse
facessimo facessero facendo sto stai sta stiamo stanno stia stiate stiano
starò starai starà staremo starete staranno starei staresti starebbe
staremmo stareste starebbero stavo stavi stava stavamo stavate stavano
stetti stesti stette stemmo steste stettero stessi stesse stessimo stessero
stando
`

const seed001 = `
a an and are at be before by do every for from get how i in is must of on
only or over that the to what who with within
`

const seed002 = `
a an and are be by can do does for from get have how i if in is it many me
my of on or the to what when where will you your
`

// StopFilter removes the tokens that are in a word set. It filters in
// place, reusing the slice it is given.
type StopFilter struct {
	words WordSet
}

// NewStopFilter returns a filter removing the words of set.
func NewStopFilter(set WordSet) StopFilter { return StopFilter{words: set} }

// Filter returns tokens without the stop words, in order.
func (f StopFilter) Filter(tokens []string) []string {
	out := tokens[:0]
	for _, t := range tokens {
		if !f.words.Has(t) {
			out = append(out, t)
		}
	}
	return out
}

// QuestionWords are the words questions are made of that say nothing about
// their subject and that the stop lists above lack: Italian modal verbs,
// "quando", "entro", the interrogative "cosa" (what) and "qual" (which,
// before "è"), "va" and "vanno" of an obligation ("va presentata": must be
// submitted) and the like, English "need", "want". They matter when
// fonte asks whether the corpus holds an answer, not when it ranks.
var QuestionWords = NewWordSet(strings.Fields(`quando entro devo devi deve dobbiamo dovete devono dovrei dovrebbe
posso puoi può possiamo potete possono potrei potrebbe voglio vuoi vuole vogliamo volete vogliono vorrei
serve servono bisogna occorre fare faccio cosa qual va vanno
need needs want wants know tell please`)...)

// ContentStopWords are the function words of both of fonte's languages
// (Lucene's and scikit-learn's English lists, Snowball's Italian list with
// its elided forms, and QuestionWords): what is left of a question after
// removing them is its content, the evidence an answer must match.
var ContentStopWords = LuceneEnglishStopWords.Union(SklearnEnglishStopWords, ItalianStopWords,
	NewWordSet("coll", "pell", "gl", "quest", "quell"), QuestionWords)
