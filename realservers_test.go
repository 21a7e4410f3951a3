package mcpexec_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
)

func stdioServer(name string, command string, args []string, env map[string]string) pool.ServerConfig {
	return pool.ServerConfig{Name: name, Command: command, Args: args, Env: env}
}

// startServers runs a System over real server processes with every MCP
// call allowed, and waits for their first attempts.
func startServers(t *testing.T, opts mcpexec.Options, servers ...pool.ServerConfig) *mcpexec.System {
	t.Helper()
	opts.Servers = servers
	if opts.Limits.Timeout == 0 {
		opts.Limits.Timeout = 30 * time.Second
	}
	opts.Workers.Warm = 1
	if opts.Prompter == nil {
		opts.Prompter = &prompterLog{answer: permissions.Answer{Kind: permissions.AllowOnce}}
	}
	sys, err := mcpexec.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sys.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := sys.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	return sys
}

func run(sys *mcpexec.System, code string) mcpexec.ExecResult {
	args, _ := json.Marshal(map[string]string{"code": code})
	return sys.Exec(context.Background(), args, nil)
}

// A GitHub-style reply (a status line, then the file as an embedded
// resource) gives the script the file, flat and nested alike.
//
// Proves ORCH-2.
func TestORCH2_AnEmbeddedFileReachesTheScriptAndTheFlatCall(t *testing.T) {
	command, args, env := testservers.ContentCommand()
	sys := startServers(t, mcpexec.Options{}, stdioServer("github", command, args, env))
	res := run(sys, `const r = await tools.mcp__github__get_file_contents({path: "README.md"}); return r.split("\n").slice(1).join("\n");`)
	if !res.OK || res.Text != testservers.FileText {
		t.Errorf("script result = %q (ok %v), want the file", res.Text, res.OK)
	}
	flat := sys.CallFlat(context.Background(), "mcp__github__get_file_contents", json.RawMessage(`{}`))
	if !flat.OK || flat.Text != testservers.FileStatus+"\n"+testservers.FileText {
		t.Errorf("flat call = %q (ok %v)", flat.Text, flat.OK)
	}
}

// A script calling a tool of a configured server that is down learns which
// server and why, and can go on with the others.
//
// Proves EDGE-3.
func TestEDGE3_AScriptLearnsWhichServerIsDownAndWhy(t *testing.T) {
	content, cargs, cenv := testservers.ContentCommand()
	crash, xargs, xenv := testservers.CrashAtStartCommand()
	sys := startServers(t, mcpexec.Options{},
		stdioServer("ok", content, cargs, cenv), stdioServer("broken", crash, xargs, xenv))
	res := run(sys, `
		let why = "";
		try { await tools.mcp__broken__anything({}); } catch (e) { why = e.message; }
		const link = await tools.mcp__ok__link({});
		return why + "\n" + link;`)
	want := `MCP tool "mcp__broken__anything" is not available: its server "broken" is not connected: server process exited: exit status 1; stderr: ` + testservers.CrashMessage
	if !res.OK || !strings.HasPrefix(res.Text, want+"\n[resource link: ") {
		t.Errorf("result = %q (ok %v), want it to start with %q", res.Text, res.OK, want)
	}
}

// slowPerson answers every permission question with "yes, once" after
// taking its time.
type slowPerson struct{ takes time.Duration }

func (p slowPerson) Ask(ctx context.Context, _ permissions.Question) (permissions.Answer, error) {
	select {
	case <-time.After(p.takes):
		return permissions.Answer{Kind: permissions.AllowOnce}, nil
	case <-ctx.Done():
		return permissions.Answer{}, ctx.Err()
	}
}

// The time a person takes to answer a permission prompt is not taken from
// the script's budget: the person takes three budgets, twice, and the
// script still finishes.
func TestAPermissionPromptDoesNotSpendTheBudget(t *testing.T) {
	const budget = time.Second
	command, args, env := testservers.ContentCommand()
	sys := startServers(t, mcpexec.Options{Prompter: slowPerson{takes: 3 * budget}, Limits: sandbox.Limits{Timeout: budget}},
		stdioServer("c", command, args, env))
	res := run(sys, `const a = await tools.mcp__c__link({}); const b = await tools.mcp__c__audio({}); return a + "\n" + b;`)
	if !res.OK || !strings.HasPrefix(res.Text, "[resource link: ") {
		t.Errorf("result = %q (ok %v)", res.Text, res.OK)
	}
}

// A server's question during a nested call reaches the Elicitor; the time
// the person takes is not taken from the budget; aborting the Exec
// withdraws the question.
//
// Proves BUDGET-8.
func TestBUDGET8_AServersQuestionDuringAScript(t *testing.T) {
	const budget = time.Second
	command, args, env := testservers.ContentCommand()
	asked := make(chan struct{}, 1)
	withdrawn := make(chan error, 1)
	answer := elicit.Func(func(ctx context.Context, r elicit.Request) (elicit.Response, error) {
		asked <- struct{}{}
		select {
		case <-time.After(3 * budget):
			return elicit.Response{Action: elicit.Accept, Content: map[string]any{"name": "Ada"}}, nil
		case <-ctx.Done():
			withdrawn <- ctx.Err()
			return elicit.Response{}, ctx.Err()
		}
	})
	sys := startServers(t, mcpexec.Options{Elicitor: answer, Limits: sandbox.Limits{Timeout: budget}}, stdioServer("c", command, args, env))
	res := run(sys, `const r = await tools.mcp__c__ask({}); return r.content.name + " " + r.content.color;`)
	<-asked
	if !res.OK || res.Text != "Ada green" {
		t.Errorf("result = %q (ok %v)", res.Text, res.OK)
	}

	ctx, abort := context.WithCancel(context.Background())
	done := make(chan mcpexec.ExecResult, 1)
	go func() {
		args, _ := json.Marshal(map[string]string{"code": `return await tools.mcp__c__ask({});`})
		done <- sys.Exec(ctx, args, nil)
	}()
	<-asked
	abort()
	if err := <-withdrawn; !errors.Is(err, context.Canceled) {
		t.Errorf("the question ended with %v, want it withdrawn", err)
	}
	if res := <-done; res.OK {
		t.Errorf("an aborted Exec succeeded: %q", res.Text)
	}
}

// With no one to ask, a call no rule settles is refused, and the model is
// told how it can be allowed.
func TestUnattendedRefusalSaysHowToAllow(t *testing.T) {
	command, args, env := testservers.ContentCommand()
	sys := startServers(t, mcpexec.Options{Prompter: permissions.Unattended("")}, stdioServer("c", command, args, env))
	flat := sys.CallFlat(context.Background(), "mcp__c__link", json.RawMessage(`{}`))
	want := `permission to call mcp__c__link needs the user's approval and no one is available to give it; to allow it, the user can add "mcp__c__link" to permissions.allow in the settings file`
	if flat.OK || flat.Text != want {
		t.Errorf("flat = %q (ok %v)\nwant %q", flat.Text, flat.OK, want)
	}
}

// questionLog answers every question with answer and keeps the questions.
type questionLog struct {
	answer permissions.Answer
	mu     sync.Mutex
	asked  []permissions.Question
}

func (p *questionLog) Ask(_ context.Context, q permissions.Question) (permissions.Answer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, q)
	return p.answer, nil
}

// "Allow always" for a tool an ask rule covers saves the allow rule (it
// takes effect once the ask rule goes), and the next call asks again: the
// question says which rule will keep asking, so the prompt can say so.
//
// Proves PERM-1.
func TestPERM1_AllowAlwaysUnderAnAskRuleAsksAgain(t *testing.T) {
	settings := filepath.Join(t.TempDir(), "settings.json")
	const file = `{"permissions": {"ask": ["mcp__c__link"]}}`
	if err := os.WriteFile(settings, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	person := &questionLog{answer: permissions.Answer{Kind: permissions.AllowAlways}}
	command, args, env := testservers.ContentCommand()
	sys := startServers(t, mcpexec.Options{Prompter: person, SettingsPath: settings}, stdioServer("c", command, args, env))
	for i := 0; i < 2; i++ {
		if res := sys.CallFlat(context.Background(), "mcp__c__link", json.RawMessage(`{}`)); !res.OK {
			t.Fatalf("call %d: %s", i, res.Text)
		}
	}
	person.mu.Lock()
	defer person.mu.Unlock()
	if len(person.asked) != 2 || person.asked[0].AskRule != "mcp__c__link" {
		t.Errorf("questions = %+v, want two naming the ask rule", person.asked)
	}
	// The save is made off the gate's goroutine.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		data, _ := os.ReadFile(settings)
		if strings.Contains(string(data), `"allow"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the allow rule was not saved:\n%s", data)
		}
	}
}
