// Command fonte indexes a folder of documents and answers questions from
// them with citations. Run `fonte help` for the subcommands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/redact"
)

// Exit codes, documented in README.md.
const (
	exitOK       = 0 // success
	exitFailure  = 1 // the command ran and failed (I/O, bad data, server refused)
	exitUsage    = 2 // bad flags or arguments
	exitMismatch = 3 // a reproduced figure differs from the seed's

	exitMismatchCfg = 4 // the index was built with other settings (chunker, embedder)
)

// usageError marks errors caused by how the command was called.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// exitError carries a specific exit code with its message.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Main runs the CLI with args and returns the process exit code. Tests call
// it directly, with buffers for stdout and stderr.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	// An error may quote a store or model-server URL, password and all.
	fmt.Fprintln(stderr, "fonte:", redact.Secrets(err.Error()))
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	var ue usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	if errors.Is(err, fonte.ErrSettingsMismatch) {
		// Database stores find out at the first commit, not at open.
		return exitMismatchCfg
	}
	return exitFailure
}

// newRoot builds the fonte command tree, writing to stdout and stderr.
func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "fonte",
		Short:         "Answer questions from your documents, with citations",
		Version:       buildVersion(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("{{.Version}}")
	root.SetOut(stdout)
	root.SetErr(stderr)
	// Cobra reports unknown flags and wrong argument counts through this
	// hook; they are the caller's mistake, so they exit with exitUsage.
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	// Each command adds the flag groups it uses; --config is everyone's.
	o := newOptions()
	addConfigFlag(root, o)
	root.SetUsageTemplate(usageTemplate(root.UsageTemplate()))
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		if cmd.HasSubCommands() {
			return nil // a command that only dispatches reads no settings
		}
		return applyEnvAndFile(cmd, o)
	}
	root.AddCommand(newReproduce(), newIndex(o), newSearch(o), newAsk(o), newChat(o), newDelete(o), newStatus(o), newEval(o),
		newDump(o), newRestore(o), newCopy(o), newMCP(o), newServe(o), newInspect(o), newVersion(), newHealthcheck())
	// Cobra adds help and completion when it runs; made now, they get the
	// same usage errors as every other command.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		switch {
		case c.Name() == "help":
			c.Run, c.RunE = nil, func(_ *cobra.Command, args []string) error {
				target, rest, err := root.Find(args)
				if err != nil || len(rest) > 0 {
					return usageError{fmt.Errorf("no help topic %q: run `fonte help` for the commands", strings.Join(args, " "))}
				}
				return target.Help()
			}
		case c.HasSubCommands():
			dispatchOnly(c)
		}
	}
	dispatchOnly(root)
	return root
}

// dispatchOnly makes cmd, which only leads to its subcommands, print its
// help when called alone and refuse an unknown subcommand as a usage
// error (left to cobra, that is a plain failure or the help, exit 0).
func dispatchOnly(cmd *cobra.Command) {
	cmd.Args = cobra.ArbitraryArgs
	cmd.SuggestionsMinimumDistance = 2 // cobra's own, which it sets only on its path
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return c.Help()
		}
		msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
		if near := c.SuggestionsFor(args[0]); len(near) > 0 {
			msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(near, " or "))
		}
		return usageError{fmt.Errorf("%s: run `%s --help` for the commands", msg, c.CommandPath())}
	}
}

// argsUsage wraps a cobra positional-argument validator so its failures are
// usage errors.
// textArgs takes words that make up one text, what (a question, a
// query): at least one, and not all blank, which the API and the MCP
// tools refuse too rather than answer "I don't know".
func textArgs(what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if strings.TrimSpace(strings.Join(args, " ")) == "" {
			return fmt.Errorf("the %s is missing or blank: %s", what, cmd.UseLine())
		}
		return nil
	}
}

func argsUsage(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := v(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}
