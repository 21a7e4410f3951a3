package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/broadcast"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
)

// The guided tour: `demo` with no arguments. Every step runs against real
// MCP server processes (this binary, serving its built-in servers over
// stdio) through the same System a daemon embeds.

// tourStep is one step: a heading, a one-line explanation, then live output.
type tourStep struct {
	title string
	lead  string
	run   func(ctx context.Context, t *tour) error
}

// tourSteps are the steps in order. Their titles are part of the demo's
// interface: the end-to-end tests look for each of them.
var tourSteps = []tourStep{
	{"Tool declarations", "The model's tools[] keeps the host's own tools and gains one Exec tool: the MCP tools are folded into it.", stepDeclarations},
	{"The catalog message", "The pool reaches the model as a meta message appended to the conversation, never in tools[], so the cached prompt prefix stays valid.", stepCatalog},
	{"Exec chains calls in one script", "One script, two real MCP calls, the first result fed to the second; the summary updates live after each call.", stepChain},
	{"What a script receives", "A call resolves to the tool's output: structured content as an object, else its text, else null. Images go to the model as attachments.", stepValues},
	{"Truncation and search with a small budget", "A second session with a small catalog budget: the catalog says what it leaves out, names every server, and teaches search over the whole pool.", stepTruncation},
	{"A permission prompt", "Nested calls pass the same permission gate as direct calls. These settings allow the built-in tools but ask before a delete.", stepPermission},
	{"A server connects: the catalog update", "The weather server was offline when the second session started. When it connects, the next request appends a short update, not the whole catalog.", stepServerConnects},
	{"The switch flipped in the settings file", "enableExec is hot-reloaded: off, the MCP tools return as flat declarations and the catalog is withdrawn; on again, Exec and a full catalog come back.", stepSwitch},
	{"Any MCP client gets Exec: the gateway", "`mcpexec serve` is an MCP server: a client pointed at it instead of at its servers sees one Exec tool carrying the catalog, and gets live progress.", stepGateway},
	{"A hostile script, contained", "Scripts run locked down, in a worker process with a memory cap, under a wall-clock budget. A session with a one-second budget:", stepHostile},
}

// personTimeout is the budget of scripts whose calls a person may be asked
// about: the run's clock keeps ticking while they think.
const personTimeout = 2 * time.Minute

// waitLimit bounds every wait for something asynchronous (a hot reload, a
// reconnect): far above what it takes, so only a real fault hits it.
const waitLimit = 20 * time.Second

// tour is the state the steps share.
type tour struct {
	c   console
	st  style
	exe string
	dir string // settings and the weather server's offline file

	settings string // the main session's settings file
	offline  string // while this file exists, the weather server refuses to start

	prompter permissions.Prompter

	main        *mcpexec.System // default budget, settings file, a person's prompt
	mainHistory *broadcast.History

	small        *mcpexec.System // small catalog budget, weather offline at first
	smallHistory *broadcast.History
}

func runTour(ctx context.Context, c console) int {
	t, err := newTour(c)
	if err == nil {
		err = t.run(ctx)
	}
	t.close()
	switch {
	case err == nil:
		t.outro()
		return exitOK
	case ctx.Err() != nil:
		fmt.Fprintln(c.stderr, c.err.bad("demo: interrupted"))
		return exitInterrupted
	default:
		fmt.Fprintln(c.stderr, c.err.bad("demo: "+shortError(err)))
		return exitFailed
	}
}

func newTour(c console) (*tour, error) {
	t := &tour{c: c, st: c.out, mainHistory: broadcast.NewHistory(), smallHistory: broadcast.NewHistory()}
	var err error
	if t.exe, err = os.Executable(); err != nil {
		return t, fmt.Errorf("locating this binary for the built-in servers: %w", err)
	}
	if t.dir, err = os.MkdirTemp("", "mcpexec-demo-tour-"); err != nil {
		return t, err
	}
	if t.settings, err = writeDefaultSettings(t.dir); err != nil {
		return t, err
	}
	t.offline = filepath.Join(t.dir, "weather-offline")
	if err := os.WriteFile(t.offline, nil, 0o600); err != nil {
		return t, err
	}
	if c.stdinTerminal {
		t.prompter = newLinePrompter(c.stdin, c.stdout, c.out)
	} else {
		t.prompter = fixedPrompter{
			answer: permissions.Answer{Kind: permissions.AllowOnce},
			out:    c.stdout, style: c.out,
			why: "answered for you: standard input is not a terminal",
		}
	}
	return t, nil
}

func (t *tour) run(ctx context.Context) error {
	t.intro()
	servers, err := defaultServers(t.exe)
	if err != nil {
		return err
	}
	if t.main, err = t.start(ctx, mcpexec.Options{
		Servers: servers, SettingsPath: t.settings, Prompter: t.prompter,
		Limits: mcpexec.Limits{Timeout: personTimeout},
	}); err != nil {
		return err
	}
	for i, step := range tourSteps {
		t.heading(i+1, step)
		if err := step.run(ctx, t); err != nil {
			return fmt.Errorf("step %d (%s): %w", i+1, step.title, err)
		}
	}
	return nil
}

// start starts a System for the tour and waits for its servers.
func (t *tour) start(ctx context.Context, opts mcpexec.Options) (*mcpexec.System, error) {
	opts.Workers.Warm = 1
	s, err := mcpexec.Start(ctx, opts)
	if err != nil {
		return nil, err
	}
	if err := s.WaitReady(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// startSmall starts the second session: a small catalog budget, and the
// weather server held offline until stepServerConnects.
func (t *tour) startSmall(ctx context.Context) error {
	servers, err := defaultServers(t.exe)
	if err != nil {
		return err
	}
	for i := range servers {
		if servers[i].Name == "weather" {
			servers[i].Args = append(servers[i].Args, "--offline-while", t.offline)
		}
	}
	t.small, err = t.start(ctx, mcpexec.Options{
		Servers: servers, SettingsPath: t.settings, Prompter: t.prompter,
		CatalogBudget: smallBudget,
	})
	return err
}

// startHostile starts a session with a one-second budget, for scripts that
// never end on their own.
func (t *tour) startHostile(ctx context.Context) (*mcpexec.System, error) {
	return t.start(ctx, mcpexec.Options{
		Servers:      []pool.ServerConfig{{Name: "text", Command: t.exe, Args: []string{"serve-mcp", "text"}}},
		SettingsPath: t.settings,
		Limits:       mcpexec.Limits{Timeout: time.Second},
		Workers:      mcpexec.WorkerOptions{MemoryLimit: 256 << 20},
	})
}

// smallBudget is the second session's catalog budget, in estimated tokens:
// about two entries.
const smallBudget = 120

func (t *tour) close() {
	for _, s := range []*mcpexec.System{t.main, t.small} {
		if s != nil {
			_ = s.Close()
		}
	}
	if t.dir != "" {
		_ = os.RemoveAll(t.dir)
	}
}

// waitFor polls cond until it holds, ctx ends or waitLimit passes.
func waitFor(ctx context.Context, what string, cond func() bool) error {
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("gave up waiting for %s", what)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
	return nil
}

var errUnexpected = errors.New("unexpected result")
