package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK decodes a tools/call's params into its own type, which has no
// task field: the 2025-11-25 task parameter would be lost before any hook
// sees it. So it is moved into the request's _meta first, where the SDK
// keeps everything: by the stdio connection as it reads each message
// (taskWire), and over HTTP by the handler, before the SDK reads the body
// (carryTaskParam).

// tasksCarriedHeader marks a request that reached the SDK through
// carryTaskParam: its session is offered tasks. The handler sets it, after
// versionRouter dropped any copy a client sent.
const tasksCarriedHeader = "X-Mcpexec-Tasks-Carried"

func (w *taskWire) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := w.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/call" && bytes.Contains(req.Params, []byte(`"task"`)) {
		req.Params = taskIntoMeta(req.Params)
	}
	return msg, err
}

// carryTaskParam readies r, a request of a session (2025-11-25 or older),
// for tasks: a tools/call's task parameter goes into its _meta. A body too
// large to read here goes on as it is, and the SDK refuses it.
func carryTaskParam(r *http.Request) {
	r.Header.Set(tasksCarriedHeader, "1")
	if r.Method != http.MethodPost || r.Body == nil {
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxPeek+1))
	if err != nil || len(body) > maxPeek || !bytes.Contains(body, []byte(`"task"`)) {
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
		return
	}
	_ = r.Body.Close()
	var msg map[string]json.RawMessage
	if json.Unmarshal(body, &msg) == nil && string(msg["method"]) == `"tools/call"` && msg["params"] != nil {
		msg["params"] = taskIntoMeta(msg["params"])
		if out, err := json.Marshal(msg); err == nil {
			body = out
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.Header.Set("Content-Length", strconv.Itoa(len(body)))
}

// taskIntoMeta moves params.task into params._meta, where the SDK keeps it.
func taskIntoMeta(params json.RawMessage) json.RawMessage {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil || p["task"] == nil {
		return params
	}
	meta := map[string]json.RawMessage{}
	if raw, ok := p["_meta"]; ok && json.Unmarshal(raw, &meta) != nil {
		return params
	}
	meta[taskParamKey] = p["task"]
	delete(p, "task")
	p["_meta"], _ = json.Marshal(meta)
	out, err := json.Marshal(p)
	if err != nil {
		return params
	}
	return out
}

// taskNameMismatch checks the routing header of a 2026-07-28 task method:
// tasks/get, tasks/update and tasks/cancel carry their task id in Mcp-Name,
// as tools/call carries its tool's name (the SDK checks only the methods it
// knows). It returns the refusal of a request whose header is missing or
// names another task, "" for any other request.
func taskNameMismatch(r *http.Request) (refusal []byte) {
	body, ok := peekBody(r)
	if !ok {
		return nil
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			TaskID string `json:"taskId"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil {
		return nil
	}
	switch msg.Method {
	case methodTasksGet, methodTasksUpdate, methodTasksCancel:
	default:
		return nil
	}
	header := strings.Trim(r.Header.Get("Mcp-Name"), " \t")
	if header == msg.Params.TaskID && header != "" {
		return nil
	}
	problem := "missing required Mcp-Name header for method " + strconv.Quote(msg.Method)
	if header != "" {
		problem = "header mismatch: Mcp-Name header value " + strconv.Quote(header) + " does not match the body's taskId " + strconv.Quote(msg.Params.TaskID)
	}
	out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": msg.ID,
		"error": map[string]any{"code": mcp.CodeHeaderMismatch, "message": problem}})
	return out
}
