package agent

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Setup names what a benchmark run needs on this machine: the mcpexec binary
// under test and the npm packages `make deps` installs.
type Setup struct {
	// MCPExec is the built mcpexec binary whose `serve` the agent talks to.
	MCPExec string
	// Tools is the directory `make deps` installs into (the module's .tools).
	Tools string
	// Node runs the tokenizer and the HTTP server; empty means `node` on PATH.
	Node string
}

// The npm packages, where `make deps` puts them.
func (s Setup) filesystemBin() string {
	return filepath.Join(s.Tools, "bench/node_modules/.bin/mcp-server-filesystem")
}

func (s Setup) memoryBin() string {
	return filepath.Join(s.Tools, "bench/node_modules/.bin/mcp-server-memory")
}

func (s Setup) everythingMain() string {
	return filepath.Join(s.Tools, "npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
}

func (s Setup) tokenizerModules() string {
	return filepath.Join(s.Tools, "bench")
}

func (s Setup) node() (string, error) {
	if s.Node != "" {
		return s.Node, nil
	}
	return exec.LookPath("node")
}

// Check says what is missing, before any server is started.
func (s Setup) Check() error {
	for _, p := range []string{s.MCPExec, s.filesystemBin(), s.memoryBin(), s.everythingMain(),
		filepath.Join(s.tokenizerModules(), "node_modules/gpt-tokenizer/package.json")} {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("%s is missing: run `make deps` (and build mcpexec) first", p)
		}
	}
	if _, err := s.node(); err != nil {
		return fmt.Errorf("node is needed for the tokenizer and the HTTP server: %w", err)
	}
	return nil
}
