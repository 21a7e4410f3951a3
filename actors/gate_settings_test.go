package actors_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/hotreload"
	"github.com/mcpexec/mcpexec/permissions"
)

// The gate against the real config actor and a real settings file.
// Proves PERM-1.
func TestPERM1_AllowAlwaysPersistsTheLeafRuleInTheSettingsFile(t *testing.T) {
	system := newSystem(t)
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, []byte(`{"theme": "dark", "permissions": {"deny": ["mcp__stripe"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	svc, err := hotreload.Start(context.Background(), system, hotreload.Options{SettingsPath: path})
	if err != nil {
		t.Fatal(err)
	}
	prompter := newScriptedPrompter()
	g, err := actors.StartGate(system, actors.GateOptions{Store: svc, Prompter: prompter})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		g.Stop()
		_ = svc.Close()
		checkNoLeaks(t)
	})
	events, cancel := svc.Subscribe()
	defer cancel()
	<-events

	const tool = "mcp__github__create_issue"
	done := admitAsync(g, context.Background(), tool)
	prompter.next(t).answer <- permissions.Answer{Kind: permissions.AllowAlways}
	if err := result(t, done); err != nil {
		t.Fatal(err)
	}
	// Wait for the save to reach the file (the gate saves in the background).
	for ev := range events {
		if slices.Contains(ev.Config.Allow, tool) {
			break
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := hotreload.ParseSettings(data)
	if err != nil || !slices.Equal(s.Permissions.Allow, []string{tool}) || !slices.Equal(s.Permissions.Deny, []string{"mcp__stripe"}) {
		t.Fatalf("settings file = %s (%v)", data, err)
	}
	if err := g.Admit(context.Background(), tool, nil); err != nil {
		t.Errorf("Admit after allow-always = %v", err)
	}

	// A deny rule a person adds takes effect for the next call, without
	// restarting anything.
	if err := os.WriteFile(path, []byte(`{"permissions": {"allow": ["mcp__github"], "deny": ["`+tool+`"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for ev := range events {
		if slices.Contains(ev.Config.Deny, tool) {
			break
		}
	}
	var denied *permissions.DeniedError
	if err := g.Admit(context.Background(), tool, nil); !errors.As(err, &denied) {
		t.Errorf("Admit after the person's deny = %v, want a denial", err)
	}
	if n, _ := prompter.stats(); n != 1 {
		t.Errorf("asked %d times, want 1", n)
	}
	if !permissions.Excludes(svc.Current(), tool) {
		t.Error("the denied tool is not excluded from the pool")
	}
}
