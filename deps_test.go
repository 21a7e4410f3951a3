package mcpexec_test

import (
	"os"
	"strings"
	"testing"
)

// chosenDependencies are the modules mcpexec may require directly: the
// engine, the actor system, the MCP SDK, logging, comparisons in tests, file
// watching, regexp2, goja's own backtracking engine, which the sandbox
// configures to bound regular-expression matches, and golang.org/x/oauth2,
// whose token types are the API of the MCP SDK's auth package, and gRPC and
// protobuf, the transport and message format of protoactor's remote, which
// carries runs to sandbox nodes (TLS credentials, generated messages).
var chosenDependencies = map[string]bool{
	"github.com/dop251/goja":                 true,
	"github.com/asynkron/protoactor-go":      true,
	"github.com/modelcontextprotocol/go-sdk": true,
	"github.com/rs/zerolog":                  true,
	"github.com/google/go-cmp":               true,
	"github.com/fsnotify/fsnotify":           true,
	"github.com/dlclark/regexp2/v2":          true,
	"golang.org/x/oauth2":                    true,
	"google.golang.org/grpc":                 true,
	"google.golang.org/protobuf":             true,
}

// Proves NFR-1: no dependency beyond the chosen set.
func TestNFR1_NoDependencyBeyondTheChosenSet(t *testing.T) {
	data, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	inRequire := false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "require ("):
			inRequire = true
			continue
		case line == ")":
			inRequire = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !inRequire:
			continue
		}
		if line == "" || strings.HasSuffix(line, "// indirect") {
			continue
		}
		module := strings.Fields(line)[0]
		if !chosenDependencies[module] {
			t.Errorf("direct dependency %s is not in the chosen set", module)
		}
	}
}
