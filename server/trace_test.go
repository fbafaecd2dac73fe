package server_test

import (
	"encoding/json"
	"testing"

	"github.com/fonte-rag/fonte/engine"
)

// TestTrace: "trace": true adds the stages and the legs' candidates to a
// search, and the floor, fit, grounding and prompt to an answer; the
// prompt only for admin tokens.
func TestTrace(t *testing.T) {
	ts := start(t, config{gen: streamGen{pieces: leavePieces}})
	status, raw, _ := ts.call(t, "POST", "/v1/search", readToken, map[string]any{"query": "annual leave days", "k": 3, "trace": true})
	var sr struct {
		Hits  []struct{ Chunk string }
		Trace *engine.Trace
	}
	if err := json.Unmarshal(raw, &sr); status != 200 || err != nil || sr.Trace == nil {
		t.Fatalf("search: %d %s", status, raw)
	}
	if len(sr.Trace.Stages) == 0 || len(sr.Trace.Lexical) == 0 || len(sr.Trace.Fused) < len(sr.Hits) || sr.Trace.Fused[0].ChunkID != sr.Hits[0].Chunk {
		t.Fatalf("search trace: %+v", sr.Trace)
	}
	sr.Trace = nil
	if _, raw, _ = ts.call(t, "POST", "/v1/search", readToken, map[string]any{"query": "annual leave days"}); json.Unmarshal(raw, &sr) != nil || sr.Trace != nil {
		t.Fatalf("a trace without asking: %s", raw)
	}
	question := map[string]any{"question": "How many days of annual leave do full-time employees get?", "trace": true}
	for token, wantPrompt := range map[string]bool{readToken: false, adminToken: true} {
		status, raw, _ := ts.call(t, "POST", "/v1/ask", token, question)
		var ar struct {
			Abstained bool
			Trace     *engine.Trace
		}
		if err := json.Unmarshal(raw, &ar); status != 200 || err != nil || ar.Trace == nil || ar.Abstained {
			t.Fatalf("ask: %d %s", status, raw)
		}
		tr := ar.Trace
		if tr.Floor == nil || tr.Fit == nil || len(tr.Fit.Fitted) == 0 || len(tr.Grounding) == 0 {
			t.Fatalf("ask trace lacks floor, fit or grounding: %s", raw)
		}
		if (tr.Prompt != "") != wantPrompt {
			t.Errorf("token %s…: prompt shown %v, want %v", token[:4], tr.Prompt != "", wantPrompt)
		}
	}
}
