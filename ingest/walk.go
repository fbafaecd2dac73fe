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
	// FollowSymlinks follows symbolic links whose target lies outside the
	// root. Without it such a link is refused (ReasonSymlink), so that a
	// link in a shared folder cannot pull files from elsewhere on the
	// machine into the index.
	FollowSymlinks bool
	// Budget, when set, is charged with what the files expand to, and
	// ends the walk with its error (see Stops) when the run goes over a
	// limit or its context ends.
	Budget *Budget
}

// Entry is the outcome for one file. Exactly one of Parsed, Refusal and
// Skipped is set.
type Entry struct {
	Path    string   // slash-separated path relative to the root
	Parsed  *Parsed  // the parsed document, when accepted
	Refusal *Refusal // why the file was refused
	Skipped string   // why the file was not attempted (unsupported extension, duplicate)
}

// ReasonSymlink refuses a symbolic link whose target lies outside the
// indexed folder (see WalkOptions.FollowSymlinks).
const ReasonSymlink Reason = "symlink"

// walkItem is a file (or a link or folder refused as a whole) found by
// Walk, before it is read.
type walkItem struct {
	rel     string   // slash-separated path relative to the root
	real    string   // the file's path with every symbolic link resolved
	viaLink bool     // reached through a symbolic link
	refusal *Refusal // refused without reading
	skipped string   // not attempted, without reading
}

// Walk visits the files under root in sorted path order and calls fn with
// the outcome for each. Hidden files and folders (names starting with a
// dot, such as .git and the index folder .fonte) are not visited. Files
// with an unsupported extension are reported as skipped, and files that
// fail to read, parse or pass the quality check as refused: one bad file
// never stops the walk. Only an invalid pattern, an unreadable root or an
// error returned by fn ends it early.
//
// Symbolic links, to files and to folders, are followed when their target
// lies inside the root (the root's own path resolved). A link whose
// target lies outside is refused with ReasonSymlink unless
// WalkOptions.FollowSymlinks is set; a broken link is refused as
// unreadable. A file is indexed once: a link to a file that the walk also
// reaches directly (or through an earlier link, in sorted order) is
// skipped as a duplicate, and so is a link to a folder that is walked
// already, which also ends link cycles. A file reached through a link
// keeps the link's path as its id and Source.
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
	rootReal, err := realPath(root)
	if err != nil {
		return fmt.Errorf("ingest: %w", err)
	}

	w := &walker{root: root, rootReal: rootReal, opts: opts, visited: map[string]string{}}
	// Walk the resolved root: filepath.WalkDir does not enter a root that
	// is itself a link.
	if err := w.tree(rootReal, ""); err != nil {
		return fmt.Errorf("ingest: walking %s: %w", root, err)
	}
	// Folders reached through links are walked after the root, in sorted
	// order, so a folder walked directly always counts as the original;
	// walking one may find further links.
	for len(w.dirLinks) > 0 {
		sort.Slice(w.dirLinks, func(i, j int) bool { return w.dirLinks[i].rel < w.dirLinks[j].rel })
		l := w.dirLinks[0]
		w.dirLinks = w.dirLinks[1:]
		if first, ok := w.visited[l.real]; ok {
			w.items = append(w.items, walkItem{rel: l.rel, skipped: duplicateLink(l.real, first, true)})
			continue
		}
		if err := w.tree(l.real, l.rel); err != nil {
			return fmt.Errorf("ingest: walking %s: %w", filepath.Join(root, filepath.FromSlash(l.rel)), err)
		}
	}

	items := w.items
	sort.SliceStable(items, func(i, j int) bool {
		return items[i].rel < items[j].rel
	})
	// Files reached directly claim their real path first, then those
	// reached through links in path order.
	owner := map[string]string{}
	for _, it := range items {
		if !it.viaLink && it.real != "" && it.refusal == nil && it.skipped == "" {
			if _, ok := owner[it.real]; !ok {
				owner[it.real] = it.rel
			}
		}
	}
	for i := range items {
		it := &items[i]
		if !it.viaLink || it.real == "" || it.refusal != nil || it.skipped != "" {
			continue
		}
		if first, ok := owner[it.real]; ok && first != it.rel {
			it.skipped = duplicateLink(it.real, first, false)
			continue
		}
		owner[it.real] = it.rel
	}

	for _, it := range items {
		e := Entry{Path: it.rel}
		switch {
		case it.refusal != nil:
			e.Refusal = it.refusal
		case it.skipped != "":
			e.Skipped = it.skipped
		default:
			var err error
			if e, err = loadFile(root, it.rel, maxSize, opts.Budget); err != nil {
				return err
			}
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// duplicateLink is the reason a link to a file or folder reached already
// is skipped.
func duplicateLink(target, first string, folder bool) string {
	what := "file"
	if folder {
		what = "folder"
	}
	if first == "" {
		return fmt.Sprintf("symbolic link to the %s %s, which is indexed already", what, target)
	}
	return fmt.Sprintf("symbolic link to the %s %s, indexed already as %s", what, target, first)
}

// walker collects the files of a Walk.
type walker struct {
	root, rootReal string
	opts           WalkOptions
	items          []walkItem
	dirLinks       []walkItem        // folders reached through links, to walk
	visited        map[string]string // real folder path -> its relative path ("" for the root)
}

// tree walks the folder dir, a path with every link resolved, whose path
// relative to the root is prefix ("" for the root itself).
func (w *walker) tree(dir, prefix string) error {
	opts := w.opts
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		sub, relErr := filepath.Rel(dir, p)
		if relErr != nil {
			return relErr
		}
		real := filepath.Join(dir, sub)
		rel := path.Join(prefix, filepath.ToSlash(sub))
		if rel == "" {
			rel = "."
		}
		if err != nil {
			if sub == "." && prefix == "" {
				return err
			}
			// An unreadable folder is reported like an unreadable file.
			w.items = append(w.items, walkItem{rel: rel, refusal: &Refusal{
				Path: filepath.Join(w.root, filepath.FromSlash(rel)), Reason: ReasonUnreadable, Err: err}})
			if d != nil && d.IsDir() && sub != "." {
				return fs.SkipDir
			}
			return nil
		}
		if sub == "." {
			w.visited[dir] = prefix
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
		if d.Type()&fs.ModeSymlink != 0 {
			w.link(p, rel)
			return nil
		}
		if d.IsDir() {
			w.visited[real] = rel
			return nil
		}
		if len(opts.Include) > 0 && !matchAny(opts.Include, rel) {
			return nil
		}
		w.items = append(w.items, walkItem{rel: rel, real: real, viaLink: prefix != ""})
		return nil
	})
}

// link handles the symbolic link at p (rel relative to the root).
func (w *walker) link(p, rel string) {
	full := filepath.Join(w.root, filepath.FromSlash(rel))
	target, err := realPath(p)
	if err != nil {
		if len(w.opts.Include) > 0 && !matchAny(w.opts.Include, rel) {
			return
		}
		dest, _ := os.Readlink(p)
		w.items = append(w.items, walkItem{rel: rel, refusal: &Refusal{Path: full, Reason: ReasonUnreadable,
			Detail: fmt.Sprintf("broken symbolic link: its target %s cannot be read", dest), Err: err}})
		return
	}
	info, err := os.Stat(target)
	if err != nil {
		w.items = append(w.items, walkItem{rel: rel, refusal: &Refusal{Path: full, Reason: ReasonUnreadable,
			Detail: fmt.Sprintf("symbolic link to %s, which cannot be read", target), Err: err}})
		return
	}
	if !info.IsDir() && len(w.opts.Include) > 0 && !matchAny(w.opts.Include, rel) {
		return
	}
	if !within(w.rootReal, target) && !w.opts.FollowSymlinks {
		what := "links to"
		if info.IsDir() {
			what = "is a link to the folder"
		}
		w.items = append(w.items, walkItem{rel: rel, refusal: &Refusal{Path: full, Reason: ReasonSymlink,
			Detail: fmt.Sprintf("%s %s outside the indexed folder; not followed (use --follow-symlinks to index it)", what, target)}})
		return
	}
	if info.IsDir() {
		w.dirLinks = append(w.dirLinks, walkItem{rel: rel, real: target, viaLink: true})
		return
	}
	w.items = append(w.items, walkItem{rel: rel, real: target, viaLink: true})
}

// realPath returns p absolute with every symbolic link resolved.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// within reports whether the resolved path p is dir or lies under it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// loadFile reads, parses and checks one file; the error is the budget's
// (see Stops), which ends the walk.
func loadFile(root, rel string, maxSize int64, budget *Budget) (Entry, error) {
	e := Entry{Path: rel}
	if ParserFor(rel) == nil {
		ext := path.Ext(rel)
		if ext == "" {
			e.Skipped = "no file extension"
		} else {
			e.Skipped = fmt.Sprintf("unsupported extension %q", ext)
		}
		return e, nil
	}
	full := filepath.Join(root, filepath.FromSlash(rel))
	refuse := func(reason Reason, detail string, err error) (Entry, error) {
		e.Refusal = &Refusal{Path: full, Reason: reason, Detail: detail, Err: err}
		return e, nil
	}
	info, err := os.Stat(full) // follows symbolic links
	if err != nil {
		return refuse(ReasonUnreadable, "", err)
	}
	if !info.Mode().IsRegular() {
		e.Skipped = "not a regular file"
		return e, nil
	}
	if info.Size() > maxSize {
		return refuse(ReasonTooLarge, fmt.Sprintf("%d bytes (limit %d)", info.Size(), maxSize), nil)
	}
	raw, err := os.ReadFile(full)
	if err != nil {
		return refuse(ReasonUnreadable, "", err)
	}
	p, err := ParseWithin(budget, full, raw)
	if Stops(err) {
		return e, err
	}
	if err != nil {
		var r *Refusal
		if errors.As(err, &r) {
			e.Refusal = r
			return e, nil
		}
		return refuse(ReasonUnreadable, "", err)
	}
	p.Doc.ID = rel
	p.Doc.Source = full
	p.Doc.Updated = info.ModTime()
	e.Parsed = p
	return e, nil
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
