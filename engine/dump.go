package engine

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/disk"
	"github.com/fonte-rag/fonte/internal/redact"
	"github.com/fonte-rag/fonte/retrieve"
)

// A dump is one portable file holding an index whole: its settings, and
// every document with its text, chunks, text hashes, vectors and dates,
// so an index moves between stores (or is backed up) without parsing or
// embedding anything again. The layout, all integers little-endian:
//
//	"FONTEDUMP" then the format version (one byte, 1)
//	sections, each: kind (one byte), payload length (uint32), payload,
//	CRC-32C of the kind, length and payload (uint32)
//	  'H' header: JSON {settings, created, source}
//	  'D' one document: JSON {doc, chunks, text_hashes, meta}, followed by
//	  'V' its vectors: chunks × dim float32
//	  'E' end: JSON {documents, chunks}; nothing may follow
//
// A section that fails its checksum, a missing end or counts that differ
// from what was read refuse the whole file before anything is committed.
const (
	dumpMagic   = "FONTEDUMP"
	dumpVersion = 1
	// maxSection bounds a section so a damaged length cannot ask for an
	// absurd allocation (a document of 1 GiB of text and vectors is
	// beyond anything fonte indexes).
	maxSection = 1 << 30
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrBadDump wraps every error caused by a dump file's content.
var ErrBadDump = errors.New("not a valid fonte dump")

type dumpHeader struct {
	Settings fonte.IndexSettings `json:"settings"`
	Created  time.Time           `json:"created"`
	Source   string              `json:"source"`
}

type dumpDoc struct {
	Doc        fonte.Document    `json:"doc"`
	Chunks     []fonte.Chunk     `json:"chunks"`
	TextHashes []string          `json:"text_hashes"`
	Meta       map[string]string `json:"meta,omitempty"`
}

type dumpEnd struct {
	Documents int `json:"documents"`
	Chunks    int `json:"chunks"`
}

// DumpStats counts what a dump or restore moved.
type DumpStats struct {
	Documents int                 `json:"documents"`
	Chunks    int                 `json:"chunks"`
	Settings  fonte.IndexSettings `json:"settings"`
}

func writeSection(w io.Writer, kind byte, payload []byte) error {
	var head [5]byte
	head[0] = kind
	binary.LittleEndian.PutUint32(head[1:], uint32(len(payload)))
	sum := crc32.Update(crc32.Checksum(head[:], castagnoli), castagnoli, payload)
	var tail [4]byte
	binary.LittleEndian.PutUint32(tail[:], sum)
	for _, b := range [][]byte{head[:], payload, tail[:]} {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func writeJSONSection(w io.Writer, kind byte, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return writeSection(w, kind, b)
}

// Dump writes the store's index to w (see the format above), one
// document at a time. The header names source, its credentials masked.
func Dump(ctx context.Context, st fonte.Store, source string, w io.Writer) (DumpStats, error) {
	var stats DumpStats
	source = redact.Secrets(source) // the file outlives the password
	cfg, err := st.Settings(ctx)
	if err != nil {
		return stats, err
	}
	if cfg.IsZero() {
		return stats, fmt.Errorf("%w in %s: nothing to dump", ErrNoIndex, source)
	}
	stats.Settings = cfg
	// The embedded store checks its vectors in the background; a dump
	// must not vouch, with checksums of its own, for bytes that failed
	// theirs.
	if v, ok := st.(interface{ Verify() error }); ok {
		if err := v.Verify(); err != nil {
			return stats, err
		}
	}
	infos, err := st.Documents(ctx)
	if err != nil {
		return stats, err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if _, err := bw.WriteString(dumpMagic); err != nil {
		return stats, err
	}
	bw.WriteByte(dumpVersion)
	if err := writeJSONSection(bw, 'H', dumpHeader{Settings: cfg, Created: time.Now().UTC(), Source: source}); err != nil {
		return stats, err
	}
	var vec []byte
	for _, info := range infos {
		if err := ctx.Err(); err != nil {
			return stats, err
		}
		r, err := st.Document(ctx, info.ID)
		if err != nil {
			return stats, err
		}
		if err := writeJSONSection(bw, 'D', dumpDoc{Doc: r.Doc, Chunks: r.Chunks, TextHashes: r.TextHashes, Meta: r.Meta}); err != nil {
			return stats, err
		}
		vec = vec[:0]
		for _, v := range r.Vectors {
			for _, x := range v {
				vec = binary.LittleEndian.AppendUint32(vec, math.Float32bits(x))
			}
		}
		if err := writeSection(bw, 'V', vec); err != nil {
			return stats, err
		}
		stats.Documents++
		stats.Chunks += len(r.Chunks)
	}
	if err := writeJSONSection(bw, 'E', dumpEnd{Documents: stats.Documents, Chunks: stats.Chunks}); err != nil {
		return stats, err
	}
	return stats, bw.Flush()
}

// dumpReader reads a dump's sections, checking each.
type dumpReader struct {
	r    *bufio.Reader
	name string
	buf  []byte
}

func (d *dumpReader) bad(format string, args ...any) error {
	return fmt.Errorf("%s: %w: %s", d.name, ErrBadDump, fmt.Sprintf(format, args...))
}

func (d *dumpReader) section() (byte, []byte, error) {
	var head [5]byte
	if _, err := io.ReadFull(d.r, head[:]); err != nil {
		return 0, nil, d.bad("truncated: the end section is missing (%v)", err)
	}
	n := binary.LittleEndian.Uint32(head[1:])
	if n > maxSection {
		return 0, nil, d.bad("a section of %d bytes", n)
	}
	if cap(d.buf) < int(n)+4 {
		d.buf = make([]byte, int(n)+4)
	}
	b := d.buf[:int(n)+4]
	if _, err := io.ReadFull(d.r, b); err != nil {
		return 0, nil, d.bad("truncated inside a section (%v)", err)
	}
	sum := crc32.Update(crc32.Checksum(head[:], castagnoli), castagnoli, b[:n])
	if got := binary.LittleEndian.Uint32(b[n:]); got != sum {
		return 0, nil, d.bad("a %q section fails its checksum", head[0])
	}
	return head[0], b[:n], nil
}

// Restore loads a dump into the store at location, in one commit: the
// store then answers exactly as the one dumped. A store that already
// holds an index is refused unless replace is set (its index is then
// replaced whole, atomically). Stores whose lexical leg runs in the
// database get each chunk's terms from fonte's analysis, as an index run
// would. A folder that did not exist is removed again when the restore
// fails, so that a damaged dump leaves no empty index behind (whose
// settings a later index run would take).
func Restore(ctx context.Context, r io.Reader, name, location string, replace bool) (stats DumpStats, err error) {
	d := &dumpReader{r: bufio.NewReaderSize(r, 1<<20), name: name}
	magic := make([]byte, len(dumpMagic)+1)
	if _, err := io.ReadFull(d.r, magic); err != nil || string(magic[:len(dumpMagic)]) != dumpMagic {
		return stats, d.bad("it does not start with %q", dumpMagic)
	}
	if v := magic[len(dumpMagic)]; v != dumpVersion {
		return stats, fmt.Errorf("%s: %w: dump format version %d (this fonte reads %d)", name, fonte.ErrStoreVersion, v, dumpVersion)
	}
	kind, b, err := d.section()
	if err != nil {
		return stats, err
	}
	var hdr dumpHeader
	if kind != 'H' || json.Unmarshal(b, &hdr) != nil {
		return stats, d.bad("the header section is missing or unreadable")
	}
	if err := hdr.Settings.Validate(); err != nil {
		return stats, d.bad("%v", err)
	}
	an := retrieve.DefaultAnalyzers()
	cfg := hdr.Settings
	if !IsFolder(location) {
		// The database indexes terms made now, by this fonte's analysis.
		cfg.Analyzer = an.Name()
	}
	stats.Settings = cfg
	if IsFolder(location) {
		if _, serr := os.Stat(location); errors.Is(serr, fs.ErrNotExist) {
			// Registered before the store's Close, so run after it.
			defer func() {
				if err != nil {
					os.RemoveAll(location)
				}
			}()
		}
	}
	st, err := OpenStore(ctx, location, fonte.StoreOptions{Settings: cfg, Rebuild: replace}, StoreTuning{Analyzers: an})
	if err != nil {
		return stats, err
	}
	defer st.Close()
	if !replace {
		if docs, err := st.Documents(ctx); err != nil && !errors.Is(err, fonte.ErrSettingsMismatch) {
			return stats, err
		} else if len(docs) > 0 {
			return stats, fmt.Errorf("%s already holds %d documents: restore into an empty store, or replace its index with --replace", redact.Secrets(location), len(docs))
		}
	}
	_, local := st.(*disk.Store)
	err = st.Update(ctx, func(tx fonte.StoreTx) error {
		stats.Documents, stats.Chunks = 0, 0
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			kind, b, err := d.section()
			if err != nil {
				return err
			}
			switch kind {
			case 'E':
				var end dumpEnd
				if json.Unmarshal(b, &end) != nil || end.Documents != stats.Documents || end.Chunks != stats.Chunks {
					return d.bad("the end section counts %s, but %d documents and %d chunks were read", b, stats.Documents, stats.Chunks)
				}
				if _, err := d.r.ReadByte(); err != io.EOF {
					return d.bad("bytes follow the end section")
				}
				return nil
			case 'D':
			default:
				return d.bad("unexpected section %q", kind)
			}
			var doc dumpDoc
			if err := json.Unmarshal(b, &doc); err != nil {
				return d.bad("document %d: %v", stats.Documents+1, err)
			}
			kind, b, err = d.section()
			if err != nil {
				return err
			}
			if kind != 'V' || len(b) != 4*cfg.Dim*len(doc.Chunks) {
				return d.bad("document %q: %d bytes of vectors for %d chunks of dimension %d", doc.Doc.ID, len(b), len(doc.Chunks), cfg.Dim)
			}
			rec := fonte.Record{Doc: doc.Doc, Chunks: doc.Chunks, TextHashes: doc.TextHashes, Meta: doc.Meta,
				Vectors: make([][]float32, len(doc.Chunks))}
			for i := range rec.Vectors {
				v := make([]float32, cfg.Dim)
				for j := range v {
					v[j] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*(i*cfg.Dim+j):]))
				}
				rec.Vectors[i] = v
			}
			if !local {
				rec.Terms = make([][]string, len(doc.Chunks))
				for i, c := range doc.Chunks {
					rec.Terms[i] = an.Terms(c, doc.Doc.Language)
				}
			}
			if err := tx.Put(ctx, rec); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			stats.Documents++
			stats.Chunks += len(doc.Chunks)
		}
	})
	return stats, err
}

// Copy moves the index at from into the store at to in one stream, as a
// Dump piped into a Restore.
func Copy(ctx context.Context, from, to string, replace bool) (DumpStats, error) {
	src, err := OpenStore(ctx, from, fonte.StoreOptions{ReadOnly: true}, StoreTuning{Analyzers: retrieve.DefaultAnalyzers()})
	if err != nil {
		return DumpStats{}, err
	}
	defer src.Close()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := Dump(ctx, src, redact.Secrets(from), pw)
		pw.CloseWithError(err)
		done <- err
	}()
	stats, err := Restore(ctx, pr, redact.Secrets(from), to, replace)
	pr.CloseWithError(errors.New("restore stopped"))
	if derr := <-done; derr != nil && err == nil {
		err = derr
	}
	return stats, err
}
