package broadcast

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpexec/mcpexec/catalog"
)

// The recorded default-configuration servers, rendered by the real catalog
// renderer at its default budget.
// Proves EDGE-13.
func TestEDGE13_TruncatedCatalogIsBroadcastWholeThenDiffed(t *testing.T) {
	renderer := catalog.NewRenderer(catalog.Options{})
	tools := recordedTools(t, "github-go-default", "filesystem", "firecrawl", "chrome-devtools", "datadog", "memory")
	h := NewHistory(chat("hi"))

	pool := NewSnapshot(tools, renderer.Render)
	msg, ok := decide(t, h, pool, true)
	mustKind(t, msg, ok, KindFull)
	cat := pool.Catalog()
	if !cat.Truncated {
		t.Fatal("test setup: the pool fits the budget; pick more servers")
	}
	// Truncation is explicit and broadcast as rendered: the PARTIAL line,
	// every server's summary line and the search section reach the model.
	if msg.Text != fullText(cat.Body) || !strings.Contains(msg.Text, "PARTIAL") || !strings.Contains(msg.Text, "- mcp__memory (") {
		t.Fatalf("full catalog does not carry the rendered truncated body:\n%s", msg.Text)
	}

	// A server disconnects: a namespace-level update, far shorter than the
	// catalog, that the model applies to the catalog it read.
	smaller := withoutServer(tools, "datadog")
	pool2 := NewSnapshot(smaller, renderer.Render)
	msg, ok = decide(t, h, pool2, true)
	mustKind(t, msg, ok, KindDiff)
	if !strings.Contains(msg.Text+"\n", diffRemovedHeader+diffRemovedLine("datadog")) {
		t.Fatalf("update does not take datadog offline:\n%s", msg.Text)
	}
	view, err := applyDiffText(cat.Namespaces, msg.Text)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(pool2.Catalog().Namespaces, view); diff != "" {
		t.Fatalf("model's view after the update (-pool +view):\n%s", diff)
	}
	t.Logf("full catalog %d bytes, update %d bytes", len(fullText(pool2.Catalog().Body)), len(msg.Text))

	// Nothing more while the pool stays as it is.
	msg, ok = decide(t, h, NewSnapshot(smaller, renderer.Render), true)
	mustSilent(t, msg, ok)
}

func TestRenderedEmptyCatalogIsAnEmptyPool(t *testing.T) {
	// The renderer's empty-pool body exists, but a session that never read a
	// catalog is not sent it (BCAST-3), and one that did gets this package's
	// notice, which like the body never names Exec.
	empty := RenderedSnapshot(catalog.Render(nil, catalog.Options{}))
	if !empty.Empty() {
		t.Fatal("the rendered empty catalog is not recognised as an empty pool")
	}
	msg, ok := decide(t, NewHistory(), empty, false)
	mustSilent(t, msg, ok)

	// A catalog rendered elsewhere is broadcast as it is.
	c := catalog.Render(recordedTools(t, "everything"), catalog.Options{})
	pool := RenderedSnapshot(c)
	msg, ok = decide(t, NewHistory(), pool, true)
	mustKind(t, msg, ok, KindFull)
	if msg.Text != fullText(c.Body) || pool.Empty() {
		t.Fatalf("pre-rendered catalog not broadcast as rendered: %.80q", msg.Text)
	}
}
