package hotreload_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/hotreload"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/messages"
)

// guard bounds every wait; reaching it is a failure, never the expected
// path. Tests wait on events, not on time.
const guard = 10 * time.Second

func newSystem(t *testing.T) *actor.ActorSystem { return newBenchSystem(t) }

// newBenchSystem is an actor system whose own logger is silent.
func newBenchSystem(tb testing.TB) *actor.ActorSystem {
	tb.Helper()
	return testkit.ActorSystem(tb)
}

func start(t *testing.T, opts hotreload.Options) *hotreload.Service {
	t.Helper()
	svc, err := hotreload.Start(context.Background(), newSystem(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := svc.Close(); err != nil {
			t.Error(err)
		}
		checkNoLeaks(t)
	})
	return svc
}

// subscribe returns the subscription and the event describing the state at
// the time of subscribing.
func subscribe(t *testing.T, svc *hotreload.Service) (<-chan messages.ConfigChanged, messages.ConfigChanged) {
	t.Helper()
	events, cancel := svc.Subscribe()
	t.Cleanup(cancel)
	return events, next(t, events)
}

func next(t *testing.T, events <-chan messages.ConfigChanged) messages.ConfigChanged {
	t.Helper()
	select {
	case ev, ok := <-events:
		if !ok {
			t.Fatal("subscription closed")
		}
		return ev
	case <-time.After(guard):
		t.Fatal("no configuration event arrived")
		return messages.ConfigChanged{}
	}
}

// waitFor returns the first event that satisfies cond, and every event
// before it.
func waitFor(t *testing.T, events <-chan messages.ConfigChanged, cond func(messages.ConfigChanged) bool) (messages.ConfigChanged, []messages.ConfigChanged) {
	t.Helper()
	var skipped []messages.ConfigChanged
	for {
		ev := next(t, events)
		if cond(ev) {
			return ev, skipped
		}
		skipped = append(skipped, ev)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The ways editors and tools save a file.

// atomicSave writes a temporary file and renames it over the original.
func atomicSave(t *testing.T, path, content string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), ".~"+filepath.Base(path)+".swp")
	writeFile(t, tmp, content)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// vimSave does what vim does by default: probe the directory with a file
// named 4913, move the original to a backup, write a new file, copy the
// mode, and delete the backup.
func vimSave(t *testing.T, path, content string) {
	t.Helper()
	dir := filepath.Dir(path)
	probe := filepath.Join(dir, "4913")
	writeFile(t, probe, "")
	if err := os.Remove(probe); err != nil {
		t.Fatal(err)
	}
	backup := path + "~"
	if err := os.Rename(path, backup); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(backup); err != nil {
		t.Fatal(err)
	}
}

// inPlaceWrite truncates and rewrites the file itself.
func inPlaceWrite(t *testing.T, path, content string) { t.Helper(); writeFile(t, path, content) }

// checkNoLeaks fails when goroutines of this module or of the watcher
// outlive the test.
func checkNoLeaks(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		var leaked []string
		for _, g := range strings.Split(string(buf), "\n\n") {
			own := strings.Contains(g, "github.com/mcpexec/mcpexec/") || strings.Contains(g, "fsnotify")
			if own && !strings.Contains(g, "testing.tRunner") && !strings.Contains(g, "testing.(*M)") {
				leaked = append(leaked, g)
			}
		}
		if len(leaked) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("goroutines leaked:\n%s", strings.Join(leaked, "\n\n"))
		}
		time.Sleep(time.Millisecond)
	}
}

func settingsPath(t *testing.T) string { return filepath.Join(t.TempDir(), "settings.json") }

// Proves SWITCH-1.
func TestSWITCH1_NoSettingsFileMeansExecEnabled(t *testing.T) {
	svc := start(t, hotreload.Options{SettingsPath: settingsPath(t)})
	if !svc.Current().EnableExec {
		t.Error("EnableExec = false without any settings, want the default true")
	}
}

// Proves SWITCH-2.
func TestSWITCH2_SettingsFileDisablesExecAtStart(t *testing.T) {
	path := settingsPath(t)
	writeFile(t, path, `{"enableExec": false, "permissions": {"deny": ["mcp__stripe"]}}`)
	svc := start(t, hotreload.Options{SettingsPath: path})
	cfg := svc.Current()
	if cfg.EnableExec || !slices.Equal(cfg.Deny, []string{"mcp__stripe"}) {
		t.Errorf("Current = %+v", cfg)
	}
}

// Proves SWITCH-4.
func TestSWITCH4_EachSaveStyleReloadsExactlyOnce(t *testing.T) {
	styles := map[string]func(*testing.T, string, string){
		"atomic rename": atomicSave,
		"vim":           vimSave,
		"in place":      inPlaceWrite,
	}
	for name, save := range styles {
		t.Run(name, func(t *testing.T) {
			path := settingsPath(t)
			writeFile(t, path, `{"enableExec": true}`)
			svc := start(t, hotreload.Options{SettingsPath: path})
			events, initial := subscribe(t, svc)

			save(t, path, `{"enableExec": false}`)
			reloaded, skipped := waitFor(t, events, func(ev messages.ConfigChanged) bool { return !ev.Config.EnableExec })
			if len(skipped) != 0 || reloaded.Seq != initial.Seq+1 || reloaded.Err != nil {
				t.Fatalf("reload = %+v after %v, want the first event after %d", reloaded, skipped, initial.Seq)
			}
			if reloaded.Source != messages.SourceSettingsFile {
				t.Errorf("Source = %s", reloaded.Source)
			}
			if svc.Current().EnableExec {
				t.Error("Current still has Exec enabled after the reload")
			}

			// A later change is the very next event: the save reloaded once.
			atomicSave(t, path, `{"enableExec": false, "disallowedTools": ["mcp__sentinel"]}`)
			sentinel, skipped := waitFor(t, events, func(ev messages.ConfigChanged) bool { return len(ev.Config.DisallowedTools) == 1 })
			if len(skipped) != 0 || sentinel.Seq != reloaded.Seq+1 {
				t.Errorf("sentinel = seq %d after %v; the save reloaded more than once", sentinel.Seq, skipped)
			}
		})
	}
}

// Proves SWITCH-4.
func TestSWITCH4_MalformedFileKeepsLastGoodConfig(t *testing.T) {
	path := settingsPath(t)
	writeFile(t, path, `{"enableExec": false, "permissions": {"allow": ["mcp__a"]}}`)
	svc := start(t, hotreload.Options{SettingsPath: path})
	events, initial := subscribe(t, svc)

	atomicSave(t, path, `{"enableExec": true, "permissions": {"allow": ["mcp__a"]`)
	failed := next(t, events)
	if failed.Err == nil || !strings.Contains(failed.Err.Error(), "invalid JSON") || !strings.Contains(failed.Err.Error(), path) {
		t.Fatalf("event = %+v, want the parse error naming the file", failed)
	}
	if failed.Config.EnableExec || svc.Current().EnableExec || !slices.Equal(svc.Current().Allow, []string{"mcp__a"}) {
		t.Errorf("the malformed file changed the configuration: %+v", svc.Current())
	}
	if failed.Seq != initial.Seq+1 || svc.Last().Err == nil {
		t.Errorf("failure event seq %d, Last().Err %v", failed.Seq, svc.Last().Err)
	}

	atomicSave(t, path, `{"enableExec": true}`)
	fixed := next(t, events)
	if fixed.Err != nil || !fixed.Config.EnableExec || !svc.Current().EnableExec {
		t.Errorf("after the fix: %+v", fixed)
	}
}

// Proves SWITCH-4.
func TestSWITCH4_DeletedFileFallsBackToDefaults(t *testing.T) {
	path := settingsPath(t)
	writeFile(t, path, `{"enableExec": false}`)
	svc := start(t, hotreload.Options{SettingsPath: path})
	events, _ := subscribe(t, svc)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, events); ev.Err != nil || !ev.Config.EnableExec {
		t.Errorf("after deleting the settings file: %+v, want the default", ev)
	}
}

// Proves SWITCH-4.
func TestSWITCH4_OtherFilesInTheDirectoryAreIgnored(t *testing.T) {
	path := settingsPath(t)
	svc := start(t, hotreload.Options{SettingsPath: path})
	events, initial := subscribe(t, svc)
	dir := filepath.Dir(path)
	writeFile(t, filepath.Join(dir, "settings.json.bak"), `{"enableExec": false}`)
	writeFile(t, filepath.Join(dir, "other.json"), `{"enableExec": false}`)
	writeFile(t, path, `{"disallowedTools": ["mcp__sentinel"]}`)
	ev := next(t, events)
	if ev.Seq != initial.Seq+1 || !ev.Config.EnableExec || len(ev.Config.DisallowedTools) != 1 {
		t.Errorf("event = %+v, want only the settings file's change", ev)
	}
}

// Proves SWITCH-3.
func TestSWITCH3_ManagedFileBeatsSettingsFileAndReloads(t *testing.T) {
	path := settingsPath(t)
	managed := filepath.Join(t.TempDir(), "managed-settings.json")
	writeFile(t, path, `{"enableExec": true, "permissions": {"deny": ["mcp__a"]}}`)
	writeFile(t, managed, `{"enableExec": false, "permissions": {"deny": ["mcp__b"]}}`)
	svc := start(t, hotreload.Options{SettingsPath: path, ManagedSettingsPath: managed})
	if cfg := svc.Current(); cfg.EnableExec || !slices.Equal(cfg.Deny, []string{"mcp__a", "mcp__b"}) {
		t.Fatalf("Current = %+v", cfg)
	}
	events, _ := subscribe(t, svc)
	atomicSave(t, managed, `{}`)
	ev := next(t, events)
	if ev.Source != messages.SourceManagedFile || !ev.Config.EnableExec {
		t.Errorf("after the managed file dropped enableExec: %+v", ev)
	}
}

func TestStartRejectsAMalformedSettingsFile(t *testing.T) {
	path := settingsPath(t)
	writeFile(t, path, `{"enableExec": "sometimes"}`)
	_, err := hotreload.Start(context.Background(), newSystem(t), hotreload.Options{SettingsPath: path})
	if err == nil || !strings.Contains(err.Error(), `"enableExec" must be true or false`) {
		t.Errorf("Start = %v, want the type error", err)
	}
	_, err = hotreload.Start(context.Background(), newSystem(t), hotreload.Options{SettingsPath: settingsPath(t), RemoteURL: "file:///etc/passwd"})
	if err == nil {
		t.Error("Start accepted a non-HTTP remote URL")
	}
	checkNoLeaks(t)
}

// Proves PERM-1.
func TestPERM1_AllowAlwaysIsVisibleWhenItReturns(t *testing.T) {
	path := settingsPath(t)
	writeFile(t, path, `{"theme": "dark"}`)
	svc := start(t, hotreload.Options{SettingsPath: path})
	events, initial := subscribe(t, svc)
	if err := svc.AllowAlways(context.Background(), "mcp__github__create_issue"); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(svc.Current().Allow, "mcp__github__create_issue") {
		t.Fatalf("Current().Allow = %v", svc.Current().Allow)
	}
	saved := next(t, events)
	if saved.Source != messages.SourceAllowRule || saved.Seq != initial.Seq+1 {
		t.Errorf("event = %+v", saved)
	}
	// The watcher's echo of that write is no reload.
	writeFile(t, path+".unrelated", "x")
	inPlaceWrite(t, path, `{"theme": "dark", "permissions": {"allow": ["mcp__github__create_issue"]}, "disallowedTools": ["mcp__s"]}`)
	sentinel, skipped := waitFor(t, events, func(ev messages.ConfigChanged) bool { return len(ev.Config.DisallowedTools) == 1 })
	if len(skipped) != 0 || sentinel.Seq != saved.Seq+1 {
		t.Errorf("sentinel seq %d after %v", sentinel.Seq, skipped)
	}
	if err := svc.AllowAlways(context.Background(), "mcp__"); err == nil {
		t.Error("an invalid rule was saved")
	}
}

func TestSubscribeByActor(t *testing.T) {
	path := settingsPath(t)
	system := newSystem(t)
	svc, err := hotreload.Start(context.Background(), system, hotreload.Options{SettingsPath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	got := make(chan *messages.ConfigChanged, 8)
	probe := system.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if ev, ok := c.Message().(*messages.ConfigChanged); ok {
			got <- ev
		}
	}))
	defer system.Root.Stop(probe)
	system.Root.Send(svc.PID(), &hotreload.SubscribeConfig{Subscriber: probe})
	receive := func() *messages.ConfigChanged {
		select {
		case ev := <-got:
			return ev
		case <-time.After(guard):
			t.Fatal("no event")
			return nil
		}
	}
	if ev := receive(); ev.Source != messages.SourceStart || !ev.Config.EnableExec {
		t.Errorf("first event = %+v, want the current state", ev)
	}
	writeFile(t, path, `{"enableExec": false}`)
	if ev := receive(); ev.Config.EnableExec {
		t.Errorf("event = %+v", ev)
	}
	if last := svc.Last(); last.Config.EnableExec {
		t.Errorf("Last = %+v", last)
	}
}

// Proves SWITCH-4.
func TestSWITCH4_SymlinkedSettingsReloadWhenTheTargetChanges(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "settings.json")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, target, `{"enableExec": true}`)
	link := filepath.Join(dir, "config", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	svc := start(t, hotreload.Options{SettingsPath: link})
	events, _ := subscribe(t, svc)
	atomicSave(t, target, `{"enableExec": false}`)
	if ev := next(t, events); ev.Config.EnableExec || ev.Err != nil {
		t.Errorf("after editing the link's target: %+v", ev)
	}
}
