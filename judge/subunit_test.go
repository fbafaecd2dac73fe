package judge

import "testing"

// TestSubUnitIsUnderOne pins that "subsecond" and "sub-minute" say under
// one of their unit, in the reference and in the answer, and that
// another unit, milliseconds among them, contradicts them.
func TestSubUnitIsUnderOne(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"under a second", "How fast must the cache answer?", "Subsecond.", "Under a second.", Right},
		{"the word in the answer", "How fast must the cache answer?", "Under one second.", "It should be sub-second.", Right},
		{"an adjective before it", "How fast must the cache answer?", "Subsecond.", "Quick: ideally subsecond.", Right},
		{"milliseconds", "How fast must the cache answer?", "Subsecond.", "Less than a millisecond.", Misleading},
		{"sub-minute for subsecond", "How fast must the cache answer?", "Subsecond.", "Sub-minute.", Misleading},
	})
}
