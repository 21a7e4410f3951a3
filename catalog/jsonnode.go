package catalog

// node is one decoded JSON value. Objects keep their members in document
// order: the catalog renders properties in the order the server wrote them,
// and Go maps would make that order random.
type node struct {
	kind nodeKind
	// text is the decoded string, the raw number literal, or "true"/"false".
	text string
	// items are the elements of an array.
	items []*node
	// keys and vals are the members of an object, in document order. A key
	// repeated in the document is kept each time; lookups see its last
	// value, as encoding/json does, and rendering shows it once (shadowed).
	keys []string
	vals []*node
	// index speeds up lookups in large objects ($defs blocks with hundreds of
	// definitions); it is built on first use.
	index map[string]int
}

type nodeKind uint8

const (
	kindNull nodeKind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

// indexThreshold is the member count from which lookups use a map.
const indexThreshold = 16

// find returns the position of key's last occurrence, or -1: a repeated key
// takes its last value, as encoding/json does.
func (n *node) find(key string) int {
	if n.index == nil && len(n.keys) >= indexThreshold {
		index := make(map[string]int, len(n.keys))
		for i, k := range n.keys {
			index[k] = i
		}
		n.index = index
	}
	if n.index != nil {
		if i, ok := n.index[key]; ok {
			return i
		}
		return -1
	}
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i] == key {
			return i
		}
	}
	return -1
}

// shadowed reports whether the member at position i is repeated later in
// the object, so only its last occurrence is rendered.
func (n *node) shadowed(i int) bool {
	return n.find(n.keys[i]) != i
}

// get returns the member named key of an object, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kindObject {
		return nil
	}
	if i := n.find(key); i >= 0 {
		return n.vals[i]
	}
	return nil
}

// str returns the member key when it is a string.
func (n *node) getString(key string) (string, bool) {
	v := n.get(key)
	if v == nil || v.kind != kindString {
		return "", false
	}
	return v.text, true
}

// appendJSON appends n as compact JSON. Strings are quoted as JavaScript
// accepts them; HTML characters are not escaped, unlike encoding/json.
func (n *node) appendJSON(b []byte) []byte {
	switch n.kind {
	case kindNull:
		b = append(b, "null"...)
	case kindBool, kindNumber:
		b = append(b, n.text...)
	case kindString:
		b = appendQuoted(b, n.text)
	case kindArray:
		b = append(b, '[')
		for i, it := range n.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.appendJSON(b)
		}
		b = append(b, ']')
	case kindObject:
		b = append(b, '{')
		for i, k := range n.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendQuoted(b, k)
			b = append(b, ':')
			b = n.vals[i].appendJSON(b)
		}
		b = append(b, '}')
	}
	return b
}

func (n *node) json() string {
	return string(n.appendJSON(nil))
}

const hexDigits = "0123456789abcdef"

// appendQuoted appends s as a double-quoted JSON string literal, which is
// also a valid JavaScript and TypeScript string literal.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c < 0x20:
			b = append(b, `\u00`...)
			b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

func quoted(s string) string {
	return string(appendQuoted(nil, s))
}
