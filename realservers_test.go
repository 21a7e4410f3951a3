package mcpexec_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec"
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
//
// Proves BUDGET-1, PERM-1.
func TestBUDGET1_APermissionPromptDoesNotSpendTheBudget(t *testing.T) {
	const budget = time.Second
	command, args, env := testservers.ContentCommand()
	sys := startServers(t, mcpexec.Options{Prompter: slowPerson{takes: 3 * budget}, Limits: sandbox.Limits{Timeout: budget}},
		stdioServer("c", command, args, env))
	res := run(sys, `const a = await tools.mcp__c__link({}); const b = await tools.mcp__c__audio({}); return a + "\n" + b;`)
	if !res.OK || !strings.HasPrefix(res.Text, "[resource link: ") {
		t.Errorf("result = %q (ok %v)", res.Text, res.OK)
	}
}
