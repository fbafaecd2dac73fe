package main

import (
	"io"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPStdio runs `fonte mcp` in process on pipes, as an MCP client runs
// it on a subprocess's stdin and stdout, and ends it by closing stdin.
func TestMCPStdio(t *testing.T) {
	_, idx := sharedIndex(t)
	o := newOptions()
	cmd := newMCP(o)
	cmd.SetArgs([]string{"--index", idx})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr strings.Builder
	cmd.SetIn(inR)
	cmd.SetOut(outW)
	cmd.SetErr(&stderr)
	done := make(chan error, 1)
	go func() {
		err := cmd.ExecuteContext(t.Context())
		outW.Close()
		done <- err
	}()

	client := sdk.NewClient(&sdk.Implementation{Name: "fonte-test", Version: "0"}, nil)
	cs, err := client.Connect(t.Context(), &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 3 {
		t.Errorf("%d tools, want 3", len(tools.Tools))
	}
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "ask",
		Arguments: map[string]any{"question": "How many vacation days do I get in a year if I work full time?"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "people/leave.md") {
		t.Errorf("ask: %+v", res.Content)
	}
	cs.Close() // closes fonte's stdin: the server ends cleanly
	if err := <-done; err != nil {
		t.Fatalf("fonte mcp: %v (stderr %s)", err, stderr.String())
	}
}
