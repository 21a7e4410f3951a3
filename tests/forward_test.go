package tests

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/internal/testservers"
)

// forwardCase is a real server process that asks a question during a call,
// and what the gateway's client answers it.
type forwardCase struct {
	server map[string]any
	tool   string
	// schema is the form the server asks to fill.
	schema json.RawMessage
	// answer fills every field (no default applies), so the server must
	// get exactly this.
	answer map[string]any
	// received finds the content the server got in the text of the
	// script's result.
	received func(t *testing.T, text string) map[string]any
}

func forwardCases(t *testing.T) map[string]forwardCase {
	everythingSchema, err := os.ReadFile(filepath.Join("testdata", "everything-elicitation-schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]forwardCase{
		// A Go server process that asks by returning input_required (the
		// current revision's way), which the pool's client answers within
		// the call.
		"input_required": {
			server: testServer(testservers.ContentCommand()),
			tool:   "mcp__content__ask",
			schema: testservers.ElicitSchema,
			answer: map[string]any{"name": "Ada", "color": "blue", "count": 7.0, "notify": false},
			received: func(t *testing.T, text string) map[string]any {
				var got struct {
					Action  string         `json:"action"`
					Content map[string]any `json:"content"`
				}
				if err := json.Unmarshal([]byte(text), &got); err != nil || got.Action != "accept" {
					t.Fatalf("the server's reply %q (%v), want an accepted answer", text, err)
				}
				return got.Content
			},
		},
		// The npm server-everything, which sends elicitation/create in
		// the middle of its call.
		"elicitation/create": {
			server: everythingServer(t),
			tool:   "mcp__everything__trigger-elicitation-request",
			schema: everythingSchema,
			answer: map[string]any{
				"name": "Ada Lovelace", "check": true, "firstLine": "Call me Ishmael.", "email": "ada@example.com",
				"homepage": "https://example.com/ada", "birthdate": "1815-12-10", "integer": 7.0, "number": 2.5,
				"untitledSingleSelectEnum": "Joey", "untitledMultipleSelectEnum": []any{"Piano", "Drums"},
				"titledSingleSelectEnum": "hero-3", "titledMultipleSelectEnum": []any{"fish-2"}, "legacyTitledEnum": "pet-2",
			},
			received: func(t *testing.T, text string) map[string]any {
				_, raw, ok := strings.Cut(text, "Raw result: ")
				var got struct {
					Action  string         `json:"action"`
					Content map[string]any `json:"content"`
				}
				if !ok || json.Unmarshal([]byte(raw), &got) != nil || got.Action != "accept" {
					t.Fatalf("the server's reply %q, want its raw accepted answer", text)
				}
				return got.Content
			},
		},
	}
}

// A question an upstream server asks during a nested call reaches the
// client of `mcpexec serve` (stdio) that ran the script, in both protocol
// versions: within its Exec call for a 2025-11-25 client, as input_required
// (answered by the SDK's multi round-trip middleware) for a 2026-07-28 one.
// The server's schema arrives intact, the message names the server and the
// tool, and the client's answer reaches the server unchanged. Both ways a
// server asks are covered, each by a real server process.
func TestServePassesAServersQuestionOnToItsClient(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		for name, c := range forwardCases(t) {
			t.Run(version+"/"+strings.ReplaceAll(name, "/", "_"), func(t *testing.T) { passOnAServersQuestion(t, version, c) })
		}
	}
}

// passOnAServersQuestion runs one case at one protocol version.
func passOnAServersQuestion(t *testing.T, version string, c forwardCase) {
	mark := newRunMark(t)
	servers := writeServers(t, map[string]any{strings.Split(c.tool, "__")[1]: c.server})
	settings := writeFile(t, "settings.json", `{"permissions": {"allow": ["mcp__content", "mcp__everything"]}}`)
	cmd := exec.Command(mcpexecBin, "serve", "--servers", servers, "--settings", settings)
	cmd.Env = append(os.Environ(), mark)
	var stderr strings.Builder
	cmd.Stderr = &stderr

	var mu sync.Mutex
	var asked []*mcp.ElicitParams
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			asked = append(asked, req.Params)
			mu.Unlock()
			return &mcp.ElicitResult{Action: "accept", Content: c.answer}, nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	waitFor(t, c.tool+" in Exec's description", func() bool { return strings.Contains(execDescription(t, cs), c.tool) })
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{
		"code": "return await tools[" + strconv.Quote(c.tool) + "]({})",
	}})
	if err != nil {
		t.Fatalf("Exec: %v (stderr: %s)", err, stderr.String())
	}
	text := contentText(res)
	if res.IsError {
		t.Fatalf("the script failed: %s (stderr: %s)", text, stderr.String())
	}
	var scriptResult string
	if json.Unmarshal([]byte(text), &scriptResult) != nil {
		scriptResult = text // the tool's text, not quoted
	}
	if got := c.received(t, scriptResult); canonicalJSON(t, got) != canonicalJSON(t, c.answer) {
		t.Errorf("the server got %s, want the client's answer %s", canonicalJSON(t, got), canonicalJSON(t, c.answer))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 {
		t.Fatalf("the client was asked %d questions, want 1", len(asked))
	}
	q := asked[0]
	server := strings.Split(c.tool, "__")[1]
	if !strings.HasPrefix(q.Message, `The MCP server "`+server+`" asks during `+c.tool) {
		t.Errorf("the question %q does not name the server and the tool", q.Message)
	}
	if canonicalJSON(t, q.RequestedSchema) != canonicalJSON(t, c.schema) {
		t.Errorf("the client got the schema\n%s\nwant the server's\n%s", canonicalJSON(t, q.RequestedSchema), canonicalJSON(t, c.schema))
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	checkNoSurvivors(t, mark)
}

// canonicalJSON is v as JSON with sorted keys, whatever decoded it.
func canonicalJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var decoded any
	if err := json.Unmarshal(data, &decoded); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(decoded)
	return string(out)
}
