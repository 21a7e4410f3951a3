package pool_test

import (
	"testing"

	"github.com/mcpexec/mcpexec/pool"
)

// Hostile configuration files give errors, never panics, and every entry
// comes back either usable or with its reason.
func FuzzParseConfig(f *testing.F) {
	for _, seed := range []string{
		`{"mcpServers": {"a": {"command": "x", "args": ["1"], "env": {"K": "V"}}}}`,
		`{"mcpServers": {"a": {"url": "https://x/mcp", "headers": {"A": "b"}}, "b": 3}}`,
		`{"mcpServers": {"": {"command": "x"}, "a b": {"url": "http://[::1"}}}`,
		`{"mcpServers": null}`, `[]`, `{"mcpServers": {"a": {"type": "sse", "command": "x"}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		servers, err := pool.ParseConfig(data)
		if err != nil {
			return
		}
		for _, s := range servers {
			if s.Err == nil && s.Validate() != nil {
				t.Fatalf("%q accepted but invalid", s.Name)
			}
		}
	})
}
