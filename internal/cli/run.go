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
	exitOK     = 0
	exitFailed = 1 // the script failed, or the command could not do its job
	exitUsage  = 2 // the command line is wrong
	// exitServers: the command ran, but one or more MCP servers were not
	// connected (listed on stderr), whatever the script did.
	exitServers     = 3
	exitInterrupted = 130
)

// Demo runs the demo program with the process's command line and exits
// with its status.
func Demo() { mainOf(demoProgram) }

// Mcpexec runs the mcpexec program with the process's command line and
// exits with its status.
func Mcpexec() { mainOf(mcpexecProgram) }

func mainOf(p *program) {
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
	code := run(ctx, os.Args[1:], newConsole(p))
	stop()
	os.Exit(code)
}

// console is where a command reads and writes: the process's standard
// streams in main, buffers in tests.
type console struct {
	// prog is the program running the command.
	prog           *program
	stdin          io.Reader
	stdout, stderr io.Writer
	// out and err style what goes to stdout and stderr.
	out, err style
	// stdinTerminal reports that stdin is a terminal a person can answer on;
	// stderrTerminal that stderr is one that can redraw a line.
	stdinTerminal, stderrTerminal bool
	// stderrColumns asks the terminal on stderr its width (0: unknown).
	stderrColumns func() int
}

func newConsole(p *program) console {
	return console{
		prog:  p,
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		out: styleFor(os.Stdout), err: styleFor(os.Stderr),
		stdinTerminal: isTerminal(os.Stdin), stderrTerminal: isTerminal(os.Stderr),
		stderrColumns: func() int { return terminalColumns(os.Stderr) },
	}
}

// run runs one command line and returns the exit status.
func run(ctx context.Context, args []string, c console) int {
	p := c.prog
	if len(args) == 0 {
		if p.noCommand != nil {
			return p.noCommand(ctx, c)
		}
		fmt.Fprint(c.stderr, p.usage)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "help", "-h", "-help", "--help":
		if cmd == "help" && len(rest) > 0 {
			return commandHelp(ctx, rest[0], c)
		}
		fmt.Fprint(c.stdout, p.usage)
		return exitOK
	case "--version", "-version":
		printVersion(c)
		return exitOK
	}
	command, ok := p.commands[cmd]
	if !ok {
		fmt.Fprintf(c.stderr, "%s: unknown command %q\n\n%s", p.name, cmd, p.usage)
		return exitUsage
	}
	if helpAsked(rest) {
		return commandHelp(ctx, cmd, c)
	}
	return exitCode(ctx, command(ctx, rest, c), c)
}

// helpAsked reports a -h or --help among a command's flags: the help was
// asked for, and goes to stdout (so a pager shows it) with status 0,
// whatever else the command line holds.
func helpAsked(args []string) bool {
	for _, arg := range args {
		switch arg {
		case "--":
			return false
		case "-h", "-help", "--h", "--help":
			return true
		}
	}
	return false
}

// commandHelp prints the usage of the command name on stdout.
func commandHelp(ctx context.Context, name string, c console) int {
	command, ok := c.prog.commands[name]
	if !ok {
		fmt.Fprintf(c.stderr, "%s: unknown command %q\n\n%s", c.prog.name, name, c.prog.usage)
		return exitUsage
	}
	c.stderr = c.stdout
	return exitCode(ctx, command(ctx, []string{"-h"}, c), c)
}

// exitCode reports err (if any) and maps it to an exit status.
func exitCode(ctx context.Context, err error, c console) int {
	var failed errFailed
	var servers errServersFailed
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage):
		return exitUsage
	case ctx.Err() != nil:
		fmt.Fprintln(c.stderr, c.err.bad(c.prog.name+": interrupted"))
		return exitInterrupted
	case errors.As(err, &servers):
		if servers.err != nil && !errors.As(servers.err, &failed) {
			fmt.Fprintln(c.stderr, c.err.bad(c.prog.name+": "+shortError(servers.err)))
		}
		return exitServers
	case errors.As(err, &failed):
		return exitFailed // already reported
	default:
		fmt.Fprintln(c.stderr, c.err.bad(c.prog.name+": "+shortError(err)))
		return exitFailed
	}
}

// errFailed is a failure the command has already reported in its output
// (a script that failed); only the exit status is left to set.
type errFailed struct{}

func (errFailed) Error() string { return "failed" }

func cmdServeBuiltin(ctx context.Context, args []string, c console) error {
	f, err := parseServeBuiltinFlags(c.prog, args, c.stderr)
	if err != nil {
		return err
	}
	err = serveBuiltin(ctx, f.name, f.offlineWhile)
	if ctx.Err() != nil {
		return nil // stopped by a signal: the normal way for a server to end
	}
	return err
}
