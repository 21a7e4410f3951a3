package catalog

import (
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkRenderLarkAllCold builds the catalog of the largest fixture pool
// (lark-all, 1,274 tools) from nothing: every schema parsed and rendered.
func BenchmarkRenderLarkAllCold(b *testing.B) {
	tools := fixtureTools(loadPool(b, "lark-all"))
	b.ReportAllocs()
	for b.Loop() {
		NewRenderer(Options{}).Render(tools)
	}
}

// BenchmarkRenderLarkAllWarm rebuilds the catalog of lark-all plus a second
// server after that second server changed: lark-all's blocks come from the
// Renderer's cache, only the changed server is rendered again.
func BenchmarkRenderLarkAllWarm(b *testing.B) {
	lark := fixtureTools(loadPool(b, "lark-all"))
	other := fixtureTools(loadPool(b, "memory"))
	r := NewRenderer(Options{})
	r.Render(append(append([]Tool(nil), lark...), other...))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		pool := append([]Tool(nil), lark...)
		for _, t := range other {
			t.Description = fmt.Sprintf("%s (revision %d)", t.Description, i)
			pool = append(pool, t)
		}
		r.Render(pool)
	}
}

// BenchmarkSearchAllPools runs one search over every fixture pool loaded
// together (3,670 tools).
func BenchmarkSearchAllPools(b *testing.B) {
	ix := NewIndex(allTools(b))
	args := json.RawMessage(`{"query":"create issue"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ix.Search(args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderAllPoolsCold builds one catalog over every fixture pool
// together (3,670 tools, 65 servers) from nothing.
func BenchmarkRenderAllPoolsCold(b *testing.B) {
	tools := allTools(b)
	b.ReportAllocs()
	for b.Loop() {
		NewRenderer(Options{}).Render(tools)
	}
}

// BenchmarkNewIndexAllPools builds the search index of every fixture pool
// together, sharing a warm Renderer's blocks as the host does.
func BenchmarkNewIndexAllPools(b *testing.B) {
	tools := allTools(b)
	r := NewRenderer(Options{})
	r.Render(tools)
	b.ReportAllocs()
	for b.Loop() {
		NewIndex(tools, WithRenderer(r))
	}
}
