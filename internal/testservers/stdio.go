package testservers

import (
	"context"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	envKind       = "MCPEXEC_TESTSERVER"
	kindBehaviour = "behaviour"
	kindSleeper   = "sleeper"
)

// MaybeServe turns the test binary into a stdio server when it was started
// by StdioCommand: it serves and exits, never returning. Otherwise it
// returns at once. Call it first thing in TestMain.
func MaybeServe() {
	switch os.Getenv(envKind) {
	case "":
		return
	case kindBehaviour:
		err := Behaviour(BehaviourOptions{Process: true}).Run(context.Background(), &mcp.StdioTransport{})
		if err != nil {
			fmt.Fprintln(os.Stderr, "behaviour server:", err)
		}
		os.Exit(0)
	case kindSleeper:
		select {} // a grandchild that never ends by itself
	default:
		fmt.Fprintln(os.Stderr, "unknown test server kind", os.Getenv(envKind))
		os.Exit(2)
	}
}

// StdioCommand returns the command, arguments and environment that start the
// behaviour server (with its process tools) as a stdio subprocess of a test
// binary whose TestMain calls MaybeServe.
func StdioCommand() (command string, args []string, env map[string]string) {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	return exe, []string{"-test.run=^$"}, map[string]string{envKind: kindBehaviour}
}
