package testservers

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	envKind       = "MCPEXEC_TESTSERVER"
	kindBehaviour = "behaviour"
	kindSleeper   = "sleeper"
	kindStubborn  = "stubborn"
	kindNoisy     = "noisy"
	kindContent   = "content"
	kindTrickle   = "trickle"
	kindSilent    = "silent"
	kindCrash     = "crash-at-start"
	kindHTTP      = "http"
	kindLedger    = "ledger"
	// envBlockFile names a file whose existence makes the behaviour server
	// fail at start, so a test controls when a reconnect can succeed.
	envBlockFile = "MCPEXEC_TESTSERVER_BLOCKFILE"
)

// MaybeServe turns the test binary into a stdio server when it was started
// by StdioCommand: it serves and exits, never returning. Otherwise it
// returns at once. Call it first thing in TestMain.
func MaybeServe() {
	switch os.Getenv(envKind) {
	case "":
		return
	case kindBehaviour:
		if f := os.Getenv(envBlockFile); f != "" {
			if _, err := os.Stat(f); err == nil {
				fmt.Fprintln(os.Stderr, "refusing to start while", f, "exists")
				os.Exit(1)
			}
		}
		err := Behaviour(BehaviourOptions{Process: true}).Run(context.Background(), &mcp.StdioTransport{})
		if err != nil {
			fmt.Fprintln(os.Stderr, "behaviour server:", err)
		}
		os.Exit(0)
	case kindSleeper:
		select {} // a grandchild that never ends by itself
	case kindNoisy:
		// As some real servers do: a banner on stdout before JSON-RPC.
		fmt.Println(NoisyBanner)
		_ = Behaviour(BehaviourOptions{Process: true}).Run(context.Background(), &mcp.StdioTransport{})
		os.Exit(0)
	case kindStubborn:
		// Serves like the behaviour server, then ignores both polite stop
		// requests: stdin closing and SIGTERM.
		signal.Ignore(syscall.SIGTERM)
		_ = Behaviour(BehaviourOptions{Process: true}).Run(context.Background(), &mcp.StdioTransport{})
		select {}
	case kindContent:
		_ = Content().Run(context.Background(), &mcp.StdioTransport{})
		os.Exit(0)
	case kindTrickle:
		_ = Content().Run(context.Background(), &mcp.IOTransport{Reader: os.Stdin, Writer: trickleWriter{os.Stdout}})
		os.Exit(0)
	case kindSilent:
		// Reads what the client sends and never answers: a handshake
		// that never ends.
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	case kindCrash:
		fmt.Fprintln(os.Stderr, CrashMessage)
		os.Exit(1)
	case kindHTTP:
		os.Exit(serveHTTP())
	case kindLedger:
		_ = Ledger().Run(context.Background(), &mcp.StdioTransport{})
		os.Exit(0)
	case kindResults:
		_ = Results(os.Getenv(envVersion)).Run(context.Background(), &mcp.StdioTransport{})
		os.Exit(0)
	default:
		fmt.Fprintln(os.Stderr, "unknown test server kind", os.Getenv(envKind))
		os.Exit(2)
	}
}

// StdioCommand returns the command, arguments and environment that start the
// behaviour server (with its process tools) as a stdio subprocess of a test
// binary whose TestMain calls MaybeServe.
//
// When blockFile is not empty, the server refuses to start (exit status 1,
// a line on stderr) for as long as that file exists.
func StdioCommand(blockFile string) (command string, args []string, env map[string]string) {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	env = map[string]string{envKind: kindBehaviour}
	if blockFile != "" {
		env[envBlockFile] = blockFile
	}
	return exe, []string{"-test.run=^$"}, env
}

// StubbornCommand is like StdioCommand for a server that ignores stdin
// closing and SIGTERM: only SIGKILL stops it.
func StubbornCommand() (command string, args []string, env map[string]string) {
	command, args, env = StdioCommand("")
	env[envKind] = kindStubborn
	return command, args, env
}

// NoisyBanner is the line the noisy server prints on stdout before speaking
// JSON-RPC.
const NoisyBanner = "No X display available, continuing headless"

// NoisyCommand is like StdioCommand for a server that prints NoisyBanner on
// stdout first.
func NoisyCommand() (command string, args []string, env map[string]string) {
	command, args, env = StdioCommand("")
	env[envKind] = kindNoisy
	return command, args, env
}

// ContentCommand is like StdioCommand for the Content server.
func ContentCommand() (command string, args []string, env map[string]string) {
	return kindCommand(kindContent)
}

// TrickleCommand is like ContentCommand for a Content server that writes
// slowly: a reply of some megabytes takes seconds to arrive, as over a slow
// pipe or from a busy process.
func TrickleCommand() (command string, args []string, env map[string]string) {
	return kindCommand(kindTrickle)
}

// trickleWriter writes in small pieces with a pause after each.
type trickleWriter struct{ w io.WriteCloser }

// TrickleRate is how many bytes a second the trickle server writes.
const TrickleRate = trickleBytes * int(time.Second/trickleEvery)

const (
	trickleBytes = 4 << 10
	trickleEvery = 20 * time.Millisecond
)

func (t trickleWriter) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		n := min(len(p), trickleBytes)
		m, err := t.w.Write(p[:n])
		written += m
		if err != nil {
			return written, err
		}
		p = p[n:]
		if len(p) > 0 {
			time.Sleep(trickleEvery)
		}
	}
	return written, nil
}

func (t trickleWriter) Close() error { return t.w.Close() }

// SilentCommand is like StdioCommand for a server that reads its input and
// never answers, so its handshake never ends.
func SilentCommand() (command string, args []string, env map[string]string) {
	return kindCommand(kindSilent)
}

// CrashMessage is what the crash-at-start server prints on stderr before it
// exits with status 1.
const CrashMessage = "fatal: missing API key"

// CrashAtStartCommand is like StdioCommand for a server that prints
// CrashMessage on stderr and exits at once.
func CrashAtStartCommand() (command string, args []string, env map[string]string) {
	return kindCommand(kindCrash)
}

func kindCommand(kind string) (command string, args []string, env map[string]string) {
	command, args, env = StdioCommand("")
	env[envKind] = kind
	return command, args, env
}
