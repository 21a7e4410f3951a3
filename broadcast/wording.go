package broadcast

import (
	"sync"

	"github.com/mcpexec/mcpexec/catalog"
)

// wordingFingerprint identifies how catalogs read in this build: this
// package's fixed text and the catalog renderer's layout, taken from the
// rendering of a fixed probe pool, complete and truncated. A release that
// rewords the catalog changes it, so a session holding a catalog of the old
// wording gets the new full catalog instead of a namespace diff over the old
// one (EDGE-14: same hash must mean the model saw the same bytes).
var wordingFingerprint = sync.OnceValue(func() string {
	probe := []catalog.Tool{
		{Name: "mcp__a__first", Description: "First probe tool.", InputSchema: []byte(`{"type":"object","properties":{"id":{"type":"number","description":"an id"}},"required":["id"]}`)},
		{Name: "mcp__a__second", Description: "Second probe tool.", OutputSchema: []byte(`{"type":"object"}`)},
		{Name: "mcp__b__third", Description: "Third probe tool."},
	}
	complete := catalog.Render(probe, catalog.Options{Budget: 1 << 20})
	truncated := catalog.Render(probe, catalog.Options{Budget: 1})
	return hashParts(fullLead, diffLead, diffAddedHeader, diffChangedHeader, diffRemovedHeader,
		complete.Body, truncated.Body, catalog.Render(nil, catalog.Options{}).Body)
})
