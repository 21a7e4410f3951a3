package sandbox

import (
	"github.com/dop251/goja"

	"github.com/mcpexec/mcpexec/jsplatform"
)

// goja words a failed conversion to a primitive (of an object without
// toString and valueOf, such as one with a null prototype) by formatting
// the Go value behind the object: pointers that change from run to run, Go
// type names, and the object's own data. The error is built inside the
// engine, out of reach of any hook, so the sandbox keeps the script from
// meeting it wherever the sandbox has a say:
//
//   - every conversion of a script value in the sandbox's own functions
//     (timers, the platform's globals and repairs) throws JavaScript's own
//     TypeError instead (jsplatform's ToNumber and ToText);
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
const conversionText = jsplatform.ConversionText

// engineConversionPrefix starts goja's message for the same failure.
const engineConversionPrefix = "Could not convert "

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
