package answer

// "Can I …?" asks for a permission and "Must I …?" for an obligation. Of
// two sentences that share as many of the question's words, the one
// that grants or refuses the permission asked about ("You may bring one
// guest") answers a "can" question, while one that obliges ("Each guest
// must sign in") states a condition of it; for a "must" question, the
// reverse. modalTieBreak is what that match
// adds to a sentence's score: enough to settle a tie, never to outweigh
// a question word or a typed span.
const modalTieBreak = 1e-2

// modalMatch reports whether sentence s speaks in the modality that the
// yes/no question asks in: it allows or forbids, for a question that
// asks whether something may be done; it obliges or forbids (or says
// there is no need), for one that asks whether something must be.
func modalMatch(question, s string) bool {
	q := askedPart(question)
	may, must := mayAskRE.MatchString(q), mustAskRE.MatchString(q)
	if !may && !must && !whWordRE.MatchString(q) {
		may, must = innerMayRE.MatchString(q), innerMustRE.MatchString(q)
	}
	forbids := forbidRE.MatchString(s)
	switch {
	case may && !must:
		return forbids || allowRE.MatchString(s)
	case must && !may:
		return forbids || obligeRE.MatchString(s)
	}
	return false
}
