package pool

import (
	"context"
	"log/slog"

	"github.com/rs/zerolog"
)

// zerologHandler routes the SDK's slog output (for example why it dropped a
// tool from a tools/list reply) into the pool's zerolog logger.
type zerologHandler struct {
	log   zerolog.Logger
	attrs []slog.Attr
	group string
}

func (h zerologHandler) Enabled(_ context.Context, level slog.Level) bool {
	return h.log.GetLevel() <= zerologLevel(level)
}

func (h zerologHandler) Handle(_ context.Context, r slog.Record) error {
	ev := h.log.WithLevel(zerologLevel(r.Level))
	add := func(a slog.Attr) bool {
		key := a.Key
		if h.group != "" {
			key = h.group + "." + key
		}
		switch v := a.Value.Resolve().Any().(type) {
		case error:
			ev = ev.AnErr(key, v)
		default:
			ev = ev.Any(key, v)
		}
		return true
	}
	for _, a := range h.attrs {
		add(a)
	}
	r.Attrs(add)
	ev.Str("source", "mcp-sdk").Msg(r.Message)
	return nil
}

func (h zerologHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	h.attrs = append(append([]slog.Attr(nil), h.attrs...), attrs...)
	return h
}

func (h zerologHandler) WithGroup(name string) slog.Handler {
	if h.group != "" {
		name = h.group + "." + name
	}
	h.group = name
	return h
}

func zerologLevel(l slog.Level) zerolog.Level {
	switch {
	case l >= slog.LevelError:
		return zerolog.ErrorLevel
	case l >= slog.LevelWarn:
		return zerolog.WarnLevel
	case l >= slog.LevelInfo:
		return zerolog.InfoLevel
	default:
		return zerolog.DebugLevel
	}
}
