package pool

import (
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// DefaultMaxReplyBytes bounds one message from a server (a stdio line, an
// HTTP server's SSE event or JSON body) unless the server's MaxReplyBytes says
// otherwise: far above what real tools send, low enough that a runaway
// server cannot exhaust the daemon's memory.
const DefaultMaxReplyBytes = 64 << 20

// codeReplyTooLarge marks the error that stands in for a reply over the
// limit; the server never sent it.
const codeReplyTooLarge = -32097

// tooLarge is the JSON-RPC line that answers request id in place of a
// reply of size bytes that was over the limit.
func tooLarge(id json.RawMessage, size int64) []byte {
	msg, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": codeReplyTooLarge, "message": byteSize(size)},
	})
	return append(msg, '\n')
}

// replyTooLarge reports the size of a reply the pool refused, from the
// error that stands in for it.
func replyTooLarge(wire *jsonrpc.Error) (size string, ok bool) {
	if wire == nil || wire.Code != codeReplyTooLarge {
		return "", false
	}
	return wire.Message, true
}

// idScanner finds the "id" member of a JSON-RPC message as its bytes
// stream past, without keeping the message: it follows strings and nesting
// and records the raw value of the top-level key "id", wherever it comes
// (the Go SDK writes it first, the TypeScript SDK after the result).
type idScanner struct {
	depth     int
	inString  bool
	escaped   bool
	expectKey bool   // the next string at depth 1 is a key
	inKey     bool   // reading a key at depth 1
	key       []byte // the key being read (only its start is kept)
	lastKey   string // the last complete key at depth 1
	capturing bool   // reading the value of "id"
	raw       []byte
	found     bool
}

// maxIDBytes bounds a captured id: ids are numbers or short strings.
const maxIDBytes = 256

func (s *idScanner) feed(b []byte) {
	for _, c := range b {
		if s.capturing && len(s.raw) < maxIDBytes && (s.inString || !isSpace(c)) {
			s.raw = append(s.raw, c)
		}
		if s.inString {
			switch {
			case s.escaped:
				s.escaped = false
			case c == '\\':
				s.escaped = true
			case c == '"':
				s.inString = false
				if s.inKey {
					s.inKey, s.lastKey = false, string(s.key)
				}
				continue
			}
			if s.inKey && len(s.key) < 8 {
				s.key = append(s.key, c)
			}
			continue
		}
		switch c {
		case '"':
			s.inString = true
			if s.depth == 1 && s.expectKey {
				s.inKey, s.expectKey, s.key = true, false, s.key[:0]
			}
		case '{', '[':
			s.depth++
			s.expectKey = s.depth == 1 && c == '{'
		case '}', ']':
			if s.depth == 1 {
				s.endValue()
			}
			s.depth--
		case ',':
			if s.depth == 1 {
				s.endValue()
				s.expectKey = true
			}
		case ':':
			if s.depth == 1 && s.lastKey == "id" && !s.found {
				s.capturing, s.raw = true, s.raw[:0]
			}
		}
	}
}

// endValue ends the value of a top-level member.
func (s *idScanner) endValue() {
	if s.capturing {
		s.capturing, s.found = false, true
		s.raw = []byte(strings.TrimRight(string(s.raw), ",}] \t\r\n"))
	}
	s.lastKey = ""
}

// value is the id found, when it is a valid JSON-RPC id.
func (s *idScanner) value() (json.RawMessage, bool) {
	if !s.found || len(s.raw) == 0 || len(s.raw) >= maxIDBytes {
		return nil, false
	}
	var id any
	if json.Unmarshal(s.raw, &id) != nil {
		return nil, false
	}
	switch id.(type) {
	case string, float64:
		return json.RawMessage(s.raw), true
	}
	return nil, false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
