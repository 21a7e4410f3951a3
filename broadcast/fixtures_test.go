package broadcast

import (
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/catalog"
	"github.com/mcpexec/mcpexec/internal/fixtures"
)

// recordedTools returns the tools of the recorded servers in files, routed
// as mcp__<server>__<tool>.
func recordedTools(tb testing.TB, files ...string) []catalog.Tool {
	tb.Helper()
	var tools []catalog.Tool
	for _, f := range files {
		p, err := fixtures.Load(f)
		if err != nil {
			tb.Fatal(err)
		}
		tools = append(tools, routed(p.Server, p.Tools)...)
	}
	return tools
}

// routed names the recorded tools as the pool routes them.
func routed(server string, recorded []fixtures.Tool) []catalog.Tool {
	server = strings.ReplaceAll(server, "__", "_")
	tools := make([]catalog.Tool, len(recorded))
	for i, t := range recorded {
		tools[i] = catalog.Tool{
			Name:         "mcp__" + server + "__" + t.Name,
			Description:  t.Description,
			InputSchema:  t.InputSchema,
			OutputSchema: t.OutputSchema,
		}
	}
	return tools
}

// withoutServer returns tools minus those of one namespace.
func withoutServer(tools []catalog.Tool, namespace string) []catalog.Tool {
	var out []catalog.Tool
	for _, t := range tools {
		if catalog.Namespace(t.Name) != namespace {
			out = append(out, t)
		}
	}
	return out
}
