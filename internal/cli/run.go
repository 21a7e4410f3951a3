package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpexec/mcpexec"
)

// Exit statuses.
const (
	exitOK          = 0
	exitFailed      = 1 // the script failed, or the command could not do its job
	exitUsage       = 2 // the command line is wrong
	exitInterrupted = 130
)

// Demo runs the demo program with the process's command line and exits
// with its status.
func Demo() {
	// Scripts run in worker processes that are this binary, re-executed:
	// a worker must never get as far as parsing the command line.
	mcpexec.MaybeRunWorker()

	// The first interrupt cancels the command, which then stops its servers
	// and workers; a second one kills the process the default way.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	code := run(ctx, os.Args[1:], newConsole())
	stop()
	os.Exit(code)
}

// console is where a command reads and writes: the process's standard
// streams in main, buffers in tests.
type console struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// out and err style what goes to stdout and stderr.
	out, err style
	// stdinTerminal reports that stdin is a terminal a person can answer on.
	stdinTerminal bool
}

func newConsole() console {
	return console{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		out: styleFor(os.Stdout), err: styleFor(os.Stderr),
		stdinTerminal: isTerminal(os.Stdin),
	}
}

const usage = `demo shows mcpexec end to end: MCP servers folded into one Exec tool.

usage:
  demo                      a guided tour (a few seconds)
  demo exec [flags] (--script FILE | -)
                            run one script against the pool
  demo catalog [--servers FILE] [--budget N]
                            print the catalog message the model would read
  demo tools [--servers FILE] [--settings FILE]
                            print the tool declarations as JSON
  demo serve-mcp NAME       serve a built-in MCP server over stdio (srv, text, weather)

Without --servers the pool is the built-in servers, run as subprocesses of
this binary. --servers takes the common {"mcpServers": {...}} file format.
Run "demo COMMAND -h" for a command's flags.
`

// run runs one command line and returns the exit status.
func run(ctx context.Context, args []string, c console) int {
	if len(args) == 0 {
		return runTour(ctx, c)
	}
	var err error
	switch cmd, rest := args[0], args[1:]; cmd {
	case "exec":
		err = cmdExec(ctx, rest, c)
	case "catalog":
		err = cmdCatalog(ctx, rest, c)
	case "tools":
		err = cmdTools(ctx, rest, c)
	case "serve-mcp":
		err = cmdServe(ctx, rest, c)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(c.stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(c.stderr, "demo: unknown command %q\n\n%s", cmd, usage)
		return exitUsage
	}
	return exitCode(ctx, err, c)
}

// exitCode reports err (if any) and maps it to an exit status.
func exitCode(ctx context.Context, err error, c console) int {
	var failed errFailed
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage):
		return exitUsage
	case ctx.Err() != nil:
		fmt.Fprintln(c.stderr, c.err.bad("demo: interrupted"))
		return exitInterrupted
	case errors.As(err, &failed):
		return exitFailed // already reported
	default:
		fmt.Fprintln(c.stderr, c.err.bad("demo: "+shortError(err)))
		return exitFailed
	}
}

// errFailed is a failure the command has already reported in its output
// (a script that failed); only the exit status is left to set.
type errFailed struct{}

func (errFailed) Error() string { return "failed" }

func cmdServe(ctx context.Context, args []string, c console) error {
	f, err := parseServeFlags(args, c.stderr)
	if err != nil {
		return err
	}
	err = serveBuiltin(ctx, f.name, f.offlineWhile)
	if ctx.Err() != nil {
		return nil // stopped by a signal: the normal way for a server to end
	}
	return err
}
