package redis

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte/internal/testserver"
)

// The servers every test runs against: one single node and one
// three-master cluster with the coordinator, started once.
var (
	singleURL  string
	clusterURL string
)

func TestMain(m *testing.M) {
	var wg sync.WaitGroup
	var stops []func()
	var errs []error
	var mu sync.Mutex
	start := func(name string, fn func() (string, func(), error), dst *string) {
		defer wg.Done()
		url, stop, err := fn()
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			return
		}
		*dst = url
		stops = append(stops, stop)
	}
	wg.Add(2)
	go start("single node", testserver.StartRedis, &singleURL)
	go start("cluster", testserver.StartRedisCluster, &clusterURL)
	wg.Wait()
	code := 1
	if len(errs) == 0 {
		code = m.Run()
	} else {
		for _, err := range errs {
			fmt.Fprintln(os.Stderr, "redis tests:", err)
		}
	}
	for _, stop := range stops {
		stop()
	}
	os.Exit(code)
}
