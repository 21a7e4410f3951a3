package testservers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveHTTP serves the Content server over streamable HTTP on a free local
// port and prints its URL on stdout, then serves until killed.
func serveHTTP() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "http server:", err)
		return 1
	}
	server := Content()
	// An event store makes call streams resumable, as real servers make
	// them: a client then tries to resume a broken stream.
	opts := &mcp.StreamableHTTPOptions{EventStore: mcp.NewMemoryEventStore(nil)}
	if os.Getenv(envJSONResponse) != "" {
		opts = &mcp.StreamableHTTPOptions{JSONResponse: true}
	}
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, opts)
	// Each tools/call is announced on stdout as it arrives, so a test
	// knows when a call is in flight.
	announce := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Body != nil {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if bytes.Contains(body, []byte(`"tools/call"`)) {
				fmt.Println("call")
			}
		}
		handler.ServeHTTP(w, r)
	})
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	if err := http.Serve(ln, announce); err != nil {
		fmt.Fprintln(os.Stderr, "http server:", err)
		return 1
	}
	return 0
}

// HTTPProcess is the Content server served over streamable HTTP by a
// subprocess of the test binary (whose TestMain calls MaybeServe), so a
// test can kill it the way a real server dies.
type HTTPProcess struct {
	URL string
	// Calls receives a signal for each tools/call the server received.
	Calls <-chan struct{}
	cmd   *exec.Cmd
	done  chan struct{}
}

// envJSONResponse makes the HTTP server answer each request with a JSON
// body instead of an SSE stream.
const envJSONResponse = "MCPEXEC_TESTSERVER_JSON"

// StartHTTP starts the HTTP server process and returns once it listens.
func StartHTTP() (*HTTPProcess, error) { return startHTTP(false) }

// StartHTTPJSON is StartHTTP for a server that answers each request with a
// JSON body (the streamable HTTP option servers without streams use).
func StartHTTPJSON() (*HTTPProcess, error) { return startHTTP(true) }

func startHTTP(jsonResponse bool) (*HTTPProcess, error) {
	command, args, env := kindCommand(kindHTTP)
	if jsonResponse {
		env[envJSONResponse] = "1"
	}
	cmd := exec.Command(command, args...)
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &HTTPProcess{cmd: cmd, done: make(chan struct{})}
	lines := bufio.NewReader(out)
	line, err := lines.ReadString('\n')
	calls := make(chan struct{}, 100)
	p.Calls = calls
	go func() {
		// Wait must not run before the reads of stdout are over.
		for {
			next, err := lines.ReadString('\n')
			if err != nil {
				break
			}
			if strings.TrimSpace(next) == "call" {
				select {
				case calls <- struct{}{}:
				default:
				}
			}
		}
		_ = cmd.Wait()
		close(p.done)
	}()
	if err != nil || !strings.HasPrefix(line, "http://") {
		p.Kill()
		return nil, errors.Join(errors.New("the HTTP test server did not print its URL"), err)
	}
	p.URL = strings.TrimSpace(line)
	return p, nil
}

// Kill kills the server process (SIGKILL, no goodbye on any connection)
// and waits until it is gone.
func (p *HTTPProcess) Kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}
