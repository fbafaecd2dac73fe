package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// versionText describes the binary from what the Go toolchain stamped
// into it: the module version (a tag, or a pseudo-version built from the
// commit), the commit and its time, whether the checkout had uncommitted
// changes, and the Go version and platform. `go run`, tests and builds
// without version control stamp none of it, and the text says so.
func versionText(bi *debug.BuildInfo, ok bool) string {
	if !ok {
		return fmt.Sprintf("fonte: no build information in this binary\ngo      %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	version := bi.Main.Version
	if version == "" || version == "(devel)" {
		version = "development build (no version stamped)"
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	commit := "unknown (built without version control information)"
	if rev := settings["vcs.revision"]; rev != "" {
		commit = rev
		if t := settings["vcs.time"]; t != "" {
			commit += ", committed " + t
		}
		if settings["vcs.modified"] == "true" {
			commit += ", with uncommitted changes"
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "fonte   %s\n", version)
	fmt.Fprintf(&b, "commit  %s\n", commit)
	fmt.Fprintf(&b, "go      %s %s/%s\n", bi.GoVersion, runtime.GOOS, runtime.GOARCH)
	return b.String()
}

// buildVersion is versionText of the running binary.
func buildVersion() string { return versionText(debug.ReadBuildInfo()) }

// newVersion is `fonte version`, the same text as `fonte --version`.
func newVersion() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and Go version this binary was built from",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprint(cmd.OutOrStdout(), buildVersion())
			return err
		},
	}
}
