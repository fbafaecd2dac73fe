package vector

import (
	"testing"
)

func TestIVFRecallExperimentRejectsBadConfig(t *testing.T) {
	cfg := Seed000()
	cfg.N = 50 // fewer vectors than cells
	if _, err := IVFRecallExperiment(0, cfg); err == nil {
		t.Fatal("no error for N < Cells")
	}
}
