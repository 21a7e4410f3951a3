package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcpexec/mcpexec/internal/childenv"
)

// Worker is one sandbox worker: a re-executed process of this binary, or, in
// in-process mode, a goroutine speaking the same protocol over in-memory
// pipes. It serves one run at a time.
type Worker struct {
	conn   *conn
	frames chan frame // frames from the worker; closed when the connection ends
	exited chan struct{}
	kill   func()

	// Set before exited is closed.
	exitState *os.ProcessState
	exitErr   error
	output    *headBuffer // what the worker printed (its crash report, if any)
	// pid is the worker process (0 in process mode); memoryLimit its cap.
	pid         int
	memoryLimit int64
	// overMemory is set when the host killed the worker for its memory.
	overMemory atomic.Bool
	// resident reads the worker's resident set (opened on first use, by
	// the goroutine running the worker's runs; closed when it exits).
	resident *residentReader

	// current is the run in progress: the reader hands it the run's call,
	// called and log frames directly, saving a hand-off per frame.
	current atomic.Pointer[hostSide]
	// running: a run's start frame went out, and its done frame has not
	// come yet.
	running atomic.Bool
	// wakeReader, when set, makes the reader look whether a frame is due
	// (it may then busy-wait for it).
	wakeReader func()
	// inline is the synchronous host call the reader is serving, if any.
	inline inlineSlot

	// tools is the reachable set the worker last received (when
	// toolsSent): a run with the same set does not send it again.
	tools     []string
	toolsSent bool

	runs      int
	spent     bool      // not fit for another run
	idleSince time.Time // when it last went back to the pool
}

// startWorker starts a worker and waits for its ready frame.
func startWorker(opts WorkerOptions) (*Worker, error) {
	var (
		w   *Worker
		err error
	)
	if opts.InProcess {
		w = startInMemoryWorker()
	} else if w, err = startProcessWorker(opts); err != nil {
		return nil, err
	}
	ready := time.NewTimer(opts.StartTimeout)
	defer ready.Stop()
	select {
	case f, ok := <-w.frames:
		if ok && f.Type == frameReady {
			return w, nil
		}
		w.stop()
		return nil, fmt.Errorf("sandbox: worker did not start: %s", w.describeExit())
	case <-ready.C:
		w.stop()
		return nil, errors.New("sandbox: worker did not become ready; does main call sandbox.MaybeRunWorker first?")
	}
}

func startProcessWorker(opts WorkerOptions) (*Worker, error) {
	toWorkerR, toWorkerW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	fromWorkerR, fromWorkerW, err := os.Pipe()
	if err != nil {
		toWorkerR.Close()
		toWorkerW.Close()
		return nil, err
	}
	output := &headBuffer{max: 8 << 10}
	cmd := exec.Command(opts.Command[0], opts.Command[1:]...)
	// One P: a worker runs one script on one goroutine, and with a
	// second P idle every hand-off between its goroutines would wake a
	// thread to look for work (three context switches where none is
	// needed). The last GOMAXPROCS in the environment wins.
	cmd.Env = append(childenv.Environ(), "GOMAXPROCS=1", workerEnv+"=1", workerMemoryEnv+"="+strconv.FormatInt(opts.MemoryLimit, 10))
	cmd.ExtraFiles = []*os.File{toWorkerR, fromWorkerW} // fds 3 and 4
	cmd.Stdout, cmd.Stderr = output, output
	// A process group of its own, so a kill reaches anything it started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	toWorkerR.Close()
	fromWorkerW.Close()
	if err != nil {
		toWorkerW.Close()
		fromWorkerR.Close()
		return nil, fmt.Errorf("sandbox: start worker: %w", err)
	}
	w := &Worker{
		frames: make(chan frame, 16),
		exited: make(chan struct{}),
		output: output,
		pid:    cmd.Process.Pid,

		memoryLimit: opts.MemoryLimit,
	}
	// Until a run's done frame, its frames are due: the reader may
	// busy-wait.
	due := func() bool { return w.running.Load() && busyWaitAllowed() }
	reader := pipeEnd(fromWorkerR, due)
	if r, ok := reader.(interface{ wake() }); ok {
		w.wakeReader = r.wake
	}
	w.conn = hostConn(reader, pipeEnd(toWorkerW, nil))
	pid := cmd.Process.Pid
	var once sync.Once
	w.kill = func() {
		once.Do(func() {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			toWorkerW.Close()
		})
	}
	registerInline(w)
	go w.readFrames()
	go func() {
		err := cmd.Wait()
		w.exitState, w.exitErr = cmd.ProcessState, err
		fromWorkerR.Close()
		toWorkerW.Close()
		unregisterInline(w)
		close(w.exited)
	}()
	return w, nil
}

func startInMemoryWorker() *Worker {
	toWorkerR, toWorkerW := io.Pipe()
	fromWorkerR, fromWorkerW := io.Pipe()
	w := &Worker{
		conn:   hostConn(fromWorkerR, toWorkerW),
		frames: make(chan frame, 16),
		exited: make(chan struct{}),
		output: &headBuffer{max: 8 << 10},
	}
	var once sync.Once
	w.kill = func() {
		once.Do(func() {
			toWorkerW.Close()
			fromWorkerR.Close()
		})
	}
	registerInline(w)
	go func() {
		c := workerConn(toWorkerR, fromWorkerW)
		w.exitErr = serveWorker(c, newChanFrames(c), func() {})
		toWorkerR.Close()
		fromWorkerW.Close()
		unregisterInline(w)
		close(w.exited)
	}()
	go w.readFrames()
	return w
}

// readFrames reads the worker's frames until the connection ends, or until
// it hands the reading on to another goroutine (see hostSide.serveInline).
func (w *Worker) readFrames() {
	for {
		f, err := w.conn.receive()
		if err != nil {
			w.running.Store(false)
			close(w.frames)
			return
		}
		if f.Type == frameDone {
			w.running.Store(false)
		}
		if h := w.current.Load(); h != nil {
			handled, handedOn := h.during(f)
			if handedOn {
				return
			}
			if handled {
				continue
			}
		}
		w.frames <- f
	}
}

// abandon kills the worker without waiting for it to be gone.
func (w *Worker) abandon() {
	w.spent = true
	w.kill()
}

// stop kills the worker and waits until it is gone.
func (w *Worker) stop() {
	w.abandon()
	<-w.exited
	if w.resident != nil {
		w.resident.close()
	}
}

// crashReason tells the model, in plain words, why the worker died. It
// waits for the exit so that the report is complete.
func (w *Worker) crashReason() string {
	select {
	case <-w.exited:
	case <-time.After(2 * time.Second):
		w.kill()
		<-w.exited
	}
	return crashCause(w.output.String(), w.overMemory.Load())
}

// overCap reports whether the worker process's resident set is over its
// memory cap.
func (w *Worker) overCap() bool {
	if w.pid == 0 || w.memoryLimit <= 0 {
		return false
	}
	if w.resident == nil {
		r, err := openResident(w.pid)
		if err != nil {
			return false
		}
		w.resident = r
	}
	rss, ok := w.resident.bytes()
	return ok && rss > w.memoryLimit
}

// describeExit is the worker's end for logs (never for the model).
func (w *Worker) describeExit() string {
	<-w.exited
	state := "unknown"
	if w.exitState != nil {
		state = w.exitState.String()
	} else if w.exitErr != nil {
		state = w.exitErr.Error()
	}
	return fmt.Sprintf("%s; %s", state, firstLine(w.output.String()))
}

// firstLine is the cause line of a crash report (Go prints the reason first,
// then pages of goroutine stacks that do not belong in a log line).
func firstLine(output string) string {
	output = strings.TrimSpace(output)
	if i := strings.IndexByte(output, '\n'); i >= 0 {
		return output[:i]
	}
	return output
}

// headBuffer keeps the first max bytes written to it: a Go crash report
// states its cause on the first line, before pages of goroutine stacks.
type headBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *headBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - len(t.buf); room > 0 {
		t.buf = append(t.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (t *headBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
