package vector

import (
	"math/rand/v2"
	"strconv"
	"sync"

	"github.com/fonte-rag/fonte/synth"
)

// Benchmarks share one seeded data set per size: generating 100k × 384
// normal variates costs more than many benchmark runs.
const benchDim = 384

var (
	benchMu    sync.Mutex
	benchCache = map[int][2]synth.Matrix{}
)

// benchData returns n clustered 384-d vectors and 1,000 queries from the
// same mixture (100 centres, scale 0.5, as in the seed but at 384-d).
func benchData(n int) (data, queries synth.Matrix) {
	benchMu.Lock()
	defer benchMu.Unlock()
	if d, ok := benchCache[n]; ok {
		return d[0], d[1]
	}
	rng := rand.New(rand.NewPCG(42, uint64(n)))
	mix := synth.NewMixture(rng, 100, benchDim, 0.5)
	data, queries = mix.Sample(rng, n), mix.Sample(rng, 1000)
	benchCache[n] = [2]synth.Matrix{data, queries}
	return data, queries
}

func sizeName(n int) string {
	if n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}
