package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"syscall"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/internal/test262"
)

func main() {
	mcpexec.MaybeRunWorker() // the sandbox engine's workers are this binary
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitPassed  = 0
	exitFailed  = 1
	exitUsage   = 2
	exitTrouble = 3
)

func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("test262", flag.ContinueOnError)
	flags.SetOutput(stderr)
	dir := flags.String("dir", "", "the test262 checkout (required)")
	filter := flags.String("filter", "", "a Go regexp: run only the files whose slash path relative to -dir it matches")
	engine := flags.String("engine", "sandbox", "what runs the scripts: sandbox, goja (bare goja) or node")
	nodeBinary := flags.String("node", "node", "the Node binary, for -engine node")
	parallel := flags.Int("j", runtime.GOMAXPROCS(0), "files run at once")
	verbose := flags.Bool("v", false, "print each failed file and why, on standard error")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: test262 -dir CHECKOUT [-filter REGEXP] [-engine sandbox|goja|node] [-j N] [-v]")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return exitUsage
	}
	if *dir == "" || flags.NArg() > 0 || *parallel < 1 {
		flags.Usage()
		return exitUsage
	}
	opts := test262.Options{Dir: *dir, Parallel: *parallel}
	if *filter != "" {
		re, err := regexp.Compile(*filter)
		if err != nil {
			fmt.Fprintf(stderr, "test262: bad -filter: %v\n", err)
			return exitUsage
		}
		opts.Filter = re
	}
	if *verbose {
		opts.Failures = stderr
	}
	var err error
	switch *engine {
	case "sandbox":
		opts.Engine, err = test262.NewSandbox(*parallel)
	case "goja":
		opts.Engine = test262.Goja{}
	case "node":
		opts.Engine, err = test262.NewNode(*nodeBinary, *parallel)
	default:
		fmt.Fprintf(stderr, "test262: unknown -engine %q: sandbox, goja or node\n", *engine)
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "test262: %v\n", err)
		return exitTrouble
	}
	defer opts.Engine.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	report, err := test262.Run(ctx, opts)
	if err != nil {
		fmt.Fprintf(stderr, "test262: %v\n", err)
		if report.Dirs == nil {
			return exitUsage
		}
	}
	if err := report.Write(stdout); err != nil {
		return exitTrouble
	}
	if report.Total().Failed > 0 || err != nil {
		return exitFailed
	}
	return exitPassed
}
