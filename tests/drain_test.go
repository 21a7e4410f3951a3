package tests

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Stopping a gateway with work in flight: every request it has read gets a
// JSON-RPC response with its id before the process exits.

// inFlightExecs is how many Exec calls are running or waiting for a worker
// when the gateway is told to stop.
const inFlightExecs = 15

// hangingExec is a tools/call of Exec whose script reports progress (its
// first nested call) and then waits on a tool that never answers.
func hangingExec(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"Exec","_meta":{"progressToken":"p%d"},`+
		`"arguments":{"code":"await tools.mcp__text__echo({text: 'in flight'}); await tools.mcp__text__hang({});"}}}`, id, id)
}

// rpcLine is what a test needs of a JSON-RPC message.
type rpcLine struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// answered reports whether m is a response (result or error) to id.
func (m rpcLine) answers(id int) bool {
	return m.ID != nil && *m.ID == id && m.Method == "" && (len(m.Result) > 0 || len(m.Error) > 0)
}

// mcpPost posts one JSON-RPC message to an MCP endpoint.
func mcpPost(url, session, body string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	return http.DefaultClient.Do(req)
}

const initializeRequest = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"drain","version":"1"}}}`
const initializedNotice = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// eachMessage calls fn with each JSON-RPC message of an HTTP reply (a JSON
// body or an event stream) until the body ends.
func eachMessage(r io.Reader, fn func(rpcLine)) {
	lines := bufio.NewScanner(r)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	for lines.Scan() {
		line := strings.TrimPrefix(lines.Text(), "data:")
		var m rpcLine
		if json.Unmarshal([]byte(strings.TrimSpace(line)), &m) == nil {
			fn(m)
		}
	}
}

// SIGTERM with Execs in flight over HTTP: every request gets a response
// with its id (the aborted scripts' failure results) on its own stream,
// none an empty body, and the gateway exits cleanly.
func TestServeHTTPAnswersEveryRequestInFlightOnSIGTERM(t *testing.T) {
	g := startServeHTTP(t, serversFile(t, "srv", "text"), nil)
	res, err := mcpPost(g.url, "", initializeRequest)
	if err != nil {
		t.Fatal(err)
	}
	session := res.Header.Get("Mcp-Session-Id")
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res, err = mcpPost(g.url, session, initializedNotice); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()

	var mu sync.Mutex
	progressed, answered := map[int]bool{}, map[int]bool{}
	var wg sync.WaitGroup
	for id := 1; id <= inFlightExecs; id++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := mcpPost(g.url, session, hangingExec(id))
			if err != nil {
				t.Errorf("request %d: %v", id, err)
				return
			}
			defer res.Body.Close()
			eachMessage(res.Body, func(m rpcLine) {
				mu.Lock()
				defer mu.Unlock()
				if m.Method == "notifications/progress" {
					progressed[id] = true
				}
				if m.answers(id) {
					answered[id] = true
				}
			})
		}()
	}
	// Workers are fewer than the calls on a small machine: the calls that
	// wait for one are in flight too, but only the running ones report.
	waitFor(t, "Execs to be running", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(progressed) >= 8
	})
	stopped := time.Now()
	if err := g.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := waitExit(g.cmd); err != nil {
		t.Errorf("exit after SIGTERM: %v (stderr: %s)", err, g.stderr.String())
	}
	t.Logf("the gateway exited %v after SIGTERM", time.Since(stopped).Round(time.Millisecond))
	for id := 1; id <= inFlightExecs; id++ {
		if !answered[id] {
			t.Errorf("request %d got no JSON-RPC response", id)
		}
	}
	checkNoSurvivors(t, g.mark)
}

// The same over stdio: every request read gets its response on stdout
// before the gateway exits.
func TestServeStdioAnswersEveryRequestInFlightOnSIGTERM(t *testing.T) {
	mark := newRunMark(t)
	settings := writeFile(t, "settings.json", teamSettings)
	cmd := exec.Command(mcpexecBin, "serve", "--servers", serversFile(t, "srv", "text"), "--settings", settings)
	cmd.Env = append(os.Environ(), mark)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	var requests bytes.Buffer
	requests.WriteString(initializeRequest + "\n" + initializedNotice + "\n")
	for id := 1; id <= inFlightExecs; id++ {
		requests.WriteString(hangingExec(id) + "\n")
	}
	if _, err := stdin.Write(requests.Bytes()); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	progress, answered := 0, map[int]bool{}
	read := make(chan struct{})
	go func() {
		defer close(read)
		eachMessage(stdout, func(m rpcLine) {
			mu.Lock()
			defer mu.Unlock()
			if m.Method == "notifications/progress" {
				progress++
			}
			for id := 1; id <= inFlightExecs; id++ {
				if m.answers(id) {
					answered[id] = true
				}
			}
		})
	}()
	waitFor(t, "Execs to be running", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return progress >= 8
	})
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-read
	if err := waitExit(cmd); err != nil {
		t.Errorf("exit after SIGTERM: %v (stderr: %s)", err, stderr.String())
	}
	for id := 1; id <= inFlightExecs; id++ {
		if !answered[id] {
			t.Errorf("request %d got no JSON-RPC response", id)
		}
	}
	checkNoSurvivors(t, mark)
}
