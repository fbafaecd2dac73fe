package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// versionText reads the module version, commit, commit time, a dirty
// checkout and the Go version from the build information, and says what
// is missing rather than printing "(devel)" or nothing.
func TestVersionText(t *testing.T) {
	setting := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	for _, c := range []struct {
		name string
		bi   *debug.BuildInfo
		ok   bool
		want []string
	}{
		{"tagged", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"},
			Settings: setting("vcs.revision", "0123456789abcdef", "vcs.time", "2026-11-30T10:00:00Z", "vcs.modified", "false")},
			true, []string{"fonte   v1.4.0\n", "commit  0123456789abcdef, committed 2026-11-30T10:00:00Z\n", "go      go1.26.8 "}},
		{"dirty checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261130100000-0123456789ab+dirty"},
			Settings: setting("vcs.revision", "0123456789abcdef", "vcs.time", "2026-11-30T10:00:00Z", "vcs.modified", "true")},
			true, []string{"fonte   v0.0.0-20261130100000-0123456789ab+dirty\n", "committed 2026-11-30T10:00:00Z, with uncommitted changes\n"}},
		{"devel without vcs", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			true, []string{"fonte   development build (no version stamped)\n", "commit  unknown (built without version control information)\n"}},
		{"no build information", nil, false, []string{"no build information", "go      go"}},
	} {
		got := versionText(c.bi, c.ok)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: want %q in:\n%s", c.name, w, got)
			}
		}
		if strings.Contains(got, "(devel)") {
			t.Errorf("%s: prints Go's (devel) placeholder:\n%s", c.name, got)
		}
	}
}
