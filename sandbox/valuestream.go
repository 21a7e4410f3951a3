package sandbox

// A value that leaves the sandbox whole and may be large (a store's value,
// a return value kept by reference) is never held whole as JSON beside the
// object graph it comes from: the walker hands its output to a valueStream
// as it writes it, which passes it on in pieces (to the host's sink, or as
// part frames across a worker's pipe). A worker that returns a value ten
// times its memory cap's worth of JSON is bounded by the cap on what is
// kept, not killed by it.

// streamPiece is the size of the pieces a valueStream passes on: a part
// frame of this size fits the connection's reused write buffer.
const streamPiece = 60 << 10

// valueStream passes bytes on in pieces, up to max bytes in all; past max
// it passes on nothing more and records that the value did not fit. Until
// more than hold bytes were written it passes on nothing at all, so a
// value that turns out short (a return value within the model's cap) is
// never sent anywhere.
type valueStream struct {
	send func(piece []byte) error // the piece may be reused after
	hold int
	max  int64

	buf   []byte
	taken int64 // bytes written, up to max
	over  bool  // more than max bytes were written
	began bool  // a piece was passed on
}

func newValueStream(send func([]byte) error, hold int, max int64) *valueStream {
	return &valueStream{send: send, hold: hold, max: max}
}

func (s *valueStream) write(b []byte) error {
	if s.over {
		return nil
	}
	if s.taken+int64(len(b)) > s.max {
		s.over, s.buf = true, nil
		return nil
	}
	s.taken += int64(len(b))
	s.buf = append(s.buf, b...)
	if s.began || len(s.buf) > s.hold {
		return s.flush(false)
	}
	return nil
}

// flush passes on what is buffered in whole pieces, and the rest too when
// all is set.
func (s *valueStream) flush(all bool) error {
	s.began = true
	sent := 0
	for rest := len(s.buf); rest >= streamPiece || (all && rest > 0); rest = len(s.buf) - sent {
		n := min(rest, streamPiece)
		if err := s.send(s.buf[sent : sent+n]); err != nil {
			return err
		}
		sent += n
	}
	s.buf = append(s.buf[:0], s.buf[sent:]...)
	return nil
}

// finish passes on the rest and reports whether the whole value was
// passed on (false past max).
func (s *valueStream) finish() (whole bool, err error) {
	if s.over {
		return false, nil
	}
	return true, s.flush(true)
}

// rest returns what is buffered and not passed on: the last part of a
// value whose frame carries it.
func (s *valueStream) rest() []byte {
	rest := s.buf
	s.buf = nil
	return rest
}
