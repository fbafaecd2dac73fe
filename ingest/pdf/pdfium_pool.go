package pdf

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// pdfiumInstances bounds the PDFium instances alive at once. Each is a
// WebAssembly module with its own linear memory, which grows with the
// largest document it has opened (tens to hundreds of MB for a large
// manual) and never shrinks, so the bound is on memory as much as on
// CPU: more parallel PDFs than this wait for a free instance.
var pdfiumInstances = max(1, min(runtime.GOMAXPROCS(0), 4))

// pdfiumPoolState is the process's one PDFium pool, made on first use:
// compiling the engine's WebAssembly takes seconds, so every Parse call of
// the process shares the compiled module.
var pdfiumPoolState struct {
	once  sync.Once
	pool  pdfium.Pool
	err   error
	ready time.Duration // how long compiling the engine took
}

// pdfiumPool returns the shared pool, compiling the engine the first time.
func pdfiumPool() (pdfium.Pool, error) {
	s := &pdfiumPoolState
	s.once.Do(func() {
		start := time.Now()
		rc := wazero.NewRuntimeConfig().
			WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).
			WithCloseOnContextDone(true)
		if cache := pdfiumCache(); cache != nil {
			rc = rc.WithCompilationCache(cache)
		}
		s.pool, s.err = webassembly.Init(webassembly.Config{
			MinIdle:  0,
			MaxIdle:  pdfiumInstances,
			MaxTotal: pdfiumInstances,
			// No file system: the engine reads only the bytes it is given.
			FSConfig: wazero.NewFSConfig(),
			Stdout:   io.Discard,
			Stderr:   io.Discard,
			// CloseOnContextDone lets a timed-out document be stopped
			// (Kill cancels the instance's context) instead of leaving a
			// goroutine running the engine forever.
			RuntimeConfig: rc,
		})
		if s.err != nil {
			s.err = fmt.Errorf("starting PDFium: %w", s.err)
		}
		s.ready = time.Since(start)
	})
	return s.pool, s.err
}

// pdfiumInstance borrows an instance from the shared pool, waiting until
// one is free or ctx ends.
func pdfiumInstance(ctx context.Context) (pdfium.Pdfium, error) {
	p, err := pdfiumPool()
	if err != nil {
		return nil, err
	}
	return p.GetInstanceWithContext(ctx)
}

// pdfiumCache keeps the compiled engine on disk (in the user's cache
// directory, under fonte/pdfium) so that only the first process on a
// machine pays for compiling it; wazero keys the entries by its own
// version and the module's hash. Without a usable directory the engine is
// compiled in every process.
func pdfiumCache() wazero.CompilationCache {
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	cache, err := wazero.NewCompilationCacheWithDir(filepath.Join(dir, "fonte", "pdfium"))
	if err != nil {
		return nil
	}
	return cache
}
