package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/internal/redact"
	"github.com/fonte-rag/fonte/retrieve"
	"github.com/fonte-rag/fonte/server"
	"github.com/fonte-rag/fonte/watch"
	"github.com/fonte-rag/fonte/wire"
)

// openEngine opens the index the options name, read-only for queries.
func openEngine(ctx context.Context, o *options, readOnly, rebuild bool) (*engine.Engine, error) {
	s, err := o.settings()
	if err != nil {
		return nil, err
	}
	e, err := engine.Open(ctx, s, engine.OpenOptions{ReadOnly: readOnly, Rebuild: rebuild})
	if err != nil {
		return nil, openError(err)
	}
	return e, nil
}

// openError gives a settings mismatch its own exit code.
func openError(err error) error {
	if errors.Is(err, fonte.ErrSettingsMismatch) {
		return exitError{exitMismatchCfg, err}
	}
	return err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// formatList names the formats an index run reads with their
// extensions, from the list the server and the page show, so that the
// help cannot fall behind a new parser.
func formatList() string {
	var plain, ocr []string
	for _, f := range server.ReadableFormats {
		name := f.Name + " (" + strings.Join(f.Extensions, " ") + ")"
		if f.OCR {
			ocr = append(ocr, name)
		} else {
			plain = append(plain, name)
		}
	}
	out := strings.Join(plain, ", ")
	if len(ocr) > 0 {
		out += ", and, where the tesseract command is installed, " + strings.Join(ocr, ", ") +
			" and scanned PDFs (with poppler-utils' pdftoppm)"
	}
	return out
}

// newIndex is `fonte index DIR`. It embeds chunks but never queries, so
// it has the embedder's model flags and, of the retrieval ones, only
// --dense-index (the dense index it persists).
func newIndex(o *options) *cobra.Command {
	var rebuild, progress, watchDir bool
	var reportPath string
	cmd := &cobra.Command{
		Use:   "index DIR",
		Short: "Index the documents of a folder (incrementally)",
		Long: `Index walks DIR for ` + formatList() + `, and brings the index
up to date: new and changed files are parsed, chunked and embedded, unchanged
files (same content hash) are skipped, files gone from DIR lose their chunks.
A file that cannot be read or extracts badly is refused with a reason and
never stops the run; one whose access labels cannot be read (front matter
access: [42], say) is refused too, and makes the command exit 1 once the
rest is indexed (with --watch it keeps watching). An access rule that
matches no file of DIR fails the run. The run commits atomically: if it fails or is killed,
the previous index stays as it was. A run whose new and changed files go
over --max-expanded-bytes, --max-pages or --max-chunks is refused whole,
naming the limit.`,
		Args: argsUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if info, err := os.Stat(args[0]); err != nil || !info.IsDir() {
				return usageError{fmt.Errorf("%s is not a folder", args[0])}
			}
			e, err := openEngine(cmd.Context(), o, false, rebuild)
			if err != nil {
				return err
			}
			defer e.Close()
			stderr := cmd.ErrOrStderr()
			var bar *progressbar.ProgressBar
			start := time.Now()
			show := progress || (!o.asJSON && isTerminal(stderr))
			report, err := e.Index(cmd.Context(), args[0], func(p engine.Progress) {
				if !show {
					return
				}
				if bar == nil {
					bar = progressbar.NewOptions(p.Total, progressbar.OptionSetWriter(stderr),
						progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("files"),
						progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
				}
				secs := max(time.Since(start).Seconds(), 1e-3)
				bar.Describe(fmt.Sprintf("indexing (%.0f chunks/s)", float64(p.ChunksEmbedded)/secs))
				_ = bar.Set(p.Files)
			})
			if bar != nil {
				_ = bar.Finish()
			}
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if report.Refused == nil {
				report.Refused = []engine.Refused{}
			}
			if reportPath != "" {
				if err := writeFileReport(reportPath, report.Files); err != nil {
					return fmt.Errorf("the index is committed, but the report was not written: %w", err)
				}
			}
			if o.asJSON {
				if err := writeJSON(out, struct {
					Indexed int `json:"indexed"`
					Removed int `json:"removed"`
					*engine.IndexReport
					IndexedPaths []string `json:"indexed_paths"`
					RemovedPaths []string `json:"removed_paths"`
					Seconds      float64  `json:"seconds"`
					ReportFile   string   `json:"report_file,omitempty"`
				}{len(report.Indexed), len(report.Removed), report, nonNil(report.Indexed), nonNil(report.Removed), report.Duration.Seconds(), reportPath}); err != nil {
					return err
				}
				if watchDir {
					return watchIndex(cmd.Context(), e, args[0], out, cmd.ErrOrStderr(), true)
				}
				return labelRefusals(report)
			}
			printIndexReport(out, report)
			if reportPath != "" {
				fmt.Fprintf(out, "report of the %d files written to %s\n", len(report.Files), reportPath)
			}
			if watchDir {
				return watchIndex(cmd.Context(), e, args[0], out, cmd.ErrOrStderr(), o.asJSON)
			}
			return labelRefusals(report)
		},
	}
	cmd.Flags().BoolVar(&watchDir, "watch", false, "after indexing, keep watching DIR and re-index when its files change (until interrupted)")
	cmd.Flags().BoolVar(&rebuild, "rebuild", false, "replace an index built with other settings (chunker, embedder)")
	cmd.Flags().BoolVar(&progress, "progress", false, "show the progress bar even when stderr is not a terminal")
	cmd.Flags().StringVar(&reportPath, "report", "", "write one JSON line per file of the run (status, pages, characters, language, tables, flags, chunks, refusal reason) to this file")
	addStoreFlags(cmd, o)
	addOutputFlags(cmd, o)
	addModelFlags(cmd, o, useEmbedder)
	addDenseIndexFlag(cmd, o)
	addIndexingFlags(cmd, o)
	addLimitFlags(cmd, o)
	return cmd
}

// labelRefusals fails an index run that refused files because their
// access labels cannot be read: the rest is committed, but the exit
// status must tell a script that documents meant to be restricted are
// missing.
func labelRefusals(report *engine.IndexReport) error {
	bad := report.LabelRefusals()
	if len(bad) == 0 {
		return nil
	}
	names := make([]string, len(bad))
	for i, r := range bad {
		names[i] = fmt.Sprintf("%s (%s)", r.Path, r.Field)
	}
	return exitError{exitFailure, fmt.Errorf("refused %d files whose access labels cannot be read: %s; fix them and index again (the other files are indexed)",
		len(bad), strings.Join(names, ", "))}
}

// writeFileReport writes the per-file report of an index run, one JSON
// object per line, atomically: to a temporary file beside path, renamed
// over it once complete.
func writeFileReport(path string, files []engine.FileReport) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := bufio.NewWriter(tmp)
	enc := json.NewEncoder(w)
	for _, f := range files {
		if f.FlagKinds == nil {
			f.FlagKinds = []string{}
		}
		if err := enc.Encode(f); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// watchIndex re-indexes dir on every burst of changes until ctx ends,
// printing one line (or JSON object) per run on out; the watcher's own
// warnings and errors go to errOut, its secrets masked, and not its
// line per run, which out already has.
func watchIndex(ctx context.Context, e *engine.Engine, dir string, out, errOut io.Writer, asJSON bool) error {
	index, err := filepath.Abs(e.Location())
	if err != nil {
		index = e.Location()
	}
	w, err := watch.New(dir, func(ctx context.Context) (any, error) {
		rep, err := e.Index(ctx, dir, nil)
		if err != nil {
			msg := redact.Secrets(err.Error()) // it may quote the store's URL
			if asJSON {
				_ = json.NewEncoder(out).Encode(map[string]any{"error": msg})
			} else {
				fmt.Fprintf(out, "%s re-index failed: %s\n", time.Now().Format(time.TimeOnly), msg)
			}
			return nil, err
		}
		if asJSON {
			_ = json.NewEncoder(out).Encode(map[string]any{"indexed": nonNil(rep.Indexed), "removed": nonNil(rep.Removed),
				"refused": rep.Refused, "chunks": rep.Chunks, "generation": rep.Generation})
		} else {
			fmt.Fprintf(out, "%s re-indexed: indexed %d, removed %d, refused %d; the index holds %s (generation %d)\n",
				time.Now().Format(time.TimeOnly), len(rep.Indexed), len(rep.Removed), len(rep.Refused), count(rep.Chunks, "chunk"), rep.Generation)
			// As a one-shot run does: a count alone leaves the operator to
			// find which file of the folder went bad.
			for _, r := range rep.Refused {
				fmt.Fprintf(out, "  refused %s: %s\n", r.Path, r.Reason)
			}
		}
		return rep, nil
	}, watch.Options{Ignore: []string{index},
		Logger: slog.New(redact.Handler(slog.NewTextHandler(errOut, &slog.HandlerOptions{Level: slog.LevelWarn})))})
	if err != nil {
		return err
	}
	if !asJSON {
		fmt.Fprintf(out, "watching %s (Ctrl-C to stop)\n", dir)
	}
	return w.Run(ctx)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// searchFlags are the per-query filters.
type searchFlags struct {
	prefixes []string
	tags     []string
	lang     string
	trace    bool
}

func (f *searchFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringSliceVar(&f.prefixes, "path", nil, "only documents whose id starts with one of these prefixes")
	cmd.Flags().StringSliceVar(&f.tags, "tag", nil, "only documents carrying all these tags (front matter)")
	cmd.Flags().StringVar(&f.lang, "lang", "", "the query's language (en, it); default: detected")
	cmd.Flags().BoolVar(&f.trace, "trace", false, "also show why: each stage's time, each leg's candidates, the fusion, the floor, the context and the grounding")
}

func (f *searchFlags) options(o *options) engine.SearchOptions {
	mode, _ := retrieve.ParseMode(o.retriever)
	so := engine.SearchOptions{K: o.k, Mode: mode, Lang: f.lang, Filter: retrieve.Filter{Prefixes: f.prefixes, Tags: f.tags}}
	if f.trace {
		so.Trace = &engine.Trace{}
	}
	return so
}

// newSearch is `fonte search QUERY`: retrieval without an answer, so no
// generator or answer flags.
func newSearch(o *options) *cobra.Command {
	var sf searchFlags
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Show the chunks that best match a query, with each leg's rank and score",
		Args:  argsUsage(textArgs("query")),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := openEngine(cmd.Context(), o, true, false)
			if err != nil {
				return err
			}
			defer e.Close()
			so := sf.options(o)
			hits, err := e.Search(cmd.Context(), strings.Join(args, " "), so)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if o.asJSON {
				res := map[string]any{"query": strings.Join(args, " "), "hits": wire.Hits(hits)}
				if so.Trace != nil {
					res["trace"] = so.Trace
				}
				return writeJSON(out, res)
			}
			if so.Trace != nil {
				defer printTrace(out, so.Trace)
			}
			if len(hits) == 0 {
				fmt.Fprintln(out, "no matches")
			}
			for i, h := range hits {
				fmt.Fprintf(out, "%2d. %s", i+1, h.Chunk.DocID)
				if len(h.Chunk.Headings) > 0 {
					fmt.Fprintf(out, " › %s", strings.Join(h.Chunk.Headings, " › "))
				}
				if h.Chunk.Page > 0 {
					fmt.Fprintf(out, " (page %d)", h.Chunk.Page)
				}
				fmt.Fprintf(out, "\n    score %.4f, relevance %.2f;", h.Score, h.Relevance)
				for _, l := range h.Legs {
					if l.Rank > 0 {
						fmt.Fprintf(out, " %s #%d (%.3f)", l.Name, l.Rank, l.Score)
					} else {
						fmt.Fprintf(out, " %s —", l.Name)
					}
				}
				fmt.Fprintf(out, "\n    %s\n", snippet(h.Chunk.Text, 240))
			}
			return nil
		},
	}
	sf.add(cmd)
	addStoreFlags(cmd, o)
	addOutputFlags(cmd, o)
	addModelFlags(cmd, o, useEmbedder|useReranker)
	addRetrievalFlags(cmd, o)
	return cmd
}

// snippet is s on one line, cut to n runes.
func snippet(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func toJSON(a *fonte.Answer, withPrompt bool) wire.Answer { return wire.FromAnswer(a, withPrompt) }

// printAnswer writes an answer for a person, in the question's language:
// the notice, the text, then each source with where to find it, how fresh
// it is, and the quoted span.
func printAnswer(w io.Writer, a *fonte.Answer, streamed bool) {
	msgs, labels := answer.MessagesFor(a.Lang), labelsFor(a.Lang)
	if a.Notice != "" {
		fmt.Fprintf(w, "%s\n\n", a.Notice)
	}
	if !streamed {
		fmt.Fprintln(w, a.Text)
	} else {
		fmt.Fprintln(w)
	}
	if a.Abstained {
		if len(a.Citations) > 0 {
			fmt.Fprintf(w, "\n"+msgs.NotAnswered+" %s\n", a.Relevance, msgs.Nearest)
		}
	} else if len(a.Citations) > 0 {
		fmt.Fprintf(w, "\n%s\n", msgs.Sources)
	}
	cited := map[int]bool{}
	for _, n := range citationsIn(a.Text) {
		cited[n] = true
	}
	for _, c := range a.Citations {
		if !a.Abstained && !cited[c.N] {
			continue
		}
		fmt.Fprintf(w, "[%d] %s", c.N, c.Title)
		if len(c.Headings) > 0 {
			fmt.Fprintf(w, " › %s", strings.Join(c.Headings, " › "))
		}
		fmt.Fprintf(w, "\n    %s", c.Source)
		if c.Page > 0 {
			fmt.Fprintf(w, labels.page, c.Page)
		}
		if !c.Updated.IsZero() {
			fmt.Fprintf(w, labels.updated, c.Updated.Format("2006-01-02"))
		}
		fmt.Fprintf(w, "\n    “%s”\n", snippet(c.Quote, 300))
	}
	for _, s := range a.Unsupported {
		fmt.Fprintf(w, "warning: not supported by the cited sources: %s\n", s)
	}
	for _, n := range a.BadCitations {
		fmt.Fprintf(w, "warning: the answer cites [%d], which is not a source\n", n)
	}
}

// cliLabels are the labels the command line puts around an answer, in
// the answer's language like answer.Messages' sentences (and the web
// page's labels): the query searched for a follow-up, a source's page
// and date.
type cliLabels struct{ searched, page, updated string }

var answerLabels = map[string]cliLabels{
	"en": {searched: "Searched: %s", page: ", page %d", updated: ", updated %s"},
	"it": {searched: "Cercato: %s", page: ", pagina %d", updated: ", aggiornato il %s"},
}

// labelsFor returns the labels in the language answer.MessagesFor
// speaks for lang: Italian for "it", English for any other.
func labelsFor(lang string) cliLabels {
	return answerLabels[answer.MessagesFor(lang).Lang]
}

func citationsIn(text string) []int {
	var out []int
	for i := 0; i < len(text); i++ {
		if text[i] != '[' {
			continue
		}
		j := i + 1
		n := 0
		for j < len(text) && text[j] >= '0' && text[j] <= '9' {
			n = n*10 + int(text[j]-'0')
			j++
		}
		if j > i+1 && j < len(text) && text[j] == ']' {
			out = append(out, n)
		}
	}
	return out
}

// newAsk is `fonte ask QUESTION`: retrieval, then an answer.
func newAsk(o *options) *cobra.Command {
	var sf searchFlags
	var all, prompt bool
	cmd := &cobra.Command{
		Use:   "ask QUESTION",
		Short: "Answer a question from the index, citing the passages behind it",
		Args:  argsUsage(textArgs("question")),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := openEngine(cmd.Context(), o, true, false)
			if err != nil {
				return err
			}
			defer e.Close()
			out := cmd.OutOrStdout()
			streamed := false
			ao := engine.AskOptions{SearchOptions: sf.options(o), All: all}
			if !o.asJSON && o.generator != "extractive" && o.generator != "" {
				ao.OnDelta = func(s string) { streamed = true; fmt.Fprint(out, s) }
			}
			a, err := e.Ask(cmd.Context(), strings.Join(args, " "), ao)
			if err != nil {
				return err
			}
			if o.asJSON {
				if ao.Trace != nil {
					return writeJSON(out, struct {
						wire.Answer
						Trace *engine.Trace `json:"trace"`
					}{toJSON(a, prompt), ao.Trace})
				}
				return writeJSON(out, toJSON(a, prompt))
			}
			if prompt {
				fmt.Fprintf(out, "--- prompt ---\n%s\n--- answer ---\n", a.Prompt)
			}
			printAnswer(out, a, streamed)
			if ao.Trace != nil {
				printTrace(out, ao.Trace)
			}
			return nil
		},
	}
	sf.add(cmd)
	cmd.Flags().BoolVar(&all, "all", false, "skip retrieval and send every chunk (only for a corpus that fits the budget)")
	cmd.Flags().BoolVar(&prompt, "show-prompt", false, "also print the prompt sent to the model")
	addAnswerCommandFlags(cmd, o)
	return cmd
}

// addAnswerCommandFlags adds the flag groups of a command that answers
// and prints the answers (ask, chat).
func addAnswerCommandFlags(cmd *cobra.Command, o *options) {
	addStoreFlags(cmd, o)
	addOutputFlags(cmd, o)
	addModelFlags(cmd, o, useAllModels)
	addRetrievalFlags(cmd, o)
	addAnswerFlags(cmd, o)
}

// newChat is `fonte chat`: ask, in a conversation read from stdin.
func newChat(o *options) *cobra.Command {
	var sf searchFlags
	cmd := &cobra.Command{
		Use:   "chat",
		Short: "Ask questions in a conversation; follow-ups are rewritten into standalone queries",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			e, err := openEngine(cmd.Context(), o, true, false)
			if err != nil {
				return err
			}
			defer e.Close()
			out := cmd.OutOrStdout()
			in := bufio.NewScanner(cmd.InOrStdin())
			in.Buffer(make([]byte, 64*1024), 1<<20)
			var history []fonte.Message
			interactive := isTerminal(out)
			for {
				if interactive {
					fmt.Fprint(out, "> ")
				}
				if !in.Scan() {
					return in.Err()
				}
				q := strings.TrimSpace(in.Text())
				if q == "" {
					continue
				}
				if q == "/quit" || q == "/exit" {
					return nil
				}
				so := sf.options(o)
				a, err := e.Ask(cmd.Context(), q, engine.AskOptions{SearchOptions: so, History: history})
				if err != nil {
					return err
				}
				if o.asJSON {
					var v any = toJSON(a, false)
					if so.Trace != nil {
						v = struct {
							wire.Answer
							Trace *engine.Trace `json:"trace"`
						}{toJSON(a, false), so.Trace}
					}
					if err := json.NewEncoder(out).Encode(v); err != nil {
						return err
					}
				} else {
					// The query searched, when it is not what was typed:
					// a follow-up rewritten from the previous turn.
					if a.Query != q {
						fmt.Fprintf(out, labelsFor(a.Lang).searched+"\n", a.Query)
					}
					printAnswer(out, a, false)
					if so.Trace != nil {
						printTrace(out, so.Trace)
					}
					fmt.Fprintln(out)
				}
				// The standalone query stands in for the user's turn, so a
				// chain of follow-ups keeps its subject.
				history = append(history, fonte.Message{Role: "user", Content: a.Query}, fonte.Message{Role: "assistant", Content: a.Text})
			}
		},
	}
	sf.add(cmd)
	addAnswerCommandFlags(cmd, o)
	return cmd
}

// newDelete is `fonte delete`. It neither chunks nor embeds, and opens
// the index with the settings it records, so it has no model or
// chunking flags (their config keys are ignored here, as every command
// ignores those of the groups it lacks); --dense-index, for the graph it
// rewrites.
func newDelete(o *options) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "delete ID_OR_GLOB...",
		Short: "Delete documents from the index, leaving no trace of their text in the index folder",
		Long: `Delete removes the documents whose id is, or matches as a glob, one of the
arguments, and purges the index so their text leaves every byte of it. A
document whose file is still in the folder it was indexed from comes back
with the next index run over that folder (fonte index, --watch, a server's
re-index): delete says so; remove the file, or --exclude it, to keep it out.`,
		Args: argsUsage(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := o.settings()
			if err != nil {
				return err
			}
			// A deletion makes no chunks: the index is taken with the
			// settings it was built with, and never made where there is none.
			e, err := engine.Open(cmd.Context(), s, engine.OpenOptions{Existing: true})
			if err != nil {
				return openError(err)
			}
			defer e.Close()
			infos, err := e.Store().Documents(cmd.Context())
			if err != nil {
				return err
			}
			deleted, err := e.Delete(cmd.Context(), args)
			if err != nil {
				return err
			}
			warnStillInFolder(cmd.ErrOrStderr(), infos, deleted)
			if o.asJSON {
				return writeJSON(cmd.OutOrStdout(), map[string]any{"deleted": nonNil(deleted)})
			}
			if len(deleted) == 0 {
				return exitError{exitFailure, fmt.Errorf("no indexed document matches %s", strings.Join(args, ", "))}
			}
			for _, d := range deleted {
				fmt.Fprintf(cmd.OutOrStdout(), "deleted %s\n", d)
			}
			return nil
		},
	}
	addStoreFlags(cmd, o)
	addOutputFlags(cmd, o)
	addDenseIndexFlag(cmd, o)
	return cmd
}

// warnStillInFolder tells, on stderr, which deleted documents' files are
// still where they were indexed from: the next index run over that
// folder (a --watch's, a server's re-index) indexes them again.
func warnStillInFolder(w io.Writer, infos []fonte.DocInfo, deleted []string) {
	source := make(map[string]string, len(infos))
	for _, d := range infos {
		source[d.ID] = d.Source
	}
	for _, id := range deleted {
		src := source[id]
		if src == "" || src == engine.UploadSource {
			continue
		}
		if _, err := os.Stat(src); err == nil {
			fmt.Fprintf(w, "fonte: %s is still in its folder (%s): the next index run over the folder indexes it again; remove the file, or --exclude it, to keep it out\n", id, src)
		}
	}
}

// newStatus is `fonte status`. Opening the index checks the embedder, and
// the dense leg it reports depends on --dense-index.
// printLabels lists each access label with the number of documents that
// carry it, so an admin sees at a glance whether a rule or a front matter
// label took (`fonte status` opens the store with full access).
func printLabels(out io.Writer, counts map[string]int) {
	if len(counts) == 0 {
		fmt.Fprintln(out, "labels    none: every document is readable by every token")
		return
	}
	var parts []string
	for _, l := range slices.Sorted(maps.Keys(counts)) {
		unit := "documents"
		if counts[l] == 1 {
			unit = "document"
		}
		parts = append(parts, fmt.Sprintf("%s (%d %s)", l, counts[l], unit))
	}
	fmt.Fprintf(out, "labels    %s\n", strings.Join(parts, ", "))
}

func newStatus(o *options) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Describe the index: settings, documents, chunks, last updates",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			e, err := openEngine(cmd.Context(), o, true, false)
			if err != nil {
				return err
			}
			defer e.Close()
			st, err := e.Status(cmd.Context())
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if o.asJSON {
				return writeJSON(out, st)
			}
			fmt.Fprintf(out, "index     %s (generation %d, committed %s)\n", st.Dir, st.Generation, st.Committed.Format(time.RFC3339))
			fmt.Fprintf(out, "store     %s; lexical leg: %s; dense leg: %s\n", st.Backend, st.Lexical, st.Dense)
			if st.Replica != nil {
				fmt.Fprintf(out, "replica   %s\n", replicaLine(st.Replica))
			}
			fmt.Fprintf(out, "contents  %s, %s\n", count(st.Documents, "document"), count(st.Chunks, "chunk"))
			fmt.Fprintf(out, "analysis  %s\nchunker   %s\nembedder  %s (%d dimensions)\n", st.Analyzer, st.Chunker, st.Embedder, st.Dimension)
			printLabels(out, st.Labels)
			printDocTable(out, st.Docs)
			return nil
		},
	}
	addStoreFlags(cmd, o)
	addOutputFlags(cmd, o)
	addModelFlags(cmd, o, useEmbedder)
	addDenseIndexFlag(cmd, o)
	return cmd
}
