package broadcast

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpexec/mcpexec/catalog"
)

// fakeRenderer stands in for the catalog renderer where a test needs to
// control the body exactly: it lists at most limit tools, and when it leaves
// some out it adds a PARTIAL line and one summary line per namespace, as the
// real catalog does. wording lets a test change the text without changing
// the pool (EDGE-14). calls counts renderings.
type fakeRenderer struct {
	limit   int
	wording string
	calls   atomic.Int64
}

func (r *fakeRenderer) Render(tools []catalog.Tool) catalog.Catalog {
	r.calls.Add(1)
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	counts := map[string]int{}
	for _, n := range names {
		counts[testNamespace(n)]++
	}
	shown := min(len(names), r.limit)
	var b strings.Builder
	if len(names) == 0 {
		b.WriteString("No MCP tools are currently available; later updates may add or remove tools.")
		return catalog.Catalog{Body: b.String(), Namespaces: map[string]int{}}
	}
	for _, n := range names[:shown] {
		fmt.Fprintf(&b, "tools.%s(args: { query: string; limit?: number }): Promise<unknown> %s\n", n, r.wording)
	}
	truncated := shown < len(names)
	if truncated {
		fmt.Fprintf(&b, "PARTIAL: %d of %d tools shown.\n", shown, len(names))
		for _, ns := range slices.Sorted(maps.Keys(counts)) {
			fmt.Fprintf(&b, "- mcp__%s (%d tools)\n", ns, counts[ns])
		}
		b.WriteString("The catalog is partial; search lists or searches the full pool.\n")
	}
	return catalog.Catalog{Body: b.String(), Truncated: truncated, Shown: shown, Total: len(names), Namespaces: counts}
}

func testNamespace(name string) string {
	parts := strings.Split(name, "__")
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

// poolOf builds a pool with counts[ns] tools in each namespace.
func poolOf(counts map[string]int) []catalog.Tool {
	var tools []catalog.Tool
	for _, ns := range slices.Sorted(maps.Keys(counts)) {
		for i := range counts[ns] {
			tools = append(tools, catalog.Tool{Name: fmt.Sprintf("mcp__%s__tool%02d", ns, i)})
		}
	}
	return tools
}

// complete renders every pool in these tests without truncation; partial
// truncates any pool above a few tools.
const (
	complete = 1 << 20
	partial  = 3
)

func snapOf(r *fakeRenderer, counts map[string]int) *Snapshot {
	return NewSnapshot(poolOf(counts), r.Render)
}

// decide runs one request against h and appends what it returns, as a
// daemon does before sending the request.
func decide(t *testing.T, h *History, pool *Snapshot, execDeclared bool) (Message, bool) {
	t.Helper()
	msg, ok, err := Catalog(h, pool, execDeclared)
	if err != nil {
		t.Fatalf("Catalog: %v", err)
	}
	if ok {
		h.Append(msg)
	}
	return msg, ok
}

func mustKind(t *testing.T, msg Message, ok bool, want Kind) {
	t.Helper()
	if !ok {
		t.Fatalf("nothing broadcast, want a %s message", want)
	}
	if !msg.Meta || msg.Catalog == nil || msg.Catalog.Kind != want {
		t.Fatalf("broadcast %+v, want a meta %s message", msg, want)
	}
}

func mustSilent(t *testing.T, msg Message, ok bool) {
	t.Helper()
	if ok {
		t.Fatalf("broadcast %q (%+v), want nothing", msg.Text, msg.Catalog)
	}
}

func chat(text string) Message { return Message{Text: text} }

func snapshotJSON(t *testing.T, h *History) string {
	t.Helper()
	b, err := h.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
