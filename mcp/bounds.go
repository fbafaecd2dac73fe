package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// bound is an integer argument a tool holds to lo..hi, which its input
// schema also states (see schema).
type bound struct {
	name   string
	lo, hi int
}

// bounds are the bounded arguments, by tool name.
var bounds = map[string]bound{
	"search":       {"k", 1, MaxK},
	"get_document": {"window", 0, MaxWindow},
}

// checkBounds refuses a tool call whose bounded argument is out of range
// or not a whole number with a message naming the argument and its range,
// as the HTTP API does; the SDK's own schema check, which would otherwise
// refuse it, says only "maximum: 500/1 is greater than 50.000000".
func checkBounds(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if call, ok := req.(*sdk.CallToolRequest); ok && call.Params != nil {
			if b, ok := bounds[call.Params.Name]; ok {
				if err := b.check(call.Params.Arguments); err != nil {
					var res sdk.CallToolResult
					res.SetError(err)
					return &res, nil
				}
			}
		}
		return next(ctx, method, req)
	}
}

// check reports the bounded argument of args when it is present and not a
// whole number in range; anything else is left to the schema and handler.
func (b bound) check(args json.RawMessage) error {
	var in map[string]json.RawMessage
	if json.Unmarshal(args, &in) != nil {
		return nil
	}
	raw, ok := in[b.name]
	if !ok || string(raw) == "null" {
		return nil
	}
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil || v != math.Trunc(v) || v < float64(b.lo) || v > float64(b.hi) {
		shown := string(raw)
		if len(shown) > 40 {
			shown = shown[:40] + "…" // the client's own value, not a page of it
		}
		return fmt.Errorf("%s is %s: it must be a whole number between %d and %d", b.name, shown, b.lo, b.hi)
	}
	return nil
}
