package pool

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/elicit"
)

// A task that waits for input has its tasks/result under way, and that
// can answer before any tasks/get sees the task end. The call still
// reports the task ended, or a live summary would show its status line
// after the call returned.
func TestATaskEndedByItsResultIsReportedEnded(t *testing.T) {
	m := managerOfTaskTool(t, ServerConfig{Name: "asker", Dial: dialAskingTask}, elicit.Unattended("no person in this test"), "mcp__asker__ask")
	log := newStatusLog()
	res, err := m.Call(WithTaskStatus(context.Background(), log.record), "mcp__asker__ask", json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if fmtValue(res) != "answered" {
		t.Errorf("result = %q, want the task's result", fmtValue(res))
	}
	if got := log.statuses(); !slices.Equal(got, []string{taskInputRequired, taskCompleted}) {
		t.Errorf("statuses = %v, want input_required then completed", got)
	}
}

// dialAskingTask connects to a server whose one tool, ask, runs as a task
// that waits for input from its creation; its tasks/result answers at
// once, and it asks to be polled so seldom that no tasks/get comes first.
func dialAskingTask(context.Context) (mcp.Transport, error) {
	client, server := net.Pipe()
	go serveAskingTask(server)
	return &mcp.IOTransport{Reader: client, Writer: client}, nil
}

func serveAskingTask(conn net.Conn) {
	defer conn.Close()
	task := map[string]any{"taskId": "t1", "status": taskInputRequired, "statusMessage": "waiting for input",
		"createdAt": "2026-01-01T00:00:00Z", "lastUpdatedAt": "2026-01-01T00:00:00Z", "ttl": 600000, "pollInterval": 3600000}
	results := map[string]any{
		"initialize": map[string]any{"protocolVersion": "2025-11-25", "serverInfo": map[string]any{"name": "asker", "version": "1"},
			"capabilities": map[string]any{"tools": map[string]any{}, "tasks": map[string]any{"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}}},
		"tools/list": map[string]any{"tools": []any{map[string]any{"name": "ask", "inputSchema": map[string]any{"type": "object"},
			"execution": map[string]any{"taskSupport": TaskRequired}}}},
		"tools/call":   map[string]any{"task": task},
		"tasks/get":    task,
		"tasks/result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "answered"}}},
		"tasks/cancel": map[string]any{"taskId": "t1", "status": taskCancelled},
	}
	lines := bufio.NewScanner(conn)
	for lines.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(lines.Bytes(), &req) != nil || req.ID == nil {
			continue // a notification
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		if res, ok := results[req.Method]; ok {
			reply["result"] = res
		} else {
			reply["error"] = map[string]any{"code": -32601, "message": "method not found"}
		}
		out, _ := json.Marshal(reply)
		if _, err := conn.Write(append(out, '\n')); err != nil {
			return
		}
	}
}
