package jsplatform

import (
	"github.com/dop251/goja"
)

// goja (as patched in third_party/goja) words a failed conversion to a
// primitive as V8 does; the platform's own functions convert with ToNumber
// and ToText, and the parts written in JavaScript receive the same
// conversions as functions.

// ConversionText is V8's wording for an object that cannot be converted.
const ConversionText = "Cannot convert object to primitive value"

// SymbolToStringText is V8's wording for a symbol converted to a string.
const SymbolToStringText = "Cannot convert a Symbol value to a string"

// ToNumber converts v as Number(v) does, script code (valueOf) included,
// with JavaScript's wording when the object cannot be converted.
func (p *Platform) ToNumber(v goja.Value) float64 {
	return v.ToFloat()
}

// ToText converts v as a Web IDL string (DOMString) does: String(v), script
// code (toString) included, except that a symbol is refused, with
// JavaScript's wording when the object cannot be converted.
func (p *Platform) ToText(v goja.Value) goja.Value {
	if _, isSymbol := v.(*goja.Symbol); isSymbol {
		panic(p.vm.NewTypeError(SymbolToStringText))
	}
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
