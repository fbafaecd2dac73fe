package deploytest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// unitPath is the systemd unit the README tells operators to install.
var unitPath = filepath.Join(repoRoot, "docs", "fonte.service")

// installedBinary is where the unit expects fonte.
const installedBinary = "/usr/local/bin/fonte"

// TestServiceUnit checks docs/fonte.service with systemd's own tools:
// `systemd-analyze verify` finds nothing to say (an unknown or misspelt
// key, a bad value or a missing binary is reported there), and the offline
// `systemd-analyze security` rates its exposure at most 2.0 ("OK"). It
// cannot start the unit: systemd is not PID 1 in the containers these
// tests run in.
func TestServiceUnit(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Fatalf("systemd-analyze is not installed (apt-get install -y systemd; scripts/test installs it): %v", err)
	}
	raw, err := os.ReadFile(unitPath)
	if err != nil {
		t.Fatal(err)
	}
	unit := string(raw)
	service := serviceSettings(t, unit)
	if got := service["ExecStart"]; len(got) != 1 || got[0] != installedBinary+" serve" {
		t.Fatalf("ExecStart = %q, want %q", got, installedBinary+" serve")
	}

	// verify checks that ExecStart's binary exists; this machine has
	// fonte where these tests built it, so the copy verified names it
	// there and differs from the unit in nothing else.
	verified := filepath.Join(t.TempDir(), "fonte.service")
	local := strings.Replace(unit, "ExecStart="+installedBinary+" ", "ExecStart="+fonteBin+" ", 1)
	if err := os.WriteFile(verified, []byte(local), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", verified).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}

	out, err = exec.Command(analyze, "security", "--offline=yes", "--threshold=20", unitPath).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Overall exposure level for fonte.service") {
		t.Errorf("systemd-analyze security --offline=yes --threshold=20: %v\n%s", err, tail(string(out), 2000))
	}

	// What the issue asks of it, by name: a user made for the service, the
	// file system read-only but for its state, no way to new privileges.
	for key, want := range map[string]string{"DynamicUser": "yes", "ProtectSystem": "strict", "NoNewPrivileges": "yes", "StateDirectory": "fonte"} {
		if got := service[key]; len(got) != 1 || got[0] != want {
			t.Errorf("%s = %q, want %s", key, got, want)
		}
	}
	// The index and everything serve writes lie in the folders systemd
	// makes writable for the dynamic user.
	env := map[string]string{}
	for _, e := range service["Environment"] {
		k, v, _ := strings.Cut(e, "=")
		env[k] = v
	}
	state, cache := "/var/lib/"+service["StateDirectory"][0]+"/", "/var/cache/"+strings.Join(service["CacheDirectory"], "")
	for _, k := range []string{"FONTE_STORE", "FONTE_DATA"} {
		if !strings.HasPrefix(env[k], state) {
			t.Errorf("%s=%q is outside the state directory %s", k, env[k], state)
		}
	}
	if env["XDG_CACHE_HOME"] != cache {
		t.Errorf("XDG_CACHE_HOME=%q, want the cache directory %s", env["XDG_CACHE_HOME"], cache)
	}
	if dir := service["WorkingDirectory"]; len(dir) != 1 || dir[0]+"/" != state {
		t.Errorf("WorkingDirectory = %q, want %s", dir, state)
	}
}

// serviceSettings reads the [Service] section of a unit: each key's
// values in order.
func serviceSettings(t *testing.T, unit string) map[string][]string {
	t.Helper()
	settings := map[string][]string{}
	section := ""
	lines := bufio.NewScanner(strings.NewReader(unit))
	for lines.Scan() {
		line := strings.TrimSpace(lines.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			section = line
		case section == "[Service]":
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				t.Fatalf("%s: line %q is no KEY=VALUE", unitPath, line)
			}
			settings[k] = append(settings[k], v)
		}
	}
	return settings
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
