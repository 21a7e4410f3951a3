package tests

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// conformanceServerScenarios are the MCP conformance suite's server
// scenarios that need no test-specific tools or prompts on the server, for
// clients of 2025-11-25 and older (sessions).
var conformanceServerScenarios = []string{"server-initialize", "ping", "tools-list", "dns-rebinding-protection"}

// conformanceServerScenarios20260728 are the scenarios of the 2026-07-28
// revision that any server must pass (stateless requests, their HTTP
// header rules, cacheable lists).
var conformanceServerScenarios20260728 = []string{
	"server-stateless", "caching", "http-header-validation", "tools-list", "dns-rebinding-protection", "server-sse-multiple-streams",
}

// conformanceTasksScenarios are the scenarios of the tasks extension
// whose checks need more than the suite's fixture tools; they are run with
// --force, the suite keeping extensions off its version timeline.
var conformanceTasksScenarios = []string{"tasks-capability-negotiation", "tasks-dispatch-and-envelope"}

// `mcpexec serve --http` passes the conformance suite's server scenarios
// that apply to a server offering only its own tools, for clients of
// 2025-11-25 and of 2026-07-28 at the same URL, and the tasks extension's. A few 2026-07-28 checks
// need diagnostic tools only a test server offers; they are listed in
// testdata as not testable here, and the suite fails if one of them starts
// to pass (the list is then stale) or anything else fails.
func TestConformanceSuiteServerScenarios(t *testing.T) {
	node, dirs := nodeTools(t, "conformance")
	suite := filepath.Join(dirs[0], "node_modules/@modelcontextprotocol/conformance/dist/index.js")
	untestable, err := filepath.Abs("testdata/conformance-server-2026-07-28-untestable.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tasksUntestable, err := filepath.Abs("testdata/conformance-server-tasks-untestable.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := startHTTPGateway(t)
	type run struct{ name, scenario string }
	var runs []run
	for _, s := range conformanceServerScenarios {
		runs = append(runs, run{s, s})
	}
	for _, s := range conformanceServerScenarios20260728 {
		runs = append(runs, run{"2026-07-28/" + s, s})
	}
	for _, s := range conformanceTasksScenarios {
		runs = append(runs, run{"2026-07-28/tasks/" + s, s})
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), runLimit)
			defer cancel()
			args := []string{suite, "server", "--url", g.url, "--scenario", r.scenario}
			switch {
			case strings.HasPrefix(r.name, "2026-07-28/tasks/"):
				args = append(args, "--spec-version", "2026-07-28", "--force", "--expected-failures", tasksUntestable)
			case strings.HasPrefix(r.name, "2026-07-28/"):
				args = append(args, "--spec-version", "2026-07-28", "--expected-failures", untestable)
			}
			cmd := exec.CommandContext(ctx, node, args...)
			cmd.Dir = t.TempDir()
			cmd.Env = append(os.Environ(), "NO_COLOR=1")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Errorf("scenario %s failed (%v):\n%s", r.name, err, out.String())
			}
		})
	}
}
