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

// The worker protocol: frames of a 4-byte big-endian length and a body,
// over a pair of pipes. Only plain data crosses, so ISO-6 holds by
// construction. One run at a time:
//
//	host   -> worker  start   {code, tools | sameTools, down, limits, busyWait, trace,
//	                           state, keep}
//	worker -> host    call    {id, kind, name, args}  a nested call for the host,
//	                                              or a store or load of the
//	                                              run's state (name: the key)
//	worker -> host    part    {id, bytes}         a piece of a large value, ahead
//	                                              of the frame it belongs to:
//	                                              a store's (its call id), the
//	                                              return value's (id 0)
//	worker -> host    called  {name}              a call rejected in the worker
//	                                              (over the cap); with call,
//	                                              every counted nested call
//	host   -> worker  result  {id, value, images, error, busyWait}
//	worker -> host    log     {text}              console output as written
//	host   -> worker  pause / resume              a nested call began / ended
//	                                              waiting for a person
//	worker -> host    clock   {stopped}           the run's budget clock
//	                                              stopped or started again
//	worker -> host    done    {result, abandoned, phases}
//
// A worker announces itself with ready before its first start.
//
// A body starts with its frame type, one byte (see codec.go). The frames of
// a nested call (call and result), which cross once each per call, are a
// few binary fields and the JSON of the arguments or value as it is; start
// and done, once per run, are JSON, so that a field added to them (a trace
// context, say) needs no change to the codec.

// maxFrameSize bounds one frame, so a corrupt length cannot make a reader
// allocate without end. A worker sends large values in parts (framePart),
// so this bounds what a host reads from a worker; a worker reads its
// (trusted) host's frames up to maxHostFrameSize, which a value loaded from
// a run's state may take.
const (
	maxFrameSize     = 64 << 20
	maxHostFrameSize = 1 << 30
)

// frameType is a frame's first byte.
type frameType byte

const (
	frameReady  frameType = 'R'
	frameStart  frameType = 'S'
	frameCalled frameType = 'N'
	frameCall   frameType = 'C'
	frameResult frameType = 'V'
	frameLog    frameType = 'L'
	frameDone   frameType = 'D'
	framePause  frameType = 'P'
	frameResume frameType = 'U'
	frameClock  frameType = 'K'
	framePart   frameType = 'O'
)

const (
	callKindTool   = "tool"
	callKindSearch = "search"
	// A run's state: not nested calls (never counted, never in the
	// summary), but they travel as call frames and are answered by
	// result frames.
	callKindStore = "store"
	callKindLoad  = "load"
)

// returnValueID is the part id of the run's return value (framePart).
const returnValueID = 0

// frame is one decoded frame. The fields a frame type does not use are
// zero; start and done travel as the JSON of this struct.
type frame struct {
	Type frameType `json:"-"`
	ID   uint64    `json:"-"`

	// start
	Code  string   `json:"code,omitempty"`
	Tools []string `json:"tools,omitempty"`
	// SameTools: the reachable set is the previous run's, sent again only
	// when it changed (a pool of a thousand tools is tens of kilobytes).
	SameTools bool              `json:"sameTools,omitempty"`
	Down      map[string]string `json:"down,omitempty"` // server -> why it is not connected
	Limits    *Limits           `json:"limits,omitempty"`
	// BusyWait (start, result): the worker may busy-wait for the answers
	// to its calls until the next such frame says otherwise (see
	// busywait.go).
	BusyWait bool `json:"busyWait,omitempty"`
	// Global: the code runs as global script code (Request.Global).
	Global bool `json:"global,omitempty"`
	// Trace is the W3C trace context of the host's run span
	// (traceparent, tracestate), when the host traces the run.
	Trace map[string]string `json:"trace,omitempty"`
	// State: the run has a state that store and load reach.
	State bool `json:"state,omitempty"`
	// Keep, when set, asks for a return value too long for the text
	// whole, in parts (see Request.Reference).
	Keep *keepFrame `json:"keep,omitempty"`

	// called, call
	Kind string          `json:"-"`
	Name string          `json:"-"`
	Args json.RawMessage `json:"-"`

	// result: images are only counted here; the host keeps the images
	// themselves, so they never make the round trip through the worker.
	// Also a part's bytes.
	Value  json.RawMessage `json:"-"`
	Images int             `json:"-"`
	Error  string          `json:"-"`

	// log
	Text string `json:"-"`

	// clock
	Stopped bool `json:"-"`

	// done
	Result    *Result       `json:"result,omitempty"`
	Abandoned bool          `json:"abandoned,omitempty"`
	Phases    []phaseRecord `json:"phases,omitempty"` // when start carried a sampled trace

}

// keepFrame is the start frame's request for the return value.
type keepFrame struct {
	// ID names the value in the model's text (load(ID)); empty when the
	// run has no state to load it from.
	ID string `json:"id,omitempty"`
}

var errFrameTooLarge = errors.New("sandbox protocol: frame too large")

// conn reads and writes frames. Writes may come from several goroutines;
// reads from one at a time.
type conn struct {
	r *bufio.Reader
	// maxSend and maxReceive bound the frames each way.
	maxSend, maxReceive int

	wmu  sync.Mutex
	w    io.Writer
	wbuf []byte // the frame being written, reused while small
}

func newConn(r io.Reader, w io.Writer) *conn {
	return &conn{r: bufio.NewReaderSize(r, 64<<10), w: w, maxSend: maxFrameSize, maxReceive: maxFrameSize}
}

// hostConn is the host's end of a worker's connection: it reads the
// worker's frames within maxFrameSize, and may send a value loaded from a
// run's state up to maxHostFrameSize.
func hostConn(r io.Reader, w io.Writer) *conn {
	c := newConn(r, w)
	c.maxSend = maxHostFrameSize
	return c
}

// workerConn is a worker's end of its connection: the counterpart of
// hostConn.
func workerConn(r io.Reader, w io.Writer) *conn {
	c := newConn(r, w)
	c.maxReceive = maxHostFrameSize
	return c
}

// keepWriteBuffer is the largest write buffer kept for the next frame: a
// large result should not pin its memory for the connection's life.
const keepWriteBuffer = 64 << 10

// send encodes f and writes it with one write, so that a frame is never
// split between writers.
func (c *conn) send(f frame) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	buf, err := appendFrame(append(c.wbuf[:0], 0, 0, 0, 0), f)
	if cap(buf) <= keepWriteBuffer {
		c.wbuf = buf
	}
	if err != nil {
		return err
	}
	size := len(buf) - 4
	if size > c.maxSend {
		return errFrameTooLarge
	}
	binary.BigEndian.PutUint32(buf, uint32(size))
	_, err = c.w.Write(buf)
	return err
}

func (c *conn) receive() (frame, error) {
	var header [4]byte
	if _, err := io.ReadFull(c.r, header[:]); err != nil {
		return frame{}, err
	}
	n := binary.BigEndian.Uint32(header[:])
	if int64(n) > int64(c.maxReceive) {
		return frame{}, errFrameTooLarge
	}
	// A fresh body per frame: a decoded frame's arguments and value are
	// slices of it.
	body := make([]byte, n)
	if _, err := io.ReadFull(c.r, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return frame{}, err
	}
	f, err := decodeFrame(body)
	if err != nil {
		return frame{}, fmt.Errorf("sandbox protocol: decode: %w", err)
	}
	return f, nil
}
