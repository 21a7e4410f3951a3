package jsplatform

import (
	"strings"

	"github.com/dop251/goja"
)

// goja words a failed conversion to a primitive (of an object without
// toString and valueOf, such as one with a null prototype) by formatting
// the Go value behind the object: pointers that change from run to run, Go
// type names, and the object's own data. The platform's own functions never
// let a script meet it: they convert with ToNumber and ToText, which throw
// JavaScript's own TypeError instead, and the parts written in JavaScript
// receive the same conversions as functions.

// ConversionText is V8's wording for an object that cannot be converted.
const ConversionText = "Cannot convert object to primitive value"

// SymbolToStringText is V8's wording for a symbol converted to a string.
const SymbolToStringText = "Cannot convert a Symbol value to a string"

// engineConversionPrefix starts goja's message for the same failure.
const engineConversionPrefix = "Could not convert "

// ToNumber converts v as Number(v) does, script code (valueOf) included,
// with JavaScript's wording when the object cannot be converted.
func (p *Platform) ToNumber(v goja.Value) float64 {
	defer p.rethrowConversion()
	return v.ToFloat()
}

// ToText converts v as a Web IDL string (DOMString) does: String(v), script
// code (toString) included, except that a symbol is refused, with
// JavaScript's wording when the object cannot be converted.
func (p *Platform) ToText(v goja.Value) goja.Value {
	if _, isSymbol := v.(*goja.Symbol); isSymbol {
		panic(p.vm.NewTypeError(SymbolToStringText))
	}
	defer p.rethrowConversion()
	return v.ToString()
}

// conversions are ToNumber and ToText as functions of the realm, for the
// platform's own JavaScript.
type conversions struct {
	number, text goja.Value
}

// conversions makes the conversion functions once per runtime.
func (p *Platform) conversions() conversions {
	if p.convert.number == nil {
		p.convert = conversions{
			number: p.Function("number", func(call goja.FunctionCall) goja.Value {
				return p.vm.ToValue(p.ToNumber(call.Argument(0)))
			}),
			text: p.Function("text", func(call goja.FunctionCall) goja.Value {
				return p.ToText(call.Argument(0))
			}),
		}
	}
	return p.convert
}

// rethrowConversion, deferred around a conversion, replaces goja's
// conversion error with JavaScript's and lets every other panic (another
// exception, an interrupt) go on.
func (p *Platform) rethrowConversion() {
	r := recover()
	if r == nil {
		return
	}
	if obj, ok := r.(*goja.Object); ok && IsEngineConversion(obj) {
		panic(p.vm.NewTypeError(ConversionText))
	}
	panic(r)
}

// IsEngineConversion reports whether err is goja's conversion error.
func IsEngineConversion(err *goja.Object) bool {
	m := err.Get("message")
	return m != nil && goja.IsString(m) && strings.HasPrefix(m.String(), engineConversionPrefix)
}
