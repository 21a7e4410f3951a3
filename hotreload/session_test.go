package hotreload_test

import (
	"context"
	"slices"
	"testing"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/hotreload"
	"github.com/mcpexec/mcpexec/messages"
)

// Without a settings file the config actor holds the defaults, and an
// "allow always" answer lasts for the session: it is in Current when
// AllowAlways returns, and subscribers hear of it.
// Proves PERM-1.
func TestPERM1_SessionWithoutASettingsFileKeepsAllowAlways(t *testing.T) {
	svc := hotreload.StartSession(newSystem(t), zerolog.Nop())
	t.Cleanup(func() { _ = svc.Close() })
	if cfg := svc.Current(); !cfg.EnableExec || len(cfg.Allow) != 0 {
		t.Fatalf("start: %+v, want the defaults", cfg)
	}
	events, cancel := svc.Subscribe()
	defer cancel()
	<-events
	if err := svc.AllowAlways(context.Background(), "mcp__a__b"); err != nil {
		t.Fatal(err)
	}
	if err := svc.AllowAlways(context.Background(), "mcp__a__b"); err != nil {
		t.Fatal(err)
	}
	if cfg := svc.Current(); !slices.Equal(cfg.Allow, []string{"mcp__a__b"}) {
		t.Fatalf("after allow always: %+v", cfg)
	}
	if ev := <-events; ev.Source != messages.SourceAllowRule || !slices.Contains(ev.Config.Allow, "mcp__a__b") {
		t.Fatalf("event %+v", ev)
	}
}
