package judge

import "testing"

// TestRankedListBySize pins that a ranked list named by its size ("top
// 10") states the reference's list whatever noun follows, in both
// languages, and that another size contradicts it.
func TestRankedListBySize(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"another noun after", "What do we test the API against?", "The OWASP API top 10 risks.", "Against the OWASP API top 10 list.", Right},
		{"nothing after", "What do we test the API against?", "The OWASP API top 10 risks.", "Against the OWASP API top 10.", Right},
		{"in italian", "What do we test the API against?", "The OWASP API top 10 risks.", "Contro i rischi della OWASP API top 10.", Right},
		{"another size", "What do we test the API against?", "The OWASP API top 10 risks.", "Against the OWASP API top 25.", Misleading},
	})
}
