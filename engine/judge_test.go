package engine

import "testing"

// TestAnswerMatches pins the judging rule of fonte eval's answer
// measures: every figure of the expected answer outside its asides, half
// of its other words, and polarity for a bare yes or no.
func TestAnswerMatches(t *testing.T) {
	for _, c := range []struct {
		got, want string
		right     bool
	}{
		{"26 working days — Full-time employees accrue 26 working days of annual leave per year.", "26 working days of annual leave per year (plus 32 hours of ROL).", true},
		{"Full-time employees accrue 25 working days of annual leave per year.", "26 working days of annual leave per year (plus 32 hours of ROL).", false},
		{"A password must be at least 14 characters long.", "14 characters (20 for administrator and service accounts).", true},
		{"You should be careful to support the $(DESTDIR) variable.", "$(DESTDIR).", true},
		{"You should be careful to support the PREFIX variable.", "$(DESTDIR).", false},
		{"Personal laptops cannot be connected directly to the GSA network.", "No.", true},
		{"Personal laptops can be connected to the guest network.", "No.", false},
		{"Yes, every meeting requires a password.", "Yes.", true},
		{"I don't know.", "Yes.", false},
		{"The office is closed.", "", false},
	} {
		if got := answerMatches(c.got, c.want); got != c.right {
			t.Errorf("answerMatches(%q, %q) = %v, want %v", c.got, c.want, got, c.right)
		}
	}
}
