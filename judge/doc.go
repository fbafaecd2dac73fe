// Package judge decides whether an answer states the key facts of a
// reference answer written by a person, in English or Italian, and says
// why.
//
// A reference's key facts are its figures with their units (single digits
// and number words included, in the number formats of both languages), its
// codes, commands, file names, paths, addresses and proper names, and, when
// it opens with a bare yes or no, its polarity. An answer is right when it
// states every key fact and does not lead with one that contradicts the
// reference; misleading when what it leads with (fonte's "LEAD — passage"
// span, or a model's first sentence) contradicts the reference: another
// figure for the same thing, another unit, the opposite yes or no, another
// address; partial when it states some key facts; wrong when it states
// none; abstained when it says it does not know. An answer that is one
// short sentence and nothing else (a model's "Amazon SES.", "Entro 15
// giorni.") states all it says as the answer, as fonte's span lead does:
// another figure, name, code, version, frequency or timing in it is
// misleading, and so, when it has no citations, are words of its own
// in place of the reference's; a quoted passage is misleading only
// where it leads with, or is about, what the question asks. A lead that
// says the opposite of one of the reference's words ("odd" for even,
// "facoltativo" for obbligatorio), drops a name's negation ("dependabot"
// for no-dependabot) or opens with another name before the reference's
// ("Nagios, with Pingdom as a second opinion") is misleading too.
// In an answer without citation marks, every clause is the answer's
// own: the opposite yes or no said after the right one ("No, not for new
// projects, although a team may still start one"; "No, …; serve però una
// richiesta di accesso" where the reference denies it), a yes restricted to
// some cases ("Only real leaks need it"), another name or code named
// before the reference's ("Prometheus and Grafana, with Pingdom as a
// backup"), another count than the question's ("Three: …" to "Which
// two …"), and a first clause with words of its own where a reference
// without key facts puts its answer ("The power-user role; admin only
// when needed" for "A read-only role; …") are misleading. So is a lead
// that does without what the reference requires ("senza bisogno di
// documentarlo" for "Redigere un documento …"), and one that keeps
// only one of the cases a reference offers ("Solo quando …" for "Quando
// …, oppure quando …"). A name of the reference with one of its words
// swapped for another ("GOV.UK Pay" for GOV.UK Notify) is another name,
// and the reference's sentence repeated with one of its codes swapped
// ("Add a snyk tag" for "Add a no-dependabot tag") another answer.
// Figures said in words are the figures they mean ("half an hour", "a
// year", "an hour and a half", "un'ora e mezza", "three-day",
// "a quarter of an hour", "un paio di giorni", "four and a half to one"
// for 4.5:1, "nove e mezza", "tremila", "una decina", "nove su dieci" for 90%, "the end of March" for 31 March, "noon", "3 del pomeriggio", "once a
// year", "42 cents", "Only one.", "Sei tipologie"), and everyday synonyms and translations
// ("permitted", "consentito" for allowed; "not permitted" for
// forbidden) are one word. An answer is read as a reader sees it: a
// quoted page's HTML tags, Markdown links and template tags removed,
// the numbers of a numbered list's items ("1.", "2)") taken for marks.
// A number after an elided Italian article ("l'80%", "nell'11%") is a
// figure.
// Codes and figures are compared as written in either language: "$VAR"
// is the variable VAR, "/usr/local/" the folder /usr/local, an IPv4
// address and a key combination ("Ctrl-A", "Control-A", "^A") are codes,
// a word in parentheses right after a fact is its other name ("Media
// (medium)"), a preposition opening a sentence is no word of the name
// after it ("Through Google Apps Marketplace"), "alle nove e mezza" and "9.30" are times of day. The
// reference repeated with one figure or code changed ("Review takes 4-5
// days" for 3-5) states that figure; the reason a yes/no reference gives,
// stated in the answer's words, states its yes or no; and what the
// question itself names (its word, its file's path, a page to see) is
// no other answer. A "non" that says no "no" is no negation: "non
// designa solo …, ma anche", "un elenco non esaustivo", and "Non bisogna
// aspettare …", which is at once (unless the question asks about
// waiting); an opening that denies an obstacle ("No problem", "Nessun
// problema", "Non c'è alcun divieto") grants. A passage about the question that states none of the
// key facts but another figure of the kind asked states that figure as
// the answer, and a span lead that is a code the reference gives only in
// an aside ("3:1 —" for "4.5:1 (large text needs 3:1)") states another
// case's value; one that is the reference's second figure of the
// dimension of its first ("8 bytes —" for "1,684 bytes, against 8
// bytes for a WebSocket packet") gives the figure the answer is compared
// with. An answer of its own that gives two of the reference's figures
// each to the thing the reference gives the other to ("1,684 bytes for
// a WebSocket packet against 8 bytes for an HTTP request") swaps them.
// A figure stated only in a clause set against the answer ("LTS
// releases, by contrast, get five years") is another case's, and does not
// contradict the reference's aside about that case.
// A span lead with a provision's bare number ("comma 2 —") names
// another provision than the reference's "2-bis".
// Words that deny every case ("Never.", "Under no circumstances", "Mai",
// "In nessun caso") or advise against it ("Better not", "Meglio di no")
// say no, and "only if" restates a yes that the
// reference makes depend on a consent ("with your manager's agreement",
// "con l'accordo del responsabile").
// A yes or no given with the reference's reason in other words, keeping
// any of the reason's words, is the reference's answer; a bare one, or
// one with a reason that shares none of them, is partial.
// An answer that states one part of the reference whole (a clause, a
// list's item: "Collect your building badge" for "Sign the contract, …,
// and collect your building badge from reception") and none of its key
// facts is partial, not wrong; in a quoted passage, only where the
// passage is about the question.
// A rate is compared with what it is counted per: "3 giorni al mese"
// and "0.42 euro per mile" are other figures than "3 giorni a settimana"
// and "0.42 euro per kilometre"; a rate without its "per" is the same.
// Working days said for the reference's plain days add a qualifier and
// are another figure ("60 giorni lavorativi" for 60 giorni); plain days
// for working days leave one out.
// A reference's bare number counts what the question asks how many of
// ("8" to "Quanti tipi …?" is 8 tipi), so "6 tipi —" is another count.
// An answer of its own that gives, in a clause of its own, another
// figure of the kind asked to what the question asks ("la seconda nel
// 2009" to "In che anno è uscita la seconda versione?") states that
// figure as the answer, whatever else it states.
// An answer of its own whose first clause names another thing, a name
// the question does not hold ("In the incident's own Google Doc, linked
// from #incident") or a tool it says to run ("Run dpkg-buildpackage;
// debi then installs …"), before the reference's is misleading.
// Words are compared by family: the inflections of English and Italian
// ("closed" and "closure", "migrazione" and "migrare", "apertura" and
// "aperto") are one word.
// The rules are general
// knowledge of English and Italian, so that the judge holds on questions
// nobody has seen; Agree measures it against answers labelled by people.
package judge
