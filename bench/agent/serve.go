package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Mode is how the gateway offers the servers' tools.
type Mode string

const (
	// Flat has Exec switched off: every tool declared on its own.
	Flat Mode = "flat"
	// Code is the single Exec tool and its catalog.
	Code Mode = "code"
)

// Server names a pool member a task uses, under the name the gateway
// gives its tools (mcp__fs__..., mcp__memory__..., mcp__everything__...).
type Server string

const (
	Filesystem Server = "fs"
	Memory     Server = "memory"
	// Everything is server-everything reached over streamable HTTP.
	Everything Server = "everything"
)

// gateway is one `mcpexec serve` for one run, and the client session to it.
type gateway struct {
	session *mcp.ClientSession
	cmd     *exec.Cmd
	stderr  *lockedBuffer
}

// startGateway writes the run's servers and settings files and starts
// `mcpexec serve` over stdio with only the task's servers in its pool.
func startGateway(ctx context.Context, setup Setup, dir string, ws *Workspace, httpURL string, servers []Server, mode Mode) (*gateway, error) {
	entries := map[string]any{}
	var allow []string
	for _, s := range servers {
		switch s {
		case Filesystem:
			entries[string(s)] = map[string]any{"command": setup.filesystemBin(), "args": []string{"."}, "cwd": ws.Files}
		case Memory:
			entries[string(s)] = map[string]any{"command": setup.memoryBin(), "env": map[string]string{"MEMORY_FILE_PATH": ws.MemoryFile}}
		case Everything:
			entries[string(s)] = map[string]any{"url": httpURL}
		default:
			return nil, fmt.Errorf("unknown server %q", s)
		}
		allow = append(allow, "mcp__"+string(s))
	}
	serversFile := filepath.Join(dir, "servers.json")
	if err := writeJSON(serversFile, map[string]any{"mcpServers": entries}); err != nil {
		return nil, err
	}
	// Every call is allowed: the benchmark measures calls, not prompts.
	settingsFile := filepath.Join(dir, "settings.json")
	if err := writeJSON(settingsFile, map[string]any{"enableExec": mode == Code, "permissions": map[string]any{"allow": allow}}); err != nil {
		return nil, err
	}

	g := &gateway{stderr: &lockedBuffer{}}
	g.cmd = exec.Command(setup.MCPExec, "serve", "--servers", serversFile, "--settings", settingsFile, "--no-learn")
	g.cmd.Env = append(os.Environ(), "MCPEXEC_CACHE_DIR="+filepath.Join(dir, "cache"))
	g.cmd.Stderr = g.stderr
	session, err := mcp.NewClient(&mcp.Implementation{Name: "benchagent", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: g.cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("starting mcpexec serve: %w (its stderr: %s)", err, g.stderr.String())
	}
	g.session = session
	return g, nil
}

// close ends the session; serve exits when its stdin closes, stopping the
// pool's servers with it.
func (g *gateway) close() error {
	return g.session.Close()
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// lockedBuffer collects a child's stderr while the child may still write.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
