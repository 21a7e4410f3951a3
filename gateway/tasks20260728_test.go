package gateway

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec"
)

// statelessClient sends 2026-07-28 requests over HTTP as a client named
// name, declaring the tasks extension when tasks is set.
type statelessClient struct {
	url, name string
	tasks     bool
	// routedAs, when set, is the Mcp-Name header sent instead of the
	// request's own.
	routedAs string
}

// rpcReply is a JSON-RPC response: its result, or its error.
type rpcReply struct {
	Result map[string]any `json:"result"`
	Error  *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func (c statelessClient) call(t *testing.T, method string, params map[string]any) rpcReply {
	t.Helper()
	caps := map[string]any{"elicitation": map[string]any{}}
	if c.tasks {
		caps["extensions"] = map[string]any{tasksExtension: map[string]any{}}
	}
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]any{
		metaProtocolVersion:                          protocol20260728,
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": c.name, "version": "1"},
		"io.modelcontextprotocol/clientCapabilities": caps,
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(protocolVersionHeader, protocol20260728)
	req.Header.Set("Mcp-Method", method)
	if name, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", name)
	} else if id, ok := params["taskId"].(string); ok {
		req.Header.Set("Mcp-Name", id)
	}
	if c.routedAs != "" {
		req.Header.Set("Mcp-Name", c.routedAs)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var raw []byte
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		lines := bufio.NewScanner(res.Body)
		lines.Buffer(nil, 1<<22)
		for lines.Scan() {
			if data, ok := strings.CutPrefix(lines.Text(), "data: "); ok && strings.Contains(data, `"id"`) {
				raw = []byte(data)
			}
		}
	} else {
		var buf bytes.Buffer
		_, _ = buf.ReadFrom(res.Body)
		raw = buf.Bytes()
	}
	var reply rpcReply
	if err := json.Unmarshal(raw, &reply); err != nil {
		t.Fatalf("%s: HTTP %d, reply %q: %v", method, res.StatusCode, raw, err)
	}
	return reply
}

// task calls Exec with code and returns the task it became.
func (c statelessClient) execTask(t *testing.T, code string) string {
	t.Helper()
	r := c.call(t, "tools/call", map[string]any{"name": "Exec", "arguments": map[string]any{"code": code}})
	if r.Error != nil || r.Result["resultType"] != "task" || r.Result["taskId"] == nil || r.Result["task"] != nil {
		t.Fatalf("Exec of a client with the extension: %+v %v, want a flat CreateTaskResult", r.Error, r.Result)
	}
	for _, field := range []string{"status", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs"} {
		if r.Result[field] == nil {
			t.Errorf("CreateTaskResult lacks %s: %v", field, r.Result)
		}
	}
	if r.Result["requestState"] != nil || r.Result["ttl"] != nil {
		t.Errorf("CreateTaskResult carries fields of another shape: %v", r.Result)
	}
	return r.Result["taskId"].(string)
}

// until polls tasks/get until the task's status is one of want.
func (c statelessClient) until(t *testing.T, id string, want ...string) map[string]any {
	t.Helper()
	var last map[string]any
	eventually(t, "task "+id+" to be "+strings.Join(want, " or "), func() bool {
		r := c.call(t, "tasks/get", map[string]any{"taskId": id})
		if r.Error != nil {
			t.Fatalf("tasks/get: %+v", r.Error)
		}
		last = r.Result
		for _, w := range want {
			if last["status"] == w {
				return true
			}
		}
		return false
	})
	if last["resultType"] != "complete" || last["taskId"] != id {
		t.Errorf("tasks/get answered %v", last)
	}
	return last
}

// resultText is the first text of a task's inlined result.
func resultText(task map[string]any) (text string, isError bool) {
	res, _ := task["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) > 0 {
		first, _ := content[0].(map[string]any)
		text, _ = first["text"].(string)
	}
	isError, _ = res["isError"].(bool)
	return text, isError
}

// A client of 2026-07-28 that declares the tasks extension gets a script
// still running after a moment as a task: server/discover declares the
// extension, tasks/get polls it to completed with the result inlined, a
// question reaches it as inputRequests and tasks/update answers it, a
// script that throws is completed with an isError result, and
// tasks/cancel stops a script, acked without a task; a task method's
// Mcp-Name header must name its task. The task is its
// client's alone; a client without the extension gets plain results and
// is refused the task methods; the v1 methods are not part of it.
func TestExecAsATaskOfTheTasksExtension20260728(t *testing.T) {
	f := start(t, askEcho, mcpexec.Options{})
	srv := httptest.NewServer(f.gw.Handler(HTTPOptions{}))
	defer srv.Close()
	c := statelessClient{url: srv.URL, name: "tasks", tasks: true}

	discover := c.call(t, "server/discover", nil)
	caps, _ := discover.Result["capabilities"].(map[string]any)
	ext, _ := caps["extensions"].(map[string]any)
	if ext[tasksExtension] == nil || caps["tasks"] != nil {
		t.Errorf("server/discover capabilities %v, want the extension and no v1 tasks", caps)
	}

	// A script that outlasts the moment becomes a task; polled to its end.
	id := c.execTask(t, `await new Promise(r => setTimeout(r, 2000)); return "slept"`)
	if got := c.call(t, "tasks/get", map[string]any{"taskId": id}); got.Error != nil || got.Result["taskId"] != id {
		t.Errorf("tasks/get right after creation: %+v %v", got.Error, got.Result)
	}
	done := c.until(t, id, "completed", "failed", "cancelled")
	if text, isError := resultText(done); done["status"] != "completed" || isError || text != "slept" {
		t.Errorf("ended task %v, want completed with the result", done)
	}
	if res, _ := done["result"].(map[string]any); res != nil {
		if meta, _ := res["_meta"].(map[string]any); meta[relatedTaskKey] != nil {
			t.Errorf("inlined result carries the v1 related-task key: %v", meta)
		}
	}

	// Another client does not see it.
	other := statelessClient{url: srv.URL, name: "someone else", tasks: true}
	if r := other.call(t, "tasks/get", map[string]any{"taskId": id}); r.Error == nil || r.Error.Code != -32602 {
		t.Errorf("another client's tasks/get: %+v, want -32602", r.Error)
	}

	// A question: input_required with inputRequests, answered by tasks/update.
	id = c.execTask(t, `await new Promise(r => setTimeout(r, 2000)); return await tools.mcp__b__echo({x: 1})`)
	waiting := c.until(t, id, "input_required", "completed", "failed", "cancelled")
	requests, _ := waiting["inputRequests"].(map[string]any)
	if waiting["status"] != "input_required" || len(requests) != 1 {
		t.Fatalf("task waiting for a person: %v", waiting)
	}
	responses := map[string]any{}
	for key := range requests {
		responses[key] = map[string]any{"action": "accept", "content": map[string]any{"answer": "allow once"}}
	}
	ack := c.call(t, "tasks/update", map[string]any{"taskId": id, "inputResponses": responses})
	if ack.Error != nil || ack.Result["resultType"] != "complete" || ack.Result["taskId"] != nil {
		t.Errorf("tasks/update: %+v %v, want an empty ack", ack.Error, ack.Result)
	}
	done = c.until(t, id, "completed", "failed", "cancelled")
	if text, isError := resultText(done); isError || !strings.Contains(text, `{"x":1}`) {
		t.Errorf("answered task ended %v, want the echo", done)
	}

	// A script that throws: completed, its result isError.
	id = c.execTask(t, `await new Promise(r => setTimeout(r, 2000)); throw new Error("on purpose")`)
	done = c.until(t, id, "completed", "failed", "cancelled")
	if text, isError := resultText(done); done["status"] != "completed" || !isError || !strings.Contains(text, "on purpose") {
		t.Errorf("a throwing script's task %v, want completed with an isError result", done)
	}

	// tasks/cancel stops the script; acked, again after its end too.
	id = c.execTask(t, `await new Promise(r => setTimeout(r, 600000)); return "never"`)
	for range 2 {
		ack = c.call(t, "tasks/cancel", map[string]any{"taskId": id})
		if ack.Error != nil || ack.Result["resultType"] != "complete" || ack.Result["status"] != nil {
			t.Errorf("tasks/cancel: %+v %v, want an empty ack", ack.Error, ack.Result)
		}
	}
	if got := c.until(t, id, "cancelled", "completed", "failed"); got["status"] != "cancelled" || got["result"] != nil {
		t.Errorf("cancelled task %v", got)
	}
	misrouted := c
	misrouted.routedAs = "run_another"
	if r := misrouted.call(t, "tasks/get", map[string]any{"taskId": id}); r.Error == nil || r.Error.Code != -32020 {
		t.Errorf("tasks/get whose Mcp-Name names another task: %+v, want -32020", r.Error)
	}
	if r := c.call(t, "tasks/get", map[string]any{"taskId": "run_unknown"}); r.Error == nil || r.Error.Code != -32602 {
		t.Errorf("tasks/get of an unknown task: %+v, want -32602", r.Error)
	}

	// The methods of the 2025-11-25 tasks are not the extension's.
	for _, method := range []string{"tasks/result", "tasks/list"} {
		if r := c.call(t, method, map[string]any{"taskId": id}); r.Error == nil || r.Error.Code != -32601 {
			t.Errorf("%s: %+v, want -32601", method, r.Error)
		}
	}

	// Without the extension: a plain result, and no task methods.
	plain := statelessClient{url: srv.URL, name: "tasks", tasks: false}
	r := plain.call(t, "tools/call", map[string]any{"name": "Exec", "arguments": map[string]any{"code": `await new Promise(r => setTimeout(r, 1500)); return "plain"`}})
	if r.Error != nil || r.Result["resultType"] != "complete" || r.Result["taskId"] != nil {
		t.Errorf("Exec without the extension: %+v %v, want a plain result", r.Error, r.Result)
	}
	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		r := plain.call(t, method, map[string]any{"taskId": id, "inputResponses": map[string]any{}})
		if r.Error == nil || r.Error.Code != -32021 || !strings.Contains(string(r.Error.Data), tasksExtension) {
			t.Errorf("%s without the extension: %+v, want -32021 naming it", method, r.Error)
		}
	}
}
