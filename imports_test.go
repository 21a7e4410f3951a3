package mcpexec_test

import (
	"os/exec"
	"strings"
	"testing"
)

// heavyPackages are the engine, the MCP SDK and the actor runtime, and the
// packages of this module built on them.
var heavyPackages = []string{
	"github.com/dop251/goja",
	"github.com/modelcontextprotocol/go-sdk/mcp",
	"github.com/asynkron/protoactor-go/actor",
	"github.com/mcpexec/mcpexec/pool",
	"github.com/mcpexec/mcpexec/sandbox",
	"github.com/mcpexec/mcpexec/actors",
}

// purePackages hold the rules of the system as plain functions; they must
// build, and be tested and reused, without any of heavyPackages.
var purePackages = []string{
	"catalog", "broadcast", "declare", "exectool", "permissions", "settings", "shapes", "state", "toolpool", "elicit", "pause",
}

// deps lists every package pkg depends on, itself included.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "./"+pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps ./%s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// TestMessagesIsALeaf checks that the actor protocol's plain structs depend on
// the standard library alone (a standard package's path has no dot in its
// first element).
func TestMessagesIsALeaf(t *testing.T) {
	for _, dep := range deps(t, "messages") {
		first, _, _ := strings.Cut(dep, "/")
		if strings.Contains(first, ".") && dep != "github.com/mcpexec/mcpexec/messages" {
			t.Errorf("messages depends on %s", dep)
		}
	}
}

// TestPurePackagesBuildWithoutEngineSDKOrActors checks the import rules of the
// pure packages.
func TestPurePackagesBuildWithoutEngineSDKOrActors(t *testing.T) {
	for _, pkg := range purePackages {
		for _, dep := range deps(t, pkg) {
			for _, heavy := range heavyPackages {
				if dep == heavy {
					t.Errorf("%s depends on %s", pkg, heavy)
				}
			}
		}
	}
}

// hostPackages are the hosts built on the library: the command-line tools
// and the gateway. They reach the runtime through the root package only.
var hostPackages = []string{"gateway", "internal/cli", "cmd/mcpexec", "cmd/demo"}

// runtimePackages are the runtime's insides, which a host never imports.
var runtimePackages = []string{
	"github.com/mcpexec/mcpexec/sandbox",
	"github.com/mcpexec/mcpexec/actors",
}

// TestHostsReachTheRuntimeThroughTheRootPackage checks the hosts' own
// imports (their tests may build fixtures from anything).
func TestHostsReachTheRuntimeThroughTheRootPackage(t *testing.T) {
	for _, pkg := range hostPackages {
		out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, "./"+pkg).Output()
		if err != nil {
			t.Fatalf("go list ./%s: %v", pkg, err)
		}
		for _, imp := range strings.Fields(string(out)) {
			for _, inside := range runtimePackages {
				if imp == inside {
					t.Errorf("%s imports %s: reach it through the root package", pkg, inside)
				}
			}
		}
	}
}
