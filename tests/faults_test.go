package tests

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
)

// Fault injection against a running gateway under load: sandbox workers
// killed, a server killed, another stalled (stopped, then resumed), and at
// last SIGTERM with calls in flight. Every request the gateway read gets a
// JSON-RPC response with its id; afterwards no process of the run is left,
// and before the stop the gateway holds no more descriptors than before
// the faults. Bounded in time: scripts have a short budget, so a call to
// the stalled server ends with its script.

// faultLoaders is how many clients keep Execs going at once.
const faultLoaders = 4

// loadScript makes nested calls to both servers.
const loadScript = `const a = await tools.mcp__text__echo({text: "x"}); const b = await tools.mcp__srv__fetch({id: 1}); return a + b.title;`

// outcome of one request.
type outcome struct {
	answered   bool  // a JSON-RPC response with the request's id came back
	succeeded  bool  // and it is a result that is not isError
	transport  error // no HTTP response at all
	status     int
	afterAStop bool // sent once SIGTERM was on its way
}

// faultClient is one raw MCP session over HTTP.
type faultClient struct {
	url, session string
}

func newFaultClient(t *testing.T, url string) *faultClient {
	t.Helper()
	res, err := mcpPost(url, "", initializeRequest)
	if err != nil {
		t.Fatal(err)
	}
	c := &faultClient{url: url, session: res.Header.Get("Mcp-Session-Id")}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res, err = mcpPost(url, c.session, initializedNotice); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return c
}

// exec sends one Exec and reads its reply.
func (c *faultClient) exec(id int, code string) outcome {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"Exec","arguments":{"code":%q}}}`, id, code)
	return c.send(id, body, nil)
}

// send posts a request and reads its reply, telling onProgress of each
// progress notification.
func (c *faultClient) send(id int, body string, onProgress func()) outcome {
	res, err := mcpPost(c.url, c.session, body)
	if err != nil {
		return outcome{transport: err}
	}
	defer res.Body.Close()
	o := outcome{status: res.StatusCode}
	eachMessage(res.Body, func(m rpcLine) {
		if m.Method == "notifications/progress" && onProgress != nil {
			onProgress()
		}
		if m.answers(id) {
			o.answered = true
			var r struct {
				IsError bool `json:"isError"`
			}
			o.succeeded = len(m.Result) > 0 && json.Unmarshal(m.Result, &r) == nil && !r.IsError
		}
	})
	return o
}

// descriptors counts the open file descriptors of process pid.
func descriptors(t *testing.T, pid int) int {
	t.Helper()
	fds, err := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "fd"))
	if err != nil {
		t.Fatal(err)
	}
	return len(fds)
}

// childrenMatching returns the pids of the gateway's children whose command
// line or environment matches.
func childrenMatching(t *testing.T, ppid int, match func(pid string) bool) []int {
	t.Helper()
	var pids []int
	eachProcess(t, func(pid string) {
		if parent, state, ok := parentAndState(pid); ok && parent == strconv.Itoa(ppid) && state != "Z" && match(pid) {
			n, _ := strconv.Atoi(pid)
			pids = append(pids, n)
		}
	})
	return pids
}

func TestServeUnderFaultsAnswersEveryRequestAndLeaksNothing(t *testing.T) {
	g := startServeHTTP(t, serversFile(t, "srv", "text"), nil, "--timeout", "3s")
	pid := g.cmd.Process.Pid
	clients := make([]*faultClient, faultLoaders)
	for i := range clients {
		clients[i] = newFaultClient(t, g.url)
	}
	isWorker := func(p string) bool { return hasEnv(p, "MCPEXEC_SANDBOX_WORKER=1") }
	isServer := func(name string) func(string) bool {
		return func(p string) bool { return strings.Contains(describeProcess(p), "serve-mcp "+name) }
	}

	var (
		nextID   atomic.Int64
		stopping atomic.Bool
		mu       sync.Mutex
		outcomes = map[int]outcome{}
	)
	round := func(n int) { // n Execs per client, all clients at once
		var wg sync.WaitGroup
		for _, c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range n {
					id := int(nextID.Add(1))
					late := stopping.Load()
					o := c.exec(id, loadScript)
					o.afterAStop = late || stopping.Load()
					mu.Lock()
					outcomes[id] = o
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
	}
	quiet := func() int {
		http.DefaultClient.CloseIdleConnections()
		return descriptors(t, pid)
	}

	round(3) // warm: workers started, connections made
	waitFor(t, "both servers and a worker", func() bool {
		return len(childrenMatching(t, pid, isWorker)) > 0 && len(childrenMatching(t, pid, isServer("text"))) == 1 &&
			len(childrenMatching(t, pid, isServer("srv"))) == 1
	})
	before := quiet()

	// Faults while loaded.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); round(6) }()
	for _, w := range childrenMatching(t, pid, isWorker) {
		_ = syscall.Kill(w, syscall.SIGKILL)
	}
	for _, s := range childrenMatching(t, pid, isServer("text")) {
		_ = syscall.Kill(-s, syscall.SIGKILL) // its process group: the server and anything it started
	}
	stalled := childrenMatching(t, pid, isServer("srv"))
	for _, s := range stalled {
		_ = syscall.Kill(s, syscall.SIGSTOP)
	}
	wg.Wait()
	for _, s := range stalled {
		_ = syscall.Kill(s, syscall.SIGCONT)
	}
	// Recovered: the servers are back and a script using both works.
	probe := newFaultClient(t, g.url)
	waitFor(t, "the gateway to recover from the faults", func() bool {
		id := int(nextID.Add(1))
		o := probe.exec(id, `return (await tools.mcp__text__echo({text: "back"})) + (await tools.mcp__srv__fetch({id: 1})).title`)
		mu.Lock()
		outcomes[id] = o
		mu.Unlock()
		return o.succeeded
	})
	waitFor(t, "the gateway's descriptors to return to what they were before the faults", func() bool {
		return quiet() <= before
	})

	// SIGTERM under load: every client has a script running (it made its
	// first call and waits on a tool that never answers) and keeps
	// sending more.
	var running atomic.Int64
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := int(nextID.Add(1))
			o := c.send(id, hangingExec(id), func() { running.Add(1) })
			mu.Lock()
			outcomes[id] = o
			mu.Unlock()
		}()
	}
	wg.Add(1)
	go func() { defer wg.Done(); round(4) }()
	waitFor(t, "a script of every client to be running", func() bool { return running.Load() >= faultLoaders })
	stopping.Store(true)
	if err := g.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := waitExit(g.cmd); err != nil {
		t.Errorf("exit after SIGTERM: %v (stderr: %s)", err, g.stderr.String())
	}

	answered := 0
	for id, o := range outcomes {
		switch {
		case o.answered:
			answered++
		case o.afterAStop && (o.transport != nil || o.status != http.StatusOK):
			// Never read (the listener was closed), or refused at the
			// door: the client knows it was not served.
		case o.transport != nil:
			t.Errorf("request %d: no reply: %v", id, o.transport)
		default:
			t.Errorf("request %d: HTTP %d without a JSON-RPC response", id, o.status)
		}
	}
	t.Logf("%d requests, %d answered with a JSON-RPC response", len(outcomes), answered)
	checkNoSurvivors(t, g.mark)
}
