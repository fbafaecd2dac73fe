package vector

import (
	"fmt"
	"math/rand/v2"

	"github.com/fonte-rag/fonte/synth"
)

// RecallConfig describes an IVF recall experiment: synthetic clustered
// vectors, an exact Flat search as ground truth, and an IVF probed with
// each n_probe in turn.
type RecallConfig struct {
	N       int     // vectors indexed
	Dim     int     // their dimension
	Queries int     // queries, drawn from the same mixture as the data
	Centres int     // mixture centres ("topics")
	Scale   float64 // centre scale against unit noise
	Cells   int     // IVF cells
	K       int     // recall@K
	NProbes []int   // the n_probe values measured, in order
}

// Seed000 is the experiment of the seed's approximate-index listing: 20,000
// 64-dimensional vectors from 50 centres at scale 0.5 plus unit noise,
// normalised; 200 queries; 100 cells; recall@10 for n_probe 1 to 100.
func Seed000() RecallConfig {
	return RecallConfig{
		N: 20000, Dim: 64, Queries: 200, Centres: 50, Scale: 0.5,
		Cells: 100, K: 10, NProbes: []int{1, 2, 4, 8, 16, 32, 100},
	}
}

// ProbeRecall is one row of the experiment's table.
type ProbeRecall struct {
	NProbe   int     // cells visited
	Compared float64 // mean vectors compared per query: candidates plus centroids
	Share    float64 // Compared as a fraction of the vectors indexed
	Recall   float64 // mean fraction of the exact top K the IVF found
}

// IVFRecallExperiment runs cfg with the given seed and returns one row per
// n_probe. The data and queries are drawn from rand.NewPCG(seed, 0) and
// k-means from rand.NewPCG(seed, 1), so a seed gives the same table on
// every machine. numpy's generator cannot be replayed, so the seed's exact
// figures are not reproduced, only the shape of its curve.
func IVFRecallExperiment(seed uint64, cfg RecallConfig) ([]ProbeRecall, error) {
	if cfg.N < cfg.Cells || cfg.Queries < 1 || cfg.K < 1 || cfg.Dim < 1 || cfg.Centres < 1 || cfg.Cells < 1 {
		return nil, fmt.Errorf("vector: recall experiment %+v: need N ≥ Cells ≥ 1 and positive Queries, K, Dim, Centres", cfg)
	}
	dataRNG := rand.New(rand.NewPCG(seed, 0))
	mix := synth.NewMixture(dataRNG, cfg.Centres, cfg.Dim, cfg.Scale)
	data := mix.Sample(dataRNG, cfg.N)
	queries := mix.Sample(dataRNG, cfg.Queries)

	flat := NewFlat(cfg.Dim)
	ivf := NewIVF(cfg.Dim, cfg.Cells, rand.New(rand.NewPCG(seed, 1)))
	if err := ivf.Train(data.Data); err != nil {
		return nil, err
	}
	for i := range data.Rows {
		if err := flat.Add(uint64(i), data.Row(i)); err != nil {
			return nil, err
		}
		if err := ivf.Add(uint64(i), data.Row(i)); err != nil {
			return nil, err
		}
	}
	exact := flat.SearchBatch(queries.Slices(), cfg.K)

	out := make([]ProbeRecall, 0, len(cfg.NProbes))
	truth := make(map[uint64]bool, cfg.K)
	for _, np := range cfg.NProbes {
		var found, compared int
		for qi := range queries.Rows {
			clear(truth)
			for _, r := range exact[qi] {
				truth[r.ID] = true
			}
			got, c := ivf.Search(queries.Row(qi), cfg.K, np)
			compared += c
			for _, r := range got {
				if truth[r.ID] {
					found++
				}
			}
		}
		mean := float64(compared) / float64(queries.Rows)
		out = append(out, ProbeRecall{
			NProbe:   np,
			Compared: mean,
			Share:    mean / float64(cfg.N),
			Recall:   float64(found) / float64(cfg.K*queries.Rows),
		})
	}
	return out, nil
}
