package parse

import "fmt"

// Reason classifies why a file was refused.
type Reason string

// The reasons a file is refused.
const (
	ReasonUnsupported Reason = "unsupported" // no parser for the extension
	ReasonUnreadable  Reason = "unreadable"  // the parser failed (broken PDF, read error)
	ReasonTooLarge    Reason = "too-large"   // over WalkOptions.MaxSize
	ReasonEmpty       Reason = "empty"       // no letters or digits after extraction
	ReasonBinary      Reason = "binary"      // raw bytes are not text
	ReasonGarbled     Reason = "garbled"     // text extracted but unusable
	ReasonImageOnly   Reason = "image only"  // pages are images without a text layer: they need OCR
	ReasonAccess      Reason = "access"      // the access labels cannot be read (Refusal.Field names where)
)

// Refusal is the error returned for a file that must not be indexed. Detail
// says why in words and numbers a person can act on.
type Refusal struct {
	Path   string
	Reason Reason
	Detail string
	Field  string // the field at fault ("access", "front matter"), if one is
	Err    error  // underlying error, if any
}

// Error implements error; it always names the file.
func (r *Refusal) Error() string {
	msg := fmt.Sprintf("ingest: refused %s: %s", r.Path, r.Reason)
	if r.Detail != "" {
		msg += ": " + r.Detail
	}
	if r.Err != nil {
		msg += ": " + r.Err.Error()
	}
	return msg
}

// Unwrap returns the underlying error.
func (r *Refusal) Unwrap() error { return r.Err }

// ReasonEncrypted refuses an office document that needs a password: an
// encrypted OOXML file (a compound file holding an EncryptedPackage) or an
// OpenDocument package whose manifest lists encryption data.
const ReasonEncrypted Reason = "encrypted"
