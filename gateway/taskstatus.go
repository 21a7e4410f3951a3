package gateway

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A task's client hears of each change of its status in a
// notifications/tasks/status. Over stdio the gateway holds the connection
// and writes it there (taskWire). In an HTTP session the SDK's handler
// holds the connection, and a ServerSession sends only the notifications
// of the SDK's own table.
//
// Two ways were open. One: serve sessions with a handler of our own around
// mcp.StreamableServerTransport, holding each connection as stdio does; but
// then everything the SDK's handler does (session ids, DELETE, the idle
// timeout, the localhost and cross-origin checks, the protocol-version
// header, the body limit) would have to be kept equal, at every SDK
// update. The other, taken here: send a notification the SDK can write, a
// notifications/progress under a reserved progress token that carries the
// task in its _meta, and rename it on the wire, in the response of the
// session's event stream, as the SDK writes it (one Write per event). The
// token holds a random secret of the process, so no progress token a
// client chose can be taken for it; every other event passes byte for
// byte.
//
// Sent with a context of no request, the notification goes to the
// session's standalone event stream, the one its client opens with GET
// (the TypeScript and Go SDKs open it once initialized), so only that
// stream's response is watched. A session without one open misses it, as
// the SDK drops what it cannot deliver: the notifications are optional,
// and a client polls tasks/get anyway.

const (
	methodTaskStatus = "notifications/tasks/status"
	// taskStatusKey is the _meta key of the task a progress notification
	// carries to be renamed.
	taskStatusKey = "io.mcpexec/task-status"
)

// taskStatusToken is the progress token of the notifications to rename.
var taskStatusToken = taskStatusKey + "/" + rand.Text()

// taskNotifier is how a task that call started tells its client of a
// change of status: nil where there is no way.
func (g *Gateway) taskNotifier(call *mcp.CallToolRequest) func(taskInfo) {
	if call.Extra != nil && call.Extra.Header.Get(tasksCarriedHeader) != "" {
		ss := call.Session
		return func(info taskInfo) {
			// The gateway's lifetime, not the call's: the call has been
			// answered, and a context of no request sends to the session's
			// event stream.
			_ = ss.NotifyProgress(g.lifetime, &mcp.ProgressNotificationParams{
				ProgressToken: taskStatusToken, Meta: mcp.Meta{taskStatusKey: info}})
		}
	}
	if w := g.tasksWire(); w != nil {
		return func(info taskInfo) { _ = w.notify(g.lifetime, methodTaskStatus, info) }
	}
	return nil
}

// taskStatusWriter is the response of a session's event stream: the task
// status notifications written to it are renamed.
type taskStatusWriter struct {
	http.ResponseWriter
}

// Unwrap lets http.ResponseController reach the connection: the SDK
// flushes each event through one.
func (w taskStatusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Write writes p, an event as the SDK writes them, renamed if it is a task
// status notification.
func (w taskStatusWriter) Write(p []byte) (int, error) {
	if !bytes.Contains(p, []byte(taskStatusToken)) {
		return w.ResponseWriter.Write(p)
	}
	renamed, ok := renamedTaskStatus(p)
	if !ok {
		return w.ResponseWriter.Write(p)
	}
	if _, err := w.ResponseWriter.Write(renamed); err != nil {
		return 0, err
	}
	return len(p), nil
}

// renamedTaskStatus is event with its data, a progress notification under
// taskStatusToken, replaced by the notifications/tasks/status of the task
// it carries; ok is false for any other event.
func renamedTaskStatus(event []byte) (renamed []byte, ok bool) {
	lines := bytes.SplitAfter(event, []byte("\n"))
	for i, line := range lines {
		data, found := bytes.CutPrefix(line, []byte("data: "))
		if !found {
			continue
		}
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Meta          map[string]json.RawMessage `json:"_meta"`
				ProgressToken any                        `json:"progressToken"`
			} `json:"params"`
		}
		if json.Unmarshal(data, &msg) != nil || msg.Method != "notifications/progress" {
			return nil, false
		}
		task := msg.Params.Meta[taskStatusKey]
		if token, _ := msg.Params.ProgressToken.(string); token != taskStatusToken || task == nil {
			return nil, false
		}
		out, err := json.Marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			Method  string          `json:"method"`
			Params  json.RawMessage `json:"params"`
		}{"2.0", methodTaskStatus, task})
		if err != nil {
			return nil, false
		}
		lines[i] = append(append([]byte("data: "), out...), '\n')
		return bytes.Join(lines, nil), true
	}
	return nil, false
}
