// Package actorlog routes the actor system's own log records into zerolog,
// so that nothing prints to stderr unless the embedder's logger does.
package actorlog

import (
	"context"
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"
)

// Option configures an actor system to log through logger.
func Option(logger zerolog.Logger) actor.ConfigOption {
	return actor.WithLoggerFactory(func(system *actor.ActorSystem) *slog.Logger {
		return slog.New(&handler{logger: logger.With().Str("actor_system", system.ID).Logger()})
	})
}

// NewSystem starts an actor system that logs through logger.
func NewSystem(logger zerolog.Logger) *actor.ActorSystem {
	return actor.NewActorSystem(Option(logger))
}

// handler is a slog.Handler writing to zerolog.
type handler struct {
	logger zerolog.Logger
	attrs  []slog.Attr
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
