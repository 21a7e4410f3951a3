package test262

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// nodeEngineSource is the Node side of the Node engine.
//
//go:embed node_engine.js
var nodeEngineSource string

// Node runs the scripts in Node processes (the reference the sandbox is
// measured against), one job at a time per process, each script in a fresh
// context of its own. A process that stops answering within the timeout is
// killed and replaced.
type Node struct {
	binary string
	file   string // node_engine.js, written out
	idle   chan *nodeProcess
	mu     sync.Mutex
	all    map[*nodeProcess]bool
}

// NewNode starts nothing yet: processes start as runs need them, at most
// parallel of them.
func NewNode(binary string, parallel int) (*Node, error) {
	dir, err := os.MkdirTemp("", "test262-node")
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, "node_engine.js")
	if err := os.WriteFile(file, []byte(nodeEngineSource), 0o600); err != nil {
		return nil, err
	}
	n := &Node{binary: binary, file: file, idle: make(chan *nodeProcess, parallel), all: make(map[*nodeProcess]bool)}
	return n, nil
}

type nodeProcess struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	next int
}

type nodeAnswer struct {
	ID      int    `json:"id"`
	Phase   string `json:"phase"`
	Type    string `json:"type"`
	Message string `json:"message"`
	Printed string `json:"printed"`
}

func (n *Node) process() (*nodeProcess, error) {
	select {
	case p := <-n.idle:
		return p, nil
	default:
	}
	cmd := exec.Command(n.binary, n.file)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start node: %w", err)
	}
	p := &nodeProcess{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	n.mu.Lock()
	n.all[p] = true
	n.mu.Unlock()
	return p, nil
}

func (n *Node) retire(p *nodeProcess) {
	_ = p.cmd.Process.Kill()
	_ = p.in.Close()
	_ = p.cmd.Wait()
	n.mu.Lock()
	delete(n.all, p)
	n.mu.Unlock()
}

// Run sends the script to an idle process and waits for its answer.
func (n *Node) Run(ctx context.Context, script string) Outcome {
	p, err := n.process()
	if err != nil {
		return Outcome{Phase: "runtime", Message: err.Error()}
	}
	p.next++
	job, _ := json.Marshal(map[string]any{"id": p.next, "script": script, "timeoutMs": Timeout.Milliseconds()})
	answered := make(chan nodeAnswer, 1)
	failed := make(chan error, 1)
	go func() {
		if _, err := p.in.Write(append(job, '\n')); err != nil {
			failed <- err
			return
		}
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			failed <- err
			return
		}
		var a nodeAnswer
		if err := json.Unmarshal(line, &a); err != nil {
			failed <- err
			return
		}
		answered <- a
	}()
	select {
	case a := <-answered:
		n.idle <- p
		return Outcome{Phase: a.Phase, Type: a.Type, Message: a.Message, Printed: a.Printed}
	case err := <-failed:
		n.retire(p)
		return Outcome{Phase: "runtime", Message: "node failed: " + err.Error()}
	case <-ctx.Done():
		n.retire(p)
		return Outcome{Phase: "runtime", Message: "node did not answer in time"}
	}
}

// Close stops every process.
func (n *Node) Close() error {
	n.mu.Lock()
	procs := make([]*nodeProcess, 0, len(n.all))
	for p := range n.all {
		procs = append(procs, p)
	}
	n.mu.Unlock()
	for _, p := range procs {
		n.retire(p)
	}
	return os.RemoveAll(filepath.Dir(n.file))
}
