package judge

import (
	"strings"
	"testing"
)

// TestJudge pins the five verdicts on answers of both languages, each
// case a rule of the judge that a change could break.
func TestJudge(t *testing.T) {
	for _, c := range []struct {
		name                        string
		question, reference, answer string
		abstained                   bool
		want                        Verdict
	}{
		// Figures with their units.
		{"figure stated", "How many days of leave?", "26 working days of annual leave per year (plus 32 hours of ROL).",
			"26 working days — Full-time employees accrue 26 working days of annual leave per year. [1]", false, Right},
		{"another figure in the lead", "How many days of leave?", "26 working days of annual leave per year (plus 32 hours of ROL).",
			"Full-time employees accrue 25 working days of annual leave per year.", false, Misleading},
		{"single digit against two", "Quanto deve essere lunga la password?", "10 caratteri.",
			"8 caratteri — La password deve avere almeno 8 caratteri.", false, Misleading},
		{"single digit missing, not led", "Quanto deve essere lunga la password?", "10 caratteri.",
			"La password deve essere robusta e cambiata spesso.", false, Wrong},
		{"London lead", "How much can I spend per night on a hotel in London?", "250 euro per night in London.",
			"180 euro — • Hotel: up to 180 euro per night, and up to 250 euro per night in London. [1]", false, Misleading},
		{"London right", "How much can I spend per night on a hotel in London?", "250 euro per night in London.",
			"250 euro — • Hotel: up to 180 euro per night, and up to 250 euro per night in London. [1]", false, Right},
		{"a model names both", "How much can I spend per night on a hotel in London?", "250 euro per night in London.",
			"In London the cap is €250 per night, against 180 euro elsewhere.", false, Right},
		{"another unit on the same number", "How long is parental leave?", "12 weeks.",
			"12 months — Parental leave lasts 12 weeks. [1]", false, Misleading},
		{"a direct answer's other figure", "How many people fit in the meeting room?", "12 people.",
			"8 people, seated.", false, Misleading},
		{"a direct answer's bare number", "Quanti tentativi sono ammessi?", "Cinque tentativi.",
			"Tre.", false, Misleading},
		{"the same number counting something else", "How long may a commit subject be?", "50 characters.",
			"50 words.", false, Misleading},
		{"an on-topic passage's bare figure for a maximum", "What is the maximum upload size?", "25 megabytes.",
			"The maximum upload size accepted by the portal is 10. [1]", false, Misleading},
		{"a section number in an on-topic passage", "Which formats are accepted for uploads?", "PDF and ODT.",
			"The formats accepted for uploads, as described in 4.2, are PDF and ODT. [1]", false, Right},
		{"working days left unsaid", "Entro quando si risponde?", "Entro tre giorni lavorativi.",
			"entro tre giorni — Si risponde entro tre giorni lavorativi. [1]", false, Right},
		{"calendar days for working days", "Entro quando si risponde?", "Entro tre giorni lavorativi.",
			"Entro tre giorni di calendario.", false, Misleading},
		{"hours for working days", "How soon must we reply?", "Within two business days.",
			"Within 48 hours.", false, Misleading},
		{"another year", "When was the policy adopted?", "In March 2019.",
			"The policy dates from March 2021.", false, Misleading},
		{"an ambiguous number word standing alone", "Quanti sono i livelli?", "Sei: dal base all'avanzato.",
			"Sono 6.", false, Right},
		{"another number word standing alone", "Quanti sono i livelli?", "Sei: dal base all'avanzato.",
			"Cinque.", false, Misleading},
		{"sei as a verb is no number", "Sei tenuto a rispondere?", "Sì.",
			"Sì, sei tenuto a rispondere entro sera.", false, Right},
		{"converted unit", "How long does the training last?", "2 weeks.",
			"The training lasts 14 days.", false, Right},
		{"bare number span", "How long can I charge my electric car?", "4 hours.",
			"1 — Chargers are on level -1; each car may charge for 4 hours. [1]", false, Misleading},
		{"number word", "How many references do I need?", "Two references.",
			"You need 2 references from former employers.", false, Right},
		{"italian number word", "Quanti giorni ho?", "Hai 3 giorni.",
			"Hai tre giorni lavorativi per presentarla.", false, Right},
		{"italian format", "What is the cap?", "1,500.50 euro.",
			"Il tetto è di 1.500,50 euro.", false, Right},
		{"a date in digits", "Quando è stata adottata la determinazione?", "Il 9 maggio 2019.",
			"Con la determinazione del 9/5/2019.", false, Right},
		{"a date across languages", "When was the directive issued?", "On 26 November 2009.",
			"La direttiva è del 26 novembre 2009.", false, Right},
		{"another day of the month", "When was the directive issued?", "On 26 November 2009.",
			"On 25/11/2009.", false, Misleading},
		{"a day's month is not shared", "Which article of the 26 November 2009 directive applies?", "Article 4 of the directive of 26 November 2009.",
			"Article 4.", false, Right},
		{"times of day", "When is the canteen open?", "From 12:00 to 14:30.",
			"12:00 — The canteen is open from 12:00 to 14:30. [1]", false, Right},
		{"italian time", "Quando apre la mensa?", "Dalle 12:00 alle 14:30.",
			"La mensa è aperta dalle 12.00 alle 14.30.", false, Right},
		{"another time leads", "When does the office open?", "At 8:30.",
			"9:00 — The office opens at 8:30 and the desk at 9:00. [1]", false, Misleading},
		{"half the figures", "When is the canteen open?", "From 12:00 to 14:30.",
			"The canteen opens at 12:00.", false, Partial},
		{"aside not required", "How long must a password be?", "14 characters (20 for administrator and service accounts).",
			"A password must be at least 14 characters long.", false, Right},
		{"aside contradicted in the lead", "How long must a password be?", "14 characters (20 for service accounts).",
			"14 characters, or 16 for service accounts.", false, Misleading},
		{"an aside's figure leads", "Quanto dura il periodo di prova per un quadro?", "6 mesi (3 mesi per gli impiegati).",
			"3 mesi — Il periodo di prova dura 3 mesi per gli impiegati e 6 mesi per i quadri. [1]", false, Misleading},
		{"an aside's subject is not the lead's", "Is the Trieste office open on Saturdays?", "No, Trieste is closed on Saturday (Bologna opens 8:00-13:00).",
			"Trieste: Monday to Friday from 8:00 to 19:00 | Saturday: closed [1]", false, Right},
		{"an aside's figure in a lead that answers", "Is the Trieste office open on Saturdays?", "No, Trieste is closed on Saturday (Bologna opens 8:00-13:00).",
			"No, but Bologna opens 8:00-12:00.", false, Misleading},
		{"a year takes no unit", "How many leave days do the shutdowns use?", "9 days of annual leave in 2025.",
			"The closure days are taken from your annual leave: 9 days in 2025.", false, Right},
		{"a figure given by the question", "How many leave days do the 2025 shutdowns use?", "9 days of annual leave in 2025.",
			"The closure days are taken from your annual leave: 9 days in total.", false, Right},
		{"a figure missing", "How many leave days do the shutdowns use?", "9 days of annual leave in 2025.",
			"The closure days are taken from your annual leave: 9 days in total.", false, Partial},
		{"words the question gives are not required", "Is the Trieste office open on Saturdays?", "No, Trieste is closed on Saturday.",
			"Trieste office: Saturday closed [1]", false, Right},
		// Codes, names, addresses.
		{"code stated", "Which variable must a Makefile support?", "$(DESTDIR).",
			"You should be careful to support the $(DESTDIR) variable.", false, Right},
		{"another code stated as the answer", "Which variable must a Makefile support?", "$(DESTDIR).",
			"You should be careful to support the PREFIX variable.", false, Misleading},
		{"code missing", "Which variable must a Makefile support?", "$(DESTDIR).",
			"You should be careful to support the variables the GNU coding standards list, as packagers rely on them. [1]", false, Wrong},
		{"email stated", "How do I report a phishing email?", "Forward it to phishing@example.org.",
			"Forward the message to phishing@example.org and delete it.", false, Right},
		{"another email leads", "How do I report a phishing email?", "Forward it to phishing@example.org.",
			"Write to helpdesk@example.org. Phishing goes to phishing@example.org.", false, Misleading},
		{"definition instead of the address", "How do I report a phishing email?", "Forward it to phishing@example.org.",
			"An incident is any event that threatens the confidentiality of data. [1]", false, Wrong},
		{"another code leads", "Where does uscan get its configuration?", "debian/watch.",
			"http://sf.net/gentoo — With a watch file, the URL at http://sf.net/gentoo is downloaded. [1]", false, Misleading},
		{"one-word reference", "What runs periodic jobs on a laptop?", "anacron.",
			"Jobs run from /etc/cron.daily; on a laptop install anacron. [1]", false, Right},
		{"one-word reference missing", "What runs periodic jobs on a laptop?", "anacron.",
			"Scripts in /etc/cron.daily run daily from the root account. [1]", false, Wrong},
		{"hyphenated package name", "How do I install the Microsoft fonts?", "With the package ttf-mscorefonts-installer.",
			"Install the fonts-liberation package. [1]", false, Wrong},
		{"a file name inside a longer one", "What must the licence file be called?", "LICENSE.",
			"LICENSE.txt", false, Misleading},
		{"a code written with spaces", "Which licence covers the documentation?", "CC-BY-4.0.",
			"The documentation is under CC BY 4.0.", false, Right},
		{"a flag inside a longer flag is another flag", "Which option keeps the build going after errors?", "Use `--keep-going`.",
			"Pass --keep to make.", false, Misleading},
		{"another version of the same form", "Which Go toolchain is supported?", "The go1.22.x toolchain.",
			"Only go1.21.x. [1]", false, Misleading},
		{"another product named as the answer", "Which service sends our text messages?", "GOV.UK Notify.",
			"Amazon SNS.", false, Misleading},
		{"a path is no tool", "What runs periodic jobs on a laptop?", "anacron.",
			"Jobs live in /etc/cron.daily.", false, Wrong},
		{"another channel", "Where do I ask for help with the VPN?", "In the #it-helpdesk channel on Slack.",
			"Ask in the #general channel on Slack. [1]", false, Misleading},
		{"words joined by a slash stated apart", "Che software si può scegliere?", "Software libero/open source.",
			"Software libero o open source.", false, Right},
		{"a number another word names is no count", "Quante opzioni ci sono?", "Tre opzioni: A, B o C.",
			"Il capitolo 3 elenca le opzioni disponibili. [1]", false, Wrong},
		{"path", "Where is the configuration?", "In /etc/fonte/config.toml.",
			"It lives in /etc/fonte/config.toml on Linux.", false, Right},
		{"name", "Who approves travel?", "Your line manager, then Finance.",
			"Travel is approved by your line manager.", false, Partial},
		{"words stand for a figure the question does not ask for", "What is the default schedule?", "A standard schedule of 8 hours a day.",
			"By default employees work a standard schedule every day.", false, Partial},
		{"words do not stand for a figure the question asks for", "How many hours a day is the default schedule?", "A standard schedule of 8 hours a day.",
			"By default employees work a standard schedule every day.", false, Wrong},
		{"an unrelated sentence's figure", "Do I need to tell HR if I work from another state for two months?", "No, not for 120 days or less.",
			"You need to have been a federal employee for 12 months to access parental leave.", false, Wrong},
		{"hyphenated unit", "Is there a deadline for reporting harassment?", "Possibly 45 days from the incident.",
			"You may have a 45-day window from the date of the incident.", false, Right},
		{"words do not stand for a figure", "How many days of leave?", "26 working days of annual leave per year.",
			"Full-time employees accrue annual leave every year.", false, Wrong},
		{"name given by the question", "How much for a hotel in London?", "250 euro in London.",
			"Up to 250 euro per night.", false, Right},
		// Polarity.
		{"no stated", "Can I connect a personal laptop to the network?", "No.",
			"Personal laptops cannot be connected directly to the GSA network.", false, Right},
		{"no contradicted", "Can I connect a personal laptop to the network?", "No.",
			"Yes, personal laptops can be connected to the guest network.", false, Misleading},
		// A sentence without a negation may still mean no ("is
		// forfeited"): it does not contradict a no, nor state it.
		{"no not stated", "Can I connect a personal laptop to the network?", "No.",
			"Personal laptops can be connected to the guest network.", false, Wrong},
		{"yes stated", "Does every meeting need a password?", "Yes.",
			"Yes, every meeting requires a password.", false, Right},
		{"bare yes against you cannot", "Can I work from abroad?", "Yes.",
			"You cannot work from abroad without approval.", false, Misleading},
		{"disabilitato says no", "Il server X accetta connessioni TCP da remoto?", "No.",
			"Il TCP/IP remoto al server X è disabilitato in modo predefinito.", false, Right},
		{"sì italiano", "Posso lavorare da casa?", "Sì.",
			"Sì, fino a due giorni a settimana.", false, Right},
		{"no italiano", "Posso portare il cane?", "No.",
			"Non è consentito portare animali in ufficio.", false, Right},
		{"an unrelated passage says neither yes nor no", "Can I split a purchase into two orders?", "No, it is not allowed.",
			"When the request is approved, the system assigns a PO number. [1]", false, Wrong},
		{"a no about the reference's words", "Can I get my two-factor codes by text message?", "No; use the authenticator app or a hardware security key.",
			"Use the authenticator app or a hardware security key; codes sent by SMS are not accepted. [1]", false, Right},
		{"an unrelated negation says neither", "Is there somewhere non-developers can upload packages?", "Yes.",
			"The reference describes all matters not specifically about packaging.", false, Wrong},
		{"naming the answer beside a no", "What is the tarball's name, is it orig.tar.gz?", "No: mypackage_1.0.tar.gz, not orig.tar.gz.",
			"You will see mypackage_1.0.tar.gz in the parent directory.", false, Right},
		{"names beside a no do not imply it", "Does a bounty wait until the fix?", "No, GSA SecOps can award it once the report is confirmed.",
			"GSA SecOps awards a bounty based on the severity of the vulnerability.", false, Partial},
		{"no with a bound is not a no", "Can I submit the claim later?", "Yes, within 30 days.",
			"You can submit it no later than 30 days after the trip.", false, Right},
		{"yes with a condition missing", "Can I work from home?", "Yes, with written approval from your manager.",
			"Yes.", false, Partial},
		{"compound number words", "How many pages may the report have?", "150 pages.",
			"One hundred and fifty pages at most.", false, Right},
		{"a possessive is its noun", "Must a visitor's badge be returned?", "Yes, the badge must be returned at reception.",
			"Yes — every visitor has to return the badge's holder and badge at reception.", false, Right},
		{"one-word reference before its aside", "Which tool formats our Go code?", "gofmt (run by the editor on save).",
			"We format all Go code with gofmt before review.", false, Right},
		{"a condition says when, not whether", "Must a failed login be logged?", "Yes, every login is logged.",
			"Every login is logged, even if it does not fail. [1]", false, Right},
		{"a no in the main clause", "Must a failed login be logged?", "Yes, every login is logged.",
			"Failed logins are not logged, if the account is locked. [1]", false, Misleading},
		{"an acronym the question spells out", "Our recovery point objective is an hour: do we need hourly backups?", "Yes, an RPO of one hour needs hourly backups.",
			"The recovery point objective (RPO) is set by the service owner. [1]", false, Wrong},
		{"an implicit no beside missing facts", "Can I pay by card?", "No, only by bank transfer to IT12A0300.",
			"Payments by card are not accepted at the desk. [1]", false, Partial},
		// Abstentions.
		{"the documentation does not say", "How often is the audit?", "Every year.",
			"The documentation doesn't say how often the audit happens.", false, Abstained},
		{"no information", "How often is the audit?", "Every year.",
			"I don't have information about the audit schedule.", false, Abstained},
		{"not sure", "How often is the audit?", "Every year.",
			"I'm not sure this is covered; ask the audit team.", false, Abstained},
		{"non sono sicuro", "Ogni quanto si fa l'audit?", "Ogni anno.",
			"Non sono sicuro che il manuale lo dica.", false, Abstained},
		{"a conditional not sure is no abstention", "How often is the audit?", "Every year.",
			"If you are not sure, the audit runs every year.", false, Right},
		{"fonte's message", "Who is the CEO?", "Jane Doe.", "I don't know.", false, Abstained},
		{"flagged", "Who is the CEO?", "Jane Doe.", "Jane Doe.", true, Abstained},
		{"italian abstention", "Chi è il direttore?", "Mario Rossi.", "Non ho trovato questa informazione nei documenti.", false, Abstained},
		{"couldn't find", "Who is the CEO?", "Jane Doe.", "I couldn't find this in the documents, but the board meets monthly.", false, Abstained},
		{"non sono riuscito a trovare", "Chi firma il contratto?", "Il direttore generale.",
			"Non sono riuscito a trovare chi firma il contratto.", false, Abstained},
		{"an impossibility inside the answer is no abstention", "Cosa si fa se manca il modulo?", "Si scrive un verbale che spiega perché.",
			"Si scrive un verbale che spiega perché non è stato possibile trovare il modulo.", false, Right},
		// Word coverage without key facts.
		{"words right", "Where do we meet during the fire drill?", "In the north car park.",
			"During the drill everyone gathers in the north car park. [1]", false, Right},
		{"words wrong", "Where do we meet during the fire drill?", "In the north car park.",
			"building — The fire drill takes place twice a year in the building. [1]", false, Wrong},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Judge(c.question, c.reference, c.answer, c.abstained)
			if got.Verdict != c.want {
				t.Errorf("Judge(%q, %q) = %s, want %s\n%+v", c.reference, c.answer, got.Verdict, c.want, got)
			}
			if got.Why == "" {
				t.Errorf("no reason given: %+v", got)
			}
		})
	}
}

// TestJudgeReasons checks that a result names the facts found, missing and
// contradicted, and the lead.
func TestJudgeReasons(t *testing.T) {
	r := Judge("How much for a hotel in London?", "250 euro per night in London (meals apart).",
		"180 euro — Up to 180 euro per night, 250 euro in London. [1]", false)
	if r.Verdict != Misleading || r.Lead != "180 euro" || len(r.Contradicted) != 1 || !strings.Contains(r.Contradicted[0], "180 euro against 250 euro") {
		t.Errorf("result %+v", r)
	}
	if len(r.Facts) != 1 || r.Facts[0] != "250 euro" || len(r.Found) != 1 {
		t.Errorf("facts %v found %v missing %v", r.Facts, r.Found, r.Missing)
	}
	r = Judge("When is the canteen open?", "From 12:00 to 14:30.", "The canteen opens at 12:00.", false)
	if r.Verdict != Partial || len(r.Missing) != 1 || r.Missing[0] != "14:30" {
		t.Errorf("result %+v", r)
	}
}
