package hotreload

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/ask"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/messages"
)

// A panic inside the config actor in the middle of a reload (the settings
// file's layer has taken the new reading, nothing is published yet)
// restarts the actor from the last good configuration: the configuration
// and its subscribers survive, the actor keeps serving, and the dropped
// change is applied in full by the next reading of the file, even though
// that reading finds the same bytes the failed one had read.
func TestConfigActorRestartsFromTheLastGoodConfiguration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	testkit.ReplaceFile(t, path, []byte(`{"permissions": {"deny": ["mcp__a"]}}`))
	svc, err := Start(context.Background(), testkit.ActorSystem(t), Options{SettingsPath: path, Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	events, cancel := svc.Subscribe()
	defer cancel()
	good := nextEvent(t, events)

	var broken atomic.Bool
	broken.Store(true)
	crashed := make(chan struct{}, 100)
	setHook(t, func(point string) {
		if point == hookReloading && broken.Load() {
			crashed <- struct{}{}
			panic("settings parser on fire")
		}
	})
	edited := []byte(`{"permissions": {"deny": ["mcp__b"]}}`)
	testkit.ReplaceFile(t, path, edited)
	select {
	case <-crashed:
	case <-time.After(guardWait):
		t.Fatal("the edit was never reloaded")
	}

	// The restarted actor serves: a new subscriber hears the last good
	// configuration, which is still the handle's.
	later, cancelLater := svc.Subscribe()
	defer cancelLater()
	if ev := nextEvent(t, later); ev.Seq != good.Seq || !slices.Equal(ev.Config.Deny, []string{"mcp__a"}) {
		t.Errorf("after the crash the config actor tells %+v, want the last good configuration %+v", ev, good)
	}
	if cfg := svc.Current(); !slices.Equal(cfg.Deny, []string{"mcp__a"}) {
		t.Errorf("Current = %+v after the crash, want the last good configuration", cfg)
	}

	// The same bytes saved again are applied: the failed reading was
	// dropped with the crash, not kept as "already seen".
	broken.Store(false)
	testkit.ReplaceFile(t, path, edited)
	for {
		ev := nextEvent(t, events)
		if ev.Err != nil {
			t.Fatalf("reload failed: %v", ev.Err)
		}
		if slices.Equal(ev.Config.Deny, []string{"mcp__b"}) {
			break
		}
	}
	if cfg := svc.Current(); !slices.Equal(cfg.Deny, []string{"mcp__b"}) {
		t.Errorf("Current = %+v, want the edit applied", cfg)
	}
	if err := svc.AllowAlways(context.Background(), "mcp__c"); err != nil || !slices.Contains(svc.Current().Allow, "mcp__c") {
		t.Errorf("AllowAlways after the restart: %v, %+v", err, svc.Current())
	}
}

// A save that panics halfway fails that save with an error naming the
// crash, and leaves the session's configuration as it was.
func TestConfigActorCrashFailsTheSaveAndKeepsTheSessionsAnswers(t *testing.T) {
	svc := StartSession(testkit.ActorSystem(t), zerolog.Nop())
	defer svc.Close()
	if err := svc.AllowAlways(context.Background(), "mcp__a"); err != nil {
		t.Fatal(err)
	}
	before := svc.Last()
	setHook(t, func(point string) {
		if point == hookSessionRule {
			panic("memory on fire")
		}
	})
	err := svc.AllowAlways(context.Background(), "mcp__b")
	if crash := new(ask.CrashError); !errors.As(err, &crash) {
		t.Fatalf("AllowAlways = %v, want the crash", err)
	}
	writeHook = nil
	if after := svc.Last(); after.Seq != before.Seq || !slices.Equal(after.Config.Allow, []string{"mcp__a"}) {
		t.Errorf("after the crash: %+v, want %+v", after, before)
	}
	if err := svc.AllowAlways(context.Background(), "mcp__c"); err != nil {
		t.Fatal(err)
	}
	if allow := svc.Current().Allow; !slices.Equal(allow, []string{"mcp__a", "mcp__c"}) {
		t.Errorf("allow = %v, want the answers before the crash and after it, not the crashed one", allow)
	}
}

// guardWait bounds a wait for an event; reaching it is a failure.
const guardWait = 10 * time.Second

func nextEvent(t *testing.T, events <-chan messages.ConfigChanged) messages.ConfigChanged {
	t.Helper()
	select {
	case ev := <-events:
		return ev
	case <-time.After(guardWait):
		t.Fatal("no configuration event arrived")
		return messages.ConfigChanged{}
	}
}
