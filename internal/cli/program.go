package cli

import (
	"context"
	"fmt"
	"runtime/debug"
)

// program is one command-line program built from these commands.
type program struct {
	name  string
	usage string
	// commands by name; "help" is every program's own.
	commands map[string]command
	// noCommand runs for an empty command line; nil prints the usage.
	noCommand func(ctx context.Context, c console) int
	// summaries say in a few words what each command does (for shell
	// completion).
	summaries map[string]string
	// builtinPool makes the built-in servers the pool of exec, catalog and
	// tools when --servers is not given (the demo's way); without it
	// --servers is required.
	builtinPool bool
}

// command runs one subcommand with its arguments.
type command func(ctx context.Context, args []string, c console) error

// demoProgram is the demo: the guided tour, the commands over the built-in
// servers, and the built-in servers themselves.
var demoProgram = &program{
	name:        "demo",
	builtinPool: true,
	noCommand:   runTour,
	commands: map[string]command{
		"exec":      cmdExec,
		"catalog":   cmdCatalog,
		"tools":     cmdTools,
		"serve":     cmdServe,
		"serve-mcp": cmdServeBuiltin,
	},
	usage: `demo shows mcpexec end to end: MCP servers folded into one Exec tool.

usage:
  demo                      a guided tour (a few seconds)
  demo exec [flags] (--script FILE | -)
                            run one script against the pool
  demo catalog [--servers FILE] [--settings FILE] [--budget N]
                            print the catalog the model would read
  demo tools [--servers FILE] [--settings FILE]
                            print the tool declarations as JSON
  demo serve [flags]        serve the pool as one Exec tool to MCP clients
  demo serve-mcp NAME       serve a built-in MCP server over stdio (srv, text, weather)

Without --servers the pool is the built-in servers, run as subprocesses of
this binary. --servers takes the common {"mcpServers": {...}} file format.
Run "demo COMMAND -h" for a command's flags.
`,
}

// mcpexecProgram is the installable tool.
var mcpexecProgram = &program{
	name: "mcpexec",
	commands: map[string]command{
		"serve":   cmdServe,
		"exec":    cmdExec,
		"catalog": cmdCatalog,
		"tools":   cmdTools,
		"version": cmdVersion,
		// sandbox-node runs scripts for daemons on other machines.
		"sandbox-node": cmdSandboxNode,
		"completion":   cmdCompletion,
	},
	summaries: map[string]string{
		"serve":        "serve the pool as one Exec tool to MCP clients",
		"exec":         "run one script against the pool",
		"catalog":      "print the catalog the model would read",
		"tools":        "print the tool declarations as JSON",
		"version":      "print the version",
		"sandbox-node": "run scripts for daemons on other machines",
		"completion":   "print a shell completion script (bash, zsh, fish)",
	},
	usage: `mcpexec folds a pool of MCP servers into one tool, Exec: the model writes a
script that calls the servers' tools, run in a sandbox.

usage:
  mcpexec serve --servers FILE [--settings FILE] [--http ADDR]
                            serve the pool as one Exec tool to MCP clients
                            (over stdio, or streamable HTTP with --http)
  mcpexec exec --servers FILE [flags] (--script FILE | -)
                            run one script against the pool
  mcpexec catalog --servers FILE [--settings FILE] [--budget N]
                            print the catalog the model would read
  mcpexec tools --servers FILE [--settings FILE]
                            print the tool declarations as JSON
  mcpexec sandbox-node --listen HOST:PORT --membership-port N --tls-cert FILE --tls-key FILE --tls-ca FILE
                            run scripts for daemons whose serve names this
                            node with --node (mutual TLS)
  mcpexec version           print the version (also: mcpexec --version)
  mcpexec completion bash|zsh|fish
                            print a shell completion script
  mcpexec help COMMAND      print a command's flags (also: COMMAND --help)

--servers takes the common {"mcpServers": {...}} file format.
`,
}

// cmdVersion prints the module version this binary was built from.
func cmdVersion(_ context.Context, args []string, c console) error {
	fs := newFlagSet(c.prog, "version", "", c.stderr)
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	printVersion(c)
	return nil
}

// printVersion prints the program's name and version on stdout.
func printVersion(c console) { fmt.Fprintln(c.stdout, c.prog.name, version()) }

// version is the module version ("v1.2.0" from go install ...@v1.2.0),
// "(devel)" for a build from a checkout.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Version == "" {
		return "(devel)"
	}
	return info.Main.Version
}
