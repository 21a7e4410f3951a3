package mcpexec_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/broadcast"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
)

// startResults runs a System over the results server (a real stdio
// process reporting version) and the in-memory behaviour server, keeping
// observed shapes in dir.
func startResults(t *testing.T, dir, version string, noLearning bool) *mcpexec.System {
	t.Helper()
	before := runtime.NumGoroutine()
	settings := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(settings, []byte(`{"permissions": {"allow": ["mcp__r", "mcp__b"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	command, args, env := testservers.ResultsCommand(version)
	sys, err := mcpexec.Start(context.Background(), mcpexec.Options{
		Servers: []pool.ServerConfig{
			{Name: "r", Command: command, Args: args, Env: env},
			{Name: "b", Dial: testservers.DialInMemory(testservers.Behaviour(testservers.BehaviourOptions{}))},
		},
		SettingsPath:    settings,
		ShapesDir:       dir,
		NoShapeLearning: noLearning,
		Limits:          sandbox.Limits{Timeout: 10 * time.Second},
		Workers:         sandbox.WorkerOptions{Warm: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Cleanups run last first: Close, then the goroutine check.
	t.Cleanup(func() { testkit.CheckGoroutines(t, before) })
	t.Cleanup(func() { _ = sys.Close() }) // Close is idempotent
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := sys.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	return sys
}

func runScript(t *testing.T, sys *mcpexec.System, code string) string {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"code": code})
	res := sys.Exec(context.Background(), args, nil)
	if !res.OK {
		t.Fatalf("exec failed: %s", res.Text)
	}
	return res.Text
}

// broadcastOnce appends what the catalog channel says now to history and
// returns its text ("" for nothing).
func broadcastOnce(t *testing.T, sys *mcpexec.System, history *broadcast.History) string {
	t.Helper()
	msgs, err := sys.Broadcast(history, mcpexec.DeclareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, m := range msgs {
		history.Append(m)
		if m.Catalog != nil {
			text = append(text, m.Text)
		}
	}
	return strings.Join(text, "\n")
}

const githubLike = `{total_count: 7, items: [{html_url: "https://secret.example/issue/1", id: 4242, title: "Private roadmap"}]}`

func TestObservedShapesReachTheCatalog(t *testing.T) {
	dir := t.TempDir()
	sys := startResults(t, dir, "1.0.0", false)
	history := broadcast.NewHistory()
	if first := broadcastOnce(t, sys, history); !strings.Contains(first, "tools.mcp__r__json_text") || strings.Contains(first, "// observed:") {
		t.Fatalf("first catalog:\n%s", first)
	}

	// The script itself learns nothing new from search before the call;
	// after it, search in the same script carries the note.
	got := runScript(t, sys, `
		const before = (await tools.$codemode.search({query: "json_text"}))[0].signature;
		const r = JSON.parse(await tools.mcp__r__json_text({reply: `+githubLike+`}));
		const after = (await tools.$codemode.search({query: "json_text"}))[0].signature;
		try { await tools.mcp__b__fail({}); } catch (e) {}
		await tools.mcp__b__structured({});
		return {before, after, total: r.total_count};`)
	var res struct {
		Before, After string
		Total         int
	}
	if err := json.Unmarshal([]byte(got), &res); err != nil || res.Total != 7 {
		t.Fatalf("script result %s: %v", got, err)
	}
	const note = "// observed: text, JSON { items: { html_url: string; id: number; title: string }[]; total_count: number }"
	if strings.Contains(res.Before, "observed") || !strings.HasSuffix(res.After, "\n"+note) {
		t.Errorf("search before the call: %q\nsearch after it: %q", res.Before, res.After)
	}

	update := broadcastOnce(t, sys, history)
	if !strings.Contains(update, "tools.mcp__r__json_text(args: {}): Promise<unknown>\n"+note+"\n") {
		t.Fatalf("the catalog does not carry the note after the signature:\n%s", update)
	}
	for _, value := range []string{"secret", "4242", "Private", "roadmap", "7"} {
		if strings.Contains(update, value) {
			t.Errorf("the catalog carries the result's value %q", value)
		}
	}
	if strings.Count(update, "// observed:") != 1 {
		t.Errorf("a failing tool or one with a declared output schema got a note:\n%s", update)
	}

	// The same call again changes nothing: no message, the same bytes.
	body := sys.Catalog().Body
	runScript(t, sys, `return JSON.parse(await tools.mcp__r__json_text({reply: {total_count: 1, items: [{html_url: "x", id: 1, title: "y"}]}})).total_count;`)
	if again := broadcastOnce(t, sys, history); again != "" || sys.Catalog().Body != body {
		t.Fatalf("the same shape changed the catalog:\n%s", again)
	}

	// A differing result merges: a field seen only sometimes turns
	// optional, a second type makes a union.
	runScript(t, sys, `
		await tools.mcp__r__json_text({reply: {total_count: "many", items: [], incomplete_results: true}});
		await tools.mcp__r__structured({reply: {ok: true, count: 1}});
		await tools.mcp__r__plain_text({reply: "hello there"});
		return null;`)
	merged := broadcastOnce(t, sys, history)
	for _, want := range []string{
		"// observed: text, JSON { incomplete_results?: boolean; items: { html_url: string; id: number; title: string }[]; total_count: string | number }\n",
		"tools.mcp__r__structured(args: {}): Promise<unknown>\n// observed: { count: number; ok: boolean }\n",
		"tools.mcp__r__plain_text(args: {}): Promise<unknown>\n// observed: text\n",
	} {
		if !strings.Contains(merged+"\n", want) {
			t.Errorf("catalog lacks %q:\n%s", want, merged)
		}
	}
}

func TestObservedShapesPersistPerServerVersion(t *testing.T) {
	dir := t.TempDir()
	sys := startResults(t, dir, "1.0.0", false)
	runScript(t, sys, `return await tools.mcp__r__structured({reply: {ok: true}});`)
	if err := sys.Close(); err != nil {
		t.Fatal(err)
	}
	const note = "// observed: { ok: boolean }"

	restarted := startResults(t, dir, "1.0.0", false)
	if body := restarted.Catalog().Body; !strings.Contains(body, note) {
		t.Errorf("a restart lost the note:\n%s", body)
	}
	if err := restarted.Close(); err != nil {
		t.Fatal(err)
	}

	off := startResults(t, dir, "1.0.0", true)
	if body := off.Catalog().Body; strings.Contains(body, "// observed:") {
		t.Errorf("learning off still shows notes:\n%s", body)
	}
	if err := off.Close(); err != nil {
		t.Fatal(err)
	}

	upgraded := startResults(t, dir, "2.0.0", false)
	if body := upgraded.Catalog().Body; strings.Contains(body, "// observed:") {
		t.Errorf("a new server version kept the old note:\n%s", body)
	}
}

// A client that reads the catalog in Exec's description is not offered
// new tools for a note alone: its cached prompt stays valid.
func TestObservedShapesAloneDoNotChangeTheGatewayDeclarations(t *testing.T) {
	sys := startResults(t, t.TempDir(), "1.0.0", false)
	describe := func() string {
		for _, d := range sys.DeclarationsWithCatalog(mcpexec.DeclareOptions{}) {
			if d.Name == "Exec" {
				return d.Description
			}
		}
		t.Fatal("no Exec declared")
		return ""
	}
	before := describe()
	runScript(t, sys, `return await tools.mcp__r__structured({reply: {ok: true}});`)
	if after := describe(); after != before {
		t.Errorf("a learned shape changed Exec's description")
	}
	if body := sys.Catalog().Body; !strings.Contains(body, "// observed: { ok: boolean }") {
		t.Errorf("the catalog did not learn:\n%s", body)
	}
}
