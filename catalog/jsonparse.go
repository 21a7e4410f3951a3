package catalog

import (
	"encoding/binary"
	"errors"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxNesting bounds how deeply parseJSON descends. Real schemas nest a few
// dozen levels at most; the bound keeps hostile input from exhausting the
// stack.
const maxNesting = 512

var errBadJSON = errors.New("invalid JSON")

// parseJSON decodes data into a node tree. It accepts exactly one JSON value
// surrounded by optional whitespace.
func parseJSON(data []byte) (*node, error) {
	var p parser
	return p.parse(data)
}

// parser is a small recursive-descent JSON decoder built for throughput:
// catalogs parse megabytes of schemas. One copy of the document backs every
// string without escapes; nodes and member slices come from arenas that a
// parser reuses for its next document, once the previous tree is dropped.
type parser struct {
	data string
	src  []byte // the same bytes as data, for word-at-a-time scanning
	pos  int

	nodes arena[node]
	keys  arena[string]
	ptrs  arena[*node]

	// stacks collect the members of the objects and arrays being parsed.
	keyStack  []string
	valStack  []*node
	itemStack []*node
}

// parse decodes data, reusing the parser's memory: trees from earlier calls
// must no longer be in use.
func (p *parser) parse(data []byte) (*node, error) {
	p.data, p.src, p.pos = string(data), data, 0
	p.keyStack, p.valStack, p.itemStack = p.keyStack[:0], p.valStack[:0], p.itemStack[:0]
	p.nodes.reset()
	p.keys.reset()
	p.ptrs.reset()
	p.skipSpace()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return nil, errBadJSON
	}
	return n, nil
}

// arena hands out slices carved from reusable chunks.
type arena[T any] struct {
	chunks [][]T
	chunk  int // index of the chunk in use
	used   int // elements used in it
}

const arenaChunk = 1024

func (a *arena[T]) reset() {
	a.chunk, a.used = 0, 0
}

// take returns a zeroed slice of n elements with capacity n.
func (a *arena[T]) take(n int) []T {
	for {
		if a.chunk < len(a.chunks) {
			c := a.chunks[a.chunk]
			if a.used+n <= len(c) {
				s := c[a.used : a.used+n : a.used+n]
				a.used += n
				clear(s)
				return s
			}
			if a.used == 0 && n > len(c) {
				// This chunk is too small for n: replace it.
				a.chunks[a.chunk] = make([]T, n)
				continue
			}
			a.chunk++
			a.used = 0
			continue
		}
		a.chunks = append(a.chunks, make([]T, max(arenaChunk, n)))
	}
}

func (p *parser) newNode(kind nodeKind, text string) *node {
	n := &p.nodes.take(1)[0]
	n.kind, n.text = kind, text
	return n
}

const eightSpaces = 0x2020202020202020

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ':
			// Pretty-printed schemas indent deeply: skip runs of spaces
			// eight at a time.
			p.pos++
			for p.pos+8 <= len(p.src) && binary.LittleEndian.Uint64(p.src[p.pos:]) == eightSpaces {
				p.pos += 8
			}
		case '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (*node, error) {
	if depth > maxNesting || p.pos >= len(p.data) {
		return nil, errBadJSON
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return p.newNode(kindString, s), nil
	case c == 't':
		return p.literal("true", kindBool)
	case c == 'f':
		return p.literal("false", kindBool)
	case c == 'n':
		return p.literal("null", kindNull)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		return nil, errBadJSON
	}
}

func (p *parser) literal(word string, kind nodeKind) (*node, error) {
	if !strings.HasPrefix(p.data[p.pos:], word) {
		return nil, errBadJSON
	}
	p.pos += len(word)
	if kind == kindNull {
		word = ""
	}
	return p.newNode(kind, word), nil
}

// number scans a number per the JSON grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *parser) number() (*node, error) {
	start := p.pos
	d := p.data
	i := p.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case digits() == 0:
		return nil, errBadJSON
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			return nil, errBadJSON
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			return nil, errBadJSON
		}
	}
	p.pos = i
	return p.newNode(kindNumber, d[start:i]), nil
}

// str decodes a string starting at its opening quote. Strings without
// escapes (nearly all of them) are found with a fast scan for the closing
// quote and shared with the document. Invalid UTF-8 becomes U+FFFD, as
// encoding/json does. Unlike encoding/json, raw control characters inside
// strings are tolerated: schemas come from servers' tools/list replies that
// a JSON decoder has already accepted, and leniency loses nothing.
func (p *parser) str() (string, error) {
	start := p.pos + 1
	rest := p.data[start:]
	end := strings.IndexByte(rest, '"')
	if end < 0 {
		return "", errBadJSON
	}
	if raw := rest[:end]; strings.IndexByte(raw, '\\') < 0 {
		p.pos = start + end + 1
		if !utf8.ValidString(raw) {
			raw = validUTF8(raw)
		}
		return raw, nil
	}
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '\\':
			i++
		case '"':
			p.pos = start + i + 1
			return unescape(rest[:i])
		}
	}
	return "", errBadJSON
}

// unescape decodes the body of a JSON string that contains escapes.
func unescape(raw string) (string, error) {
	var b strings.Builder
	b.Grow(len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(raw) {
			return "", errBadJSON
		}
		switch raw[i] {
		case '"', '\\', '/':
			b.WriteByte(raw[i])
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := hex4(raw, i+1)
			if !ok {
				return "", errBadJSON
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2, ok2 := rune(0), false
				if i+2 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
					r2, ok2 = hex4(raw, i+3)
				}
				if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
					r = dec
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default:
			return "", errBadJSON
		}
	}
	s := b.String()
	if !utf8.ValidString(s) {
		s = validUTF8(s)
	}
	return s, nil
}

// validUTF8 replaces every byte of s that is not part of valid UTF-8 with
// U+FFFD, one per byte as encoding/json does.
func validUTF8(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		b.WriteRune(r) // an invalid byte decodes as utf8.RuneError
	}
	return b.String()
}

func hex4(raw string, at int) (rune, bool) {
	if at+4 > len(raw) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(raw[at : at+4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func (p *parser) array(depth int) (*node, error) {
	p.pos++ // [
	n := p.newNode(kindArray, "")
	if p.empty(']') {
		return n, nil
	}
	mark := len(p.itemStack)
	for {
		p.skipSpace()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		p.itemStack = append(p.itemStack, v)
		done, err := p.separator(']')
		if err != nil {
			return nil, err
		}
		if done {
			n.items = p.ptrs.take(len(p.itemStack) - mark)
			copy(n.items, p.itemStack[mark:])
			p.itemStack = p.itemStack[:mark]
			return n, nil
		}
	}
}

func (p *parser) object(depth int) (*node, error) {
	p.pos++ // {
	n := p.newNode(kindObject, "")
	if p.empty('}') {
		return n, nil
	}
	mark := len(p.keyStack)
	for {
		p.skipSpace()
		if !p.at('"') {
			return nil, errBadJSON
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if !p.at(':') {
			return nil, errBadJSON
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		p.keyStack = append(p.keyStack, key)
		p.valStack = append(p.valStack, v)
		done, err := p.separator('}')
		if err != nil {
			return nil, err
		}
		if done {
			n.keys = p.keys.take(len(p.keyStack) - mark)
			copy(n.keys, p.keyStack[mark:])
			n.vals = p.ptrs.take(len(p.valStack) - mark)
			copy(n.vals, p.valStack[mark:])
			p.keyStack, p.valStack = p.keyStack[:mark], p.valStack[:mark]
			return n, nil
		}
	}
}

// at reports whether the next byte is c.
func (p *parser) at(c byte) bool {
	return p.pos < len(p.data) && p.data[p.pos] == c
}

// empty consumes the closer of an empty array or object, if that comes next.
func (p *parser) empty(closer byte) bool {
	p.skipSpace()
	if p.at(closer) {
		p.pos++
		return true
	}
	return false
}

// separator consumes what follows a member: a comma (more to come) or the
// closer (done).
func (p *parser) separator(closer byte) (done bool, err error) {
	p.skipSpace()
	switch {
	case p.at(','):
		p.pos++
		return false, nil
	case p.at(closer):
		p.pos++
		return true, nil
	}
	return false, errBadJSON
}
