package pool

import (
	"io"
	"sync/atomic"
)

// A stdio server answers in order: a ping sent while it writes a reply of
// many megabytes is answered only after that reply has arrived whole and
// been decoded, which on a busy machine can take longer than the ping may
// wait. A server whose output is still coming in is busy, not gone, so an
// unanswered ping ends the connection only when nothing came in meanwhile:
// no byte read and no message decoded.

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// activeInput is a connection that counts what comes in: a number that
// grows while its input is being read or decoded.
type activeInput interface {
	inputActivity() int64
}

// activity returns the connection's input activity, and false when its
// transport does not count it.
func (h *connHandle) activity() (int64, bool) {
	h.mu.Lock()
	conn := h.conn
	h.mu.Unlock()
	if r, ok := conn.(activeInput); ok {
		return r.inputActivity(), true
	}
	return 0, false
}
