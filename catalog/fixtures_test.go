package catalog

import (
	"sync"
	"testing"

	"github.com/mcpexec/mcpexec/internal/fixtures"
)

// fixtureTools converts a recorded pool into catalog tools named as the pool
// routes them: mcp__<server>__<tool>.
func fixtureTools(p fixtures.Pool) []Tool {
	out := make([]Tool, len(p.Tools))
	for i, t := range p.Tools {
		out[i] = Tool{
			Name:         "mcp__" + p.Server + "__" + t.Name,
			Description:  t.Description,
			InputSchema:  t.InputSchema,
			OutputSchema: t.OutputSchema,
		}
	}
	return out
}

var allPools = sync.OnceValues(fixtures.All)

// loadPools returns every fixture pool, loaded once per test binary.
func loadPools(tb testing.TB) []fixtures.Pool {
	tb.Helper()
	pools, err := allPools()
	if err != nil {
		tb.Fatal(err)
	}
	return pools
}

// loadPool returns one fixture pool by file name.
func loadPool(tb testing.TB, file string) fixtures.Pool {
	tb.Helper()
	for _, p := range loadPools(tb) {
		if p.File == file {
			return p
		}
	}
	tb.Fatalf("no fixture %q", file)
	return fixtures.Pool{}
}

// allTools is every tool of every fixture, as one pool.
func allTools(tb testing.TB) []Tool {
	var out []Tool
	for _, p := range loadPools(tb) {
		out = append(out, fixtureTools(p)...)
	}
	return out
}
