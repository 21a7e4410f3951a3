package sandbox

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// The worker protocol: frames of a 4-byte big-endian length and a JSON body,
// over a pair of pipes. Only plain JSON crosses, so ISO-6 holds by
// construction. One run at a time:
//
//	host   -> worker  start   {code, tools, down, limits, trace}
//	worker -> host    call    {id, kind, name, args}  a nested call for the host
//	worker -> host    called  {name}              a call rejected in the worker
//	                                              (over the cap); with call,
//	                                              every counted nested call
//	host   -> worker  result  {id, value, images, error}
//	worker -> host    log     {text}              console output as written
//	host   -> worker  pause / resume              a nested call began / ended
//	                                              waiting for a person
//	worker -> host    clock   {stopped}           the run's budget clock
//	                                              stopped or started again
//	worker -> host    done    {result, abandoned, phases}
//
// A worker announces itself with ready before its first start.

// maxFrameSize bounds one frame, so a corrupt length cannot make a reader
// allocate without end.
const maxFrameSize = 64 << 20

const (
	frameReady  = "ready"
	frameStart  = "start"
	frameCalled = "called"
	frameCall   = "call"
	frameResult = "result"
	frameLog    = "log"
	frameDone   = "done"
	framePause  = "pause"
	frameResume = "resume"
	frameClock  = "clock"

	callKindTool   = "tool"
	callKindSearch = "search"
)

type frame struct {
	Type string `json:"t"`
	ID   uint64 `json:"id,omitempty"`

	// start
	Code   string            `json:"code,omitempty"`
	Tools  []string          `json:"tools,omitempty"`
	Down   map[string]string `json:"down,omitempty"` // server -> why it is not connected
	Limits *Limits           `json:"limits,omitempty"`
	// Trace is the W3C trace context of the host's run span
	// (traceparent, tracestate), when the host traces the run.
	Trace map[string]string `json:"trace,omitempty"`

	// called, call
	Kind string          `json:"kind,omitempty"`
	Name string          `json:"name,omitempty"`
	Args json.RawMessage `json:"args,omitempty"`

	// result: images are only counted here; the host keeps the images
	// themselves, so they never make the round trip through the worker.
	Value  json.RawMessage `json:"value,omitempty"`
	Images int             `json:"images,omitempty"`
	Error  string          `json:"error,omitempty"`

	// log
	Text string `json:"text,omitempty"`

	// clock
	Stopped bool `json:"stopped,omitempty"`

	// done
	Result    *Result       `json:"result,omitempty"`
	Abandoned bool          `json:"abandoned,omitempty"`
	Phases    []phaseRecord `json:"phases,omitempty"` // when start carried a sampled trace

}

var errFrameTooLarge = errors.New("sandbox protocol: frame too large")

// conn reads and writes frames. Writes may come from several goroutines.
type conn struct {
	r *bufio.Reader

	wmu sync.Mutex
	w   io.Writer
}

func newConn(r io.Reader, w io.Writer) *conn {
	return &conn{r: bufio.NewReaderSize(r, 64<<10), w: w}
}

func (c *conn) send(f frame) error {
	body, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("sandbox protocol: encode %s: %w", f.Type, err)
	}
	if len(body) > maxFrameSize {
		return errFrameTooLarge
	}
	buf := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(buf, uint32(len(body)))
	copy(buf[4:], body)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = c.w.Write(buf)
	return err
}

func (c *conn) receive() (frame, error) {
	var header [4]byte
	if _, err := io.ReadFull(c.r, header[:]); err != nil {
		return frame{}, err
	}
	n := binary.BigEndian.Uint32(header[:])
	if n > maxFrameSize {
		return frame{}, errFrameTooLarge
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(c.r, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return frame{}, err
	}
	var f frame
	if err := json.Unmarshal(body, &f); err != nil {
		return frame{}, fmt.Errorf("sandbox protocol: decode: %w", err)
	}
	return f, nil
}
