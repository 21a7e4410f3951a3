package sandbox

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// Values leave the sandbox only as JSON text written by this walker. It never
// hands a script object to the host and never calls back into script code it
// can avoid (no toJSON, no toString); only getters on plain objects run, and
// they run under the same deadline as the rest of the script.
//
// Two modes:
//   - arguments (ISO-6, EDGE-11): plain objects, arrays and primitives only;
//     functions, class instances, Proxies, symbols, BigInt, cycles and
//     "__proto__" keys are rejected with an error the script can catch.
//   - results (ISO-5): a lenient deep copy for the model, like JSON.stringify:
//     function-valued fields and "__proto__" keys are skipped, a Date becomes
//     its ISO string, an Error its "Name: message"; cycles, symbols, BigInt
//     and Proxies are still errors.

type exportMode int

const (
	argumentsMode exportMode = iota
	resultMode
)

// maxOutboundDepth bounds nesting; past it the value is rejected rather than
// walked (the walk is recursive).
const maxOutboundDepth = 512

// stopCheckEvery is how many nodes the walker visits between looks at the
// run's stop signal: a shared-reference bomb ([a,a] nested fifty levels) must
// not outlive the budget just because walking it is Go code, not bytecode.
const stopCheckEvery = 1024

var (
	errTooLarge = errors.New("too large")
	proxyType   = reflect.TypeOf(goja.Proxy{})
)

// outbound walks one value.
type outbound struct {
	mode    exportMode
	realm   *realm
	stopped func() error

	buf   []byte
	keep  int // bytes of output kept; the rest is only counted
	total int // bytes the full output has
	chars int // characters the full output has
	limit int // when positive, a total above it is an error
	// tee, when set, also receives the whole output as it is written,
	// without it ever being held whole (valuestream.go).
	tee *valueStream

	// ancestors are the objects being walked, outermost first: an object
	// among them is a cycle. A slice, not a map: values are shallow as a
	// rule, and the walk is on every nested call's path.
	ancestors []*goja.Object
	path      []string
	nodes     int
}

// exportError is a rejection with the path to the offending part.
type exportError struct {
	path   []string
	reason string
}

func (e *exportError) Error() string {
	if len(e.path) == 0 {
		return e.reason
	}
	return fmt.Sprintf("%s is %s", formatPath(e.path), e.reason)
}

func formatPath(path []string) string {
	var b strings.Builder
	for i, p := range path {
		if strings.HasPrefix(p, "[") {
			b.WriteString(p)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return "field " + strconv.Quote(b.String())
}

func (o *outbound) reject(reason string) error {
	return &exportError{path: append([]string(nil), o.path...), reason: reason}
}

func (o *outbound) write(b []byte) error {
	o.total += len(b)
	o.chars += utf8.RuneCount(b)
	if room := o.keep - len(o.buf); room > 0 {
		if room > len(b) {
			room = len(b)
		}
		o.buf = append(o.buf, b[:room]...)
	}
	if o.tee != nil {
		if err := o.tee.write(b); err != nil {
			return err
		}
	}
	if o.limit > 0 && o.total > o.limit {
		return errTooLarge
	}
	return nil
}

// stringPiece is how much of a string is escaped at a time: a long string
// is written as JSON in pieces, never copied whole.
const stringPiece = 32 << 10

func (o *outbound) writeString(s string) error {
	if len(s) <= stringPiece {
		return o.write(appendJSONString(nil, s))
	}
	piece := make([]byte, 0, stringPiece+stringPiece/4)
	if err := o.write([]byte{'"'}); err != nil {
		return err
	}
	for len(s) > 0 {
		n := min(len(s), stringPiece)
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++ // never split a character
		}
		piece = appendJSONChars(piece[:0], s[:n])
		if err := o.write(piece); err != nil {
			return err
		}
		s = s[n:]
		o.nodes++
		if o.nodes%stopCheckEvery == 0 {
			if err := o.stopped(); err != nil {
				return err
			}
		}
	}
	return o.write([]byte{'"'})
}

// value writes v. It reports skip=true when v has no JSON form in this mode
// (undefined, or a function in results mode), so the caller can omit a field
// or write null in an array, the way JSON.stringify does.
func (o *outbound) value(v goja.Value, depth int) (skip bool, err error) {
	o.nodes++
	if o.nodes%stopCheckEvery == 0 {
		if err := o.stopped(); err != nil {
			return false, err
		}
	}
	if v == nil || goja.IsUndefined(v) {
		return true, nil
	}
	if goja.IsNull(v) {
		return false, o.write([]byte("null"))
	}
	if _, ok := v.(*goja.Symbol); ok {
		return false, o.reject("a symbol, which cannot cross the sandbox boundary")
	}
	obj, isObject := v.(*goja.Object)
	if !isObject {
		return false, o.primitive(v)
	}
	return o.object(obj, depth)
}

func (o *outbound) primitive(v goja.Value) error {
	switch x := v.Export().(type) {
	case string:
		return o.writeString(x)
	case bool:
		if x {
			return o.write([]byte("true"))
		}
		return o.write([]byte("false"))
	case int64:
		return o.write(strconv.AppendInt(nil, x, 10))
	case float64:
		return o.write(appendJSONNumber(nil, x))
	case *big.Int:
		return o.reject("a BigInt, which cannot cross the sandbox boundary")
	}
	return o.reject("a value that cannot cross the sandbox boundary")
}

func (o *outbound) object(obj *goja.Object, depth int) (bool, error) {
	if depth >= maxOutboundDepth {
		return false, o.reject("nested too deeply")
	}
	if obj.ExportType() == proxyType {
		return false, o.reject("a Proxy, which cannot cross the sandbox boundary")
	}
	if _, isFunction := goja.AssertFunction(obj); isFunction {
		if o.mode == resultMode {
			return true, nil
		}
		return false, o.reject("a function, which cannot cross the sandbox boundary")
	}
	if slices.Contains(o.ancestors, obj) {
		return false, o.reject("a reference back to itself (a cycle)")
	}
	proto := obj.Prototype()
	switch class := obj.ClassName(); {
	case class == "Array" && proto == o.realm.arrayPrototype:
		return false, o.enter(obj, func() error { return o.array(obj, depth) })
	case class == "Object" && (proto == nil || proto == o.realm.objectPrototype):
		return false, o.enter(obj, func() error { return o.fields(obj, depth) })
	case o.mode == argumentsMode:
		return false, o.reject(fmt.Sprintf("%s, not plain data", describeInstance(class)))
	case class == "Date":
		return false, o.date(obj)
	case class == "Error":
		return false, o.writeString(errorText(obj))
	default:
		// Any other instance is copied like JSON.stringify copies it: its
		// own enumerable fields.
		return false, o.enter(obj, func() error { return o.fields(obj, depth) })
	}
}

func describeInstance(class string) string {
	switch class {
	case "Object":
		return "an instance of a class"
	case "Array":
		return "an instance of an Array subclass"
	}
	return "a " + class
}

func (o *outbound) enter(obj *goja.Object, walk func() error) error {
	o.ancestors = append(o.ancestors, obj)
	err := walk()
	o.ancestors = o.ancestors[:len(o.ancestors)-1]
	return err
}

func (o *outbound) array(obj *goja.Object, depth int) error {
	n := obj.Get("length").ToInteger()
	if err := o.write([]byte{'['}); err != nil {
		return err
	}
	for i := int64(0); i < n; i++ {
		if i > 0 {
			if err := o.write([]byte{','}); err != nil {
				return err
			}
		}
		o.path = append(o.path, "["+strconv.FormatInt(i, 10)+"]")
		skip, err := o.value(obj.Get(strconv.FormatInt(i, 10)), depth+1)
		if err == nil && skip {
			err = o.write([]byte("null"))
		}
		o.path = o.path[:len(o.path)-1]
		if err != nil {
			return err
		}
	}
	return o.write([]byte{']'})
}

func (o *outbound) fields(obj *goja.Object, depth int) error {
	if err := o.write([]byte{'{'}); err != nil {
		return err
	}
	first := true
	for _, key := range obj.Keys() {
		if key == "__proto__" {
			if o.mode == argumentsMode {
				return o.reject(`an object with a "__proto__" key, which is not allowed`)
			}
			continue
		}
		v := obj.Get(key)
		if _, isFunction := goja.AssertFunction(v); isFunction && o.mode == resultMode {
			continue
		}
		if v == nil || goja.IsUndefined(v) {
			continue
		}
		sep := []byte{','}
		if first {
			sep = nil
		}
		if err := o.write(appendJSONString(sep, key)); err != nil {
			return err
		}
		if err := o.write([]byte{':'}); err != nil {
			return err
		}
		o.path = append(o.path, key)
		_, err := o.value(v, depth+1)
		o.path = o.path[:len(o.path)-1]
		if err != nil {
			return err
		}
		first = false
	}
	return o.write([]byte{'}'})
}

func (o *outbound) date(obj *goja.Object) error {
	t, ok := obj.Export().(time.Time)
	if !ok {
		return o.write([]byte("null"))
	}
	return o.writeString(t.UTC().Format("2006-01-02T15:04:05.000Z"))
}

// stringValue returns v's text when v is a string primitive. It never
// exports an object: Export copies a whole object graph (a sparse array of
// length 2^32-1 would ask for 64 GB) and runs its getters.
func stringValue(v goja.Value) (string, bool) {
	if v == nil {
		return "", false
	}
	if _, isObject := v.(*goja.Object); isObject {
		return "", false
	}
	s, isString := v.Export().(string)
	return s, isString
}

// primitiveString returns v as a string when it is a primitive, and "" for
// objects, whose conversion would run script code.
func primitiveString(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	if _, ok := v.(*goja.Object); ok {
		return ""
	}
	return v.String()
}

// appendJSONString appends s as a JSON string. Invalid UTF-8 (a lone
// surrogate from a script string) becomes U+FFFD.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	return append(appendJSONChars(dst, s), '"')
}

// appendJSONChars appends s escaped for a JSON string, without the quotes.
func appendJSONChars(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, "\ufffd"...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}

// appendJSONNumber formats f the way JSON.stringify does: NaN and the
// infinities become null, -0 becomes 0.
func appendJSONNumber(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	if f == 0 {
		return append(dst, '0')
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	abs := math.Abs(f)
	if abs < 1e-6 || abs >= 1e21 {
		return strconv.AppendFloat(dst, f, 'e', -1, 64)
	}
	return strconv.AppendFloat(dst, f, 'f', -1, 64)
}
