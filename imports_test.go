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
