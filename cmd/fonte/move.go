package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/internal/redact"
	"github.com/fonte-rag/fonte/retrieve"
)

// location is the store the options name: --store, else --index.
func (o *options) location() string {
	if o.store != "" {
		return o.store
	}
	return o.index
}

// printStats reports what a dump, restore or copy moved.
func printStats(cmd *cobra.Command, o *options, verb, where string, st engine.DumpStats) error {
	if o.asJSON {
		return writeJSON(cmd.OutOrStdout(), st)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%s %s, %s (%s, %d dimensions) %s\n", verb, count(st.Documents, "document"), count(st.Chunks, "chunk"), st.Settings.Embedder, st.Settings.Dim, where)
	return nil
}

// newDump is `fonte dump FILE`: it copies stored vectors and needs no
// model, so it has the store and output flags only.
func newDump(o *options) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dump FILE",
		Short: "Write the index to one portable, checksummed file (- for standard output)",
		Long: `Dump writes the index of --store (settings, documents, chunks, vectors,
dates) to FILE, so it can be restored into any store, or kept as a backup,
without parsing or embedding anything again. FILE is written beside itself
and renamed into place when complete.`,
		Args: argsUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			loc := o.location()
			if _, err := o.settings(); err != nil {
				return err
			}
			st, err := engine.OpenStore(ctx, loc, fonte.StoreOptions{ReadOnly: true}, engine.StoreTuning{Analyzers: retrieve.DefaultAnalyzers()})
			if err != nil {
				return err
			}
			defer st.Close()
			var w io.Writer = cmd.OutOrStdout()
			var tmp *os.File
			if args[0] != "-" {
				tmp, err = os.CreateTemp(filepath.Dir(args[0]), "."+filepath.Base(args[0])+".*")
				if err != nil {
					return err
				}
				defer os.Remove(tmp.Name())
				w = tmp
			}
			stats, err := engine.Dump(ctx, st, loc, w)
			if err != nil {
				if tmp != nil {
					tmp.Close()
				}
				return err
			}
			if tmp != nil {
				if err := tmp.Sync(); err != nil {
					return fmt.Errorf("writing %s: %w", args[0], err)
				}
				if err := tmp.Close(); err != nil {
					return fmt.Errorf("writing %s: %w", args[0], err)
				}
				if err := os.Rename(tmp.Name(), args[0]); err != nil {
					return err
				}
				return printStats(cmd, o, "dumped", "to "+args[0], stats)
			}
			return nil
		},
	}
	addStoreFlags(cmd, o)
	addOutputFlags(cmd, o)
	return cmd
}

// newRestore is `fonte restore FILE`: the dump carries the settings, so
// it has the store and output flags only.
func newRestore(o *options) *cobra.Command {
	var replace bool
	cmd := &cobra.Command{
		Use:   "restore FILE",
		Short: "Load a dump into a store (- reads standard input)",
		Long: `Restore loads a file written by fonte dump into --store in one atomic commit.
The store must be empty, or --replace replaces its index whole.`,
		Args: argsUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := o.settings(); err != nil {
				return err
			}
			var r io.Reader = cmd.InOrStdin()
			if args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return err
				}
				defer f.Close()
				r = f
			}
			stats, err := engine.Restore(cmd.Context(), r, args[0], o.location(), replace)
			if err != nil {
				return err
			}
			return printStats(cmd, o, "restored", "into "+redact.Secrets(o.location()), stats)
		},
	}
	cmd.Flags().BoolVar(&replace, "replace", false, "replace an index the store already holds")
	addStoreFlags(cmd, o)
	addOutputFlags(cmd, o)
	return cmd
}

// newCopy is `fonte copy`: its stores are --from and --to, so of the
// groups it has only the output flag.
func newCopy(o *options) *cobra.Command {
	var from, to string
	var replace bool
	cmd := &cobra.Command{
		Use:   "copy --from STORE --to STORE",
		Short: "Copy an index from one store to another in one stream (dump piped into restore)",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if from == "" || to == "" {
				return usageError{fmt.Errorf("copy needs --from and --to")}
			}
			stats, err := engine.Copy(cmd.Context(), from, to, replace)
			if err != nil {
				return err
			}
			return printStats(cmd, o, "copied", "from "+redact.Secrets(from)+" to "+redact.Secrets(to), stats)
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "the store to copy from (a folder, postgres://… or redis://…)")
	cmd.Flags().StringVar(&to, "to", "", "the store to copy into")
	cmd.Flags().BoolVar(&replace, "replace", false, "replace an index the target already holds")
	addOutputFlags(cmd, o)
	return cmd
}
