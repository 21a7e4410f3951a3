package hotreload

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/asynkron/protoactor-go/actor"
)

// Proves PERM-1.
func TestPERM1_ConcurrentAllowAlwaysThroughTheConfigActorLosesNothing(t *testing.T) {
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	defer system.Shutdown()
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, []byte(`{"enableExec": false, "custom": {"keep": true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	svc, err := Start(context.Background(), system, Options{SettingsPath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()

	// A person saves a deny rule while one of the writes is under way.
	var once sync.Once
	setHook(t, func(point string) {
		if point == hookSynced {
			once.Do(func() {
				personSaves(t, path, func(doc map[string]any) {
					perms, _ := doc["permissions"].(map[string]any)
					if perms == nil {
						perms = map[string]any{}
					}
					perms["deny"] = []string{"mcp__person"}
					doc["permissions"] = perms
				})
			})
		}
	})

	const callers = 16
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for i := range callers {
		wg.Go(func() { errs <- svc.AllowAlways(context.Background(), fmt.Sprintf("mcp__s%d__t", i)) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}

	cfg := svc.Current()
	fileAllow, top := readAllow(t, path)
	for i := range callers {
		rule := fmt.Sprintf("mcp__s%d__t", i)
		if !slices.Contains(cfg.Allow, rule) || !slices.Contains(fileAllow, rule) {
			t.Errorf("rule %s lost (config %v, file %v)", rule, cfg.Allow, fileAllow)
		}
	}
	if !slices.Equal(cfg.Deny, []string{"mcp__person"}) || cfg.EnableExec {
		t.Errorf("the person's edit or the switch was lost: %+v", cfg)
	}
	if string(top["custom"]) == "" {
		t.Error("an unknown key was lost")
	}
}

func TestAllowAlwaysReportsAFailureInsideTheConfigActor(t *testing.T) {
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	defer system.Shutdown()
	svc, err := Start(context.Background(), system, Options{SettingsPath: filepath.Join(t.TempDir(), "settings.json")})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	setHook(t, func(point string) {
		if point == hookWritten {
			panic("disk controller on fire")
		}
	})
	if err := svc.AllowAlways(context.Background(), "mcp__a"); err == nil {
		t.Fatal("AllowAlways = nil after the write panicked")
	}
	writeHook = nil
	if err := svc.AllowAlways(context.Background(), "mcp__a"); err != nil || !slices.Contains(svc.Current().Allow, "mcp__a") {
		t.Errorf("the config actor did not recover: %v, %v", err, svc.Current())
	}
}
