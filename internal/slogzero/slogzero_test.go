package slogzero

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

func TestRecordsReachZerologWithTheirAttributes(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(New(zerolog.New(&buf).Level(zerolog.InfoLevel))).With("lib", "Proto.Actor").WithGroup("g")
	logger.Info("started", "pid", "p1", "err", errors.New("boom"))
	logger.Debug("hidden")
	out := buf.String()
	for _, want := range []string{`"message":"started"`, `"lib":"Proto.Actor"`, `"g.pid":"p1"`, `"g.err":"boom"`, `"level":"info"`} {
		if !strings.Contains(out, want) {
			t.Errorf("log %q lacks %s", out, want)
		}
	}
	if strings.Contains(out, "hidden") {
		t.Errorf("a debug record passed an info logger: %q", out)
	}
}

func TestDisabledLoggerIsSilent(t *testing.T) {
	if New(zerolog.Nop()).Enabled(context.Background(), slog.LevelError) {
		t.Error("a disabled zerolog logger enables records")
	}
}
