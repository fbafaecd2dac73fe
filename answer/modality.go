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

// modality is what a yes/no question asks: whether something may be
// done, whether it must be, or neither (both, or no modal at all).
type modality struct{ may, must bool }

// askedModality reads the modality question asks in, once per question.
func askedModality(question string) modality {
	q := askedPart(question)
	m := modality{mayAskRE.MatchString(q), mustAskRE.MatchString(q)}
	if !m.may && !m.must && !whWordRE.MatchString(q) {
		m = modality{innerMayRE.MatchString(q), innerMustRE.MatchString(q)}
	}
	return m
}

// matches reports whether sentence s speaks in modality m: it allows or
// forbids, for a question that asks whether something may be done; it
// obliges or forbids (or says there is no need), for one that asks
// whether something must be.
func (m modality) matches(s string) bool {
	switch {
	case m.may && !m.must:
		return forbidRE.MatchString(s) || allowRE.MatchString(s)
	case m.must && !m.may:
		return forbidRE.MatchString(s) || obligeRE.MatchString(s)
	}
	return false
}
