package pool_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

func contentServer(name string) pool.ServerConfig {
	command, args, env := testservers.ContentCommand()
	return pool.ServerConfig{Name: name, Command: command, Args: args, Env: env}
}

// A server killed during a call over HTTP fails that call with the lost
// connection as the reason, long before the call's own time runs out: the
// call is given an hour, far more than the test may take. The server's
// call streams are resumable, so the SDK alone would spend its reconnect
// schedule (many seconds) on a server that is gone.
func TestHTTPServerKilledMidCallFailsTheCallWithItsReason(t *testing.T) {
	proc, err := testservers.StartHTTP()
	if err != nil {
		t.Fatal(err)
	}
	defer proc.Kill()
	m := start(t, []pool.ServerConfig{{Name: "web", URL: proc.URL}}, pool.Options{PingInterval: -1})
	killMidCall(t, m, "mcp__web__hang", `{}`, proc.Calls, proc.Kill)
}

// killMidCall starts a call given an hour, kills its server once started
// says the server has it, and checks the call fails with the lost
// connection and the server's tools leave the pool with the reason.
func killMidCall(t *testing.T, m *pool.Manager, tool, args string, started <-chan struct{}, kill func()) {
	t.Helper()
	if _, ok := m.Snapshot().Lookup(tool); !ok {
		t.Fatalf("not connected: %+v", m.Status())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	failed := make(chan error, 1)
	go func() {
		_, err := m.Call(ctx, tool, raw(args))
		failed <- err
	}()
	select {
	case <-started:
	case <-time.After(patience):
		t.Fatal("the call never reached the server")
	}
	kill()
	began := time.Now()
	var err error
	select {
	case err = <-failed:
	case <-time.After(patience):
		t.Fatal("the call did not fail after its server was killed")
	}
	t.Logf("failed %v after the kill: %v", time.Since(began), err)
	var ce *pool.CallError
	if !errors.As(err, &ce) || ce.Kind != pool.KindConnectionLost {
		t.Fatalf("err = %v, want the connection lost", err)
	}
	if want := fmt.Sprintf(`MCP tool %q failed: the connection to its server "web" was lost during the call.`, tool); err.Error() != want {
		t.Errorf("message = %q, want %q", err, want)
	}
	// Its tools leave the pool; once reconnecting fails, that is the reason.
	waitFor(t, m, "the dead server down for a refused connection", func(snap *pool.Snapshot) bool {
		down, ok := snap.Unavailable(tool)
		return ok && strings.Contains(down.Why, "connection refused")
	})
}

// everythingHTTP starts the real server-everything over streamable HTTP on
// a free port.
func everythingHTTP(t *testing.T) (url string, kill func()) {
	t.Helper()
	bin := everythingServer(t).Command
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	listening := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		once := sync.Once{}
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on port") {
				once.Do(func() { close(listening) })
			}
		}
		_ = cmd.Wait()
		close(done)
	}()
	kill = func() {
		_ = cmd.Process.Kill()
		<-done
	}
	t.Cleanup(kill)
	select {
	case <-listening:
	case <-time.After(patience):
		t.Fatal("server-everything did not start listening")
	}
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port), kill
}

// callStarted signals each time a tools/call POST got its response
// headers: the server has the call and is streaming its answer.
type callStarted struct {
	next    http.RoundTripper
	started chan struct{}
}

func (c callStarted) RoundTrip(req *http.Request) (*http.Response, error) {
	isCall := false
	if req.Method == http.MethodPost && req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			data, _ := io.ReadAll(body)
			isCall = bytes.Contains(data, []byte(`"tools/call"`))
		}
	}
	resp, err := c.next.RoundTrip(req)
	if err == nil && isCall {
		c.started <- struct{}{}
	}
	return resp, err
}

// The same against the real server-everything, whose call streams can be
// resumed (the SDK would retry the broken stream for many seconds): the
// pool must see that the server is gone and fail the call with that reason.
// The call is given an hour; the test would time out long before.
func TestEverythingOverHTTPKilledMidCallFailsTheCallWithItsReason(t *testing.T) {
	url, kill := everythingHTTP(t)
	started := make(chan struct{}, 1)
	transport := http.DefaultTransport.(*http.Transport).Clone()
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: callStarted{next: transport, started: started}}
	m := start(t, []pool.ServerConfig{{Name: "web", URL: url}}, pool.Options{PingInterval: -1, HTTPClient: client})
	killMidCall(t, m, "mcp__web__trigger-long-running-operation", `{"duration":3600,"steps":1}`, started, kill)
}

func silentServer(name string, timeout time.Duration) pool.ServerConfig {
	command, args, env := testservers.SilentCommand()
	return pool.ServerConfig{Name: name, Command: command, Args: args, Env: env, ConnectTimeout: timeout}
}

func crashingServer(name string) pool.ServerConfig {
	command, args, env := testservers.CrashAtStartCommand()
	return pool.ServerConfig{Name: name, Command: command, Args: args, Env: env}
}

// Servers that cannot be used never hold up the others, and a call to one of
// their tools says which server is down and why: a missing command, a crash
// at start (with the server's own words), a handshake that never ends (cut
// by the server's own connect timeout), a disabled entry.
func TestServersThatAreDownSayWhy(t *testing.T) {
	m := start(t, []pool.ServerConfig{
		contentServer("ok"),
		{Name: "missing", Command: "/nonexistent/mcp-server"},
		crashingServer("crash"),
		silentServer("silent", 300*time.Millisecond),
		{Name: "off", Command: "/nonexistent/never-started", Disabled: true},
	}, pool.Options{BackoffBase: time.Hour, BackoffMax: time.Hour})
	if _, err := m.Call(context.Background(), "mcp__ok__link", raw(`{}`)); err != nil {
		t.Fatalf("the working server: %v", err)
	}
	want := map[string]string{
		"missing": `MCP tool "mcp__missing__x" is not available: its server "missing" is not connected: cannot start "/nonexistent/mcp-server": fork/exec /nonexistent/mcp-server: no such file or directory`,
		"crash":   `MCP tool "mcp__crash__x" is not available: its server "crash" is not connected: server process exited: exit status 1; stderr: ` + testservers.CrashMessage,
		"silent":  `MCP tool "mcp__silent__x" is not available: its server "silent" is not connected: the server did not finish the MCP handshake in time`,
		"off":     `MCP tool "mcp__off__x" is not available: its server "off" is not connected: disabled in the MCP servers configuration`,
	}
	for server, msg := range want {
		_, err := m.Call(context.Background(), "mcp__"+server+"__x", raw(`{}`))
		var ce *pool.CallError
		if !errors.As(err, &ce) || ce.Kind != pool.KindServerDown || err.Error() != msg {
			t.Errorf("%s:\n got %v\nwant %s", server, err, msg)
		}
	}
	states := map[string]pool.State{}
	for _, st := range m.Status() {
		states[st.Name] = st.State
	}
	wantStates := map[string]pool.State{"ok": pool.StateConnected, "missing": pool.StateRetrying, "crash": pool.StateRetrying, "silent": pool.StateRetrying, "off": pool.StateDisabled}
	if !cmp.Equal(states, wantStates) {
		t.Errorf("states = %v, want %v", states, wantStates)
	}
	// A tool the working server does not have is unknown, not down.
	if _, err := m.Call(context.Background(), "mcp__ok__nope", raw(`{}`)); err == nil || !strings.Contains(err.Error(), "is not in the current tool pool") {
		t.Errorf("unknown tool of a connected server: %v", err)
	}
}

// A server still starting does not hold up the pool: the others' tools are
// callable meanwhile, and its own say it is still starting.
func TestAServerStillStartingHoldsUpNoOne(t *testing.T) {
	baseline := runtime.NumGoroutine()
	m, err := pool.New(context.Background(), []pool.ServerConfig{contentServer("ok"), silentServer("slow", time.Hour)}, pool.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = m.Close()
		waitGoroutines(t, baseline)
	}()
	waitFor(t, m, "the working server's tools", func(s *pool.Snapshot) bool { _, ok := s.Lookup("mcp__ok__link"); return ok })
	if _, err := m.Call(context.Background(), "mcp__ok__link", raw(`{}`)); err != nil {
		t.Fatal(err)
	}
	_, err = m.Call(context.Background(), "mcp__slow__x", raw(`{}`))
	if want := `MCP tool "mcp__slow__x" is not available: its server "slow" is not connected: still starting`; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	select {
	case <-m.Ready():
		t.Error("Ready while a server is still on its first attempt")
	default:
	}
}

// Replies well past the SDK's own line cap are accepted; one over the
// server's limit fails that call alone, naming its size, and the
// connection stays.
func TestLargeRepliesAndOneOverTheLimit(t *testing.T) {
	roomy := contentServer("roomy")
	tight := contentServer("tight")
	tight.MaxReplyBytes = 1 << 20
	m := start(t, []pool.ServerConfig{roomy, tight}, pool.Options{})
	// A first attempt may fail on a loaded machine; what matters is that no
	// large reply costs a reconnect.
	waitFor(t, m, "roomy", has("mcp__roomy__big"))
	waitFor(t, m, "tight", has("mcp__tight__big"))
	connectsBefore := map[string]int{}
	for _, st := range m.Status() {
		connectsBefore[st.Name] = st.Connects
	}
	ctx := context.Background()
	callBig(t, m, "roomy", 17<<20) // over the SDK's default cap, which would close the connection
	callOverTheLimit(t, m)
	for _, server := range []string{"roomy", "tight"} {
		if _, err := m.Call(ctx, "mcp__"+server+"__link", raw(`{}`)); err != nil {
			t.Errorf("%s after a large reply: %v", server, err)
		}
	}
	for _, st := range m.Status() {
		if st.Connects != connectsBefore[st.Name] {
			t.Errorf("%s reconnected: %d connections before the large replies, %d after", st.Name, connectsBefore[st.Name], st.Connects)
		}
	}
}

// Over HTTP too, a reply over the server's limit fails that call alone,
// naming its size, and the connection stays, whether the reply is an SSE
// event (the SDK would fail the whole connection on one over its limit) or
// a JSON body (which the SDK reads whole, however large). Replies within
// the limit, large ones included, pass whole.
func TestHTTPReplyOverTheLimitFailsThatCallAlone(t *testing.T) {
	for name, serve := range map[string]func() (*testservers.HTTPProcess, error){
		"sse": testservers.StartHTTP, "json": testservers.StartHTTPJSON,
	} {
		t.Run(name, func(t *testing.T) { replyOverTheLimit(t, serve) })
	}
}

func replyOverTheLimit(t *testing.T, startServer func() (*testservers.HTTPProcess, error)) {
	proc, err := startServer()
	if err != nil {
		t.Fatal(err)
	}
	defer proc.Kill()
	m := start(t, []pool.ServerConfig{{Name: "tight", URL: proc.URL, MaxReplyBytes: 1 << 20}}, pool.Options{PingInterval: -1})
	waitFor(t, m, "tight", has("mcp__tight__big"))
	connectsBefore := m.Status()[0].Connects
	callBig(t, m, "tight", 900<<10)
	callOverTheLimit(t, m)
	if _, err := m.Call(context.Background(), "mcp__tight__link", raw(`{}`)); err != nil {
		t.Errorf("after a reply over the limit: %v", err)
	}
	if st := m.Status()[0]; st.State != pool.StateConnected || st.Connects != connectsBefore {
		t.Errorf("after a reply over the limit: %+v, want still connected on connection %d", st, connectsBefore)
	}
}

// callBig asks server's big tool for a reply of size bytes, which must
// arrive whole.
func callBig(t *testing.T, m *pool.Manager, server string, size int) {
	t.Helper()
	res, err := m.Call(context.Background(), "mcp__"+server+"__big", raw(fmt.Sprintf(`{"bytes":%d}`, size)))
	if text, _ := res.Value.(string); err != nil || len(text) != size {
		t.Fatalf("a %d-byte reply: %d bytes, %v", size, len(text), err)
	}
}

// callOverTheLimit asks the server "tight" (a limit of 1 MB) for a reply
// of about 3 MB: the call must fail, naming the size.
func callOverTheLimit(t *testing.T, m *pool.Manager) {
	t.Helper()
	_, err := m.Call(context.Background(), "mcp__tight__big", raw(`{"bytes":3000000}`))
	var ce *pool.CallError
	want := `MCP tool "mcp__tight__big" failed: its reply (2.9 MB) is larger than the server "tight" is allowed to send; ask for less at a time.`
	if !errors.As(err, &ce) || ce.Kind != pool.KindReplyTooLarge || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
}

// A stdio server writing a reply of some megabytes slowly answers a ping
// only after it: the connection stays while the reply's bytes keep
// arriving, however long the ping waits, and the call gets all of it.
func TestAPingBehindASlowLargeReplyKeepsTheConnection(t *testing.T) {
	command, args, env := testservers.TrickleCommand()
	const pingWait = 4 * time.Second
	slow := pool.ServerConfig{Name: "slow", Command: command, Args: args, Env: env, ConnectTimeout: pingWait}
	m := start(t, []pool.ServerConfig{slow}, pool.Options{PingInterval: 100 * time.Millisecond})
	waitFor(t, m, "slow", has("mcp__slow__big"))
	connects := m.Status()[0].Connects
	// Long enough to arrive over more than two of the ping's waits, small
	// enough to be decoded well within one.
	size := int(5 * pingWait / 2 / time.Second * time.Duration(testservers.TrickleRate))
	callBig(t, m, "slow", size)
	if got := m.Status()[0].Connects; got != connects {
		t.Errorf("the server was reconnected during the reply: %d connections, then %d", connects, got)
	}
}
