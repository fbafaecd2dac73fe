package server

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/retrieve"
)

// Limits of POST /v1/eval: its body carries a whole question set, so it
// may be larger than other JSON bodies.
const (
	MaxEvalBodyBytes = 16 << 20
	MaxEvalQuestions = 5000
)

// EvalFile is one question file the server offers (GET /v1/eval/files).
type EvalFile struct {
	Name      string `json:"name"`
	Questions int    `json:"questions"`
	Bytes     int64  `json:"bytes"`
	// Error says why the file cannot be used, when it does not read as
	// a question set.
	Error string `json:"error,omitempty"`
}

// EvalFilesResponse is what GET /v1/eval/files returns.
type EvalFilesResponse struct {
	Files []EvalFile `json:"files"`
}

// EvalRequest is the body of POST /v1/eval: exactly one of Questions (a
// question set as JSONL text) and File (the name of one of the server's
// question files).
type EvalRequest struct {
	Questions *string `json:"questions"`
	File      string  `json:"file"`
	// Split is the part of a set split into dev and test to evaluate:
	// "dev", "test" or "none" (the questions that name no split). Empty,
	// the first part the set has in the order dev, test, none: figures of
	// two splits are never mixed, and a floor or a retriever is chosen on
	// dev.
	Split      string   `json:"split"`
	Retrievers []string `json:"retrievers"`
	K          *int     `json:"k"`
	Depth      *int     `json:"depth"`
	Target     *float64 `json:"target"`
	Generation *bool    `json:"generation"`
}

// EvalRetriever is one retriever's report, as `fonte eval --json` prints
// it, with its recall curve (recall@1..depth).
type EvalRetriever struct {
	eval.Report
	Recall []float64 `json:"recall"`
}

// EvalFloor is the score-floor trade-off of the first retriever.
type EvalFloor struct {
	InUse     float64  `json:"in_use"`
	Suggested *float64 `json:"suggested"` // null when no floor meets the target, and on the test split
	// HeldOut is set on the test split, which suggests no floor: floors
	// are chosen on dev (see eval.Abstain.HoldOut).
	HeldOut      bool              `json:"held_out"`
	Answerable   int               `json:"answerable"`
	Unanswerable int               `json:"unanswerable"`
	Rows         []eval.CurvePoint `json:"rows"`
}

// EvalPlots are the evaluation's charts, as SVG documents.
type EvalPlots struct {
	Floor  string `json:"floor"` // "" when there is no floor trade-off
	Recall string `json:"recall"`
}

// EvalResponse is what POST /v1/eval returns. Floor, Plots.Floor and
// PerQuestion are of the first retriever, named by Retriever.
type EvalResponse struct {
	Collection string `json:"collection"`
	// Split is the part of the set evaluated: "dev", "test", or "none"
	// for a set whose questions name no split.
	Split       string                   `json:"split"`
	Questions   int                      `json:"questions"`
	Retriever   string                   `json:"retriever"`
	Retrievers  map[string]EvalRetriever `json:"retrievers"`
	Floor       EvalFloor                `json:"floor"`
	Plots       EvalPlots                `json:"plots"`
	PerQuestion []engine.QuestionResult  `json:"per_question"`
}

// handleEvalFiles lists the question files in the server's eval folder:
// the regular *.jsonl files directly in it, never a path outside it.
func (s *Server) handleEvalFiles(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.collection(w, r); !ok {
		return
	}
	out := EvalFilesResponse{Files: []EvalFile{}}
	if s.evalDir == "" {
		writeJSON(w, http.StatusOK, out)
		return
	}
	entries, err := os.ReadDir(s.evalDir)
	if err != nil {
		s.internal(w, r, fmt.Errorf("eval folder: %w", err))
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		f := EvalFile{Name: e.Name()}
		qs, size, err := s.readEvalFile(e.Name())
		f.Questions, f.Bytes = len(qs), size
		if err != nil {
			f.Error = err.Error()
		}
		out.Files = append(out.Files, f)
	}
	writeJSON(w, http.StatusOK, out)
}

// readEvalFile reads a question file of the eval folder by its bare
// name; the folder is opened as an os.Root, so neither a name nor a
// symbolic link can reach outside it.
func (s *Server) readEvalFile(name string) ([]eval.Question, int64, error) {
	root, err := os.OpenRoot(s.evalDir)
	if err != nil {
		return nil, 0, err
	}
	defer root.Close()
	f, err := root.Open(name)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		return nil, st.Size(), errors.New("not a regular file")
	}
	if st.Size() > MaxEvalBodyBytes {
		return nil, st.Size(), fmt.Errorf("over %d bytes", MaxEvalBodyBytes)
	}
	qs, err := eval.ReadQuestions(f, name)
	if err == nil && len(qs) > MaxEvalQuestions {
		err = fmt.Errorf("%d questions, over the %d an evaluation takes", len(qs), MaxEvalQuestions)
	}
	return qs, st.Size(), err
}

// evalRetrievers are compared when a request names none, after the
// collection's own retriever.
var evalRetrievers = []retrieve.Mode{retrieve.Hybrid, retrieve.BM25, retrieve.Dense}

// handleEval evaluates the collection on a question set, as `fonte eval`
// does, with every retriever asked for; the floor trade-off, the plots
// and the per-question outcomes are the first retriever's.
func (s *Server) handleEval(w http.ResponseWriter, r *http.Request) {
	var req EvalRequest
	if p := decodeLimit(w, r, &req, MaxEvalBodyBytes); p != nil {
		writeProblem(w, *p)
		return
	}
	c, ok := s.collection(w, r)
	if !ok {
		return
	}
	qs, p := s.evalQuestions(req)
	if p != nil {
		writeProblem(w, *p)
		return
	}
	part, p := evalPart(qs, req.Split)
	if p != nil {
		writeProblem(w, *p)
		return
	}
	qs = part.Questions
	modes, p := evalModes(req.Retrievers, c.Engine.Settings().Mode, engine.IsFolder(c.Engine.Location()))
	if p != nil {
		writeProblem(w, *p)
		return
	}
	o := engine.EvalOptions{Depth: 100, TargetShare: 0.2, Generation: true}
	if req.K != nil {
		if p := checkK(*req.K, true); p != nil {
			writeProblem(w, *p)
			return
		}
		o.K = *req.K
	}
	if req.Depth != nil {
		if *req.Depth <= 0 || *req.Depth > MaxK {
			writeProblem(w, *fieldProblem("depth", fmt.Sprintf("depth must be between 1 and %d", MaxK)))
			return
		}
		o.Depth = *req.Depth
	}
	if req.Target != nil {
		if !(*req.Target > 0 && *req.Target <= 1) {
			writeProblem(w, *fieldProblem("target", "target is a share of the unanswerable questions: above 0, at most 1"))
			return
		}
		o.TargetShare = *req.Target
	}
	if req.Generation != nil {
		o.Generation = *req.Generation
	}
	out := EvalResponse{Collection: c.Name, Split: part.Name(), Questions: len(qs), Retriever: string(modes[0]), Retrievers: map[string]EvalRetriever{},
		Floor: EvalFloor{Rows: []eval.CurvePoint{}}}
	var series []eval.Series
	for i, m := range modes {
		o.Mode = m
		res, err := c.Engine.EvalQuestions(r.Context(), qs, o)
		if err != nil {
			s.internal(w, r, err)
			return
		}
		if part.Split == eval.SplitTest {
			res.Report.HoldOut(nil)
		}
		out.Retrievers[string(m)] = EvalRetriever{Report: res.Report, Recall: res.Recall}
		series = append(series, eval.Series{Name: string(m), Values: res.Recall})
		if i > 0 {
			continue
		}
		out.PerQuestion = res.Questions
		if a := res.Report.Abstain; a != nil {
			out.Floor = EvalFloor{InUse: a.Floor, Suggested: a.SuggestedFloor, HeldOut: a.HeldOut, Rows: a.Curve}
			out.Floor.Answerable, out.Floor.Unanswerable = a.Totals()
			var svg bytes.Buffer
			if err := eval.FloorSVG(&svg, *a, "Abstain floor trade-off ("+string(m)+")"); err != nil {
				s.internal(w, r, err)
				return
			}
			out.Plots.Floor = svg.String()
		}
	}
	var svg bytes.Buffer
	if err := eval.RecallSVG(&svg, "recall@k", series); err != nil {
		s.internal(w, r, err)
		return
	}
	out.Plots.Recall = svg.String()
	if out.PerQuestion == nil {
		out.PerQuestion = []engine.QuestionResult{}
	}
	writeJSON(w, http.StatusOK, out)
	auditRead(r, c.Name, cmp.Or(req.File, "(questions in the body)"))
}

// evalQuestions reads the request's question set: its questions text or
// one of the server's files. Problems name the field at fault, and for
// a malformed line its number.
func (s *Server) evalQuestions(req EvalRequest) ([]eval.Question, *Problem) {
	if (req.Questions != nil) == (req.File != "") {
		return nil, fieldProblem("questions", "give exactly one of questions (a question set as JSONL text) and file (the name of a question file GET …/eval/files lists)")
	}
	if req.Questions != nil {
		qs, err := eval.ReadQuestions(strings.NewReader(*req.Questions), "questions")
		var le *eval.LineError
		switch {
		case errors.As(err, &le) && le.Field != "":
			return nil, fieldProblem("questions", fmt.Sprintf("line %d: %s: %v", le.Line, le.Field, le.Err))
		case errors.As(err, &le):
			return nil, fieldProblem("questions", fmt.Sprintf("line %d: %v", le.Line, le.Err))
		case err != nil:
			return nil, fieldProblem("questions", "questions has no question: one JSON object per line, as fonte eval --questions reads")
		case len(qs) > MaxEvalQuestions:
			return nil, fieldProblem("questions", fmt.Sprintf("%d questions, over the %d an evaluation takes", len(qs), MaxEvalQuestions))
		}
		return qs, nil
	}
	name := req.File
	if strings.ContainsAny(name, `/\`) || strings.Contains(name, "..") || !strings.HasSuffix(name, ".jsonl") || strings.HasPrefix(name, ".") {
		return nil, fieldProblem("file", "file is the bare name of a .jsonl question file GET …/eval/files lists, without folders")
	}
	if s.evalDir == "" {
		return nil, fieldProblem("file", "this server offers no question files (fonte serve --eval-dir); send the questions instead")
	}
	qs, _, err := s.readEvalFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fieldProblem("file", "there is no question file "+quoteHost(name)+"; GET …/eval/files lists them")
	}
	if err != nil {
		return nil, fieldProblem("file", err.Error())
	}
	return qs, nil
}

// evalPart selects the split of qs that the request names (see
// EvalRequest.Split).
func evalPart(qs []eval.Question, split string) (eval.Part, *Problem) {
	which := split
	switch split {
	case "":
		which = eval.SplitAll
	case eval.SplitDev, eval.SplitTest, eval.SplitNone:
	default:
		return eval.Part{}, fieldProblem("split", fmt.Sprintf("split %q: want dev, test or none", split))
	}
	parts, err := eval.Parts(qs, which)
	if err != nil {
		return eval.Part{}, fieldProblem("split", fmt.Sprintf("the question set has no question in split %s", split))
	}
	return parts[0], nil
}

// evalModes parses the retrievers asked for (none: the collection's own,
// whose floor is the one in use, then the others of hybrid, bm25 and
// vector). The tfidf baseline is computed in memory over the embedded
// store's index, so databases do not have it.
func evalModes(names []string, own retrieve.Mode, folder bool) ([]retrieve.Mode, *Problem) {
	if len(names) == 0 {
		modes := []retrieve.Mode{own}
		for _, m := range evalRetrievers {
			if m != own {
				modes = append(modes, m)
			}
		}
		return modes, nil
	}
	var modes []retrieve.Mode
	for _, n := range names {
		m, err := retrieve.ParseMode(n)
		if err != nil || n == "" {
			return nil, fieldProblem("retrievers", fmt.Sprintf("retriever %q: want auto, hybrid, bm25, tfidf or vector", n))
		}
		if m == "" {
			m = own // auto: the collection's own, so naming it twice is caught
		}
		if m == retrieve.TFIDF && !folder {
			return nil, fieldProblem("retrievers", "the tfidf baseline runs on the embedded store only; this collection's store is a database")
		}
		if slices.Contains(modes, m) {
			return nil, fieldProblem("retrievers", fmt.Sprintf("retriever %q is named twice", n))
		}
		modes = append(modes, m)
	}
	return modes, nil
}
