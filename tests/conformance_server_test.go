package tests

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// conformanceServerScenarios are the MCP conformance suite's server
// scenarios that need no test-specific tools or prompts on the server.
var conformanceServerScenarios = []string{"server-initialize", "ping", "tools-list", "dns-rebinding-protection"}

// `mcpexec serve --http` passes the conformance suite's server scenarios
// that apply to a server offering only its own tools.
func TestConformanceSuiteServerScenarios(t *testing.T) {
	node, dirs := nodeTools(t, "conformance")
	suite := filepath.Join(dirs[0], "node_modules/@modelcontextprotocol/conformance/dist/index.js")
	g := startHTTPGateway(t)
	for _, scenario := range conformanceServerScenarios {
		t.Run(scenario, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), runLimit)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, suite, "server", "--url", g.url, "--scenario", scenario)
			cmd.Dir = t.TempDir()
			cmd.Env = append(os.Environ(), "NO_COLOR=1")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Errorf("scenario %s failed (%v):\n%s", scenario, err, out.String())
			}
		})
	}
}
