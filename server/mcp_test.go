package server_test

import (
	"net/http"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds a token to every request of an HTTP client.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// TestMCPBehindTokens: the MCP tools are served at /mcp behind the same
// tokens as the rest of the API, and the SDK's own client uses them
// through it; a browser Origin that is not allowed is refused.
func TestMCPBehindTokens(t *testing.T) {
	ts := start(t, config{})
	client, cs := connectMCP(t, ts, readToken)
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range tools.Tools {
		names[tool.Name] = true
		// The default collection runs the built-in embedder, so BM25 alone.
		if tool.Name == "search" && (!strings.Contains(tool.Description, "BM25 keyword retrieval") || strings.Contains(tool.Description, "vector")) {
			t.Errorf("search through /mcp describes another retriever than the collection's BM25: %q", tool.Description)
		}
	}
	if len(names) != 3 || !names["search"] || !names["ask"] || !names["get_document"] {
		t.Fatalf("tools through /mcp: %v", names)
	}
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "search", Arguments: map[string]any{"query": "hotel limit in London", "k": 3}})
	if err != nil || res.IsError || len(res.Content) == 0 {
		t.Fatalf("search through /mcp: %+v %v", res, err)
	}
	// Without a token the SDK's client cannot even connect.
	if _, err := client.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: ts.url + "/mcp"}, nil); err == nil {
		t.Fatal("connected to /mcp without a token")
	}
	status, raw, _ := ts.call(t, "POST", "/mcp", readToken, `{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}`,
		"Accept", "application/json, text/event-stream", "Origin", "https://evil.example")
	if status != http.StatusForbidden {
		t.Fatalf("a foreign Origin: %d %s", status, raw)
	}
}

// TestMCPUnknownCollectionNamesTheOthers: an agent that names a
// collection the server does not have is told which it may use, since
// no tool lists them.
func TestMCPUnknownCollectionNamesTheOthers(t *testing.T) {
	ts := start(t, config{})
	_, cs := connectMCP(t, ts, readToken)
	for tool, args := range map[string]map[string]any{
		"search": {"query": "hotel", "collection": "handbok"},
		"ask":    {"question": "hotel", "collection": "handbok"},
	} {
		res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: tool, Arguments: args})
		if err != nil || !res.IsError || len(res.Content) == 0 {
			t.Fatalf("%s on a collection that does not exist: %+v %v; want a tool error", tool, res, err)
		}
		text := res.Content[0].(*sdk.TextContent).Text
		if !strings.Contains(text, `"handbok"`) || !strings.Contains(text, `"default"`) {
			t.Errorf("%s on a collection that does not exist says %q; want it to name it and the collections this token may use", tool, text)
		}
	}
}

// connectMCP connects the SDK's client to ts's /mcp with token; the
// session closes with the test.
func connectMCP(t *testing.T, ts *testServer, token string) (*sdk.Client, *sdk.ClientSession) {
	t.Helper()
	client := sdk.NewClient(&sdk.Implementation{Name: "fonte-server-test", Version: "0"}, nil)
	cs, err := client.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: ts.url + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return client, cs
}
