package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/catalog"
	"github.com/mcpexec/mcpexec/internal/childenv"
	"github.com/mcpexec/mcpexec/state"
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

// newFlagSet returns a flag set that reports errors instead of exiting. Its
// name is the command line so far ("mcpexec exec").
func newFlagSet(p *program, name, synopsis string, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(p.name+" "+name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprintf(out, "usage: %s %s\n", fs.Name(), synopsis)
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
		return usageError(fs, "unexpected argument %q", pos[0])
	}
	return nil
}

// usageError prints a command line problem and the command's usage.
func usageError(fs *flag.FlagSet, format string, a ...any) error {
	fmt.Fprintf(fs.Output(), "%s: "+format+"\n", append([]any{fs.Name()}, a...)...)
	fs.Usage()
	return errUsage
}

// minMemoryMB is the smallest worker memory cap a Go worker process starts
// under (measured: 96 MiB is too little on a small machine).
const minMemoryMB = mcpexec.MinMemoryLimit >> 20

// poolFlags are the options every command that starts a pool shares.
type poolFlags struct {
	servers  string
	settings string
	verbose  bool
	// noLearn turns off learning what tools return (the catalog's
	// observed notes).
	noLearn bool
	oauth   oauthFlags
}

// addPoolFlags declares --servers, --settings and --verbose.
func addPoolFlags(p *program, fs *flag.FlagSet, f *poolFlags) {
	if p.builtinPool {
		fs.StringVar(&f.servers, "servers", "", "mcpServers `FILE` (default: the built-in servers)")
		fs.StringVar(&f.settings, "settings", "", "settings `FILE`: enableExec, permissions, disallowedTools (default: built-in tools allowed, delete asks)")
	} else {
		fs.StringVar(&f.servers, "servers", "", "mcpServers `FILE`, the common {\"mcpServers\": {...}} format (required)")
		fs.StringVar(&f.settings, "settings", "", "settings `FILE`: enableExec, permissions, disallowedTools; \"allow always\" answers are saved there (default: none, every call no rule settles is asked)")
	}
	fs.BoolVar(&f.verbose, "verbose", false, "show the servers' diagnostics and log messages on stderr")
	fs.BoolVar(&f.noLearn, "no-learn", false, "do not learn or show what tools were observed to return (kept in $MCPEXEC_CACHE_DIR, default: mcpexec in the user cache directory)")
	addOAuthFlags(fs, &f.oauth)
}

// serversSynopsis is --servers in a usage line: optional where the
// program has a built-in pool, required otherwise.
func serversSynopsis(p *program) string {
	if p.builtinPool {
		return "[--servers FILE]"
	}
	return "--servers FILE"
}

// check reports a missing --servers where the program has no built-in pool.
func (f poolFlags) check(p *program, fs *flag.FlagSet) error {
	if f.servers == "" && !p.builtinPool {
		return usageError(fs, "--servers FILE is required")
	}
	return nil
}

// limitFlags bound every script a command runs.
type limitFlags struct {
	timeout  time.Duration
	maxCalls int
	memoryMB int
	stateMB  int
}

func addLimitFlags(fs *flag.FlagSet, f *limitFlags) {
	durationFlag(fs, &f.timeout, "timeout", mcpexec.DefaultTimeout, "wall-clock budget of a script run, a `duration` such as 30s or 2m; also bounds the wait for the servers to start")
	fs.IntVar(&f.maxCalls, "max-calls", mcpexec.DefaultMaxCalls, "cap on a script's nested calls")
	fs.IntVar(&f.memoryMB, "memory-mb", mcpexec.DefaultMemoryLimit>>20, "memory cap of a script's worker process, in MiB")
	fs.IntVar(&f.stateMB, "state-mb", state.DefaultMaxBytes>>20, "bound of a conversation's state, in MiB: on what its scripts store, and apart on the results kept by reference")
}

// stateLimits are the bounds of a conversation's state the flags ask for.
func (f limitFlags) stateLimits() state.Limits {
	return state.Limits{MaxBytes: int64(f.stateMB) << 20, MaxResultBytes: int64(f.stateMB) << 20}
}

func (f limitFlags) check(fs *flag.FlagSet) error {
	switch {
	case f.timeout <= 0:
		return usageError(fs, "--timeout must be positive")
	case f.maxCalls <= 0:
		return usageError(fs, "--max-calls must be positive")
	case f.memoryMB < minMemoryMB:
		return usageError(fs, "--memory-mb must be at least %d: below that a worker process cannot start", minMemoryMB)
	case f.stateMB <= 0:
		return usageError(fs, "--state-mb must be positive")
	}
	return nil
}

// telemetryFlags are the OpenTelemetry options beside the OTEL_*
// environment.
type telemetryFlags struct {
	traceArgs bool
	metrics   string // serve only: the Prometheus endpoint's address
}

func addTelemetryFlags(fs *flag.FlagSet, f *telemetryFlags) {
	fs.BoolVar(&f.traceArgs, "trace-args", false, "add each nested call's arguments to its span (with OTEL_* exporters set; off: spans carry no argument or result values)")
}

// execFlags are the options of the exec command.
type execFlags struct {
	poolFlags
	limitFlags
	telemetryFlags
	script  string  // a file, or "-" for standard input
	ask     askMode // "" = decide from the terminal
	jsonOut bool
	state   string // the state directory; "" = none
}

const execSynopsis = "[--settings FILE] [--state DIR] [--state-mb N] [--timeout D] [--max-calls N] [--memory-mb N] [--ask allow|deny|prompt] [--json] [--trace-args] [--verbose] (--script FILE | -)"

func parseExecFlags(p *program, args []string, errOut io.Writer) (execFlags, error) {
	var f execFlags
	var ask string
	fs := newFlagSet(p, "exec", serversSynopsis(p)+" "+execSynopsis, errOut)
	addPoolFlags(p, fs, &f.poolFlags)
	fs.StringVar(&f.script, "script", "", "the script `FILE` to run; or give - to read it from standard input")
	addLimitFlags(fs, &f.limitFlags)
	fs.StringVar(&ask, "ask", "", "answer permission questions and servers' questions: allow, deny or prompt (default: prompt on a terminal, deny otherwise); allow accepts a server's form with its defaults when they complete it")
	fs.BoolVar(&f.jsonOut, "json", false, "print one JSON object: ok, text, images, summary, calls, audit, and the whole return value when the text shows only its first part")
	fs.StringVar(&f.state, "state", "", "keep the script's state in `DIR` for the next exec given the same DIR: what it stores (store, load), "+
		"and a return value too long for the text, kept by reference (default: none; store and load then throw)")
	addTelemetryFlags(fs, &f.telemetryFlags)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return f, flagError(err)
	}
	for _, arg := range pos {
		if arg != "-" {
			return f, usageError(fs, "unexpected argument %q", arg)
		}
		if f.script != "" && f.script != "-" {
			return f, usageError(fs, "give either --script FILE or -, not both")
		}
		f.script = "-"
	}
	if len(pos) > 1 {
		return f, usageError(fs, "- given more than once")
	}
	if err := f.poolFlags.check(p, fs); err != nil {
		return f, err
	}
	if f.script == "" {
		return f, usageError(fs, "no script: give --script FILE, or - to read it from standard input")
	}
	if ask != "" {
		if f.ask, err = parseAskMode(ask); err != nil {
			return f, usageError(fs, "%v", err)
		}
	}
	if f.ask == askPrompt && f.script == "-" {
		return f, usageError(fs, "--ask prompt reads answers from standard input, so the script must come from --script FILE")
	}
	return f, f.limitFlags.check(fs)
}

// limits are the sandbox limits and worker options the flags ask for.
func (f limitFlags) options(opts *mcpexec.Options) {
	opts.Limits = mcpexec.Limits{Timeout: f.timeout, MaxCalls: f.maxCalls}
	opts.Workers.MemoryLimit = int64(f.memoryMB) << 20
}

// catalogFlags are the options of the catalog command.
type catalogFlags struct {
	poolFlags
	budget int
}

func parseCatalogFlags(p *program, args []string, errOut io.Writer) (catalogFlags, error) {
	var f catalogFlags
	fs := newFlagSet(p, "catalog", serversSynopsis(p)+" [--settings FILE] [--budget N] [--verbose]", errOut)
	addPoolFlags(p, fs, &f.poolFlags)
	fs.IntVar(&f.budget, "budget", catalog.DefaultBudget, "catalog budget in estimated tokens")
	if err := parseFlagsOnly(fs, args); err != nil {
		return f, err
	}
	if f.budget <= 0 {
		return f, usageError(fs, "--budget must be positive")
	}
	return f, f.poolFlags.check(p, fs)
}

// toolsFlags are the options of the tools command.
type toolsFlags struct {
	poolFlags
}

func parseToolsFlags(p *program, args []string, errOut io.Writer) (toolsFlags, error) {
	var f toolsFlags
	fs := newFlagSet(p, "tools", serversSynopsis(p)+" [--settings FILE] [--verbose]", errOut)
	addPoolFlags(p, fs, &f.poolFlags)
	if err := parseFlagsOnly(fs, args); err != nil {
		return f, err
	}
	return f, f.poolFlags.check(p, fs)
}

// serveFlags are the options of the serve command.
type serveFlags struct {
	poolFlags
	limitFlags
	telemetryFlags
	budget       int
	http         string // "" = stdio
	allowOrigins []string
	nodes        nodeFlags
	replicas     replicaFlags
	parkTimeout  time.Duration
	yieldAfter   time.Duration
}

const serveSynopsis = "[--settings FILE] [--http ADDR] [--allow-origin ORIGIN]... [--budget N] [--timeout D] [--park-timeout D] [--yield-after D] [--max-calls N] [--memory-mb N] [--state-mb N] " +
	"[--node HOST:PORT... --node-listen HOST:PORT] [--state-key-file FILE] [--replica-listen HOST:PORT --replica-peer HOST:PORT...] [--tls-cert FILE --tls-key FILE --tls-ca FILE] [--metrics ADDR] [--trace-args] [--verbose]"

// defaultYieldAfter is how long an Exec call of serve waits for its script
// by default: under the minute many MCP clients give a tool call.
const defaultYieldAfter = 25 * time.Second

// tokenEnv names the environment variable holding the HTTP bearer token:
// a flag would show the secret to every user of ps.
const tokenEnv = childenv.Token

func parseServeFlags(p *program, args []string, errOut io.Writer) (serveFlags, error) {
	var f serveFlags
	fs := newFlagSet(p, "serve", serversSynopsis(p)+" "+serveSynopsis, errOut)
	addPoolFlags(p, fs, &f.poolFlags)
	addLimitFlags(fs, &f.limitFlags)
	fs.IntVar(&f.budget, "budget", catalog.DefaultBudget, "catalog budget in estimated tokens")
	fs.StringVar(&f.http, "http", "", "serve streamable HTTP on `ADDR` (host:port; a bare :port binds to 127.0.0.1) instead of stdio; "+
		"requests must carry the bearer token in $"+tokenEnv+" when it is set")
	fs.Func("allow-origin", "a browser `ORIGIN` (https://app.example) allowed besides loopback ones; repeatable", func(s string) error {
		f.allowOrigins = append(f.allowOrigins, s)
		return nil
	})
	durationFlag(fs, &f.parkTimeout, "park-timeout", mcpexec.DefaultParkTimeout,
		"how long (a `duration`) a run waits, parked, for the answers of a client that gets its questions as input_required results (protocol 2026-07-28); then it is cancelled")
	addNodeFlags(fs, &f.nodes)
	addReplicaFlags(fs, &f.replicas)
	addTelemetryFlags(fs, &f.telemetryFlags)
	durationFlag(fs, &f.yieldAfter, "yield-after", defaultYieldAfter,
		"how long (a `duration`) an Exec call waits for its script: one still running then returns \"Still running\" with a handle to wait on or cancel; 0 waits for every script's end")
	fs.StringVar(&f.metrics, "metrics", "", "serve the metrics for Prometheus at http://`ADDR`/metrics (host:port; a bare :port binds to 127.0.0.1)")
	if err := parseFlagsOnly(fs, args); err != nil {
		return f, err
	}
	if err := f.nodes.check(fs, f.replicas.joined()); err != nil {
		return f, err
	}
	if err := f.replicas.check(fs, f.http); err != nil {
		return f, err
	}
	if err := f.poolFlags.check(p, fs); err != nil {
		return f, err
	}
	if f.budget <= 0 {
		return f, usageError(fs, "--budget must be positive")
	}
	if f.yieldAfter < 0 {
		return f, usageError(fs, "--yield-after must not be negative")
	}
	if len(f.allowOrigins) > 0 && f.http == "" {
		return f, usageError(fs, "--allow-origin applies to --http only")
	}
	if f.parkTimeout <= 0 {
		return f, usageError(fs, "--park-timeout must be positive")
	}
	return f, f.limitFlags.check(fs)
}

// serveBuiltinFlags are the options of `demo serve-mcp`.
type serveBuiltinFlags struct {
	name         string
	offlineWhile string
}

func parseServeBuiltinFlags(p *program, args []string, errOut io.Writer) (serveBuiltinFlags, error) {
	var f serveBuiltinFlags
	fs := newFlagSet(p, "serve-mcp", "[--offline-while FILE] NAME", errOut)
	fs.StringVar(&f.offlineWhile, "offline-while", "", "refuse to start while `FILE` exists")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return f, flagError(err)
	}
	if len(pos) != 1 {
		return f, usageError(fs, "give exactly one server name: %v", builtinServerNames())
	}
	f.name = pos[0]
	return f, nil
}
