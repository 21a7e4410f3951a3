package jsplatform

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// atob, btoa and TextDecoder.decode turn long inputs into long strings: a
// script decodes a whole file a tool returned. Built in JavaScript, one
// character at a time, the string is copied on every append and the work
// grows with the square of the length; here it is linear. The JavaScript
// side (web.js) keeps what a script can observe: argument checks, the
// conversion to text, and the errors, which it makes in the realm when a
// function below answers null.

// encodings are the Go halves of the encoding globals, lent to web.js.
func (p *Platform) encodings() *goja.Object {
	vm := p.vm
	o := vm.NewObject()
	_ = o.Set("btoa", p.Function("btoa", func(call goja.FunctionCall) goja.Value {
		s, ok := call.Argument(0).(goja.String)
		if !ok {
			return goja.Null()
		}
		encoded, ok := latin1ToBase64(s)
		if !ok {
			return goja.Null()
		}
		return vm.ToValue(encoded)
	}))
	_ = o.Set("atob", p.Function("atob", func(call goja.FunctionCall) goja.Value {
		s, ok := call.Argument(0).(goja.String)
		if !ok {
			return goja.Null()
		}
		decoded, ok := base64ToLatin1(s)
		if !ok {
			return goja.Null()
		}
		return decoded
	}))
	_ = o.Set("utf8Decode", p.Function("utf8Decode", func(call goja.FunctionCall) goja.Value {
		buf, ok := call.Argument(0).Export().(goja.ArrayBuffer)
		if !ok {
			return goja.Null()
		}
		bytes := buf.Bytes()
		offset, length := call.Argument(1).ToInteger(), call.Argument(2).ToInteger()
		if offset < 0 || length < 0 || offset+length > int64(len(bytes)) {
			return goja.Null()
		}
		text, ok := decodeUTF8(bytes[offset:offset+length], call.Argument(3).ToBoolean())
		if !ok {
			return goja.Null()
		}
		return vm.ToValue(text)
	}))
	return o
}

// latin1ToBase64 is btoa of s: false when a character is above U+00FF.
func latin1ToBase64(s goja.String) (string, bool) {
	n := s.Length()
	bytes := make([]byte, n)
	for i := 0; i < n; i++ {
		c := s.CharAt(i)
		if c > 0xff {
			return "", false
		}
		bytes[i] = byte(c)
	}
	return base64.StdEncoding.EncodeToString(bytes), true
}

// base64ToLatin1 is atob of s, by the forgiving-base64 decode of the HTML
// standard: ASCII whitespace is ignored, padding is optional but must be
// right when present. False when s is not base64.
func base64ToLatin1(s goja.String) (goja.Value, bool) {
	n := s.Length()
	data := make([]byte, 0, n)
	for i := 0; i < n; i++ {
		switch c := s.CharAt(i); c {
		case '\t', '\n', '\f', '\r', ' ':
		default:
			if c > 0x7f {
				return nil, false
			}
			data = append(data, byte(c))
		}
	}
	if len(data)%4 == 0 {
		switch {
		case strings.HasSuffix(string(data), "=="):
			data = data[:len(data)-2]
		case strings.HasSuffix(string(data), "="):
			data = data[:len(data)-1]
		}
	}
	if len(data)%4 == 1 {
		return nil, false
	}
	for _, c := range data {
		if !isBase64Letter(c) {
			return nil, false
		}
	}
	out := make([]byte, base64.RawStdEncoding.DecodedLen(len(data)))
	m, err := base64.RawStdEncoding.Decode(out, data)
	if err != nil {
		return nil, false
	}
	units := make([]uint16, m)
	for i, b := range out[:m] {
		units[i] = uint16(b)
	}
	return goja.StringFromUTF16(units), true
}

func isBase64Letter(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/'
}

// decodeUTF8 is the UTF-8 decoder of the Encoding standard: each maximal
// invalid subsequence becomes one U+FFFD, or, when fatal, decoding fails.
func decodeUTF8(bytes []byte, fatal bool) (string, bool) {
	var out strings.Builder
	out.Grow(len(bytes))
	bad := func() bool {
		if fatal {
			return false
		}
		out.WriteRune(utf8.RuneError)
		return true
	}
	var cp rune
	needed, seen := 0, 0
	lower, upper := byte(0x80), byte(0xbf)
	for i := 0; i < len(bytes); {
		b := bytes[i]
		if needed == 0 {
			i++
			switch {
			case b < 0x80:
				out.WriteByte(b)
			case 0xc2 <= b && b <= 0xdf:
				needed, cp = 1, rune(b&0x1f)
			case 0xe0 <= b && b <= 0xef:
				if b == 0xe0 {
					lower = 0xa0
				} else if b == 0xed {
					upper = 0x9f
				}
				needed, cp = 2, rune(b&0xf)
			case 0xf0 <= b && b <= 0xf4:
				if b == 0xf0 {
					lower = 0x90
				} else if b == 0xf4 {
					upper = 0x8f
				}
				needed, cp = 3, rune(b&0x7)
			default:
				if !bad() {
					return "", false
				}
			}
			continue
		}
		if b < lower || b > upper {
			// The sequence ends before b, which is read again.
			cp, needed, seen = 0, 0, 0
			lower, upper = 0x80, 0xbf
			if !bad() {
				return "", false
			}
			continue
		}
		i++
		lower, upper = 0x80, 0xbf
		cp = cp<<6 | rune(b&0x3f)
		if seen++; seen == needed {
			out.WriteRune(cp)
			cp, needed, seen = 0, 0, 0
		}
	}
	if needed != 0 && !bad() {
		return "", false
	}
	return out.String(), true
}
