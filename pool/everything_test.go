package pool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/internal/fixtures"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// everythingServer is the real @modelcontextprotocol/server-everything that
// `make deps` installs; the test fails (never skips) without it.
func everythingServer(t *testing.T) pool.ServerConfig {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's working directory")
		}
		dir = parent
	}
	bin := filepath.Join(dir, ".tools", "npm", "node_modules", ".bin", "mcp-server-everything")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is missing: run `make deps` to install the npm MCP test servers", bin)
	}
	return pool.ServerConfig{Name: "everything", Command: bin, Args: []string{"stdio"}}
}

func compact(t *testing.T, b []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatalf("invalid JSON %q: %v", b, err)
	}
	return buf.String()
}

// withServerRequests declares sampling and elicitation, the capabilities the
// recording's client declared.
func withServerRequests() pool.Options {
	return pool.Options{ClientOptions: mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Model: "none", Role: "assistant", Content: &mcp.TextContent{Text: "no"}}, nil
		},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	}}
}

func TestEverythingListsTheRecordedToolsExactly(t *testing.T) {
	fx, err := fixtures.Load("everything")
	if err != nil {
		t.Fatal(err)
	}
	m := start(t, []pool.ServerConfig{everythingServer(t)}, withServerRequests())
	snap := m.Snapshot()
	if snap.Len() != len(fx.Tools) {
		t.Fatalf("listed %d tools %v, the recording has %d; status %+v", snap.Len(), names(snap), len(fx.Tools), m.Status())
	}
	for _, want := range fx.Tools {
		got, ok := snap.Lookup("mcp__everything__" + want.Name)
		if !ok {
			t.Errorf("missing %s", want.Name)
			continue
		}
		// Byte for byte in the server's own key order, not the SDK's maps.
		if compact(t, got.InputSchema) != compact(t, want.InputSchema) {
			t.Errorf("%s inputSchema\n got %s\nwant %s", want.Name, got.InputSchema, compact(t, want.InputSchema))
		}
		if len(want.OutputSchema) > 0 && compact(t, got.OutputSchema) != compact(t, want.OutputSchema) {
			t.Errorf("%s outputSchema differs", want.Name)
		}
		if got.Description != want.Description || got.Leaf != want.Name || got.Server != "everything" {
			t.Errorf("%s: %+v", want.Name, got)
		}
	}
	text, ok := snap.Instructions("everything")
	if !ok || fx.Instructions == nil || text != *fx.Instructions {
		t.Errorf("instructions differ from the recording (ok=%v)", ok)
	}
}

func TestEverythingWithoutSamplingOrElicitationListsFewerTools(t *testing.T) {
	m := start(t, []pool.ServerConfig{everythingServer(t)}, pool.Options{})
	got := names(m.Snapshot())
	for _, absent := range []string{"mcp__everything__trigger-sampling-request", "mcp__everything__trigger-elicitation-request"} {
		if slices.Contains(got, absent) {
			t.Errorf("%s listed although the capability was not declared", absent)
		}
	}
	if !slices.Contains(got, "mcp__everything__get-roots-list") || len(got) != 14 {
		t.Errorf("tools = %v, want the 14 of a client declaring roots only", got)
	}
}

func TestEverythingCallsThroughTheFunnel(t *testing.T) {
	m := start(t, []pool.ServerConfig{everythingServer(t)}, pool.Options{})
	ctx := context.Background()

	res, err := m.Call(ctx, "mcp__everything__get-structured-content", raw(`{"location":"New York"}`))
	if err != nil {
		t.Fatal(err)
	}
	obj, ok := res.Value.(map[string]any)
	if !ok || len(obj) == 0 {
		t.Fatalf("structured value = %#v, want a decoded object", res.Value)
	}
	if _, ok := obj["temperature"]; !ok {
		t.Errorf("structured value %v has no temperature", obj)
	}

	res, err = m.Call(ctx, "mcp__everything__echo", raw(`{"message":"hello pool"}`))
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := res.Value.(string); !ok || !strings.Contains(s, "hello pool") {
		t.Fatalf("echo value = %#v", res.Value)
	}

	res, err = m.Call(ctx, "mcp__everything__get-tiny-image", raw(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Images) != 1 || res.Images[0].MIMEType != "image/png" || !bytes.HasPrefix(res.Images[0].Data, []byte("\x89PNG")) {
		t.Fatalf("images = %d %+v", len(res.Images), res.Images)
	}
	if _, isString := res.Value.(string); !isString {
		t.Errorf("tiny image value = %#v, want its caption text", res.Value)
	}

	res, err = m.Call(ctx, "mcp__everything__get-sum", raw(`{"a":2,"b":40}`))
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := res.Value.(string); !strings.Contains(s, "42") {
		t.Fatalf("sum value = %#v", res.Value)
	}

	// Arguments are not validated on our side: the server's own complaint
	// (an isError reply) comes back as the error text.
	_, err = m.Call(ctx, "mcp__everything__get-sum", raw(`{"a":"two"}`))
	var te *pool.ToolError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "expected number") {
		t.Fatalf("err = %v (%T), want the server's validation message", err, err)
	}
}
