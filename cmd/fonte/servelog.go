package main

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/fonte-rag/fonte/internal/redact"
)

// newServeLogger is serve's log on w: text (key=value) or JSON lines,
// from level up, with secrets in URLs masked. A bad format or level is
// the caller's mistake.
func newServeLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	levels := map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError}
	lv, ok := levels[level]
	if !ok {
		return nil, usageError{fmt.Errorf("--log-level %q: want debug, info, warn or error", level)}
	}
	opts := &slog.HandlerOptions{Level: lv}
	var h slog.Handler
	switch format {
	case "text":
		h = slog.NewTextHandler(w, opts)
	case "json":
		h = slog.NewJSONHandler(w, opts)
	default:
		return nil, usageError{fmt.Errorf("--log-format %q: want text or json", format)}
	}
	return slog.New(redact.Handler(h)), nil
}
