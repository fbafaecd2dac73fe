package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// A sentence that writes the acronym of the question's words holds
// them: asked which web application firewall GOV.UK Pay runs, the
// answerer quoted the sentence on Pay's "web application scanning",
// which writes the words, over the one that names its WAF.
func TestAcronymHoldsTheWordsItStandsFor(t *testing.T) {
	c := fonte.Chunk{ID: "waf", Text: "GOV.UK Pay uses a NAXSI WAF (pay-nginx-proxy) for its Nginx, forked from the Home Office.\n\n" +
		"GOV.UK Pay operates under the governance of PCI compliance and DSS point 6.6 which states the need for web application scanning."}
	text, _, _ := ExtractSpan("Which web application firewall does GOV.UK Pay run?", []fonte.Chunk{c})
	if !strings.Contains(text, "NAXSI") {
		t.Errorf("ExtractSpan = %q, want the sentence naming the NAXSI WAF", text)
	}
	// The other way: the question writes the acronym, the sentence
	// spells it out.
	c = fonte.Chunk{ID: "rto", Text: "Write the plan down and test it every year.\n\n" +
		"Your recovery time objective is how long the service may be down after a disaster."}
	text, _, _ = ExtractSpan("What does our RTO mean for the plan?", []fonte.Chunk{c})
	if !strings.Contains(text, "recovery time objective") {
		t.Errorf("ExtractSpan = %q, want the sentence spelling out the RTO", text)
	}
}

func TestAcronymsOfNeedContentWords(t *testing.T) {
	a := acronymsOf("Can we use the web application firewall of the IT team?")
	if _, ok := a.spelled["WAF"]; !ok {
		t.Errorf("acronymsOf did not read WAF from %v", a.spelled)
	}
	// "use the web" spells nothing: "the" is no content word.
	if _, ok := a.spelled["UTW"]; ok {
		t.Errorf("acronymsOf read UTW from a run with an article")
	}
	if len(a.written) != 0 {
		t.Errorf("acronymsOf read a two-letter acronym: %v", a.written)
	}
}
