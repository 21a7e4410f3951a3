package actorlog

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

func TestRecordsReachZerologWithTheirAttributes(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(&handler{logger: zerolog.New(&buf).Level(zerolog.InfoLevel)}).With("lib", "Proto.Actor").WithGroup("g")
	logger.Info("started", "pid", "p1")
	logger.Debug("hidden")
	out := buf.String()
	for _, want := range []string{`"message":"started"`, `"lib":"Proto.Actor"`, `"g.pid":"p1"`, `"level":"info"`} {
		if !strings.Contains(out, want) {
			t.Errorf("log %q lacks %s", out, want)
		}
	}
	if strings.Contains(out, "hidden") {
		t.Errorf("debug record passed an info logger: %q", out)
	}
}

func TestNopLoggerIsSilent(t *testing.T) {
	h := &handler{logger: zerolog.Nop()}
	if h.Enabled(context.Background(), slog.LevelError) {
		t.Error("a disabled zerolog logger enables records")
	}
	system := NewSystem(zerolog.Nop())
	system.Shutdown()
}
