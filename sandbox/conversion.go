package sandbox

import (
	"strings"

	"github.com/dop251/goja"
)

// goja words a failed conversion to a primitive (of an object without
// toString and valueOf, such as one with a null prototype) by formatting
// the Go value behind the object: pointers that change from run to run, Go
// type names, and the object's own data. The error is built inside the
// engine, out of reach of any hook, so the sandbox keeps the script from
// meeting it wherever the sandbox has a say:
//
//   - every conversion of a script value in the sandbox's own functions
//     (timers, the web globals, the engine repairs) throws JavaScript's own
//     TypeError instead: they convert with toNumber and toText, which the
//     parts written in JavaScript receive as functions (conversions);
//   - every object of a tool result carries a Symbol.toPrimitive method, not
//     enumerable, that throws that same TypeError, so "id: " + result reads
//     as in Node, where an object with a null prototype cannot be converted
//     either;
//   - every text that leaves the sandbox is cleaned (withoutEngineInternals).
//
// An object the script makes itself with a null prototype
// (Object.create(null)) and converts itself still meets goja's message
// inside the script; the model never reads it.

// conversionText is V8's wording for an object that cannot be converted.
const conversionText = "Cannot convert object to primitive value"

// engineConversionPrefix starts goja's message for the same failure.
const engineConversionPrefix = "Could not convert "

// toNumber converts v as Number(v) does, script code (valueOf) included,
// with JavaScript's wording when the object cannot be converted.
func (r *realm) toNumber(v goja.Value) float64 {
	defer r.rethrowConversion()
	return v.ToFloat()
}

// toText converts v as a Web IDL string (DOMString) does: String(v), script
// code (toString) included, except that a symbol is refused, with
// JavaScript's wording when the object cannot be converted.
func (r *realm) toText(v goja.Value) goja.Value {
	if _, isSymbol := v.(*goja.Symbol); isSymbol {
		panic(r.vm.NewTypeError(msgSymbolToString))
	}
	defer r.rethrowConversion()
	return v.ToString()
}

// conversionFunctions are toNumber and toText as functions of the realm,
// for the sandbox's own JavaScript.
type conversionFunctions struct {
	number, text goja.Value
}

// conversions makes the conversion functions once per run.
func (r *realm) conversions() conversionFunctions {
	if r.converters.number == nil {
		r.converters = conversionFunctions{
			number: r.newFunction("number", func(call goja.FunctionCall) goja.Value {
				return r.vm.ToValue(r.toNumber(call.Argument(0)))
			}),
			text: r.newFunction("text", func(call goja.FunctionCall) goja.Value {
				return r.toText(call.Argument(0))
			}),
		}
	}
	return r.converters
}

// rethrowConversion, deferred around a conversion, replaces goja's
// conversion error with JavaScript's and lets every other panic (another
// exception, an interrupt) go on.
func (r *realm) rethrowConversion() {
	p := recover()
	if p == nil {
		return
	}
	if obj, ok := p.(*goja.Object); ok && isEngineConversion(obj) {
		panic(r.vm.NewTypeError(conversionText))
	}
	panic(p)
}

func isEngineConversion(obj *goja.Object) bool {
	return strings.HasPrefix(primitiveString(obj.Get("message")), engineConversionPrefix)
}

// unconvertible is the Symbol.toPrimitive method of tool results, made once
// per run.
func (r *realm) unconvertible() goja.Value {
	if r.toPrimitive == nil {
		r.toPrimitive = r.newFunction("[Symbol.toPrimitive]", func(goja.FunctionCall) goja.Value {
			panic(r.vm.NewTypeError(conversionText))
		})
	}
	return r.toPrimitive
}
