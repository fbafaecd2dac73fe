package vector

import (
	"testing"
)

// TestIVFRecallSeed000 runs the seed's approximate-index experiment with
// the product code and checks the shape EXPECTED.md asks for. The seed's
// numpy figures (0.505 … 0.902 … 1.000) cannot be replayed; fonte's own
// generator with seed 0 gives a curve of the same shape.
func TestIVFRecallSeed000(t *testing.T) {
	if testing.Short() {
		t.Skip("k-means on 20,000 vectors: skipped in -short mode")
	}
	if raceEnabled {
		t.Skip("k-means on 20,000 vectors takes minutes under -race; run without -race")
	}
	cfg := Seed000()
	rows, err := IVFRecallExperiment(0, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(cfg.NProbes) {
		t.Fatalf("%d rows for %d n_probe values", len(rows), len(cfg.NProbes))
	}
	t.Logf("%14s %24s %7s %10s", "cells visited", "vectors compared (mean)", "share", "recall@10")
	for _, r := range rows {
		t.Logf("%14d %24.0f %6.1f%% %10.3f", r.NProbe, r.Compared, 100*r.Share, r.Recall)
	}
	byProbe := map[int]ProbeRecall{}
	for i, r := range rows {
		byProbe[r.NProbe] = r
		if i > 0 && r.Recall < rows[i-1].Recall {
			t.Errorf("recall falls from %.3f at n_probe %d to %.3f at %d", rows[i-1].Recall, rows[i-1].NProbe, r.Recall, r.NProbe)
		}
		if i > 0 && r.Compared <= rows[i-1].Compared {
			t.Errorf("work does not grow with n_probe: %.0f then %.0f", rows[i-1].Compared, r.Compared)
		}
	}
	if r := byProbe[100]; r.Recall != 1 || r.Compared != float64(cfg.N+cfg.Cells) {
		t.Errorf("all 100 cells: recall %v compared %v, want exactly 1 and %d", r.Recall, r.Compared, cfg.N+cfg.Cells)
	}
	if byProbe[32].Recall <= byProbe[1].Recall {
		t.Errorf("recall at 32 cells %.3f not above recall at 1 cell %.3f", byProbe[32].Recall, byProbe[1].Recall)
	}
	if r := byProbe[1].Recall; r < 0.35 || r > 0.7 {
		t.Errorf("recall at 1 cell %.3f, want roughly 0.5 (0.35–0.7)", r)
	}
	if r := byProbe[16].Recall; r < 0.8 || r > 0.97 {
		t.Errorf("recall at 16 cells %.3f, want roughly 0.9 (0.8–0.97)", r)
	}
	// Each cell holds about 1% of the vectors: one probe compares roughly
	// 200 vectors plus the 100 centroids.
	if c := byProbe[1].Compared; c < 200 || c > 600 {
		t.Errorf("one cell compares %.0f vectors, want a few hundred", c)
	}
}

func TestIVFRecallExperimentRejectsBadConfig(t *testing.T) {
	cfg := Seed000()
	cfg.N = 50 // fewer vectors than cells
	if _, err := IVFRecallExperiment(0, cfg); err == nil {
		t.Fatal("no error for N < Cells")
	}
}
