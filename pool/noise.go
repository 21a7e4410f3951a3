package pool

import (
	"bufio"
	"io"
)

// jsonLines passes a stdio server's stdout through line by line, dropping
// lines that cannot be JSON-RPC. Real servers print banners on stdout
// ("No X display available..."); the SDK's decoder would take one for a
// broken stream and close the connection, as the TypeScript SDK does not.
// A line is kept when its first non-blank byte is '{' or '[' (or it is
// blank); the decision is made at the start of each line and the line is
// then streamed, so long replies are never buffered whole.
type jsonLines struct {
	r       *bufio.Reader
	midLine bool   // the last chunk did not end a line
	keep    bool   // the current line is passed through
	pending []byte // kept bytes not yet returned (valid until the next read of r)
	err     error  // the read error to return once pending is empty
	noise   []byte // the start of the line being dropped
	onNoise func(line string)
}

// noiseShown bounds how much of a dropped line is logged.
const noiseShown = 200

func newJSONLines(r io.Reader, onNoise func(string)) *jsonLines {
	return newJSONLinesSize(r, 64<<10, onNoise)
}

func newJSONLinesSize(r io.Reader, size int, onNoise func(string)) *jsonLines {
	return &jsonLines{r: bufio.NewReaderSize(r, size), onNoise: onNoise}
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
			continue
		}
		if !f.midLine {
			f.keep = mayBeJSON(chunk)
		}
		f.midLine = chunk[len(chunk)-1] != '\n'
		if f.keep {
			f.pending = chunk
			continue
		}
		if room := noiseShown - len(f.noise); room > 0 {
			f.noise = append(f.noise, chunk[:min(room, len(chunk))]...)
		}
		if !f.midLine || f.err != nil {
			f.onNoise(string(trimLine(f.noise)))
			f.noise = f.noise[:0]
		}
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
