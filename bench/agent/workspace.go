package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Workspace is the servers' state for one run of one task: the directory the
// filesystem server may touch and the memory server's graph file. Every run
// starts from the task's seed, so flat and code mode meet the same world.
type Workspace struct {
	// Files is the filesystem server's one allowed directory (its cwd too,
	// so the agent's paths are relative and the same on every machine).
	Files string
	// MemoryFile is the memory server's graph, one JSON object per line.
	MemoryFile string

	setup Setup
}

func newWorkspace(dir string, setup Setup) (*Workspace, error) {
	ws := &Workspace{Files: filepath.Join(dir, "files"), MemoryFile: filepath.Join(dir, "memory.jsonl"), setup: setup}
	return ws, os.MkdirAll(ws.Files, 0o755)
}

// WriteFile puts a seed file at a path relative to Files.
func (ws *Workspace) WriteFile(rel, content string) error {
	p := filepath.Join(ws.Files, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(content), 0o644)
}

// ReadFile reads a file the agent should have written, relative to Files.
func (ws *Workspace) ReadFile(rel string) (string, error) {
	b, err := os.ReadFile(filepath.Join(ws.Files, rel))
	return string(b), err
}

// Entity and Relation are the memory server's graph, as it stores and
// returns them.
type Entity struct {
	Name         string   `json:"name"`
	EntityType   string   `json:"entityType"`
	Observations []string `json:"observations"`
}

type Relation struct {
	From         string `json:"from"`
	To           string `json:"to"`
	RelationType string `json:"relationType"`
}

type Graph struct {
	Entities  []Entity   `json:"entities"`
	Relations []Relation `json:"relations"`
}

// Entity finds an entity by name.
func (g Graph) Entity(name string) (Entity, bool) {
	for _, e := range g.Entities {
		if e.Name == name {
			return e, true
		}
	}
	return Entity{}, false
}

// SeedGraph writes a graph in the memory server's file format.
func (ws *Workspace) SeedGraph(g Graph) error {
	var out []byte
	for _, e := range g.Entities {
		line, err := json.Marshal(struct {
			Type string `json:"type"`
			Entity
		}{"entity", e})
		if err != nil {
			return err
		}
		out = append(append(out, line...), '\n')
	}
	for _, r := range g.Relations {
		line, err := json.Marshal(struct {
			Type string `json:"type"`
			Relation
		}{"relation", r})
		if err != nil {
			return err
		}
		out = append(append(out, line...), '\n')
	}
	return os.WriteFile(ws.MemoryFile, out, 0o644)
}

// Graph asks the memory server itself (read_graph, over a connection of its
// own) what it holds, rather than trusting the file's format.
func (ws *Workspace) Graph(ctx context.Context) (Graph, error) {
	cmd := exec.CommandContext(ctx, ws.setup.memoryBin())
	cmd.Env = append(os.Environ(), "MEMORY_FILE_PATH="+ws.MemoryFile)
	session, err := mcp.NewClient(&mcp.Implementation{Name: "benchagent-check", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return Graph{}, fmt.Errorf("starting the memory server to read its graph: %w", err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "read_graph", Arguments: map[string]any{}})
	if err != nil {
		return Graph{}, fmt.Errorf("memory read_graph: %w", err)
	}
	var g Graph
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return Graph{}, err
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		return Graph{}, fmt.Errorf("memory read_graph gave no graph: %w", err)
	}
	return g, nil
}
