package sandbox

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// The frame codec. After the type byte:
//
//	call    uvarint id, kind byte ('t' tool, 's' search, 'w' store, 'l'
//	        load), uvarint name length, name (a store's or load's key),
//	        then the arguments' JSON to the end (a store's value, or its
//	        last part; empty removes the key; a load has none)
//	part    uvarint id, then the bytes to the end (none: forget the parts
//	        of id sent so far)
//	result  uvarint id, uvarint images, status byte (bit 0: an error,
//	        bit 1: busy-wait), then the value's JSON (empty means null; for
//	        a load, nothing stored) or the error text
//	called  the tool's name
//	log     the text
//	clock   one byte, 1 when the clock stopped
//	start,
//	done    the JSON of the frame
//	ready, pause, resume: nothing
//
// The host decodes what a worker sends, and a worker runs model-written
// code: every length is checked against the body, names must be UTF-8,
// arguments must be JSON, and anything left over is an error.

var errMalformedFrame = errors.New("malformed frame")

// The call frame's kinds on the wire.
var (
	wireKinds = map[string]byte{callKindTool: 't', callKindSearch: 's', callKindStore: 'w', callKindLoad: 'l'}
	kindsRead = map[byte]string{'t': callKindTool, 's': callKindSearch, 'w': callKindStore, 'l': callKindLoad}
)

// The result frame's status bits.
const (
	resultError    = 1
	resultBusyWait = 2
)

// appendFrame appends f's body to buf.
func appendFrame(buf []byte, f frame) ([]byte, error) {
	buf = append(buf, byte(f.Type))
	switch f.Type {
	case frameReady, framePause, frameResume:
	case frameCall:
		kind, ok := wireKinds[f.Kind]
		if !ok {
			kind = wireKinds[callKindTool]
		}
		buf = binary.AppendUvarint(buf, f.ID)
		buf = append(buf, kind)
		buf = binary.AppendUvarint(buf, uint64(len(f.Name)))
		buf = append(buf, f.Name...)
		buf = append(buf, f.Args...)
	case frameResult:
		buf = binary.AppendUvarint(buf, f.ID)
		buf = binary.AppendUvarint(buf, uint64(f.Images))
		status := byte(0)
		if f.BusyWait {
			status |= resultBusyWait
		}
		if f.Error != "" {
			buf = append(buf, status|resultError)
			buf = append(buf, f.Error...)
		} else {
			buf = append(buf, status)
			buf = append(buf, f.Value...)
		}
	case framePart:
		buf = binary.AppendUvarint(buf, f.ID)
		buf = append(buf, f.Value...)
	case frameCalled:
		buf = append(buf, f.Name...)
	case frameLog:
		buf = append(buf, f.Text...)
	case frameClock:
		stopped := byte(0)
		if f.Stopped {
			stopped = 1
		}
		buf = append(buf, stopped)
	case frameStart, frameDone:
		body, err := json.Marshal(f)
		if err != nil {
			return buf, fmt.Errorf("sandbox protocol: encode %c: %w", f.Type, err)
		}
		buf = append(buf, body...)
	default:
		return buf, fmt.Errorf("sandbox protocol: unknown frame type %q", byte(f.Type))
	}
	return buf, nil
}

// decodeFrame decodes one body. Arguments and values are slices of body.
func decodeFrame(body []byte) (frame, error) {
	if len(body) == 0 {
		return frame{}, errMalformedFrame
	}
	f := frame{Type: frameType(body[0])}
	d := frameReader{rest: body[1:]}
	switch f.Type {
	case frameReady, framePause, frameResume:
	case frameCall:
		f.ID = d.uvarint()
		kind, ok := kindsRead[d.byte()]
		if !ok {
			d.fail()
		}
		f.Kind = kind
		f.Name = d.text(d.uvarint())
		f.Args = d.remaining()
		// A store's arguments are its value's last part (JSON only with
		// the parts before it); a load has none.
		if d.err == nil && (kind == callKindTool || kind == callKindSearch) && !json.Valid(f.Args) {
			d.fail()
		}
	case framePart:
		f.ID = d.uvarint()
		f.Value = d.remaining()
	case frameResult:
		f.ID = d.uvarint()
		f.Images = d.count()
		status := d.byte()
		f.BusyWait = status&resultBusyWait != 0
		switch status &^ resultBusyWait {
		case 0:
			f.Value = d.remaining()
		case resultError:
			f.Error = strings.ToValidUTF8(string(d.remaining()), "\uFFFD")
			if f.Error == "" {
				d.fail()
			}
		default:
			d.fail()
		}
	case frameCalled:
		f.Name = d.text(uint64(len(d.rest)))
	case frameLog:
		f.Text = strings.ToValidUTF8(string(d.remaining()), "\uFFFD")
	case frameClock:
		switch d.byte() {
		case 0:
		case 1:
			f.Stopped = true
		default:
			d.fail()
		}
	case frameStart, frameDone:
		if err := json.Unmarshal(d.remaining(), &f); err != nil {
			return frame{}, err
		}
	default:
		d.fail()
	}
	if d.err != nil || len(d.rest) != 0 {
		return frame{}, errMalformedFrame
	}
	return f, nil
}

// frameReader reads a body's fields; the first fault sticks, and every
// read after it returns zero.
type frameReader struct {
	rest []byte
	err  error
}

func (d *frameReader) fail() {
	if d.err == nil {
		d.err = errMalformedFrame
	}
	d.rest = nil
}

func (d *frameReader) byte() byte {
	if len(d.rest) == 0 {
		d.fail()
		return 0
	}
	b := d.rest[0]
	d.rest = d.rest[1:]
	return b
}

func (d *frameReader) uvarint() uint64 {
	v, n := binary.Uvarint(d.rest)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.rest = d.rest[n:]
	return v
}

// count is a uvarint that must fit the body's size: it sizes an allocation.
func (d *frameReader) count() int {
	v := d.uvarint()
	if v > maxFrameSize {
		d.fail()
		return 0
	}
	return int(v)
}

// text is the next n bytes as a string, which must be UTF-8.
func (d *frameReader) text(n uint64) string {
	if n > uint64(len(d.rest)) || !utf8.Valid(d.rest[:n]) {
		d.fail()
		return ""
	}
	s := string(d.rest[:n])
	d.rest = d.rest[n:]
	return s
}

func (d *frameReader) remaining() []byte {
	r := d.rest
	d.rest = nil
	return r
}
