package deploytest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// fonteBin is fonte built once for every test here, static as the
// Containerfile builds it (CGO_ENABLED=0).
var fonteBin string

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "fonte-deploytest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	fonteBin = filepath.Join(dir, "fonte")
	build := exec.Command("go", "build", "-trimpath", "-o", fonteBin, "./cmd/fonte")
	build.Dir = repoRoot
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building fonte:", err)
		return 1
	}
	return m.Run()
}
