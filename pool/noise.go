package pool

import (
	"bufio"
	"io"
)

// jsonLines passes a stdio server's stdout through line by line, dropping
// lines that cannot be JSON-RPC and replacing replies too large to accept.
//
// Real servers print banners on stdout ("No X display available..."); the
// SDK's decoder would take one for a broken stream and close the
// connection, as the TypeScript SDK does not. A line is kept when its first
// non-blank byte is '{' or '[' (or it is blank); the decision is made at
// the start of each line.
//
// A kept line longer than the limit is never handed on: the SDK would close
// the connection over it, and every later call would fail too. It is read
// to its end and replaced by a JSON-RPC error answering the same request
// (see tooLarge), so only that call fails. Kept lines are therefore held
// until their end, which the SDK's decoder does as well.
type jsonLines struct {
	r       *bufio.Reader
	limit   int
	midLine bool   // the last chunk did not end a line
	keep    bool   // the current line is passed through
	line    []byte // the kept line so far
	over    *overLimit
	pending []byte // bytes ready to return
	err     error  // the read error to return once pending is empty
	noise   []byte // the start of the line being dropped
	onNoise func(line string)
	onOver  func(size int64, answered bool)
}

// noiseShown bounds how much of a dropped line is logged.
const noiseShown = 200

// overLimit follows a line past the limit: its size, and the id of the
// request it answers.
type overLimit struct {
	size int64
	id   idScanner
}

func newJSONLines(r io.Reader, limit int, onNoise func(string), onOver func(size int64, answered bool)) *jsonLines {
	return newJSONLinesSize(r, 64<<10, limit, onNoise, onOver)
}

func newJSONLinesSize(r io.Reader, size, limit int, onNoise func(string), onOver func(int64, bool)) *jsonLines {
	return &jsonLines{r: bufio.NewReaderSize(r, size), limit: limit, onNoise: onNoise, onOver: onOver}
}

func (f *jsonLines) Read(p []byte) (int, error) {
	for {
		if len(f.pending) > 0 {
			n := copy(p, f.pending)
			f.pending = f.pending[n:]
			return n, nil
		}
		if f.err != nil {
			return 0, f.err
		}
		chunk, err := f.r.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull {
			f.err = err
		}
		if len(chunk) == 0 {
			f.endLine()
			continue
		}
		if !f.midLine {
			f.keep = mayBeJSON(chunk)
		}
		f.midLine = chunk[len(chunk)-1] != '\n'
		ended := !f.midLine || f.err != nil
		if f.keep {
			f.keepChunk(chunk)
		} else if room := noiseShown - len(f.noise); room > 0 {
			f.noise = append(f.noise, chunk[:min(room, len(chunk))]...)
		}
		if ended {
			f.endLine()
		}
	}
}

// keepChunk adds a chunk of a kept line, or follows it past the limit.
func (f *jsonLines) keepChunk(chunk []byte) {
	if f.over == nil && len(f.line)+len(chunk) > f.limit {
		f.over = &overLimit{size: int64(len(f.line))}
		f.over.id.feed(f.line)
		f.line = f.line[:0]
	}
	if f.over != nil {
		f.over.size += int64(len(chunk))
		f.over.id.feed(chunk)
		return
	}
	f.line = append(f.line, chunk...)
}

// endLine finishes the current line: a kept one is handed on (or replaced
// when it was too large), a dropped one is reported.
func (f *jsonLines) endLine() {
	switch {
	case f.over != nil:
		id, ok := f.over.id.value()
		if ok {
			f.pending = tooLarge(id, f.over.size)
		}
		f.onOver(f.over.size, ok)
		f.over = nil
	case f.keep && len(f.line) > 0:
		f.pending, f.line = f.line, nil // the next line gets a buffer of its own
	case !f.keep && len(f.noise) > 0:
		f.onNoise(string(trimLine(f.noise)))
		f.noise = f.noise[:0]
	}
}

// mayBeJSON looks at the start of a line.
func mayBeJSON(line []byte) bool {
	for _, b := range line {
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		case '{', '[':
			return true
		default:
			return false
		}
	}
	return true // blank so far
}

func trimLine(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
