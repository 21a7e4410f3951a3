package jsplatform

import (
	_ "embed"
	"sync"

	"github.com/dop251/goja"
)

// onDemand is a part of the platform made in a realm only for code that
// mentions what it makes or mends (Prepare): a repair of one of goja's
// built-ins, or a built-in goja lacks. It touches an intrinsic goja builds
// lazily, and building one costs a trivial run more than the part is worth
// when the script never uses it.
type onDemand struct {
	// mentions: the part is made for code that contains any of them.
	mentions []string
	// program is compiled once per process. When its value is a function,
	// it is called with the platform's conversion to a number.
	program func() *goja.Program
}

func (r onDemand) neededBy(code string) bool { return mentionsAny(code, r.mentions) }

func (r onDemand) install(p *Platform) error {
	v, err := p.vm.RunProgram(r.program())
	if err != nil {
		return err
	}
	if install, ok := goja.AssertFunction(v); ok {
		_, err = install(goja.Undefined(), p.conversions().number)
	}
	return err
}

// compiled compiles a repair's source once per process, on first use.
func compiled(name, src string) func() *goja.Program {
	return sync.OnceValue(func() *goja.Program { return goja.MustCompile(name, src, true) })
}

// jsonParseSource is JSON.parse with V8's error messages.
//
//go:embed jsonparse.js
var jsonParseSource string

// localeMethods are the built-ins' methods ECMA-402 makes take locales
// and options; Intl replaces goja's, which ignore them, for code that
// mentions one (Prepare).
var localeMethods = []string{"toLocaleString", "toLocaleDateString", "toLocaleTimeString", "localeCompare", "toLocaleUpperCase", "toLocaleLowerCase"}

func repairLocaleMethods(p *Platform) error {
	r, err := p.buildIntl()
	if err != nil {
		return err
	}
	return r.RepairPrototypes()
}

// repairs mend goja's built-ins where they differ from what scripts rely
// on. They come before the built-ins (builtins.go), which rely on them.
var repairs = []onDemand{
	// goja lacks the well-known symbol for async iteration; the transform's
	// lowered for await and async generators look it up by this name, and
	// so does Array.fromAsync.
	{mentions: []string{"asyncIterator", "fromAsync"}, program: compiled("repair-async-iterator.js", `Object.defineProperty(Symbol, 'asyncIterator', {
		value: Symbol('Symbol.asyncIterator'), writable: false, configurable: false, enumerable: false,
	});`)},
	// goja's typed array from refuses a string source, which is iterable:
	// Uint8Array.from(atob(data), (c) => c.charCodeAt(0)) is how scripts
	// decode base64.
	{[]string{".from("}, compiled("repair-typed-array-from.js", `(function () {
		'use strict';
		const TypedArray = Object.getPrototypeOf(Uint8Array);
		const typedFrom = TypedArray.from, arrayFrom = Array.from;
		Object.defineProperty(TypedArray, 'from', {
			value: { from(source, ...rest) {
				return typedFrom.call(this, typeof source === 'string' ? arrayFrom.call(Array, source) : source, ...rest);
			} }.from,
			writable: true, configurable: true, enumerable: false,
		});
	})();`)},
	// goja's JSON.parse words malformed text as Go's decoder does, twice
	// with Go internals; the repair throws V8's SyntaxError instead.
	{[]string{"JSON.parse"}, compiled("repair-json-parse.js", jsonParseSource)},
}
