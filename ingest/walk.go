package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// DefaultMaxSize is the largest file Walk reads when WalkOptions.MaxSize is
// zero: large enough for long PDF manuals, small enough that one stray
// archive or dataset cannot exhaust memory.
const DefaultMaxSize = 64 << 20

// WalkOptions selects the files Walk visits. Patterns are matched against
// the slash-separated path relative to the root, e.g. "guides/setup.md":
// "*" and "?" and character classes match within one path segment (as
// path.Match), and a "**" segment matches any number of segments,
// including none. So "**/*.md" is every Markdown file, "*.md" only those at
// the top level, and "drafts/**" everything under drafts.
type WalkOptions struct {
	Include []string // when not empty, a file must match one of these
	Exclude []string // a file or folder matching one of these is skipped
	MaxSize int64    // larger files are refused; 0 means DefaultMaxSize
}

// Entry is the outcome for one file. Exactly one of Parsed, Refusal and
// Skipped is set.
type Entry struct {
	Path    string   // slash-separated path relative to the root
	Parsed  *Parsed  // the parsed document, when accepted
	Refusal *Refusal // why the file was refused
	Skipped string   // why the file was not attempted (unsupported extension)
}

// Walk visits the files under root in sorted path order and calls fn with
// the outcome for each. Hidden files and folders (names starting with a
// dot, such as .git and the index folder .fonte) are not visited. Files
// with an unsupported extension are reported as skipped, and files that
// fail to read, parse or pass the quality check as refused: one bad file
// never stops the walk. Only an invalid pattern, an unreadable root or an
// error returned by fn ends it early.
//
// For an accepted file the document id is its relative path, Source is the
// path as found on disk (root joined with it), SHA256 is the hex digest of
// its bytes and Updated its modification time.
func Walk(root string, opts WalkOptions, fn func(Entry) error) error {
	for _, p := range append(append([]string(nil), opts.Include...), opts.Exclude...) {
		if err := validPattern(p); err != nil {
			return err
		}
	}
	maxSize := opts.MaxSize
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	info, err := os.Stat(root)
	if err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	if !info.IsDir() {
		return fmt.Errorf("ingest: %s is not a folder", root)
	}

	var files []string
	broken := map[string]error{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, relErr := filepath.Rel(root, p)
		if relErr != nil {
			return relErr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			if rel == "." {
				return err
			}
			// An unreadable folder is reported like an unreadable file.
			files = append(files, rel)
			broken[rel] = err
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if rel == "." {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if matchAny(opts.Exclude, rel) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if len(opts.Include) > 0 && !matchAny(opts.Include, rel) {
			return nil
		}
		files = append(files, rel)
		return nil
	})
	if err != nil {
		return fmt.Errorf("ingest: walking %s: %w", root, err)
	}
	sort.Strings(files)
	for _, rel := range files {
		e := Entry{Path: rel}
		if err := broken[rel]; err != nil {
			e.Refusal = &Refusal{Path: filepath.Join(root, filepath.FromSlash(rel)), Reason: ReasonUnreadable, Err: err}
		} else {
			e = loadFile(root, rel, maxSize)
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// loadFile reads, parses and checks one file.
func loadFile(root, rel string, maxSize int64) Entry {
	e := Entry{Path: rel}
	if ParserFor(rel) == nil {
		ext := path.Ext(rel)
		if ext == "" {
			e.Skipped = "no file extension"
		} else {
			e.Skipped = fmt.Sprintf("unsupported extension %q", ext)
		}
		return e
	}
	full := filepath.Join(root, filepath.FromSlash(rel))
	refuse := func(reason Reason, detail string, err error) Entry {
		e.Refusal = &Refusal{Path: full, Reason: reason, Detail: detail, Err: err}
		return e
	}
	info, err := os.Stat(full) // follows symbolic links
	if err != nil {
		return refuse(ReasonUnreadable, "", err)
	}
	if !info.Mode().IsRegular() {
		e.Skipped = "not a regular file"
		return e
	}
	if info.Size() > maxSize {
		return refuse(ReasonTooLarge, fmt.Sprintf("%d bytes (limit %d)", info.Size(), maxSize), nil)
	}
	raw, err := os.ReadFile(full)
	if err != nil {
		return refuse(ReasonUnreadable, "", err)
	}
	p, err := Parse(full, raw)
	if err != nil {
		var r *Refusal
		if errors.As(err, &r) {
			e.Refusal = r
			return e
		}
		return refuse(ReasonUnreadable, "", err)
	}
	p.Doc.ID = rel
	p.Doc.Source = full
	p.Doc.Updated = info.ModTime()
	e.Parsed = p
	return e
}

// Report is everything Load found under a folder.
type Report struct {
	Parsed  []*Parsed
	Refused []*Refusal
	Skipped []Entry // files not attempted, with the reason in Entry.Skipped
}

// Load walks root like Walk and collects the outcomes.
func Load(root string, opts WalkOptions) (*Report, error) {
	rep := &Report{}
	err := Walk(root, opts, func(e Entry) error {
		switch {
		case e.Parsed != nil:
			rep.Parsed = append(rep.Parsed, e.Parsed)
		case e.Refusal != nil:
			rep.Refused = append(rep.Refused, e.Refusal)
		default:
			rep.Skipped = append(rep.Skipped, e)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// Match reports whether the slash-separated relative path name matches
// pattern, with the syntax described at WalkOptions. A malformed pattern
// matches nothing.
func Match(pattern, name string) bool {
	return matchSegments(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func matchSegments(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			// Collapse repeated ** and try every split point.
			for len(pat) > 1 && pat[1] == "**" {
				pat = pat[1:]
			}
			for i := 0; i <= len(name); i++ {
				if matchSegments(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], name[0]); err != nil || !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if Match(p, name) {
			return true
		}
	}
	return false
}

func validPattern(p string) error {
	if p == "" {
		return fmt.Errorf("ingest: empty pattern")
	}
	for seg := range strings.SplitSeq(p, "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("ingest: bad pattern %q: %w", p, err)
		}
	}
	return nil
}
