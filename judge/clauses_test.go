package judge

import "testing"

// TestClauses pins what a model's later clauses do to its answer: the
// opposite yes or no said after the right one, a restriction of a yes,
// another name or code stated before the reference's, and another count
// than the question's. Each misleading case was judged right before
// these rules; each right one must stay right.
func TestClauses(t *testing.T) {
	for _, c := range []struct {
		name                        string
		question, reference, answer string
		want                        Verdict
	}{
		{"a yes taken back", "Do we have to log a failed backup?", "Yes, every failed backup must be logged, even a test one.",
			"Yes, log it. That said, a failed test backup doesn't need to be logged.", Misleading},
		{"a yes qualified on another topic", "Do we have to log a failed backup?", "Yes, every failed backup must be logged, even a test one.",
			"Yes, every failed backup is logged, test ones too. However, keep each entry short.", Right},
		{"a no taken back", "Can we deploy on a Friday?", "No. Deployments are not allowed on Fridays.",
			"No, not on Fridays, although a small team may still deploy on a Friday afternoon.", Misleading},
		{"a no taken back, in Italian", "Possiamo pubblicare il codice senza licenza?", "No, ogni rilascio di codice deve avere una licenza aperta.",
			"No, ogni rilascio deve avere una licenza aperta; tuttavia si può pubblicare il codice di un prototipo senza licenza.", Misleading},
		{"a no kept", "Can we deploy on a Friday?", "No. Deployments are not allowed on Fridays.",
			"No, deployments aren't allowed on Fridays, but you can deploy on Thursday.", Right},
		{"a yes restricted", "Do contractors have to sign the visitor book?", "Yes, everyone who enters must sign the visitor book, contractors included.",
			"Only new contractors need to sign the visitor book; regular ones can just walk in.", Misleading},
		{"a yes restricted, in Italian", "I fornitori devono firmare il registro dei visitatori?", "Sì, chiunque entri deve firmare il registro, fornitori compresi.",
			"Solo i fornitori nuovi devono firmare il registro dei visitatori, gli altri entrano direttamente.", Misleading},
		{"other names before the reference's", "Which tool do we use for error tracking?", "Sentry.",
			"Rollbar and Bugsnag, with Sentry for the older apps.", Misleading},
		{"the reference's name first", "Which tool do we use for error tracking?", "Sentry.",
			"Sentry, which alerts the team on Slack.", Right},
		{"another code before the reference's", "Con quale delibera è stato approvato il regolamento?", "Con la delibera n. 42/2021 del 3 marzo 2021.",
			"Con la delibera n. 17/2019, poi modificata dalla n. 42/2021 del 3 marzo 2021.", Misleading},
		{"the reference's code first", "Con quale delibera è stato approvato il regolamento?", "Con la delibera n. 42/2021 del 3 marzo 2021.",
			"Con la delibera n. 42/2021 del 3 marzo 2021, pubblicata in Gazzetta.", Right},
		{"a count other than the question's", "Which two documents do I need?", "A passport and a utility bill.",
			"Three: a passport, a utility bill and a bank statement from this month.", Misleading},
		{"the question's count", "Which two documents do I need?", "A passport and a utility bill.",
			"Two: a passport and a utility bill from the last three months.", Right},
		{"another answer in the first clause", "What access should the CI runner have to the artefact bucket?", "Only read access; the bucket should also be private and versioned.",
			"Write access, so it can upload builds; keep the bucket private and versioned.", Misleading},
		{"the reference's first clause", "What access should the CI runner have to the artefact bucket?", "Only read access; the bucket should also be private and versioned.",
			"Read access only, and keep the bucket private and versioned.", Right},
		{"another answer in the first clause, in Italian", "Che ruolo va assegnato di default ai nuovi utenti?", "Un ruolo di sola lettura; quello di amministratore solo se serve davvero.",
			"Il ruolo di amministratore, ma con la sola lettura per la consultazione quotidiana.", Misleading},
		{"the reference's first clause, in Italian", "Che ruolo va assegnato di default ai nuovi utenti?", "Un ruolo di sola lettura; quello di amministratore solo se serve davvero.",
			"Sola lettura di default; amministratore solo quando serve davvero.", Right},
		{"without what the reference requires", "What must we do before closing a ticket?", "Write a short summary of the fix and link the related pull request.",
			"Link the related pull request, without writing any summary.", Misleading},
		{"without what the reference requires, in Italian", "Cosa bisogna fare se nessun fornitore risponde?", "Redigere un verbale che motiva la scelta e passare alla gara aperta.",
			"Si passa direttamente alla gara aperta, senza bisogno di un verbale.", Misleading},
		{"without waiting", "What must we do before closing a ticket?", "Write a short summary of the fix and link the related pull request.",
			"Write a short summary of the fix and link the pull request, without waiting for the reviewer.", Right},
		{"without what the reference does without", "Dove va messo il file README?", "Nella root del repository, senza modifiche al modello.",
			"Nella root del repository, senza modifiche.", Right},
		{"only one of two cases", "When may an employee keep the company laptop?", "When the contract transfers the device to them, or when they buy it back at its book value.",
			"Only when they buy it back at its book value.", Misleading},
		{"solo uno dei due casi", "Quando il dipendente può tenere il portatile aziendale?", "Quando il contratto gli cede il dispositivo, oppure quando lo riscatta al valore contabile.",
			"Solo quando lo riscatta al valore contabile.", Misleading},
		{"both cases", "When may an employee keep the company laptop?", "When the contract transfers the device to them, or when they buy it back at its book value.",
			"When they buy it back at book value, or when their contract transfers the device to them.", Right},
		{"a no, then what the reference denies", "Do we need a contract to reuse the library?", "No, accepting its licence is enough; no contract or access request is needed.",
			"No, no contract is needed; you do, however, need a formal access request to its authors.", Misleading},
		{"a no, then what the reference denies, in Italian", "Serve una convenzione per riusare la libreria?", "No, basta accettare la licenza; non servono convenzioni né autorizzazioni del comune.",
			"No, niente convenzione; serve però un'autorizzazione scritta del comune.", Misleading},
		{"a no, then what the reference asks", "Do we need a contract to reuse the library?", "No, accepting its licence is enough; no contract or access request is needed.",
			"No, no contract or access request is needed, but you must accept its licence.", Right},
		{"the reference with its code swapped", "Which queue should failed jobs go to?", "Send them to the jobs-dead-letter queue.",
			"Send them to the jobs-retry queue.", Misleading},
		{"the reference with a common word swapped", "Which queue should failed jobs go to?", "Send them to the jobs-dead-letter queue.",
			"Move them to the jobs-dead-letter queue.", Right},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Judge(c.question, c.reference, c.answer, false); got.Verdict != c.want {
				t.Errorf("Judge(%q, %q) = %s, want %s\n%+v", c.reference, c.answer, got.Verdict, c.want, got)
			}
		})
	}
}
