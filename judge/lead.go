package judge

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// lead is what a reader takes an answer to say first.
type lead struct {
	text     string // the span before fonte's " — ", else the first sentence
	span     bool   // text is fonte's short span lead ("250 euro — …")
	sentence string // the first sentence, the span lead included
	// direct is set when the answer is one short sentence and nothing
	// else ("Amazon SES.", "Entro 15 giorni."): all it says is stated as
	// the answer, as a span lead is.
	direct bool
	// long is set for a direct answer longer than maxDirectWords, which
	// only an answer without citations can be: its figures count as its
	// answer only when it is about the question, and its words are not
	// read as an answer of its own (a longer sentence paraphrases).
	long bool
	// first is set when an answer without citation marks opens with a
	// short sentence and goes on ("79 characters. GDS raises this to
	// 120."): a model's first sentence is what a reader takes as its
	// answer, as a span lead is.
	first bool
}

// maxDirectWords is the longest one-sentence answer read as a direct
// answer; a longer one is read as a passage. An answer without citation
// marks quotes nothing, so a longer sentence of its own is still its
// answer (maxUncitedDirectWords).
const (
	maxDirectWords        = 12
	maxUncitedDirectWords = 20
)

// directLimit is the longest direct answer for an answer's text.
func directLimit(answer string) int {
	if citationRE.MatchString(answer) {
		return maxDirectWords
	}
	return maxUncitedDirectWords
}

// spanSeparator separates fonte's short lead from the quoted passage.
const spanSeparator = " — "

// maxSpanWords is the longest lead before " — " read as a span lead; a
// longer one is a sentence that happens to hold a dash.
const maxSpanWords = 10

// leadOf finds what an answer leads with: fonte's offline answers read
// "LEAD — quoted passage [1]", a model's answer leads with its first
// sentence.
func leadOf(answer string) lead {
	t := strings.TrimSpace(withoutCitations(answer))
	t = strings.TrimLeft(t, "-–•*#> \t\n")
	if i := strings.Index(t, spanSeparator); i > 0 {
		pre, rest := strings.TrimSpace(t[:i]), firstSentence(t[i+len(spanSeparator):])
		// A second dash in the sentence pairs with the first around an
		// aside ("You can — if your manager agrees — work from home").
		paired := strings.Contains(rest, spanSeparator)
		if len(strings.Fields(pre)) <= maxSpanWords && firstSentence(pre) == pre && !strings.Contains(pre, "\n") && !paired {
			whole := pre + spanSeparator + rest
			direct := normalSpace(whole) == normalSpace(t) && len(strings.Fields(whole)) <= directLimit(answer)
			return lead{text: pre, span: true, sentence: whole, direct: direct, long: direct && len(strings.Fields(whole)) > maxDirectWords}
		}
	}
	s := firstSentence(t)
	// A table row ("Trieste: … | Saturday: closed") is a quoted passage.
	direct := normalSpace(s) == normalSpace(t) && len(strings.Fields(s)) <= directLimit(answer) && !strings.Contains(s, "|")
	first := !direct && !citationRE.MatchString(answer) && len(strings.Fields(s)) <= maxDirectWords && !strings.Contains(s, "|")
	return lead{text: s, sentence: s, direct: direct, long: direct && len(strings.Fields(s)) > maxDirectWords, first: first}
}

// firstSentence returns text up to the end of its first sentence: a full
// stop, question or exclamation mark followed by space (not after an
// abbreviation or an initial), a line break, or a list bullet.
func firstSentence(text string) string {
	text = strings.TrimSpace(text)
	for i, r := range text {
		switch r {
		case '\n', '•':
			if s := strings.TrimSpace(text[:i]); s != "" {
				return s
			}
		case '.', '!', '?':
			rest := text[i+1:]
			next, _ := utf8.DecodeRuneInString(rest)
			if rest != "" && !unicode.IsSpace(next) {
				continue
			}
			words := strings.Fields(text[:i+1])
			if r == '.' && len(words) > 0 && isAbbreviation(trimWord(words[len(words)-1])) {
				continue
			}
			return strings.TrimSpace(text[:i+1])
		}
	}
	return text
}

// abstentionRE matches what an answer says when it does not know, in
// English and Italian: "I don't know", "I couldn't find this in the
// documents", "the sources do not say", "Non lo so", "Non ho trovato",
// "nessuna informazione", a bare "Unknown." or "Non è specificato.", and
// fonte's own "I don't know." and "I do not know.".
var abstentionRE = regexp.MustCompile(`(?i)(?:` +
	`\b(?:don'?t|do not|didn'?t|did not) know\b` +
	`|\b(?:couldn'?t|could not|can'?t|cannot|was unable to|am unable to|unable to|did not|didn'?t|failed to) (?:find|locate)\b` +
	`|\bfound (?:nothing|no (?:answer|information|relevant|passage|document))` +
	`|\bno (?:relevant )?(?:information|answer|passage|document|source|result)s? (?:was |were |is |are |could be )?(?:found|available|provided|given)\b` +
	`|\b(?:documents?|documentation|docs|manuals?|handbooks?|guides?|guidance|sources?|context|passages?|texts?|provided (?:documents|sources|context)) (?:do(?:es)? not|don'?t|doesn'?t) (?:say|mention|contain|answer|cover|specify|state|include|provide)` +
	`|\bI (?:don'?t|do not) have (?:any |enough |that |this |the )?(?:information|info|details|data)\b|\bI have no (?:information|details|data)\b` +
	// No idea, no help, nothing said about it: other words for the
	// same, read only where the answer opens with them ("the page has
	// no idea of …" inside an answer is no abstention).
	`|` + openingAbstentionRE +
	`|\bI'?m not (?:sure|certain)\b|\bI am not (?:sure|certain)\b|^\W*not (?:sure|certain)\b` +
	`|\b(?:there'?s|there is|there are|I (?:found|see|have)) no (?:information|mention|details?|data|guidance)\b` +
	`|\bnot (?:mentioned|covered|stated|specified|found|addressed) in the (?:documents?|documentation|sources?|context|passages?|texts?|handbook|manual|guide|guidance)` +
	// A bare "Unknown." or "Not specified." says the same without
	// naming where it looked.
	`|^\W*(?:unknown|not (?:specified|stated|mentioned|documented|known)|sconosciut[oa]|non (?:è |viene )?(?:specificat|indicat|menzionat|riportat|not)[oa])\s*(?:[.!;]|$|\b(?:in|nei|nel|nella|nelle|dai|dalla)\b)` +
	`|\b(?:cannot|can'?t|unable to) (?:answer|tell)\b` +
	// The sources the answerer has said to be silent, and a guess
	// declined: "the guidance I have says nothing about it", "I'd
	// rather not guess", "le fonti che ho non dicono nulla",
	// "preferisco non tirare a indovinare".
	`|\b(?:documents?|docs|documentation|guidance|sources?|context|material|passages?|texts?) (?:(?:I|we) (?:have|was given|were given|found) )?says? nothing\b` +
	`|\b(?:I'?d|I would|I'?ll|I will) rather not guess\b|\b(?:I won'?t|I will not|I'?d prefer not to|I prefer not to) guess\b` +
	`|\b(?:documenti|documentazione|guida|fonti|testi|materiale) (?:che (?:ho|abbiamo) )?non dicono? (?:nulla|niente)\b|\bpreferisco non (?:tirare a indovinare|azzardare)\b` +
	`|\bnon (?:lo )?so\b` +
	`|\bnon (?:ho|abbiamo) trovato\b|\bnon (?:trovo|riesco a trovare)\b|^\W*non è stato possibile trovare\b` +
	`|\bnon (?:sono riuscit[oa]|siamo riuscit[ie]) a (?:trovare|individuare|capire)\b` +
	`|\bnessun[ao]? (?:informazion|risultat|document|passagg|rispost|fonte)` +
	`|\bnon (?:ne )?(?:sono|sono del tutto) (?:sicur|cert)[oa]\b|\bnon (?:ho|dispongo di|abbiamo) (?:questa |queste |tale |tali |l'|le )?(?:informazion[ei]|dati|dettagli)\b` +
	`|^\W*non (?:mi )?risulta(?:no)?\s*(?:[.!]|$)` +
	`|\b(?:documenti|documentazione|manuale|guida|fonti|testi|passaggi|contesto) non (?:lo |ne )?(?:dicono|dice|menzionano|menziona|contengono|contiene|specificano|riportano|rispondono|trattano|indicano|parla|parlano)` +
	`|\bnon (?:è|sono) (?:menzionat|indicat|specificat|riportat|present|trattat)\w* (?:nei|nelle|nel) (?:documenti|fonti|testi|contesto)` +
	`|\bnon (?:posso|sono in grado di|è possibile) rispondere\b` +
	`|\bnon (?:saprei|lo sappiamo|so dirlo|so dire)\b|^\W*non (?:mi )?risulta(?:no)? (?:nei|dai|dalle|nelle|dalla|nella|dal|nel) (?:documenti|fonti|testi|documentazione|manuale|guida|contesto)` +
	`)`)

// openingAbstentionRE matches an answer that opens by saying it has no
// idea, cannot help, or that the sources say nothing of it, after an
// apology: "No idea.", "I'm afraid I can't help with that", "There's
// nothing about this in the docs", "Nothing in the documents says so",
// "This isn't covered in the sources", "Non ne ho idea", "Nessuna
// idea", "Non c'è nulla su questo nei documenti", "Nei documenti non
// c'è", "Non riesco a rispondere".
const openingAbstentionRE = `^\W*(?:(?:sorry|unfortunately|i'm afraid|i am afraid|purtroppo|mi dispiace|spiacente)[,\s]+)*(?:i (?:have |'ve got )?)?(?:` +
	`no (?:idea|clue)\b|(?:i )?(?:can't|cannot|am unable to|'m unable to) help with\b` +
	`|(?:there's|there is) nothing (?:about|on|regarding) (?:this|that|it)\b` +
	`|nothing in the (?:documents?|docs|documentation|sources?|handbook|manual|guide|context|passages?|texts?)\b` +
	`|(?:this|that|it) (?:isn't|is not|wasn't|was not) (?:covered|mentioned|stated|specified|addressed|documented|included) (?:in|by) (?:the |my |our |these |those )?(?:documents?|docs|documentation|sources?|context|passages?|texts?|handbook|manual|guide)` +
	`|non (?:ne )?(?:ho|abbiamo) (?:idea|la minima idea)\b|nessuna idea\b` +
	`|non c'è (?:nulla|niente) (?:su|in merito|a riguardo|riguardo|a proposito)` +
	`|(?:nei|nelle|nel|nella) (?:documenti|fonti|testi|documentazione|manuale|guida|contesto) non (?:c'è|ci sono|se ne parla|si parla|si trova|compare|(?:è|viene) (?:indicat|riportat|menzionat)\w*)` +
	`|non (?:riesco|riusciamo) a rispondere\b)`

// saysItDoesNotKnow reports whether a sentence abstains.
func saysItDoesNotKnow(sentence string) bool {
	return abstentionRE.MatchString(strings.ReplaceAll(sentence, "’", "'"))
}

// negationRE matches the words that say no in English and Italian.
var negationRE = regexp.MustCompile(`(?i)(?:\b(?:not|cannot|never|no|none|nobody|nothing|neither|nor|non|mai|nessun\w*|niente|nulla)\b|n't\b|(?:^|[^\p{L}])né(?:[^\p{L}]|$))`)

// notNegationRE matches negative words that bound a figure or add to a
// clause instead of saying no: "no later than", "not only", "non oltre",
// "non solo", "whether or not"; "non designa solo …, ma anche …" with
// the verb between (Italian puts "non" before the verb, "solo" after
// it); "non esaustivo", "non tassativo", which say a list is open,
// not that its items are denied; and "non-" or "no-" joined to a word.
var notNegationRE = regexp.MustCompile(`(?i)\b(?:no|not) (?:later|earlier|more|less|fewer|sooner) than\b|\bnot only\b|\bwhether or not\b|\bif not\b|\bnon (?:oltre|più di|meno di|prima di|dopo|solo|soltanto|appena)\b|\bnon appena\b` +
	`|\bnon (?:\p{L}+ ){1,2}(?:solo|soltanto|solamente|unicamente)\b|\bnon (?:esaustiv|tassativ|limitativ)\p{L}*|\bnot (?:exhaustive|limited to)\b` +
	// "non-security updates", "no-reply": a prefix of a word, not a no.
	`|\b(?:non|no)-\p{L}`)

// conditionRE matches a conditional clause after its main clause, up to
// the next comma or the sentence's end: ", even if it is closed", "anche
// se non …", "unless …", "a meno che …".
var conditionRE = regexp.MustCompile(`(?i)[,;]?\s+(?:even if|even when|unless|anche se|a meno che|qualora|nel caso in cui)\b[^,;.]*|,\s*(?:if|se)\b[^,;.]*`)

// openingConditionRE matches a conditional clause that opens the
// sentence, up to its comma: "If a decision was never implemented, …",
// "Se il dato non è aperto, …". Its negation belongs to the case it
// sets, not to the answer: the main clause after it says yes or no.
var openingConditionRE = regexp.MustCompile(`(?i)^\W*(?:if|se|qualora|nel caso in cui)\s[^,;.]*,`)

// negativePredicates are the beginnings of words that answer a yes/no
// question with no ("Saturday: closed", "È vietato", "unused comp time is
// forfeited", "the catalogue was abolished", "abrogato", "avoid puns",
// "evitare le sigle"), unless the question asks with the same word ("Is
// smoking forbidden?", "Do credit hours expire?").
var negativePredicates = []string{"closed", "chius", "forbid", "prohibit", "vietat", "proibit", "disallow",
	"excluded", "esclus", "unavailable", "impossib", "disabled", "disabilitat", "disattivat", "deactivated",
	"forfeit", "expire", "decad", "abrogat", "abolit", "soppress", "repeal", "abolish", "discontinu", "dismess",
	"avoid", "evit"}

// polarityOf returns "yes" or "no" for what a sentence says in answer to
// question: an opening yes or no decides; else a negation, or a negative
// predicate the question does not use itself, says no, and a sentence
// without either says yes.
func polarityOf(sentence, question string) string {
	s := strings.ReplaceAll(sentence, "’", "'")
	if p, _ := openingYesNo(s); p != "" {
		return p
	}
	// A condition says when, not whether: "recorded, even if it is
	// closed as a false positive" says yes.
	s = conditionRE.ReplaceAllString(openingConditionRE.ReplaceAllString(s, " "), " ")
	if !waitRE.MatchString(question) {
		s = negatedWaitRE.ReplaceAllString(s, " ")
	}
	if negationRE.MatchString(notNegationRE.ReplaceAllString(s, " ")) {
		return "no"
	}
	if deniedByWithout(s, question) {
		return "no"
	}
	for _, w := range strings.FieldsFunc(fold(avoidedElsewhere(s, question)), func(r rune) bool { return !unicode.IsLetter(r) }) {
		for _, p := range negativePredicates {
			if strings.HasPrefix(w, p) && !strings.Contains(fold(question), p) {
				return "no"
			}
		}
	}
	return "yes"
}

// avoidRE matches "avoid" or "evitare" in any form with what follows it
// to the clause's end.
var avoidRE = regexp.MustCompile(`(?i)\b(?:avoid|evit)\p{L}*([^,;.:!?—–]*)`)

// avoidConditionRE matches the condition that may follow what is
// avoided, which is no part of it.
var avoidConditionRE = regexp.MustCompile(`(?i)\b(?:unless|if|when|except|a meno che|se|quando|tranne|salvo)\b`)

// avoidedElsewhere removes from s each "avoid …" whose object shares no
// word with the question: "avoid monkey-patching" to "Is a pun a good
// name?" advises against another thing, and says no to nothing asked.
func avoidedElsewhere(s, question string) string {
	asked := topicStems(question)
	return avoidRE.ReplaceAllStringFunc(s, func(m string) string {
		object := avoidRE.FindStringSubmatch(m)[1]
		if i := avoidConditionRE.FindStringIndex(object); i != nil {
			object = object[:i[0]] // "avoid X unless you have a good reason"
		}
		if len(topicStems(object)) == 0 || sharedStems(topicStems(object), asked) > 0 {
			return m
		}
		return " "
	})
}

// hedgedYesNoRE matches an answer that opens with a yes or a no said
// with a hedge or by its verb alone: "Probably not.", "Not really.", "I
// think so", "I don't think so", "It does:", "They aren't.", "Credo di
// sì", "Direi di no", "Non credo", "Absolutely not", "Of course", and
// the words that deny every case ("Never.", "Under no circumstances",
// "Mai", "In nessun caso") or advise against it ("Better not", "Meglio
// di no"). One of its groups is set for a no.
var hedgedYesNoRE = regexp.MustCompile(`(?i)^(?:` +
	`(?:probably|likely|most likely|i think|i believe|i guess|i'd say|probabilmente|credo|penso|direi)[\s,]+(?:` +
	`(not\b|no\b|di no\b)|(?:so|yes|sì|si|di sì|di si)(?:[^\p{L}]|$))` +
	`|(not really|i don't think so|i do not think so|non credo|non penso|non direi` +
	`|(?:absolutely|certainly|definitely|of course|assolutamente|certamente|certo che|sicuramente|proprio) (?:not|no|non)|nope|affatto|per niente|niente affatto` +
	`|never|under no circumstances|in no case|by no means|not at all|mai|in nessun caso|per nessun motivo|in nessun modo|in alcun modo` +
	`|better not|best not|meglio di no|meglio no|preferibilmente no)(?:[^\p{L}]|$)` +
	`|(?:of course|certo che s[iì])(?:[^\p{L}]|$)` +
	`|(?:it|they|you|we|that|this)\s+(?:does|do|is|are|can|must|will|did|has|have|should)(n't|\s+not)?\s*[:;,.!—–]` +
	`)`)

// openingYesNo returns "yes" or "no" when text opens with a yes or a no,
// and whether the word stands alone ("Yes.", "No, …", "Sì", "Si, …")
// rather than opening a clause ("No personal laptop may …", "Si può …").
func openingYesNo(text string) (polarity string, alone bool) {
	t := strings.TrimLeft(strings.TrimSpace(text), "\"'«“*_")
	if nothingAgainstRE.MatchString(strings.ReplaceAll(t, "’", "'")) {
		return "yes", true
	}
	if m := hedgedYesNoRE.FindStringSubmatch(strings.ReplaceAll(t, "’", "'")); m != nil {
		if m[1] != "" || m[2] != "" || m[3] != "" {
			return "no", true
		}
		return "yes", true
	}
	end := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsLetter(r) })
	word, rest := t, ""
	if end >= 0 {
		word, rest = t[:end], t[end:]
	}
	// A clause cut out before the stop ("Sì, salvo che …." read
	// without its exception) leaves spaces between the word and it.
	next, _ := utf8.DecodeRuneInString(strings.TrimLeft(rest, " "))
	alone = strings.TrimSpace(rest) == "" || strings.ContainsRune(".,;:!—–-", next)
	switch fold(word) {
	case "yes", "si", "certo", "certamente", "certainly", "sure", "absolutely", "definitely", "indeed", "yep", "yeah",
		"assolutamente", "sicuramente", "ovviamente", "esatto", "exactly", "correct", "corretto":
		if alone {
			return "yes", true
		}
	case "no":
		return "no", alone
	}
	return "", false
}

// nothingAgainstRE matches an opening that grants by denying an
// obstacle: "No problem", "There's nothing against it", "Nessun
// problema", "Non c'è alcun divieto", "Nulla vieta". Its negation says
// yes.
var nothingAgainstRE = regexp.MustCompile(`(?i)^(?:no problem|not a problem|there(?:'s| is) nothing against (?:it|that)|nothing (?:against it|prevents (?:it|you|that|this))|(?:it(?:'s| is) )?not (?:forbidden|prohibited)` +
	`|nessun (?:problema|divieto|ostacolo)|non c'è (?:alcun |nessun )?(?:problema|divieto|ostacolo)|non ci sono (?:problemi|divieti|ostacoli)|nulla vieta|niente vieta|non è (?:vietat|proibit)\p{L})(?:[^\p{L}]|$)`)

// negatedWaitRE matches a wait denied ("non bisogna aspettare", "no
// need to wait"): it says at once, not no, unless the question asks
// about waiting.
var negatedWaitRE = regexp.MustCompile(`(?i)\b(?:not|non|don't|no need to)\s+(?:\p{L}+\s+)?(?:wait|aspettare|attendere)\b`)

// waitRE matches a question that asks about waiting.
var waitRE = regexp.MustCompile(`(?i)\b(?:wait|aspett|attend)`)

// openingWordRE matches an answer's first word when it stands alone
// before a comma, semicolon or colon: "Nagios, with Pingdom as a second
// opinion", "alphagov; i.AI is …".
var openingWordRE = regexp.MustCompile(`^[\s"'«“*_]*([\p{L}][\p{L}\d._-]*)\s*[,;:]`)

// opensWithOtherName returns the word an answer of its own opens with,
// alone before a comma, in place of the reference's names or codes, when
// it names one of them only afterwards: what a reader takes as the answer
// is the first name ("Nagios, with Pingdom as a second opinion" for
// Pingdom). A function word, an adverb ("Regularly, …"), a yes or no, and
// a word of the question or the reference open a sentence without being
// its answer.
func opensWithOtherName(question, reference string, ref reference, sentence string) []string {
	var names []fact
	for _, f := range ref.facts {
		switch f.kind {
		case nameFact, codeFact:
			names = append(names, f)
		case figureFact:
			return nil
		}
	}
	if len(names) == 0 {
		return nil
	}
	if p, _ := openingYesNo(sentence); p != "" {
		return nil
	}
	m := openingWordRE.FindStringSubmatch(sentence)
	if m == nil || strings.HasPrefix(sentence[len(m[0]):], "//") { // a link's scheme ("https://") is no word
		return nil
	}
	w := strings.Trim(m[1], "._-")
	f := fold(w)
	if w == "" || stopwords[f] || strings.HasSuffix(f, "ly") || strings.HasSuffix(f, "mente") {
		return nil
	}
	known := map[string]bool{}
	for _, st := range append(stemsOf(question), stemsOf(reference)...) {
		known[st] = true
	}
	if known[stem(f)] || containsBounded(strings.ToLower(reference), strings.ToLower(w)) {
		return nil
	}
	rest := strings.ToLower(sentence[len(m[0]):])
	for _, n := range names {
		if containsBounded(rest, strings.ToLower(n.text)) {
			return []string{"the answer opens with " + w + " before " + n.text}
		}
	}
	return nil
}

// withoutRE matches "without" or "senza" and the few words after it
// ("without the need to sign any agreement").
var withoutRE = regexp.MustCompile(`(?i)\b(?:without|senza)\b((?:\s+[\p{L}'’]+){1,6})`)

// deniedByWithout reports whether a sentence does without what the
// question asks about: "senza necessità di sottoscrivere alcuna
// convenzione" to "bisogna firmare una convenzione?" says no.
func deniedByWithout(sentence, question string) bool {
	asked := map[string]bool{}
	for _, st := range topicStems(question) {
		asked[st] = true
	}
	// What the question itself asks to do without ("without approval")
	// the answer echoes, and does not deny.
	for _, m := range withoutRE.FindAllStringSubmatch(question, -1) {
		for _, st := range topicStems(m[1]) {
			delete(asked, st)
		}
	}
	for _, m := range withoutRE.FindAllStringSubmatch(sentence, -1) {
		for _, st := range topicStems(m[1]) {
			if asked[st] {
				return true
			}
		}
	}
	return false
}

// minReasonWords is the fewest content words a yes/no reference must add
// to its yes or no before an answer that states them implies it: a
// reason of one word ("No, never") says too little to imply anything.
const minReasonWords = 2

// polarityOpposed reports whether a sentence, read as a yes or no to the
// question, says the other one than want.
func polarityOpposed(want, sentence, question string) bool {
	p := polarityOf(sentence, question)
	return p != want && (want == "yes" || p == "yes" && len(oppositeOfQuestion(question, sentence)) > 0)
}
