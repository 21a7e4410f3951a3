package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Run is one task done in one mode.
type Run struct {
	Task string
	Mode Mode
	// Calls is the tool calls made; Turns is one more (the answer).
	Calls, Turns int
	Tokens       Tokens
	// Wall is the time spent in tool calls, from the first call's start to
	// the last result (a real model's thinking time would add per turn).
	Wall time.Duration
	// Problem is why the run is not right; empty when the final state
	// and answer checked out.
	Problem string
}

// OK says whether the final state checked out.
func (r Run) OK() bool { return r.Problem == "" }

// Bench holds what the runs share: the HTTP server, started once.
type Bench struct {
	setup  Setup
	remote *remote
}

// Start checks the setup and starts the HTTP server.
func Start(ctx context.Context, setup Setup) (*Bench, error) {
	// The servers run in their workspaces: their paths must not be relative.
	var err error
	if setup.Tools, err = filepath.Abs(setup.Tools); err != nil {
		return nil, err
	}
	if setup.MCPExec, err = filepath.Abs(setup.MCPExec); err != nil {
		return nil, err
	}
	if err := setup.Check(); err != nil {
		return nil, err
	}
	r, err := startRemote(ctx, setup)
	if err != nil {
		return nil, err
	}
	return &Bench{setup: setup, remote: r}, nil
}

// Close stops the HTTP server.
func (b *Bench) Close() { b.remote.Stop() }

// Run does a task in one mode from a fresh seed and checks the outcome. An
// error is a failure of the benchmark's own machinery; a task done wrong is
// a Run with a Problem.
func (b *Bench) Run(ctx context.Context, task Task, mode Mode) (Run, error) {
	run := Run{Task: task.Name, Mode: mode}
	dir, err := os.MkdirTemp("", "benchagent-")
	if err != nil {
		return run, err
	}
	defer os.RemoveAll(dir)
	ws, err := newWorkspace(dir, b.setup)
	if err != nil {
		return run, err
	}
	if task.Seed != nil {
		if err := task.Seed(ws); err != nil {
			return run, fmt.Errorf("%s: seeding: %w", task.Name, err)
		}
	}

	g, err := startGateway(ctx, b.setup, dir, ws, b.remote.URL, task.Servers, mode)
	if err != nil {
		return run, fmt.Errorf("%s (%s): %w", task.Name, mode, err)
	}
	c, err := readContext(ctx, g, task, mode)
	if err != nil {
		g.close()
		return run, fmt.Errorf("%s (%s): %w", task.Name, mode, err)
	}

	agent := &Agent{ctx: ctx, session: g.session}
	trajectory := task.Flat
	if mode == Code {
		trajectory = task.Code
	}
	answer, doErr := trajectory(agent)
	if err := g.close(); err != nil && !errors.Is(err, context.Canceled) {
		return run, fmt.Errorf("%s (%s): closing mcpexec serve: %w (its stderr: %s)", task.Name, mode, err, g.stderr.String())
	}

	run.Calls, run.Turns, run.Wall = len(agent.Steps), len(agent.Steps)+1, agent.Busy
	if run.Tokens, err = countContext(b.setup, c, agent.Steps); err != nil {
		return run, err
	}
	switch {
	case doErr != nil:
		run.Problem = doErr.Error()
	default:
		if err := task.Check(ctx, ws, answer); err != nil {
			run.Problem = err.Error()
		}
	}
	return run, nil
}

// readContext is what the model is given before its first turn, once
// every server of the task is in it: serve answers before its pool has
// connected, and tells of tools as they come with list_changed. It also
// guards against measuring the wrong thing: a gateway that declares Exec in
// flat mode, or anything besides it in code mode.
func readContext(ctx context.Context, g *gateway, task Task, mode Mode) (Context, error) {
	deadline := time.Now().Add(poolWait)
	for {
		c, missing, err := listContext(ctx, g, task, mode)
		if err != nil || len(missing) == 0 {
			return c, err
		}
		if time.Now().After(deadline) {
			return Context{}, fmt.Errorf("the gateway offers no tools of %v after %s (its stderr: %s)", missing, poolWait, g.stderr.String())
		}
		select {
		case <-ctx.Done():
			return Context{}, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// poolWait bounds the wait for the task's servers to join the pool.
const poolWait = 60 * time.Second

// listContext lists the tools once and names the task's servers not yet
// among them.
func listContext(ctx context.Context, g *gateway, task Task, mode Mode) (Context, []Server, error) {
	list, err := g.session.ListTools(ctx, nil)
	if err != nil {
		return Context{}, nil, fmt.Errorf("tools/list: %w", err)
	}
	var decls []toolDecl
	offered := ""
	for _, t := range list.Tools {
		if (t.Name == "Exec") != (mode == Code) {
			return Context{}, nil, fmt.Errorf("the gateway declares %q in %s mode", t.Name, mode)
		}
		decls = append(decls, toolDecl{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
		offered += t.Name + "\n" + t.Description + "\n"
	}
	var missing []Server
	for _, s := range task.Servers {
		if !strings.Contains(offered, "mcp__"+string(s)+"__") {
			missing = append(missing, s)
		}
	}
	d, err := declarations(decls)
	if err != nil {
		return Context{}, nil, err
	}
	return Context{Declarations: d, Instructions: g.session.InitializeResult().Instructions, Prompt: task.Prompt}, missing, nil
}
