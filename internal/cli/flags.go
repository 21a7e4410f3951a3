package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"
)

// errUsage reports a command line that cannot be run; the message has been
// printed already.
var errUsage = errors.New("usage")

// flagError turns a flag parsing error into errUsage, keeping -h apart: help
// that was asked for is not a failure.
func flagError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return flag.ErrHelp
	}
	return errUsage
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(name, synopsis string, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprintf(out, "usage: demo %s %s\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseInterleaved parses args with fs, allowing positional arguments
// between flags (the flag package alone stops at the first one). A lone "-"
// is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) (positional []string, err error) {
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// parseFlagsOnly parses the args of a command that takes no positional
// arguments.
func parseFlagsOnly(fs *flag.FlagSet, args []string) error {
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(pos) > 0 {
		fmt.Fprintf(fs.Output(), "demo %s: unexpected argument %q\n", fs.Name(), pos[0])
		fs.Usage()
		return errUsage
	}
	return nil
}

// minMemoryMB is the smallest worker memory cap a Go worker process starts
// under (measured: 96 MiB is too little on a small machine).
const minMemoryMB = 128

// execFlags are the options of `demo exec`.
type execFlags struct {
	servers  string
	settings string
	script   string // a file, or "-" for standard input
	timeout  time.Duration
	maxCalls int
	memoryMB int
	ask      askMode // "" = decide from the terminal
	jsonOut  bool
	oauth    oauthFlags
}

const execSynopsis = "[--servers FILE] [--settings FILE] [--timeout D] [--max-calls N] [--memory-mb N] [--ask allow|deny|prompt] [--json] (--script FILE | -)"

func parseExecFlags(args []string, errOut io.Writer) (execFlags, error) {
	var f execFlags
	var ask string
	fs := newFlagSet("exec", execSynopsis, errOut)
	fs.StringVar(&f.servers, "servers", "", "mcpServers `FILE` (default: the built-in servers)")
	fs.StringVar(&f.settings, "settings", "", "settings `FILE` (default: built-in servers allowed, delete asks)")
	fs.StringVar(&f.script, "script", "", "the script `FILE` to run; or give - to read it from standard input")
	fs.DurationVar(&f.timeout, "timeout", 0, "wall-clock budget of the run, e.g. 5s (default: the library's)")
	fs.IntVar(&f.maxCalls, "max-calls", 0, "cap on nested calls (default: the library's)")
	fs.IntVar(&f.memoryMB, "memory-mb", 0, "memory cap of the script's worker process, in MiB (default: the library's)")
	fs.StringVar(&ask, "ask", "", "answer permission questions: allow, deny or prompt (default: prompt on a terminal, deny otherwise)")
	fs.BoolVar(&f.jsonOut, "json", false, "print one JSON object: ok, text, images, summary, calls")
	addOAuthFlags(fs, &f.oauth)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return f, flagError(err)
	}
	bad := func(format string, a ...any) (execFlags, error) {
		fmt.Fprintf(errOut, "demo exec: "+format+"\n", a...)
		fs.Usage()
		return f, errUsage
	}
	for _, p := range pos {
		if p != "-" {
			return bad("unexpected argument %q", p)
		}
		if f.script != "" && f.script != "-" {
			return bad("give either --script FILE or -, not both")
		}
		f.script = "-"
	}
	if len(pos) > 1 {
		return bad("- given more than once")
	}
	if f.script == "" {
		return bad("no script: give --script FILE, or - to read it from standard input")
	}
	if ask != "" {
		if f.ask, err = parseAskMode(ask); err != nil {
			return bad("%v", err)
		}
	}
	if f.ask == askPrompt && f.script == "-" {
		return bad("--ask prompt reads answers from standard input, so the script must come from --script FILE")
	}
	switch {
	case f.timeout < 0:
		return bad("--timeout must not be negative")
	case f.maxCalls < 0:
		return bad("--max-calls must not be negative")
	case f.memoryMB < 0:
		return bad("--memory-mb must not be negative")
	case f.memoryMB > 0 && f.memoryMB < minMemoryMB:
		return bad("--memory-mb must be at least %d: below that a worker process cannot start", minMemoryMB)
	}
	return f, nil
}

// catalogFlags are the options of `demo catalog`.
type catalogFlags struct {
	servers string
	budget  int
	oauth   oauthFlags
}

func parseCatalogFlags(args []string, errOut io.Writer) (catalogFlags, error) {
	var f catalogFlags
	fs := newFlagSet("catalog", "[--servers FILE] [--budget N]", errOut)
	fs.StringVar(&f.servers, "servers", "", "mcpServers `FILE` (default: the built-in servers)")
	fs.IntVar(&f.budget, "budget", 0, "catalog budget in estimated tokens (default: the library's)")
	addOAuthFlags(fs, &f.oauth)
	if err := parseFlagsOnly(fs, args); err != nil {
		return f, err
	}
	if f.budget < 0 {
		fmt.Fprintln(errOut, "demo catalog: --budget must not be negative")
		return f, errUsage
	}
	return f, nil
}

// toolsFlags are the options of `demo tools`.
type toolsFlags struct {
	servers  string
	settings string
	oauth    oauthFlags
}

func parseToolsFlags(args []string, errOut io.Writer) (toolsFlags, error) {
	var f toolsFlags
	fs := newFlagSet("tools", "[--servers FILE] [--settings FILE]", errOut)
	fs.StringVar(&f.servers, "servers", "", "mcpServers `FILE` (default: the built-in servers)")
	fs.StringVar(&f.settings, "settings", "", "settings `FILE` (enableExec, permissions, disallowedTools)")
	addOAuthFlags(fs, &f.oauth)
	return f, parseFlagsOnly(fs, args)
}

// serveFlags are the options of `demo serve-mcp`.
type serveFlags struct {
	name         string
	offlineWhile string
}

func parseServeFlags(args []string, errOut io.Writer) (serveFlags, error) {
	var f serveFlags
	fs := newFlagSet("serve-mcp", "[--offline-while FILE] NAME", errOut)
	fs.StringVar(&f.offlineWhile, "offline-while", "", "refuse to start while `FILE` exists")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return f, flagError(err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(errOut, "demo serve-mcp: give exactly one server name:", builtinServerNames())
		fs.Usage()
		return f, errUsage
	}
	f.name = pos[0]
	return f, nil
}
