package mcpexec_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/broadcast"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
)

func TestMain(m *testing.M) {
	mcpexec.MaybeRunWorker()
	testservers.MaybeServe()
	os.Exit(testkit.WithTempCache(m.Run))
}

// prompterLog answers permission questions with a fixed answer and counts
// them.
type prompterLog struct {
	answer permissions.Answer
	mu     sync.Mutex
	asked  []string
}

func (p *prompterLog) Ask(_ context.Context, q permissions.Question) (permissions.Answer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, q.Tool)
	return p.answer, nil
}

func (p *prompterLog) questions() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.asked)
}

type fixture struct {
	sys      *mcpexec.System
	settings string
	prompter *prompterLog
}

// start runs a System over the in-memory behaviour server, with a settings
// file, and checks at cleanup that Close leaves no goroutine behind.
func start(t *testing.T, settings string, answer permissions.AnswerKind) *fixture {
	t.Helper()
	return startWith(t, settings, answer,
		pool.ServerConfig{Name: "b", Dial: testservers.DialInMemory(testservers.Behaviour(testservers.BehaviourOptions{}))})
}

// startWith is start over the given servers.
func startWith(t *testing.T, settings string, answer permissions.AnswerKind, servers ...pool.ServerConfig) *fixture {
	t.Helper()
	before := runtime.NumGoroutine()
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	if settings != "" {
		if err := os.WriteFile(path, []byte(settings), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f := &fixture{settings: path, prompter: &prompterLog{answer: permissions.Answer{Kind: answer, Reason: "not today"}}}
	sys, err := mcpexec.Start(context.Background(), mcpexec.Options{
		Servers:      servers,
		SettingsPath: path,
		Prompter:     f.prompter,
		Limits:       sandbox.Limits{Timeout: 5 * time.Second},
		Workers:      sandbox.WorkerOptions{Warm: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	f.sys = sys
	t.Cleanup(func() {
		if err := sys.Close(); err != nil {
			t.Error(err)
		}
		testkit.CheckGoroutines(t, before)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := sys.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	return f
}

const allowAll = `{"permissions": {"allow": ["mcp__b"]}}`

func execCode(f *fixture, code string) mcpexec.ExecResult {
	args, _ := json.Marshal(map[string]string{"code": code})
	return f.sys.Exec(context.Background(), args, nil)
}

func declared(f *fixture) []string {
	var names []string
	for _, d := range f.sys.Declarations(mcpexec.DeclareOptions{}) {
		names = append(names, d.Name)
	}
	return names
}

// Proves ORCH-2.
func TestORCH2_ValueShapesFromARealServer(t *testing.T) {
	f := start(t, allowAll, permissions.Reject)
	res := execCode(f, `
		const s = await tools.mcp__b__structured({});
		const t = await tools.mcp__b__declared_text({});
		const n = await tools.mcp__b__nothing({});
		const i = await tools.mcp__b__image({});
		return { s, t, n, i };`)
	if !res.OK {
		t.Fatalf("exec failed: %s", res.Text)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(res.Text), &got); err != nil {
		t.Fatalf("text %q: %v", res.Text, err)
	}
	s, _ := got["s"].(map[string]any)
	if s["count"] != 2.0 || got["n"] != nil || got["i"] != nil {
		t.Errorf("values = %v", got)
	}
	if _, isString := got["t"].(string); !isString {
		t.Errorf("declared_text without structured content gave %v, want its text", got["t"])
	}
	if len(res.Images) != 1 {
		t.Errorf("images = %d, want the one PNG", len(res.Images))
	}
	if res.Summary != "... 4 tool calls\nmcp__b__nothing\nmcp__b__image" {
		t.Errorf("summary = %q", res.Summary)
	}
}

// Proves SUM-4.
func TestSUM4_LiveSummaryFromTheFacade(t *testing.T) {
	f := start(t, allowAll, permissions.Reject)
	var seen []string
	args, _ := json.Marshal(map[string]string{"code": `await tools.mcp__b__text({}); await tools.mcp__b__nothing({}); return "done";`})
	res := f.sys.Exec(context.Background(), args, func(summary string) { seen = append(seen, summary) })
	want := []string{"1 tool call\nmcp__b__text", "2 tool calls\nmcp__b__text\nmcp__b__nothing"}
	if !res.OK || !slices.Equal(seen, want) {
		t.Errorf("ok=%v progress=%q", res.OK, seen)
	}
}

// Proves PERM-1.
func TestPERM1_AskedOnceThenRememberedInTheSettingsFile(t *testing.T) {
	f := start(t, `{"permissions": {}}`, permissions.AllowAlways)
	for range 2 {
		if res := execCode(f, `return await tools.mcp__b__text({})`); !res.OK {
			t.Fatalf("exec failed: %s", res.Text)
		}
	}
	if q := f.prompter.questions(); !slices.Equal(q, []string{"mcp__b__text"}) {
		t.Errorf("questions = %v, want one for the leaf tool", q)
	}
	// The rule holds at once and is saved in the background: wait for it.
	deadline := time.Now().Add(20 * time.Second)
	for {
		data, err := os.ReadFile(f.settings)
		if err == nil && strings.Contains(string(data), `"mcp__b__text"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("rule not saved under the leaf name: %s (%v)", data, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Proves PERM-2.
func TestPERM2_AllowRuleRunsWithoutAsking(t *testing.T) {
	f := start(t, `{"permissions": {"allow": ["mcp__b__text"]}}`, permissions.Reject)
	if res := execCode(f, `return await tools.mcp__b__text({})`); !res.OK {
		t.Fatalf("exec failed: %s", res.Text)
	}
	if q := f.prompter.questions(); len(q) != 0 {
		t.Errorf("asked %v despite an allow rule", q)
	}
}

// Proves PERM-3, PERM-4, SUM-7.
func TestPERM3_PERM4_SUM7_RejectionReachesTheScriptAndFailsExecUncaught(t *testing.T) {
	f := start(t, `{"permissions": {}}`, permissions.Reject)
	res := execCode(f, `try { await tools.mcp__b__text({}); } catch (e) { return "caught: " + e.message; }`)
	if !res.OK || !strings.Contains(res.Text, "caught:") || !strings.Contains(res.Text, "not today") {
		t.Errorf("caught rejection: ok=%v %q", res.OK, res.Text)
	}
	res = execCode(f, `await tools.mcp__b__text({}); return "went on";`)
	if res.OK || !strings.Contains(res.Text, "not today") || res.Summary != "failed" {
		t.Errorf("uncaught rejection: ok=%v summary=%q %q", res.OK, res.Summary, res.Text)
	}
	if len(res.Calls) != 1 {
		t.Errorf("the rejected call is not counted: %v", res.Calls)
	}
}

// Proves PERM-5.
func TestPERM5_DeniedExecNeverStartsASandbox(t *testing.T) {
	f := start(t, `{"enableExec": true, "permissions": {"allow": ["mcp__b"], "deny": ["Exec"]}}`, permissions.Reject)
	var progress atomic.Int32
	args, _ := json.Marshal(map[string]string{"code": `await tools.mcp__b__text({}); return 1`})
	res := f.sys.Exec(context.Background(), args, func(string) { progress.Add(1) })
	if res.OK || len(res.Calls) != 0 || res.Summary != "failed" || progress.Load() != 0 {
		t.Errorf("denied Exec ran: ok=%v calls=%v %q", res.OK, res.Calls, res.Text)
	}
	if !strings.Contains(res.Text, `"Exec"`) {
		t.Errorf("the failure does not give the deny rule as its reason: %q", res.Text)
	}
	if slices.Contains(declared(f), "Exec") {
		t.Error("denied Exec is declared")
	}
}

// Proves CONV-8, NFR-3.
func TestCONV8_NFR3_FlatAndNestedCallsShareTheGate(t *testing.T) {
	f := start(t, `{"permissions": {}}`, permissions.AllowOnce)
	if res := f.sys.CallFlat(context.Background(), "mcp__b__text", json.RawMessage(`{}`)); !res.OK || res.Text != "first\nsecond" {
		t.Errorf("flat call: %+v", res)
	}
	if res := execCode(f, `return await tools.mcp__b__text({})`); !res.OK {
		t.Errorf("nested call: %s", res.Text)
	}
	if q := f.prompter.questions(); !slices.Equal(q, []string{"mcp__b__text", "mcp__b__text"}) {
		t.Errorf("questions = %v: both calls must pass the gate", q)
	}
}

// Proves SWITCH-4.
func TestSWITCH4_EditingTheSettingsFileFlipsDeclarationsWithoutRestart(t *testing.T) {
	f := start(t, allowAll, permissions.Reject)
	if d := declared(f); !slices.Equal(d, []string{"Exec"}) {
		t.Fatalf("declarations = %v", d)
	}
	waitFor := func(want func([]string) bool) []string {
		deadline := time.Now().Add(20 * time.Second)
		for {
			d := declared(f)
			if want(d) || time.Now().After(deadline) {
				return d
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if err := os.WriteFile(f.settings, []byte(`{"enableExec": false, "permissions": {"allow": ["mcp__b"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	d := waitFor(func(d []string) bool { return !slices.Contains(d, "Exec") })
	if slices.Contains(d, "Exec") || !slices.Contains(d, "mcp__b__text") {
		t.Fatalf("after switching off: %v", d)
	}
	// MCP tools stay callable flatly, and a late Exec call does not run.
	if res := f.sys.CallFlat(context.Background(), "mcp__b__text", json.RawMessage(`{}`)); !res.OK {
		t.Errorf("flat call after the switch: %s", res.Text)
	}
	if res := execCode(f, `return await tools.mcp__b__text({})`); res.OK || len(res.Calls) != 0 {
		t.Errorf("Exec ran while switched off: %+v", res)
	}
	if err := os.WriteFile(f.settings, []byte(allowAll), 0o600); err != nil {
		t.Fatal(err)
	}
	if d := waitFor(func(d []string) bool { return slices.Equal(d, []string{"Exec"}) }); !slices.Equal(d, []string{"Exec"}) {
		t.Fatalf("after switching on again: %v", d)
	}
}

// Proves BCAST-2, BCAST-11.
func TestBCAST2_BCAST11_FacadeBroadcastsAndWithdraws(t *testing.T) {
	f := start(t, allowAll, permissions.Reject)
	history := broadcast.NewHistory()
	msgs, err := f.sys.Broadcast(history, mcpexec.DeclareOptions{})
	if err != nil || len(msgs) != 2 {
		t.Fatalf("first broadcast: %d messages, %v", len(msgs), err)
	}
	if !strings.Contains(msgs[0].Text, "tools.mcp__b__structured") || !strings.Contains(msgs[1].Text, testservers.BehaviourInstructions) {
		t.Errorf("want the catalog then the server's instructions, got %q / %q", msgs[0].Text, msgs[1].Text)
	}
	for _, m := range msgs {
		history.Append(m)
	}
	if again, _ := f.sys.Broadcast(history, mcpexec.DeclareOptions{}); len(again) != 0 {
		t.Errorf("unchanged pool broadcast again: %v", again)
	}
	// Excluding Exec for an agent withdraws the catalog for it.
	withdrawn, _ := f.sys.Broadcast(history, mcpexec.DeclareOptions{Disallowed: []string{"Exec"}})
	if len(withdrawn) != 1 || strings.Contains(withdrawn[0].Text, "Exec") {
		t.Errorf("withdrawal = %v", withdrawn)
	}
	if msgs, err := f.sys.Broadcast(nil, mcpexec.DeclareOptions{}); err != nil || len(msgs) != 0 {
		t.Errorf("no channel must be silence: %v %v", msgs, err)
	}
}

// Proves EDGE-5.
func TestEDGE5_NoMCPManager(t *testing.T) {
	sys, err := mcpexec.Start(context.Background(), mcpexec.Options{Workers: sandbox.WorkerOptions{Warm: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	if d := sys.Declarations(mcpexec.DeclareOptions{}); len(d) != 0 {
		t.Errorf("declarations = %v", d)
	}
	res := sys.Exec(context.Background(), json.RawMessage(`{"code":"return 1"}`), nil)
	if res.OK || !strings.Contains(res.Text, "no MCP manager") {
		t.Errorf("exec without MCP manager: %+v", res)
	}
	if msgs, err := sys.Broadcast(broadcast.NewHistory(), mcpexec.DeclareOptions{}); err != nil || len(msgs) != 0 {
		t.Errorf("broadcast without MCP manager: %v %v", msgs, err)
	}
}

// Proves EDGE-8.
func TestEDGE8_BadArgumentsStartNoSandbox(t *testing.T) {
	f := start(t, allowAll, permissions.Reject)
	var progress atomic.Int32
	res := f.sys.Exec(context.Background(), json.RawMessage(`{"code":"  "}`), func(string) { progress.Add(1) })
	if res.OK || res.Summary != "failed" || len(res.Calls) != 0 || progress.Load() != 0 {
		t.Errorf("blank code: %+v", res)
	}
}

// Proves CONV-7, EDGE-2.
func TestCONV7_EDGE2_ExecReachesThePoolAsItIsAtExecution(t *testing.T) {
	f := start(t, allowAll, permissions.Reject)
	res := execCode(f, `await tools.mcp__b__add_tool({ name: "fresh" }); return "added";`)
	if !res.OK {
		t.Fatalf("add_tool: %s", res.Text)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		res = execCode(f, `return await tools.mcp__b__fresh({})`)
		if res.OK || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !res.OK {
		t.Errorf("a tool added to the pool is not reachable from the next Exec: %s", res.Text)
	}
}

// Proves NFR-2, CONV-6: the flat declarations, the catalog, search and the
// names a script can reach all come from one snapshot.
func TestNFR2_DeclarationsCatalogSearchAndSandboxAgree(t *testing.T) {
	f := start(t, `{"permissions": {"allow": ["mcp__b"], "deny": ["mcp__b__fail"]}}`, permissions.Reject)
	var flat []string
	// An agent without Exec gets the flat declarations of the same pool.
	for _, d := range f.sys.Declarations(mcpexec.DeclareOptions{Disallowed: []string{"Exec"}}) {
		flat = append(flat, d.Name)
	}
	if len(flat) == 0 || slices.Contains(flat, "mcp__b__fail") {
		t.Fatalf("flat declarations = %v", flat)
	}
	var inCatalog []string
	for _, name := range flat {
		if strings.Contains(f.sys.Catalog().Body, "tools."+name+"(") {
			inCatalog = append(inCatalog, name)
		}
	}
	if !slices.Equal(inCatalog, flat) || strings.Contains(f.sys.Catalog().Body, "mcp__b__fail") {
		t.Errorf("catalog lists %v, declarations %v", inCatalog, flat)
	}
	res := execCode(f, `
		const found = (await tools["$codemode"].search({})).map(r => r.name);
		return { keys: Object.keys(tools).sort(), found: found.sort() };`)
	var got struct{ Keys, Found []string }
	if err := json.Unmarshal([]byte(res.Text), &got); err != nil {
		t.Fatalf("%s: %v", res.Text, err)
	}
	if !slices.Equal(got.Keys, flat) || !slices.Equal(got.Found, flat) {
		t.Errorf("sandbox keys %v, search %v, declarations %v", got.Keys, got.Found, flat)
	}
}

// Proves NFR-8: a script spinning in its sandbox blocks nothing else of the
// session: declarations, broadcasts, flat calls and other Execs go on.
func TestNFR8_ARunningScriptBlocksNothing(t *testing.T) {
	f := start(t, allowAll, permissions.Reject)
	spinning := make(chan mcpexec.ExecResult, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		spinning <- f.sys.Exec(ctx, json.RawMessage(`{"code":"for (;;) {}"}`), nil)
	}()
	if d := declared(f); !slices.Equal(d, []string{"Exec"}) {
		t.Errorf("declarations = %v", d)
	}
	if res := f.sys.CallFlat(context.Background(), "mcp__b__text", json.RawMessage(`{}`)); !res.OK {
		t.Errorf("flat call: %s", res.Text)
	}
	if res := execCode(f, `return 6 * 7`); res.Text != "42" {
		t.Errorf("second Exec: %q", res.Text)
	}
	select {
	case res := <-spinning:
		t.Fatalf("the spinning script ended before the others were served: %s", res.Text)
	default:
	}
	cancel()
	if res := <-spinning; res.OK {
		t.Error("the aborted spin succeeded")
	}
}

// Proves BCAST-2, CONV-1: one request's tools[] and meta messages come from
// one snapshot and one reading of the settings.
func TestBCAST2_PrepareDeclaresAndBroadcastsTogether(t *testing.T) {
	f := start(t, allowAll, permissions.Reject)
	decls, msgs, err := f.sys.Prepare(broadcast.NewHistory(), mcpexec.DeclareOptions{})
	if err != nil || len(decls) != 1 || decls[0].Name != "Exec" || len(msgs) == 0 || !strings.Contains(msgs[0].Text, "mcp__b__text") {
		t.Errorf("decls=%v msgs=%d err=%v", decls, len(msgs), err)
	}
}

// Proves SWITCH-3: an administrator's source is never silently ignored.
func TestSWITCH3_RemoteSettingsWithoutASettingsFileIsRefused(t *testing.T) {
	_, err := mcpexec.Start(context.Background(), mcpexec.Options{RemoteSettingsURL: "http://127.0.0.1:9/settings.json"})
	if err == nil || !strings.Contains(err.Error(), "settings file") {
		t.Errorf("err = %v", err)
	}
}
