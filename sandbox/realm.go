package sandbox

import (
	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

// maxCallStackSize bounds JavaScript call depth. Without a bound, unbounded
// recursion grows until memory runs out, and native<->JS recursion unwinds in
// quadratic time after an interrupt.
const maxCallStackSize = 4096

// realm is one run's runtime plus the intrinsics captured before any script
// code ran, so that a script which reassigns globals cannot change how the
// host builds or reads values.
type realm struct {
	vm              *goja.Runtime
	objectPrototype *goja.Object
	arrayPrototype  *goja.Object
	errorCtor       goja.Value
	// log receives each console line's arguments: the console is made
	// with the realm, before the run (and its sink) is known.
	log func(args []goja.Value)
}

// lockdownProgram closes every path to code generation from strings (ISO-2,
// ISO-4). goja has no switch for it, so the constructors of ordinary, async
// and generator functions and the eval and Function globals are replaced by
// throwers made in the sandbox realm, as non-writable, non-configurable
// properties, before user code runs. A thrower is an ordinary function so
// that calling it, constructing it (new Function, Reflect.construct) and
// binding it all end in the realm's EvalError. Each stands in for its
// constructor in every other respect: its name and length, and its
// prototype property, so that Function.prototype.call.bind(...) and
// fn instanceof Function mean what they mean in Node. Async generators
// reach goja only lowered to ordinary generators, so they have no
// constructor to close.
//
// It touches no intrinsic that goja builds lazily (Reflect, Symbol, the
// typed arrays): building those costs more than the rest of a trivial run.
var lockdownProgram = goja.MustCompile("lockdown.js", `(function (message) {
	'use strict';
	const define = Object.defineProperty, getPrototypeOf = Object.getPrototypeOf, setPrototypeOf = Object.setPrototypeOf;
	const fixed = (value) => ({ value, writable: false, configurable: false, enumerable: false });
	const thrower = (name, prototype) => {
		const f = function () { throw new EvalError(message); };
		define(f, 'name', { value: name, writable: false, configurable: true, enumerable: false });
		define(f, 'length', { value: 1, writable: false, configurable: true, enumerable: false });
		define(f, 'prototype', fixed(prototype));
		return f;
	};
	const functionPrototype = getPrototypeOf(function () {});
	const asyncPrototype = getPrototypeOf(async function () {});
	const generatorPrototype = getPrototypeOf(function* () {});
	const FunctionThrower = thrower('Function', functionPrototype);
	const AsyncFunctionThrower = setPrototypeOf(thrower('AsyncFunction', asyncPrototype), FunctionThrower);
	const GeneratorFunctionThrower = setPrototypeOf(thrower('GeneratorFunction', generatorPrototype), FunctionThrower);
	define(functionPrototype, 'constructor', fixed(FunctionThrower));
	define(asyncPrototype, 'constructor', fixed(AsyncFunctionThrower));
	define(generatorPrototype, 'constructor', fixed(GeneratorFunctionThrower));
	define(globalThis, 'Function', fixed(FunctionThrower));
	// eval is no constructor, in Node either: new eval() is a TypeError.
	define(globalThis, 'eval', fixed({ eval(source) { throw new EvalError(message); } }.eval));
})`, true)

// newRealm creates a fresh runtime and locks it down.
func newRealm() (*realm, error) {
	vm := goja.New()
	vm.SetMaxCallStackSize(maxCallStackSize)
	// A trailing sourceMappingURL comment would make the parser read a host
	// file; code generation is closed, but keep the parser closed too.
	vm.SetParserOptions(parser.WithDisableSourceMaps)
	r := &realm{
		vm:              vm,
		objectPrototype: vm.NewObject().Prototype(),
		arrayPrototype:  vm.NewArray().Prototype(),
		errorCtor:       vm.Get("Error"),
	}
	lockdown, err := vm.RunProgram(lockdownProgram)
	if err != nil {
		return nil, err
	}
	apply, _ := goja.AssertFunction(lockdown)
	if _, err := apply(goja.Undefined(), vm.ToValue(msgCodeGeneration)); err != nil {
		return nil, err
	}
	r.installConsole()
	return r, nil
}

// newError makes an Error of the sandbox realm carrying only a message: no
// Go value behind it for the script to reach by reflection.
func (r *realm) newError(message string) goja.Value {
	obj, err := r.vm.New(r.errorCtor, r.vm.ToValue(message))
	if err != nil {
		return r.vm.ToValue(message)
	}
	return obj
}

// newFunction wraps fn as a function of this realm named name (goja would
// otherwise expose the Go symbol as the function's name).
func (r *realm) newFunction(name string, fn func(goja.FunctionCall) goja.Value) *goja.Object {
	f := r.vm.ToValue(fn).(*goja.Object)
	_ = f.DefineDataProperty("name", r.vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return f
}

// rejected returns a promise of this realm already rejected with message.
func (r *realm) rejected(message string) goja.Value {
	p, _, reject := r.vm.NewPromise()
	_ = reject(r.newError(message))
	return r.vm.ToValue(p)
}
