package disk

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// formatVersion is the manifest format this package writes and the newest
// it reads.
const formatVersion = 1

// File names in DIR.
const (
	manifestName = "manifest"
	manifestTmp  = "manifest.tmp"
	lockName     = "lock"
)

// manifest is the JSON document naming one generation's files.
type manifest struct {
	Format     int            `json:"format"`
	Store      string         `json:"store"` // random id, tells a recreated folder from the old one
	Config     Config         `json:"config"`
	Generation uint64         `json:"generation"`
	Committed  time.Time      `json:"committed"`
	Segments   []segmentEntry `json:"segments"`
	Blobs      []blobEntry    `json:"blobs,omitempty"`
	// Retained lists the previous generation's files that this one no
	// longer references, kept until the next commit for readers that are
	// still loading it.
	Retained []string `json:"retained,omitempty"`
}

type segmentEntry struct {
	File   string `json:"file"`
	Size   int64  `json:"size"`
	CRC32C uint32 `json:"crc32c"`
	Docs   int    `json:"docs"`
	Chunks int    `json:"chunks"`
}

type blobEntry struct {
	Name   string `json:"name"`
	File   string `json:"file"`
	Size   int64  `json:"size"`
	CRC32C uint32 `json:"crc32c"`
}

// files lists every file the generation references.
func (m *manifest) files() []string {
	out := make([]string, 0, len(m.Segments)+len(m.Blobs))
	for _, s := range m.Segments {
		out = append(out, s.File)
	}
	for _, b := range m.Blobs {
		out = append(out, b.File)
	}
	return out
}

// parseManifest decodes and checks a manifest read from path.
func parseManifest(path string, raw []byte) (*manifest, error) {
	// The version is checked before the rest, so a newer layout is
	// reported as such rather than as a parse error.
	var v struct {
		Format int `json:"format"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, path, err)
	}
	if v.Format > formatVersion {
		return nil, fmt.Errorf("%w: %s has format version %d and this fonte reads up to version %d; upgrade fonte or rebuild the index",
			ErrFormatVersion, path, v.Format, formatVersion)
	}
	var m manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, path, err)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrCorrupt, path, fmt.Sprintf(format, args...))
	}
	if m.Format < 1 {
		return nil, bad("format version %d", m.Format)
	}
	if err := validateConfig(m.Config); err != nil {
		return nil, bad("%v", err)
	}
	seen := map[string]bool{}
	check := func(name string, isKind func(string) bool) error {
		if !isKind(name) || seen[name] {
			return bad("bad or repeated file name %q", name)
		}
		seen[name] = true
		return nil
	}
	for _, s := range m.Segments {
		if err := check(s.File, isSegmentName); err != nil {
			return nil, err
		}
		if s.Size < 0 || s.Docs < 0 || s.Chunks < 0 {
			return nil, bad("negative sizes for %s", s.File)
		}
	}
	names := map[string]bool{}
	for _, b := range m.Blobs {
		if err := check(b.File, isBlobName); err != nil {
			return nil, err
		}
		if names[b.Name] {
			return nil, bad("blob %q listed twice", b.Name)
		}
		names[b.Name] = true
	}
	for _, r := range m.Retained {
		if !isSegmentName(r) && !isBlobName(r) {
			return nil, bad("bad retained file name %q", r)
		}
	}
	return &m, nil
}

// isSegmentName and isBlobName accept the names this package writes, and
// so never a path that leaves DIR.
func isSegmentName(name string) bool { return isOurs(name, "seg-", ".fseg") }
func isBlobName(name string) bool    { return isOurs(name, "blob-", ".fblob") }

func isOurs(name, prefix, suffix string) bool {
	if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, suffix) || len(name) <= len(prefix)+len(suffix) {
		return false
	}
	for _, r := range name[len(prefix) : len(name)-len(suffix)] {
		if (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// isStoreFile reports whether a file in DIR is one this package may delete
// when no generation references it. Anything else in the folder is left
// alone.
func isStoreFile(name string) bool {
	return name == manifestTmp || isSegmentName(name) || isBlobName(name) || isLexicalBuildName(name)
}

// isLexicalBuildName matches the files a lexical build writes (see
// buildLexical), which a crash may leave behind.
func isLexicalBuildName(name string) bool {
	return strings.HasPrefix(name, "lexical-") && strings.HasSuffix(name, ".tmp")
}
