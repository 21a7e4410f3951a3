package tests

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// conformanceScenarios are the MCP conformance suite's client scenarios the
// demo must pass as the client: every scenario of the suite's "auth" suite,
// the other authorization scenarios the Go SDK's own conformance client
// passes (older servers' discovery fallbacks, issuer checks, refresh
// scopes, authorization server migration), and the core ones, among them a
// server's question answered with the form's defaults and the current
// revision's custom headers and schema preservation.
var conformanceScenarios = []string{
	// The "auth" suite.
	"auth/metadata-default",
	"auth/metadata-var1",
	"auth/metadata-var2",
	"auth/metadata-var3",
	"auth/basic-cimd",
	"auth/scope-from-www-authenticate",
	"auth/scope-from-scopes-supported",
	"auth/scope-omitted-when-undefined",
	"auth/scope-step-up",
	"auth/scope-retry-limit",
	"auth/token-endpoint-auth-basic",
	"auth/token-endpoint-auth-post",
	"auth/token-endpoint-auth-none",
	"auth/pre-registration",
	// Beyond it.
	"auth/2025-03-26-oauth-metadata-backcompat",
	"auth/2025-03-26-oauth-endpoint-fallback",
	"auth/resource-mismatch",
	"auth/offline-access-scope",
	"auth/offline-access-not-supported",
	"auth/authorization-server-migration",
	"auth/iss-supported",
	"auth/iss-not-advertised",
	"auth/iss-supported-missing",
	"auth/iss-wrong-issuer",
	"auth/iss-unexpected",
	"auth/iss-normalized",
	"auth/metadata-issuer-mismatch",
	// Core.
	"initialize",
	"tools_call",
	"sse-retry",
	"elicitation-sep1034-client-defaults",
	// The 2026-07-28 client: parameters marked x-mcp-header sent as
	// Mcp-Param-* headers, tools whose marks are invalid left out of the
	// pool (the script reaches only the valid one), and input schemas kept
	// as served (the flat
	// declaration's schema, echoed back, still holds $schema, $defs, $anchor,
	// allOf/anyOf and if/then/else).
	"http-custom-headers",
	"http-invalid-tool-headers",
	"json-schema-2020-12-preservation",
}

// conformanceParallel is how many scenarios run at once: each one is a
// node process, the demo and its sandbox worker.
const conformanceParallel = 3

// The demo CLI, with a servers file naming the suite's server, is a
// conformant MCP client: it discovers and performs OAuth authorization as
// each scenario's authorization server requires (tests/conformance/client.mjs
// is the adapter the suite runs), then calls the scenario's tool.
func TestConformanceSuiteClientScenarios(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	node := filepath.Join(root, ".tools/node22/node_modules/node/bin/node")
	suite := filepath.Join(root, ".tools/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js")
	for _, f := range []string{node, suite} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s is missing: run `make deps` to install Node 22 and the conformance suite", f)
		}
	}
	adapter := filepath.Join(root, "tests/conformance/client.mjs")
	slots := make(chan struct{}, conformanceParallel)
	for _, scenario := range conformanceScenarios {
		t.Run(scenario, func(t *testing.T) {
			t.Parallel()
			slots <- struct{}{}
			defer func() { <-slots }()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, suite, "client",
				"--command", node+" "+adapter, "--scenario", scenario, "-o", t.TempDir())
			cmd.Dir = t.TempDir()
			cmd.Env = append(os.Environ(), "MCPEXEC_DEMO="+demoBin, "NO_COLOR=1")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Errorf("scenario %s failed (%v):\n%s", scenario, err, tail(out.String(), 8000))
			}
		})
	}
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("...%s", s[len(s)-n:])
}
