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
// carries runs to sandbox nodes (TLS credentials, generated messages); and
// the OpenTelemetry Go SDK: its API, SDK and Prometheus exporter, the
// contrib autoexport package that reads the OTEL_* environment for the
// command-line tool, the OTLP messages the tests' receiver decodes, and the
// Prometheus client whose registry and handler serve /metrics.
var chosenDependencies = map[string]bool{
	"github.com/dop251/goja":                 true,
	"github.com/asynkron/protoactor-go":      true,
	"github.com/modelcontextprotocol/go-sdk": true,
	// jsonschema-go is the go-sdk's own JSON Schema type, named directly
	// where a test server declares an elicitation's requested schema.
	"github.com/google/jsonschema-go": true,
	"github.com/rs/zerolog":           true,
	"github.com/google/go-cmp":        true,
	"github.com/fsnotify/fsnotify":    true,
	"github.com/dlclark/regexp2/v2":   true,
	"golang.org/x/oauth2":             true,
	"google.golang.org/grpc":          true,
	"google.golang.org/protobuf":      true,
	// esbuild transforms TypeScript in the sandbox; sourcemap (goja's own
	// dependency) maps its error positions back to the script.
	"github.com/evanw/esbuild":          true,
	"github.com/go-sourcemap/sourcemap": true,

	// golang.org/x/text's CLDR collation, plural rules and currency data
	// back Intl in the sandbox.
	"golang.org/x/text": true,
	// rivo/uniseg breaks text into graphemes, words and sentences by
	// Unicode's rules (UAX #29) for Intl.Segmenter, which x/text does not.
	"github.com/rivo/uniseg": true,

	// golang.org/x/sys asks a terminal its size (TIOCGWINSZ) for the
	// command-line tool's live line.
	"golang.org/x/sys": true,

	"go.opentelemetry.io/otel":                         true,
	"go.opentelemetry.io/otel/trace":                   true,
	"go.opentelemetry.io/otel/metric":                  true,
	"go.opentelemetry.io/otel/sdk":                     true,
	"go.opentelemetry.io/otel/sdk/metric":              true,
	"go.opentelemetry.io/otel/exporters/prometheus":    true,
	"go.opentelemetry.io/contrib/exporters/autoexport": true,
	"go.opentelemetry.io/proto/otlp":                   true,
	"github.com/prometheus/client_golang":              true,
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
