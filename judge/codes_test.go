package judge

import "testing"

// judgeCase is an answer and the verdict it must get.
type judgeCase struct {
	name                        string
	question, reference, answer string
	want                        Verdict
}

// runJudgeCases judges each case as a subtest.
func runJudgeCases(t *testing.T, cases []judgeCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Judge(c.question, c.reference, c.answer, false); got.Verdict != c.want {
				t.Errorf("Judge(%q, %q) = %s, want %s\n%+v", c.reference, c.answer, got.Verdict, c.want, got)
			}
		})
	}
}

// TestCodesReadAsWritten pins the codes a word-by-word reading took for
// something else, and the markup of a quoted page: each case failed
// before the rule it names.
func TestCodesReadAsWritten(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		// A page's markup is not the answer's words.
		{"a code inside HTML tags", "Where is the proxy configured?", "In /etc/proxy.conf.",
			`Set it in <code class="filename">/etc/proxy.conf</code>. [1]`, Right},
		{"a tag cut off before the citation", "Where is the proxy configured?", "In /etc/proxy.conf.",
			"The proxy reads /etc/proxy.conf at start.</p [1]", Right},
		{"a Markdown link's text", "Which form do I send?", "Form SF-50.",
			"Send [form SF-50](https://example.org/forms/sf50) to HR. [1]", Right},
		// A variable without its "$", a folder without its last slash.
		{"a variable without the dollar", "Which variable sets the editor?", "$VISUAL",
			"VISUAL.", Right},
		{"a folder without its slash", "Where do local scripts go?", "In /opt/scripts/.",
			"Under /opt/scripts.", Right},
		// An IPv4 address is a code, not a number in Italian thousands.
		{"another address", "Quale indirizzo multicast usa il servizio?", "239.0.0.251 (ff02::fb in IPv6).",
			"L'indirizzo 239.255.255.250.", Misleading},
		{"the address", "Quale indirizzo usa il server DNS interno?", "10.20.0.53.",
			"Usa 10.20.0.53, sulla porta 53.", Right},
		// Key combinations in their several spellings.
		{"a key combination spelt out", "Which keys open the command menu?", "Ctrl-K followed by a letter.",
			"Press Control-K, then a letter.", Right},
		{"a key combination with a caret", "Which keys open the command menu?", "Ctrl-K followed by a letter.",
			`Type ^K ("Control-K") and then one letter. [1]`, Right},
		{"another key combination", "Which keys open the command menu?", "Ctrl-K followed by a letter.",
			"Ctrl-J followed by a letter.", Misleading},
		// A setting's value; a reference's other name in parentheses.
		{"the alias in a setting", "Che livello di log si usa di norma?", "Alto (high), salvo casi particolari.",
			"Di norma loglevel=high.", Right},
		{"another value of the setting", "Che livello di log si usa di norma?", "Alto (high), salvo casi particolari.",
			"Di norma loglevel=debug.", Misleading},
		// Two words joined by a slash name one thing two ways.
		{"one of two words joined by a slash", "Quali tipi di soluzione si confrontano?", "Tre: riuso, software libero/open source, cloud.",
			"Sono tre: riuso, software libero e cloud.", Right},
		{"two codes joined by a slash, written apart", "Che cosa contiene il file .sig?", "Le firme RSA2/ED25519 dei pacchetti.",
			"Contiene le firme RSA2 ed ED25519 dei pacchetti.", Right},
		// A plain word offered as the equal of a code is one too.
		{"one of two packages kept alone", "Quale server web conviene su una macchina piccola?", "php8-fpm o lighttpd, dietro un proxy.",
			"Solo lighttpd.", Misleading},
		{"the second package alone, after another", "Quale server web conviene su una macchina piccola?", "php8-fpm o lighttpd, dietro un proxy.",
			"Meglio apache2.", Misleading},
		{"a verb after oppure is no package", "Come attivo il tracciamento?", "Con set -v (o lanciando la shell con -v).",
			"Esegui set -v, oppure lancia lo script con sh -v.", Right},
	})
}

// TestFigureOrCodeSwapped pins that the reference repeated with one
// figure or code changed, asides included, is misleading.
func TestFigureOrCodeSwapped(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"a range's end, the other range the same", "How long until the refund arrives?", "Review takes 2-4 business days, then payment arrives 2-4 business days after approval.",
			"Review takes 3-4 business days, then payment arrives 2-4 business days after approval [1].", Misleading},
		{"a threshold, the same figure after it", "Do I need a receipt for a $30 meal?", "No: receipts are needed for any expense over $50; a meal of $50 or less needs none.",
			"No: receipts are needed for any expense over $60; a meal of $50 or less needs none [1].", Misleading},
		{"a form's number", "Do I need a plan before I apply?", "No, but an SF-182 is needed for most requests that have a cost.",
			"No, but an SF-183 is needed for most requests that have a cost [1].", Misleading},
		{"an aside's code", "Where do I configure the tool?", "In ~/.tool.conf (see tool.conf(5)).",
			"In ~/.tool.conf (see tool.conf(8)) [1].", Misleading},
		{"the reference itself", "How long until the refund arrives?", "Review takes 2-4 business days, then payment arrives 2-4 business days after approval.",
			"Review takes 2-4 business days, then payment arrives 2-4 business days after approval [1].", Right},
	})
}

// TestTimesAndUnitsAsWritten pins a time of day said in words or with
// Italian's full stop, an acronym that spells a unit, a unit after two
// words that qualify it, and a number after an elided article.
func TestTimesAndUnitsAsWritten(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"half past in words", "A che ora apre lo sportello?", "Alle 8:30, al piano terra.", "Alle otto e mezza, al piano terra.", Right},
		// An elided article before a number leaves the number a figure.
		{"another figure after l'", "Che percentuale di test passa?", "Quasi il 90%.", "Quasi l'80%.", Misleading},
		{"the figure after nell'", "Che percentuale di test passa?", "Quasi il 90%.", "Passano nell'89,9% dei casi, quasi il 90%.", Right},
		{"the figure after l'", "Quale quota va al fondo?", "8% del totale.", "Va al fondo l'8% del totale.", Right},
		{"an Italian time", "A che ora apre lo sportello?", "Alle 8:30, al piano terra.", "Alle 8.30, piano terra.", Right},
		{"HR is no hour", "Entro quando devo avvisare?", "Entro le 10:00, al responsabile e a HR.", "Entro le 10, avvisando il responsabile e HR.", Right},
		{"qualified hours", "How much leave can I carry over?", "Up to 80 hours of annual leave.", "You may carry over at most 80 annual leave hours from one year to the next.", Right},
	})
}
