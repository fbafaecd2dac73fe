package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/ingest"
)

// MaxUploadBytes bounds the body of one upload request (all its files).
const MaxUploadBytes = 256 << 20

// UploadResponse is what POST /v1/documents returns: what was indexed,
// what was refused and why, and the commit.
type UploadResponse struct {
	Collection string           `json:"collection"`
	Indexed    []string         `json:"indexed"`
	Unchanged  int              `json:"unchanged"`
	Refused    []engine.Refused `json:"refused"`
	Chunks     int              `json:"chunks"`
	Generation uint64           `json:"generation"`
}

// handleUpload indexes the files of a multipart/form-data body (every
// part with a file name, under any field name) in one atomic commit.
// Uploading to a collection that does not exist yet creates it with the
// server's settings.
func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		writeProblem(w, newProblem(http.StatusUnsupportedMediaType, "multipart-required",
			"send the files as multipart/form-data (curl -F file=@handbook.md)", "Content-Type"))
		return
	}
	release, ok := s.uploads.acquire(r.Context(), collectionName(r))
	if !ok {
		if r.Context().Err() == nil {
			writeProblem(w, uploadsBusy(w, collectionName(r), s.uploads.slots))
		}
		return
	}
	defer release()
	r.Body = http.MaxBytesReader(w, r.Body, MaxUploadBytes)
	mr := multipart.NewReader(r.Body, params["boundary"])
	var files []engine.Upload
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			writeProblem(w, uploadProblem(err))
			return
		}
		name := uploadName(part)
		if name == "" {
			part.Close()
			continue // a plain form field
		}
		data, err := io.ReadAll(part)
		part.Close()
		if err != nil {
			writeProblem(w, uploadProblem(err))
			return
		}
		files = append(files, engine.Upload{ID: name, Data: data})
	}
	if len(files) == 0 {
		writeProblem(w, *fieldProblem("file", "the body holds no file; send each as a form part with a file name"))
		return
	}
	c, ok := s.openCollection(w, r, true)
	if !ok {
		return
	}
	done := s.beginWrite(c)
	rep, err := c.Engine.Add(r.Context(), files, nil)
	done()
	var labelErr *engine.LabelError
	var over *ingest.LimitError
	switch {
	case errors.As(err, &labelErr):
		writeProblem(w, newProblem(http.StatusUnprocessableEntity, "access-labels", labelErr.Error()+"; nothing was indexed", "file"))
		return
	case errors.As(err, &over):
		writeProblem(w, overLimit(over, "the upload (all its files together)", "send the files in several uploads"))
		return
	case err != nil && r.Context().Err() != nil:
		// The client went away: the work stopped and nothing was
		// committed; there is nobody to answer.
		s.log.Info("upload canceled: the client went away; nothing was indexed", "route", r.Pattern, "collection", c.Name)
		return
	case err != nil:
		s.internal(w, r, err)
		return
	}
	resp := UploadResponse{Collection: c.Name, Indexed: rep.Indexed, Unchanged: rep.Unchanged, Refused: rep.Refused,
		Chunks: rep.Chunks, Generation: rep.Generation}
	if resp.Indexed == nil {
		resp.Indexed = []string{}
	}
	if resp.Refused == nil {
		resp.Refused = []engine.Refused{}
	}
	if len(resp.Indexed) == 0 && resp.Unchanged == 0 {
		// Every file refused: an error, so a problem like every other,
		// still carrying the report so the caller sees each file's reason.
		p := UploadProblem{newProblem(http.StatusUnprocessableEntity, "files-refused", refusedDetail(resp.Refused), "file"), resp}
		writeProblemBody(w, p.Status, p)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// UploadProblem is the 422 problem of an upload whose every file was
// refused: the RFC 9457 members, then the upload's report as extension
// members (refused lists each file and why; generation is the
// collection's, unchanged by the upload).
type UploadProblem struct {
	Problem
	UploadResponse
}

// refusedDetail names the refused files and their reasons, the first few
// of them; the refused member lists them all.
func refusedDetail(refused []engine.Refused) string {
	const shown = 3
	parts := make([]string, 0, shown)
	for _, r := range refused[:min(len(refused), shown)] {
		parts = append(parts, fmt.Sprintf("%s (%s)", r.Path, r.Reason))
	}
	more := ""
	if len(refused) > shown {
		more = fmt.Sprintf(" and %d more (see refused)", len(refused)-shown)
	}
	return fmt.Sprintf("every file of the upload was refused, nothing was indexed: %s%s", strings.Join(parts, "; "), more)
}

// uploadName is a part's file name as the client sent it, folders
// included (a folder picked in a browser sends "hr/leave.md"); the engine
// refuses names that climb out or hide. Part.FileName would keep the base
// name only, so two files of the same name in different folders would
// collide.
func uploadName(part *multipart.Part) string {
	_, params, err := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
	if err != nil {
		return part.FileName()
	}
	return params["filename"]
}

// overLimit is the problem of a run (an upload, a re-index) over one of
// the server's per-run limits: 413 for expanded bytes (the body grew past
// what it may), 422 for pages and chunks.
func overLimit(e *ingest.LimitError, run, remedy string) Problem {
	status := http.StatusUnprocessableEntity
	if e.Limit == ingest.LimitExpandedBytes {
		status = http.StatusRequestEntityTooLarge
	}
	return newProblem(status, "over-limit", fmt.Sprintf(
		"%s is over the server's limit of %s (%s %d), reached at %s; nothing of it was indexed: %s",
		run, e.Amount(), e.Limit, e.Max, e.Path, remedy), "")
}

// uploadsBusy is the problem of an upload that found every upload slot
// of its collection taken for uploadWait.
func uploadsBusy(w http.ResponseWriter, name string, slots int) Problem {
	w.Header().Set("Retry-After", strconv.Itoa(uploadRetryAfter))
	return newProblem(http.StatusServiceUnavailable, "uploads-busy", fmt.Sprintf(
		"collection %q is taking %d uploads already (the server's max-uploads); retry in %d seconds", name, slots, uploadRetryAfter), "")
}

func uploadProblem(err error) Problem {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return newProblem(http.StatusRequestEntityTooLarge, "body-too-large", fmt.Sprintf("the upload is over %d bytes", tooBig.Limit), "body")
	}
	if bodyTimedOut(err) {
		return timeoutProblem()
	}
	return newProblem(http.StatusBadRequest, "malformed-multipart", "the multipart body is malformed: "+err.Error(), "body")
}

// IndexProgress is the data of an `event: progress` of POST /v1/index.
type IndexProgress struct {
	Files          int    `json:"files"`
	Total          int    `json:"total"`
	ChunksEmbedded int    `json:"chunks_embedded"`
	Path           string `json:"path"`
}

// IndexResponse is the result of POST /v1/index (the body, or the data
// of its `event: done`).
type IndexResponse struct {
	Collection string           `json:"collection"`
	Indexed    []string         `json:"indexed"`
	Removed    []string         `json:"removed"`
	Unchanged  int              `json:"unchanged"`
	Refused    []engine.Refused `json:"refused"`
	Skipped    int              `json:"skipped"`
	Chunks     int              `json:"chunks"`
	Generation uint64           `json:"generation"`
	Seconds    float64          `json:"seconds"`
}

// handleIndex re-indexes the collection's configured folder. With
// Accept: text/event-stream it streams `event: progress` (at most every
// 100 ms) and ends with `event: done` (the result) or `event: error`.
func (s *Server) handleIndex(w http.ResponseWriter, r *http.Request) {
	c, ok := s.collection(w, r)
	if !ok {
		return
	}
	if c.Config.Folder == "" {
		writeProblem(w, newProblem(http.StatusConflict, "no-folder",
			fmt.Sprintf("collection %q has no documents folder to re-index; configure one (folder: in fonte.yaml, --docs for the default) or upload files", c.Name), ""))
		return
	}
	stream := strings.Contains(r.Header.Get("Accept"), "text/event-stream")
	var ev *sse
	var progress func(engine.Progress)
	if stream {
		ev = &sse{w: w, rc: http.NewResponseController(w)}
		if err := ev.begin(); err != nil {
			return
		}
		var last time.Time
		progress = func(p engine.Progress) {
			if now := time.Now(); now.Sub(last) >= 100*time.Millisecond || p.Files == p.Total {
				last = now
				_ = ev.send("progress", IndexProgress{Files: p.Files, Total: p.Total, ChunksEmbedded: p.ChunksEmbedded, Path: p.Path})
			}
		}
	}
	done := s.beginWrite(c)
	rep, err := c.Engine.Index(r.Context(), c.Config.Folder, progress)
	done()
	var ruleErr *engine.AccessRuleError
	if errors.As(err, &ruleErr) {
		err := newProblem(http.StatusUnprocessableEntity, "access-rule", ruleErr.Error()+"; nothing was indexed", "access")
		if stream {
			_ = ev.send("error", err)
			return
		}
		writeProblem(w, err)
		return
	}
	var over *ingest.LimitError
	if errors.As(err, &over) {
		p := overLimit(over, "the re-index of the folder", "the previous index is kept; split the folder or raise the limit")
		if stream {
			_ = ev.send("error", p)
			return
		}
		writeProblem(w, p)
		return
	}
	if err != nil {
		if stream {
			s.logFailure(r, err)
			_ = ev.send("error", s.internalProblem(r, err))
			return
		}
		s.internal(w, r, err)
		return
	}
	resp := indexResponse(c.Name, rep)
	if stream {
		_ = ev.send("done", resp)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

func indexResponse(name string, rep *engine.IndexReport) IndexResponse {
	resp := IndexResponse{Collection: name, Indexed: rep.Indexed, Removed: rep.Removed, Unchanged: rep.Unchanged,
		Refused: rep.Refused, Skipped: rep.Skipped, Chunks: rep.Chunks, Generation: rep.Generation, Seconds: rep.Duration.Seconds()}
	if resp.Indexed == nil {
		resp.Indexed = []string{}
	}
	if resp.Removed == nil {
		resp.Removed = []string{}
	}
	if resp.Refused == nil {
		resp.Refused = []engine.Refused{}
	}
	return resp
}

// Reindex re-indexes the folder of collection name, as POST …/index does,
// taking the same writer turn (a folder watcher calls it).
func (s *Server) Reindex(ctx context.Context, name string) (IndexResponse, error) {
	c, err := s.reg.get(ctx, name)
	if err != nil {
		return IndexResponse{}, err
	}
	if c.Config.Folder == "" {
		return IndexResponse{}, fmt.Errorf("collection %q has no documents folder", name)
	}
	done := s.beginWrite(c)
	rep, err := c.Engine.Index(ctx, c.Config.Folder, nil)
	done()
	if err != nil {
		return IndexResponse{}, err
	}
	return indexResponse(c.Name, rep), nil
}

// Location is where collection name's index lives (a folder's path, or
// the store's URL without its secrets), opening the collection.
func (s *Server) Location(ctx context.Context, name string) (string, error) {
	c, err := s.reg.get(ctx, name)
	if err != nil {
		return "", err
	}
	return c.Engine.Location(), nil
}

// Folders maps each collection that has a documents folder to it.
func (s *Server) Folders() map[string]string {
	out := map[string]string{}
	for _, name := range s.reg.names() {
		s.reg.mu.Lock()
		cfg, ok := s.reg.config(name)
		if c := s.reg.open[name]; c != nil {
			cfg, ok = c.Config, true
		}
		s.reg.mu.Unlock()
		if ok && cfg.Folder != "" {
			out[name] = cfg.Folder
		}
	}
	return out
}
