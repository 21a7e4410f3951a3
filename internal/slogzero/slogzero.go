// Package slogzero is a log/slog handler that writes to a zerolog logger.
// The libraries mcpexec builds on (the actor system, the MCP SDK) log
// through slog; routing them here keeps all of mcpexec's output in the one
// zerolog logger the embedder chose, quiet by default.
package slogzero

import (
	"context"
	"log/slog"

	"github.com/rs/zerolog"
)

// New returns a slog.Handler writing to logger.
func New(logger zerolog.Logger) slog.Handler { return &handler{logger: logger} }

type handler struct {
	logger zerolog.Logger
	attrs  []slog.Attr // keys already carry their group
	group  string
}

func (h *handler) Enabled(_ context.Context, level slog.Level) bool {
	return h.logger.GetLevel() <= zerologLevel(level)
}

func (h *handler) Handle(_ context.Context, r slog.Record) error {
	event := h.logger.WithLevel(zerologLevel(r.Level))
	for _, a := range h.attrs {
		event = addAttr(event, "", a)
	}
	r.Attrs(func(a slog.Attr) bool {
		event = addAttr(event, h.group, a)
		return true
	})
	event.Msg(r.Message)
	return nil
}

// WithAttrs keeps attrs with the group in force now, so a later WithGroup
// does not move them.
func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	kept := append([]slog.Attr(nil), h.attrs...)
	for _, a := range attrs {
		if h.group != "" {
			a.Key = h.group + "." + a.Key
		}
		kept = append(kept, a)
	}
	return &handler{logger: h.logger, attrs: kept, group: h.group}
}

func (h *handler) WithGroup(name string) slog.Handler {
	group := name
	if h.group != "" {
		group = h.group + "." + name
	}
	return &handler{logger: h.logger, attrs: h.attrs, group: group}
}

func addAttr(event *zerolog.Event, group string, a slog.Attr) *zerolog.Event {
	key := a.Key
	if group != "" {
		key = group + "." + key
	}
	if err, isError := a.Value.Resolve().Any().(error); isError {
		return event.AnErr(key, err)
	}
	return event.Interface(key, a.Value.Resolve().Any())
}

func zerologLevel(level slog.Level) zerolog.Level {
	switch {
	case level >= slog.LevelError:
		return zerolog.ErrorLevel
	case level >= slog.LevelWarn:
		return zerolog.WarnLevel
	case level >= slog.LevelInfo:
		return zerolog.InfoLevel
	}
	return zerolog.DebugLevel
}
