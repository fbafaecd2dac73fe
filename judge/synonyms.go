package judge

import "strings"

// synonymGroups are words of English and Italian that say the same thing
// in any document: spelling variants (licence, license), everyday
// synonyms (allowed, permitted) and each word's translation (consentito).
// A paraphrase or an answer in the other language uses one where the
// reference uses another, so the judge compares them as one stem. A word
// that often means something else ("free", "form", "piano") is left out,
// and so is each side of a pair of opposites (see opposites) from the
// other side's group.
var synonymGroups = []string{
	"allow allowed allows permit permitted permits permission authorised authorized consentito consentita consentiti consentite consentire permesso permessa ammesso ammessa ammessi lecito",
	"forbidden forbid prohibited prohibit banned vietato vietata vietati vietate vietare proibito proibita proibire",
	"mandatory compulsory obligatory required obbligatorio obbligatoria obbligatori obbligatorie",
	"optional voluntary facoltativo facoltativa facoltativi opzionale opzionali",
	"employee employees staff worker workers dipendente dipendenti lavoratore lavoratori",
	"company companies azienda aziende",
	"centre center centro",
	"programme program programma",
	"catalogue catalog catalogo",
	"folder folders directory directories cartella cartelle",
	"root radice",
	"user users utente utenti",
	"customer customers client clients cliente clienti",
	"request requests richiesta richieste",
	"answer answers reply replies risposta risposte",
	"report reports segnalazione segnalazioni segnalare rapporto",
	"meeting meetings riunione riunioni",
	"holiday holidays vacation vacations ferie",
	"salary salaries stipendio stipendi retribuzione",
	"expense expenses spesa spese",
	"receipt receipts ricevuta ricevute scontrino scontrini",
	"invoice invoices fattura fatture",
	"deadline deadlines scadenza scadenze",
	"building buildings edificio edifici",
	"north nord northern settentrionale",
	"south sud southern meridionale",
	"east est eastern orientale",
	"west ovest western occidentale",
	"parking parcheggio parcheggi",
	"security sicurezza",
	"update updates aggiornamento aggiornamenti aggiornare",
	"phone telephone telefono",
	"price prezzo prezzi",
	"cost costs costo costi",
	"training formazione",
	"lunch pranzo",
	"key keys chiave chiavi",
	"car cars automobile auto",
	"delete deleted remove removed eliminare rimuovere eliminato rimosso",
}

// synonymOf maps the stem of each word of a group to the group's first
// stem.
var synonymOf = map[string]string{}

func init() {
	for _, g := range synonymGroups {
		words := strings.Fields(g)
		head := rawStem(words[0])
		for _, w := range words {
			synonymOf[rawStem(fold(w))] = head
		}
	}
}
