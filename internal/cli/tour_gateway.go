package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stepGateway runs `demo serve` (what `mcpexec serve` is) as a real stdio
// subprocess and drives it with the official Go SDK's client, as Claude
// Desktop, Cursor or Claude Code would: one tool whose description carries
// the catalog, a script with a progress token, the result.
func stepGateway(ctx context.Context, t *tour) error {
	dir := filepath.Join(t.dir, "gateway")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	settings, err := writeDefaultSettings(dir)
	if err != nil {
		return err
	}
	t.note("$ demo serve --settings %s   (the same command as: mcpexec serve --servers mcp.json)", filepath.Base(settings))
	var mu sync.Mutex
	var progress []string
	client := mcp.NewClient(&mcp.Implementation{Name: "tour-client", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, req.Params.Message)
		},
	})
	cmd := exec.CommandContext(ctx, t.exe, "serve", "--settings", settings)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return fmt.Errorf("connecting to the gateway: %w", err)
	}
	defer cs.Close()

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		return err
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "Exec" {
		return fmt.Errorf("%w: the gateway offers %d tools, want Exec alone", errUnexpected, len(list.Tools))
	}
	desc := list.Tools[0].Description
	intro, catalog, _ := strings.Cut(desc, "MCP tool catalog:\n\n")
	t.note("tools/list: one tool, Exec. Its description is the Exec text (%d lines), then the catalog:", strings.Count(intro, "\n"))
	t.modelText("Exec's description, from the catalog on (first lines)", firstLines(catalog, 8))

	params := &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": tourGatewayScript}}
	params.SetProgressToken("tour")
	t.label("tools/call Exec, with a progress token")
	t.printf("%s\n", barred(t.st, tourGatewayScript))
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		return err
	}
	mu.Lock()
	for _, p := range progress {
		t.note("  notifications/progress: %s", p)
	}
	mu.Unlock()
	text := ""
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	t.modelText("The result the client hands its model", text)
	if res.IsError {
		return fmt.Errorf("%w: the script failed through the gateway", errUnexpected)
	}
	t.note("Closing the client ends the gateway, which stops its servers and workers. Config snippets for Claude Desktop, Claude Code and Cursor are in the README.")
	return nil
}

const tourGatewayScript = `const r = await tools.mcp__srv__fetch({ id: 4 });
const f = await tools.mcp__weather__forecast({ city: "Lisbon", days: 1 });
return { owner: r.owner, title: r.title, forecast: f };`

// firstLines is text cut to its first n lines, with a marker when cut.
func firstLines(text string, n int) string {
	lines := strings.Split(text, "\n")
	if len(lines) <= n {
		return text
	}
	return strings.Join(lines[:n], "\n") + "\n…"
}
