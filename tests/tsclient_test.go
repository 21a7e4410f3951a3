package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tsClientReport is what tests/tsclient/client.mjs prints.
type tsClientReport struct {
	Tools            []string `json:"tools"`
	Description      string   `json:"description"`
	IsError          bool     `json:"isError"`
	Text             string   `json:"text"`
	Progress         []string `json:"progress"`
	ListChanged      int      `json:"listChanged"`
	DescriptionAfter string   `json:"descriptionAfter"`
}

// The official TypeScript SDK's client, over stdio against `mcpexec serve`:
// it lists one tool, Exec, whose description carries the catalog; runs a
// script that chains two servers, receiving progress notifications with the
// live summary; sees list_changed after a server is added to the servers
// file, and the new server in the catalog. Nothing outlives the client.
func TestTypeScriptSDKClientEndToEnd(t *testing.T) {
	node, dirs := nodeTools(t, "ts-sdk")
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	servers := serversFile(t, "srv", "text")
	more := serversFile(t, "srv", "text", "weather")
	settings := writeFile(t, "settings.json", builtinAllowed)
	mark := newRunMark(t)
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(root, "tests/tsclient/client.mjs"), dirs[0], mcpexecBin, servers, settings, more)
	cmd.Env = append(os.Environ(), mark)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the TypeScript client failed: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	var got tsClientReport
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("client report %q: %v (stderr: %s)", stdout.String(), err, stderr.String())
	}
	if !slices.Equal(got.Tools, []string{"Exec"}) {
		t.Errorf("tools %q, want Exec alone", got.Tools)
	}
	if !strings.Contains(got.Description, "mcp__srv__fetch") || strings.Contains(got.Description, "mcp__weather") {
		t.Errorf("first description does not list srv and text alone:\n%s", got.Description)
	}
	if got.IsError || got.Text != "Incident 42 postmortem / linus" {
		t.Errorf("script result isError=%v %q", got.IsError, got.Text)
	}
	// The gateway sends one notification per nested call, before the
	// result. The TypeScript SDK handles a notification a microtask after
	// reading it but a response at once, so the last notification, read
	// together with the result, can find its request already answered and
	// be dropped: the first is always delivered, the rest in order.
	wantProgress := []string{"1 tool call: mcp__srv__fetch", "2 tool calls: mcp__srv__fetch, mcp__text__echo"}
	if len(got.Progress) == 0 || !slices.Equal(got.Progress, wantProgress[:min(len(got.Progress), len(wantProgress))]) || len(got.Progress) > len(wantProgress) {
		t.Errorf("progress %q, want a prefix of %q with the first at least", got.Progress, wantProgress)
	}
	if got.ListChanged < 1 || !strings.Contains(got.DescriptionAfter, "mcp__weather__forecast") {
		t.Errorf("after adding weather: %d list_changed, description:\n%s", got.ListChanged, got.DescriptionAfter)
	}
	checkNoSurvivors(t, mark)
}
