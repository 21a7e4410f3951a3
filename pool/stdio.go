package pool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/childenv"
)

// stdioTransport starts a stdio server in its own process group and stops it
// as a group. The SDK's CommandTransport signals only the process it started,
// so launchers such as npx would leave their children behind.
type stdioTransport struct {
	cfg ServerConfig
	// grace is how long each stop step (stdin closed, then SIGTERM) waits
	// before the next, harsher one.
	grace time.Duration
	log   zerolog.Logger
	proc  *process // the last process started
}

// readCloser reads through a filter and closes the underlying file.
type readCloser struct {
	io.Reader
	io.Closer
}

// exitReason explains why the last process ended (nil while it runs).
func (t *stdioTransport) exitReason() error {
	if t.proc == nil {
		return nil
	}
	return t.proc.exitReason()
}

// Connect starts the process and speaks newline-delimited JSON over its
// stdin and stdout.
func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	cmd := exec.Command(t.cfg.Command, t.cfg.Args...)
	cmd.Env = mergeEnv(childenv.Environ(), t.cfg.Env)
	cmd.Dir = t.cfg.Cwd
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Our own pipes rather than cmd.StdoutPipe: cmd.Wait closes those, which
	// would race with the SDK's reader goroutine.
	stdinR, stdinW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		closeAll(stdinR, stdinW)
		return nil, err
	}
	// stderr too is a pipe of ours, read by our own goroutine: with a plain
	// io.Writer, cmd.Wait would also wait for every child that inherited
	// stderr, and the group is killed only after Wait.
	stderrR, stderrW, err := os.Pipe()
	if err != nil {
		closeAll(stdinR, stdinW, stdoutR, stdoutW)
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, stderrW
	if err := cmd.Start(); err != nil {
		closeAll(stdinR, stdinW, stdoutR, stdoutW, stderrR, stderrW)
		return nil, fmt.Errorf("cannot start %q: %w", t.cfg.Command, err)
	}
	closeAll(stdinR, stdoutW, stderrW) // the child holds its own copies
	p := &process{
		cmd: cmd, pgid: cmd.Process.Pid, exited: make(chan struct{}),
		stderr: &tailBuffer{}, stderrPipe: stderrR, copied: make(chan struct{}), grace: t.grace,
	}
	p.stderrSink, p.stderrRelay = stderrSink(t.log, t.cfg.Name, p.stderr)
	t.proc = p
	go p.copyStderr()
	go p.wait()
	limit := t.cfg.maxReplyBytes()
	activity := new(atomic.Int64)
	stdout := newJSONLines(countingReader{stdoutR, activity}, limit, func(line string) {
		t.log.Warn().Str("server", t.cfg.Name).Str("line", line).Msg("ignored a line on stdout that is not JSON-RPC")
	}, func(size int64, answered bool) {
		t.log.Warn().Str("server", t.cfg.Name).Int64("bytes", size).Int("limit", limit).Bool("answered", answered).
			Msg("refused a message over the server's reply limit (maxReplyMB)")
	})
	// jsonLines enforces the limit, keeping the connection: the SDK's own
	// cap would close it.
	lines := &mcp.IOTransport{Reader: readCloser{stdout, stdoutR}, Writer: stdinW, MaxLineLength: -1}
	inner, err := lines.Connect(ctx)
	if err != nil {
		closeAll(stdoutR, stdinW)
		p.stop(t.grace)
		return nil, err
	}
	return &processConn{Connection: inner, proc: p, grace: t.grace, activity: activity}, nil
}

// process is a started server and its process group.
type process struct {
	cmd         *exec.Cmd
	pgid        int
	grace       time.Duration
	exited      chan struct{} // closed once the leader is reaped and stderr read
	waitErr     error         // valid after exited is closed
	stderr      *tailBuffer
	stderrSink  io.Writer    // stderr, and a relay to the log when debugging
	stderrRelay *stderrRelay // nil when not debugging
	stderrPipe  *os.File
	copied      chan struct{} // closed when stderr reached EOF or was closed
}

func (p *process) copyStderr() {
	defer close(p.copied)
	_, _ = io.Copy(p.stderrSink, p.stderrPipe)
}

// wait reaps the leader, then kills whatever it left in its group: a server
// that dies must not leave orphans behind either.
func (p *process) wait() {
	p.waitErr = p.cmd.Wait()
	// The group id cannot be handed to a new process while members remain,
	// so this reaches only the dead server's leftovers.
	_ = syscall.Kill(-p.pgid, syscall.SIGKILL)
	// Killed members release stderr at once; one that left the group
	// (setsid) could hold it forever, so stop reading after a grace.
	select {
	case <-p.copied:
	case <-time.After(p.grace):
	}
	_ = p.stderrPipe.Close()
	<-p.copied
	close(p.exited)
}

// stop ends the process group: the caller has closed stdin already; wait for
// a clean exit, then SIGTERM the group, then SIGKILL it. It returns once the
// leader is reaped.
func (p *process) stop(grace time.Duration) {
	steps := []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL}
	for _, sig := range steps {
		select {
		case <-p.exited:
			return
		case <-time.After(grace):
		}
		_ = syscall.Kill(-p.pgid, sig)
	}
	<-p.exited
}

// exitReason describes how the process ended, with the tail of its stderr.
func (p *process) exitReason() error {
	select {
	case <-p.exited:
	default:
		return nil
	}
	msg := "server process exited"
	if p.waitErr != nil {
		msg += ": " + p.waitErr.Error()
	}
	if tail := strings.TrimSpace(p.stderr.String()); tail != "" {
		msg += "; stderr: " + tail
	}
	return errors.New(msg)
}

// processConn is the SDK connection over the process pipes; closing it stops
// the whole process group.
type processConn struct {
	mcp.Connection
	proc     *process
	grace    time.Duration
	once     sync.Once
	activity *atomic.Int64 // bytes read from the server's stdout, and messages decoded
}

func (c *processConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		c.activity.Add(1)
	}
	return msg, err
}

func (c *processConn) inputActivity() int64 { return c.activity.Load() }

func (c *processConn) Close() error {
	if relay := c.proc.stderrRelay; relay != nil {
		relay.stopping.Store(true)
	}
	err := c.Connection.Close() // closes stdin: the polite shutdown request
	c.once.Do(func() { c.proc.stop(c.grace) })
	return err
}

// mergeEnv lays the configured variables over the inherited environment.
func mergeEnv(base []string, extra map[string]string) []string {
	if len(extra) == 0 {
		return base
	}
	env := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if _, overridden := extra[name]; !overridden {
			env = append(env, kv)
		}
	}
	names := make([]string, 0, len(extra))
	for name := range extra {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		env = append(env, name+"="+extra[name])
	}
	return env
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

// tailBuffer keeps the last bytes a server wrote to stderr, to explain a
// failed start or a crash: to the person and the log in full, to a model
// redacted and bounded (redact.go).
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const stderrTail = 64 << 10

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - stderrTail; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
